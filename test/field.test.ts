/**
 * Field kernels against the bigint reference: one suite, run for every curve's Fp and Fr of the
 * registry at its shipped tuning, and for BLS12-381's Fp and Fr at every limb width w in 26..30
 * and every Montgomery product variant, and every Fp and Fr on 64-bit limbs (./field64.ts, wide-arithmetic
 * helpers polyfilled: Node has no wide arithmetic; test/browser/wide64.browser.test.ts runs the opcodes). Values are tested in the kernels' own contract:
 * raw limb values in the redundant range [0, 2p), outputs must stay in [0, 2p) and agree mod p.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { devFieldInstance } from '../src/testing/dev-instance.js';
import { MUL_STRATEGIES, type MulStrategy } from '../src/codegen/field.js';
import { curveNames, registry } from '../src/curves/index.js';
import type { FieldOps } from '../src/wasm-generated/kernels.js';
import { RefField, bigintToBytesLE } from '../src/reference/field.js';
import { makeRng } from '../src/reference/rng.js';
import type { WasmField } from '../src/runtime/field.js';
import { wideBound, wideFieldLayout } from '../src/codegen/field64.js';
import { inverseInputs } from './helpers/inverse-inputs.js';

interface FieldCase {
  name: 'fp' | 'fr';
  label: string;
  p: bigint;
  w: number;
  mul: MulStrategy;
}
const widths = [26, 27, 28, 29, 30];
const strategies = MUL_STRATEGIES;
const cases: FieldCase[] = [];
for (const name of curveNames) {
  const { params, tuning } = registry[name];
  const fr = tuning.fr ?? tuning.fp;
  cases.push({ name: 'fp', label: `${name} Fp (shipped tuning)`, p: params.p, w: tuning.fp.w, mul: tuning.fp.mul });
  cases.push({ name: 'fr', label: `${name} Fr (tuning ${tuning.fr ? 'measured' : 'of Fp'})`, p: params.r, w: fr.w, mul: fr.mul });
}
// 64-bit limbs on wide arithmetic (polyfilled helpers in Node; native opcodes in the browser test)
for (const name of curveNames) {
  const { params } = registry[name];
  cases.push({ name: 'fp', label: `${name} Fp (64-bit limbs)`, p: params.p, w: 64, mul: 'cios-loop' });
  cases.push({ name: 'fr', label: `${name} Fr (64-bit limbs)`, p: params.r, w: 64, mul: 'cios-loop' });
}
const bls = registry['bls12-381'].params;
for (const [name, p] of [['fp', bls.p], ['fr', bls.r]] as const) {
  for (const w of widths) for (const mul of strategies) cases.push({ name, label: `bls12-381 ${name === 'fp' ? 'Fp' : 'Fr'}`, p, w, mul });
}

/** Hard raw values in [0, B): 0, 1, p±1, B−1, R mod p, limb boundaries 2^(kw)±1, all-ones limbs. */
function hardValues(p: bigint, w: number, n: number, B: bigint): bigint[] {
  const R = 1n << BigInt(n * w);
  const vals = [0n, 1n, 2n, p - 1n, p, p + 1n, B - 1n, B - 2n, R % p, (R * R) % p, p / 2n, p / 2n + 1n];
  for (let k = 1; k < n; k++) {
    const b = 1n << BigInt(k * w);
    vals.push(b - 1n, b, b + 1n);
  }
  for (let k = 1; k <= n; k++) vals.push((1n << BigInt(k * w)) - 1n); // all limbs max
  return [...new Set(vals.filter((v) => v >= 0n && v < B))];
}

function rawValues(p: bigint, w: number, n: number, B: bigint, seed: number, count: number): bigint[] {
  const rng = makeRng(seed);
  const bits = p.toString(2).length + 1;
  const out = hardValues(p, w, n, B);
  while (out.length < count) {
    const v = rng.nextBigint(bits);
    if (v < B) out.push(v);
  }
  return out;
}

for (const fd of cases) {
  const { w, mul } = fd;
  {
    {
      describe(`${fd.label}, w = ${w}, ${mul}`, async () => {
        const inst = await devFieldInstance('test', [{ name: fd.name, p: fd.p, w, mul }]);
        const F: WasmField = inst.fields[fd.name];
        const { p } = fd;
        const { n, elementBytes: EB, byteLength } = F.info;
        const ref = new RefField(p);
        const R = F.R;
        const Rinv = ref.inv(R % p);
        const val = (raw: bigint) => ref.mul(raw, Rinv); // value represented by raw Montgomery limbs
        const [a, b, c] = [F.alloc(), F.alloc(), F.alloc()];
        const scratch = F.alloc(24);
        // the kernels' range [0, B): 2p for every layout
        const B = w === 64 ? wideBound(wideFieldLayout(p)) : 2n * p;
        const xs = rawValues(p, w, n, B, w * 1000 + (fd.name === 'fp' ? 1 : 2), 160);
        const ys = [...xs.slice(1), xs[0]];
        const k = <K extends keyof FieldOps>(op: K) => F.op(op);
        const checkRange = (raw: bigint, what: string) => assert.ok(raw >= 0n && raw < B, `${what}: output ${raw} outside [0, 2p)`);

        it('mul, sqr, add, sub, neg, double agree with the reference and stay in [0, 2p)', () => {
          for (let i = 0; i < xs.length; i++) {
            for (const y of [ys[i], xs[(i * 7) % xs.length], B - 1n]) {
              const x = xs[i];
              F.writeLimbs(a, x);
              F.writeLimbs(b, y);
              const cases: [string, () => void, bigint][] = [
                ['mul', () => k('mul')(c, a, b), ref.mul(val(x), val(y))],
                ['sqr', () => k('sqr')(c, a), ref.sqr(val(x))],
                ['add', () => k('add')(c, a, b), ref.add(val(x), val(y))],
                ['sub', () => k('sub')(c, a, b), ref.sub(val(x), val(y))],
                ['neg', () => k('neg')(c, a), ref.neg(val(x))],
                ['double', () => k('double')(c, a), ref.add(val(x), val(x))],
              ];
              for (const [name, run, want] of cases) {
                run();
                const got = F.readLimbs(c);
                checkRange(got, `${name}(${x}, ${y})`);
                assert.equal(val(got), want, `${name}(${x}, ${y})`);
              }
            }
          }
        });

        it('in-place aliasing: out = x = y', () => {
          for (const x of xs.slice(0, 40)) {
            F.writeLimbs(a, x);
            k('mul')(a, a, a);
            assert.equal(val(F.readLimbs(a)), ref.sqr(val(x)));
            F.writeLimbs(a, x);
            k('sub')(a, a, a);
            assert.equal(val(F.readLimbs(a)), 0n);
          }
        });

        it('reduce, eq, is_zero, is_one, conversions', () => {
          for (let i = 0; i < xs.length; i++) {
            const x = xs[i];
            F.writeLimbs(a, x);
            k('reduce')(c, a);
            assert.equal(F.readLimbs(c), x % p, `reduce(${x})`);
            assert.equal(k('is_zero')(a), val(x) === 0n ? 1 : 0, `is_zero(${x})`);
            assert.equal(k('is_one')(a), val(x) === 1n ? 1 : 0, `is_one(${x})`);
            for (const y of [ys[i], x % p, (x % p) + p < B ? (x % p) + p : x]) {
              F.writeLimbs(b, y);
              assert.equal(k('eq')(a, b), val(x) === val(y) ? 1 : 0, `eq(${x}, ${y})`);
            }
            k('from_mont')(c, a);
            assert.equal(F.readLimbs(c), val(x), `from_mont(${x})`);
            F.writeLimbs(a, x % p);
            k('to_mont')(c, a);
            const got = F.readLimbs(c);
            checkRange(got, 'to_mont');
            assert.equal(val(got), x % p, `to_mont(${x})`);
          }
        });

        it('byte codecs (LE and BE) round-trip and flag values ≥ p', () => {
          const mem = () => new Uint8Array(inst.memory.buffer);
          const bytesPtr = scratch;
          const tooBig = [p, p + 1n, (1n << BigInt(8 * byteLength)) - 1n];
          for (const x of [...xs.map((v) => v % p), ...tooBig]) {
            for (const endian of ['le', 'be'] as const) {
              const le = bigintToBytesLE(x, byteLength); // not reduced: values ≥ p must reach the kernel
              const bytes = endian === 'le' ? le : le.slice().reverse();
              mem().set(bytes, bytesPtr);
              const ok = k(`from_bytes_${endian}`)(a, bytesPtr);
              assert.equal(ok, x < p ? 1 : 0, `from_bytes_${endian} flag for ${x}`);
              assert.equal(F.read(a), x % p, `from_bytes_${endian}(${x})`);
              if (x < p) {
                mem().fill(0xee, bytesPtr, bytesPtr + byteLength);
                k(`to_bytes_${endian}`)(bytesPtr, a);
                assert.deepEqual(mem().slice(bytesPtr, bytesPtr + byteLength), bytes, `to_bytes_${endian}(${x})`);
              }
            }
          }
        });

        it('inverse (0 → 0) and batch inverse (zeros, in place, count 0 and 1)', () => {
          for (const x of xs) {
            F.writeLimbs(a, x);
            k('inv')(c, a);
            const got = F.readLimbs(c);
            checkRange(got, 'inv');
            assert.equal(val(got), val(x) === 0n ? 0n : ref.inv(val(x)), `inv(${x})`);
          }
          const count = 37;
          const arr = F.alloc(count);
          const out = F.alloc(count);
          const sc = F.alloc(count + 2);
          const raw = xs.slice(0, count).map((v, i) => (i % 9 === 4 ? 0n : i % 13 === 6 ? p : v));
          raw.forEach((v, i) => F.writeLimbs(arr + i * EB, v));
          for (const c0 of [0, 1, 2, count]) {
            k('batch_inv')(out, arr, c0, sc);
            for (let i = 0; i < c0; i++) {
              const want = val(raw[i]) === 0n ? 0n : ref.inv(val(raw[i]));
              assert.equal(val(F.readLimbs(out + i * EB)), want, `batch_inv count ${c0} [${i}]`);
            }
          }
          k('batch_inv')(arr, arr, count, sc); // in place
          raw.forEach((v, i) => assert.equal(val(F.readLimbs(arr + i * EB)), val(v) === 0n ? 0n : ref.inv(val(v)), `in place [${i}]`));
        });

        it('inverse on hard inputs (0 → 0, 1, 2, small, p − 1, 1/2, 2^k, 2^a + 2^b, 2^k − 1, p − 2^k; element and raw) and random ones', () => {
          for (const x of inverseInputs(p, R, makeRng(w + 31), 48)) {
            F.writeLimbs(a, x);
            k('inv')(c, a);
            const got = F.readLimbs(c);
            checkRange(got, `inv(raw ${x})`);
            assert.equal(val(got), val(x) === 0n ? 0n : ref.inv(val(x)), `inv(raw ${x})`);
          }
        });

        it('pow and sqrt', () => {
          const mem = () => new Uint8Array(inst.memory.buffer);
          const e = F.alloc();
          const rng = makeRng(w + 77);
          for (const x of xs.slice(0, 24)) {
            const exps = [0n, 1n, 2n, p - 1n, rng.nextBigint(200)];
            for (const ex of exps) {
              mem().set(ref.toBytesLE(ex, byteLength), e);
              F.writeLimbs(a, x);
              k('pow')(c, a, e, byteLength, scratch);
              assert.equal(val(F.readLimbs(c)), ref.pow(val(x), ex), `pow(${x}, ${ex})`);
            }
          }
          for (const x of xs.slice(0, 40)) {
            F.writeLimbs(a, x);
            const isSq = k('sqrt')(c, a, scratch);
            assert.equal(isSq, ref.isSquare(val(x)) ? 1 : 0, `sqrt flag (${x})`);
            if (isSq) assert.equal(ref.sqr(val(F.readLimbs(c))), val(x), `sqrt(${x})²`);
          }
        });

        it('property: mul distributes over add (fast-check)', () => {
          const elem = fc.bigInt({ min: 0n, max: B - 1n });
          fc.assert(
            fc.property(elem, elem, elem, (x, y, z) => {
              F.writeLimbs(a, x);
              F.writeLimbs(b, y);
              F.writeLimbs(c, z);
              const s = F.alloc();
              k('add')(s, b, c);
              k('mul')(s, a, s); // x(y + z)
              const t = F.alloc();
              k('mul')(t, a, b);
              const u = F.alloc();
              k('mul')(u, a, c);
              k('add')(t, t, u);
              return k('eq')(s, t) === 1 && val(F.readLimbs(s)) === ref.mul(val(x), ref.add(val(y), val(z)));
            }),
            { numRuns: 200, seed: w },
          );
        });
      });
    }
  }
}
