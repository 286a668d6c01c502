/**
 * src/msm/fr-arrays.ts (FrArrays) on BN254's and BLS12-381's shipped F_r kernels, both backends (the
 * wide64 module natively where the engine has wide arithmetic, else its .wat assembled with the
 * polyfilled helpers), against the bigint reference (RefField and the small DFTs below): codecs of
 * both endians and ffjavascript's Montgomery form, edge values, inputs ≥ r rejected with the lowest
 * index, pointwise ops with aliasing and the redundant range [r, 2r), batch inverse, dot, the
 * bit-reversal permutation, FFTs of sizes 1…2^12 and 2^16 in every order, round trips, cosets, and
 * snarkjs's Groth16 H evaluations against an independent bigint computation of its formula.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as module381 from '../src/wasm-generated/bls12_381.js';
import * as module254 from '../src/wasm-generated/bn254.js';
import { instantiateGenerated, type Instance, type GeneratedModule } from '../src/runtime/instance.js';
import { assembleWat } from '../src/codegen/assemble.js';
import { wideArithmeticSupported } from '../src/runtime/wide-probe.js';
import { FrArrays, arenaHost, frRootsOf, fftTableBytes, MAX_LOG_FFT, type FrRoots } from '../src/msm/fr-arrays.js';
import { FrWasm } from '../src/kzg/fr-wasm.js';
import * as kzgFr from '../src/kzg/fr.js';
import { bn254Curve } from '../src/curves/bn254.js';
import { bls12_381Curve } from '../src/curves/bls12-381.js';
import type { CurveDescriptor } from '../src/curves/types.js';
import { RefField } from '../src/reference/field.js';
import { ScalarEncodingError } from '../src/errors.js';
import { makeRng } from '../src/reference/rng.js';
import { runLocal, runOnPool } from '../src/runtime/executor.js';
import { WorkerPool } from '../src/runtime/pool.js';

const rng = makeRng(0x32f7);

/** The bigint DFT of a (natural order in and out): Σ_i a[i]·w^(ij), w of order a.length; radix-2 recursion. */
function refFft(F: RefField, a: readonly bigint[], w: bigint): bigint[] {
  const n = a.length;
  if (n === 1) return [a[0]];
  const even = refFft(F, a.filter((_, i) => i % 2 === 0), F.mul(w, w));
  const odd = refFft(F, a.filter((_, i) => i % 2 === 1), F.mul(w, w));
  const out = new Array<bigint>(n);
  for (let j = 0, x = 1n; j < n / 2; j++, x = F.mul(x, w)) {
    const t = F.mul(x, odd[j]);
    out[j] = F.add(even[j], t);
    out[j + n / 2] = F.sub(even[j], t);
  }
  return out;
}

/** The quadratic DFT, the check of refFft. */
const naiveDft = (F: RefField, a: readonly bigint[], w: bigint) => a.map((_, j) => a.reduce((acc, v, i) => F.add(acc, F.mul(v, F.pow(w, BigInt(i * j)))), 0n));

const rev = (i: number, bits: number) => (bits === 0 ? 0 : parseInt(i.toString(2).padStart(bits, '0').split('').reverse().join(''), 2));
const bitReversed = <T>(a: readonly T[]) => a.map((_, i) => a[rev(i, Math.log2(a.length))]);

interface CurveCase {
  curve: CurveDescriptor;
  mod: Omit<GeneratedModule, 'formats'> & { wide64: Omit<GeneratedModule, 'formats'> };
  wat: string;
}
const cases: CurveCase[] = [
  { curve: bn254Curve, mod: module254 as unknown as CurveCase['mod'], wat: 'bn254.wide64.wat' },
  { curve: bls12_381Curve, mod: module381 as unknown as CurveCase['mod'], wat: 'bls12-381.wide64.wat' },
];

describe('the descriptors\' frRoots are ffjavascript\'s (snarkjs\'s domains)', () => {
  for (const { curve } of cases) {
    it(curve.name, () => {
      const F = new RefField(curve.params.r);
      const { generator: g, twoAdicity: s } = curve.frRoots!;
      // ffjavascript's nqr: the smallest quadratic non-residue from 2 up
      for (let x = 2n; x < g; x++) assert.ok(F.isSquare(x), `${x} is a square`);
      assert.equal(F.legendre(g), -1);
      assert.equal((F.p - 1n) % (1n << BigInt(s)), 0n);
      assert.equal(((F.p - 1n) >> BigInt(s)) % 2n, 1n);
      // g^t has order 2^s exactly
      const w = F.pow(g, (F.p - 1n) >> BigInt(s));
      assert.equal(F.pow(w, 1n << BigInt(s - 1)), F.p - 1n);
    });
  }
});

async function instances(c: CurveCase): Promise<[string, () => Promise<Instance>][]> {
  const native = wideArithmeticSupported();
  return [
    ['i32', () => instantiateGenerated(c.mod, { shared: false })],
    [
      native ? 'wide64 (native)' : 'wide64 (polyfilled helpers)',
      async () => {
        if (native) return instantiateGenerated(c.mod.wide64, { shared: false });
        const wasm = await assembleWat(c.curve.name, readFileSync(new URL(`../generated/${c.wat}`, import.meta.url), 'utf8'));
        return instantiateGenerated({ ...c.mod.wide64, wasmBase64: Buffer.from(wasm).toString('base64') }, { shared: false });
      },
    ],
  ];
}

/** Reference results shared by both backends of a curve (same inputs). */
const refCache = new Map<string, bigint[]>();
const cached = (key: string, f: () => bigint[]) => refCache.get(key) ?? (refCache.set(key, f()), refCache.get(key)!);

for (const c of cases) {
  const roots: FrRoots = frRootsOf(c.curve);
  const R = roots.r;
  const Fr = new RefField(R);
  const random = (n: number) => Array.from({ length: n }, () => rng.nextBelow(R));
  /** fixed random inputs per (curve, key), the same on both backends */
  const input = (key: string, n: number, edges: bigint[] = []) => cached(`${c.curve.name}:in:${key}`, () => [...edges, ...random(n - edges.length)].slice(0, n));
  const omega = (m: number) => Fr.pow(roots.generator, (R - 1n) >> BigInt(m));

  for (const [label, make] of await instances(c)) {
    describe(`FrArrays, ${c.curve.name}, ${label}`, () => {
      let inst: Instance;
      let A: FrArrays;
      let writeRaw: (at: number, montgomeryValue: bigint) => void;
      let mont: (v: bigint) => bigint;
      before(async () => {
        inst = await make();
        A = new FrArrays(arenaHost(inst), roots);
        const field = inst.fields.fr;
        writeRaw = (at, v) => field.writeLimbs(at, v);
        mont = (v) => (v * field.R) % R;
      });

      it('codecs: LE and BE, plain, ffjavascript Montgomery and raw (BE, unconverted); 0, 1, r − 1; ≥ r rejected naming the lowest index; strided and in-place output', () => {
        const values = input('codec', 19, [0n, 1n, R - 1n, R - 2n]);
        const n = values.length;
        const out = A.alloc(n);
        for (const endian of ['le', 'be'] as const) {
          const enc = (v: bigint) => {
            const b = new Uint8Array(32);
            for (let i = 0, x = v; i < 32; i++, x >>= 8n) b[endian === 'le' ? i : 31 - i] = Number(x & 0xffn);
            return b;
          };
          const bytes = new Uint8Array(32 * (n + 1));
          values.forEach((v, i) => bytes.set(enc(v), 32 * (i + 1)));
          A.fromBytes(out, bytes, n, { endian, what: 'x', offset: 32 });
          assert.deepEqual(A.getAll(out, n), values, endian);
          // ffjavascript's Montgomery form: x·2^256 mod r stored
          const montBytes = new Uint8Array(32 * n);
          values.forEach((v, i) => montBytes.set(enc(Fr.mul(v, 1n << 256n)), 32 * i));
          A.fromBytes(out, montBytes, n, { endian, what: 'x', montgomery: true });
          assert.deepEqual(A.getAll(out, n), values, `${endian} montgomery`);
          if (endian === 'be') {
            // raw: stored unconverted, the elements v·R⁻¹ (R the module's Montgomery factor)
            A.fromBytes(out, bytes, n, { endian, what: 'x', offset: 32, raw: true });
            assert.deepEqual(A.getAll(out, n).map((x) => (x * A.montgomeryR) % R), values, 'be raw');
            assert.throws(() => A.fromBytes(out, bytes, n, { endian: 'le', what: 'x', raw: true }), RangeError);
          }
          for (const [bad, at] of [[R, [5]], [R + 1n, [0]], [(1n << 256n) - 1n, [n - 1]], [R, [11, 3, 17]]] as const) {
            const b2 = bytes.slice(32);
            for (const i of at) b2.set(enc(bad), 32 * i);
            const low = Math.min(...at);
            assert.throws(
              () => A.fromBytes(out, b2, n, { endian, what: 'witness value' }),
              (e: unknown) => e instanceof ScalarEncodingError && e.index === low && e.message === `witness value ${low} is not below the scalar field's modulus r`,
            );
            if (endian === 'be') assert.throws(() => A.fromBytes(out, b2, n, { endian, what: 'x', raw: true }), (e: unknown) => e instanceof ScalarEncodingError && e.index === low);
          }
          assert.throws(() => A.fromBytes(out, enc(R), 1, { endian, what: 'z' }), ScalarEncodingError);
          assert.throws(() => A.fromBytes(out, bytes, n + 2, { endian, what: 'z' }), RangeError);
          // out: both representatives (x and x + r), as a new array, strided, and in place (stride 32 ≤ EB)
          values.forEach((v, i) => writeRaw(A.at(out, i), mont(v) + (i % 2 ? R : 0n)));
          assert.deepEqual(A.toBytes(out, n, endian), bytes.slice(32), endian);
          const dst = A.host.alloc(48 * n);
          A.toBytesAt(dst, 48, out, n, endian);
          values.forEach((v, i) => assert.deepEqual(A.mem.slice(dst + 48 * i, dst + 48 * i + 32), enc(v)));
          A.toBytesAt(out, 32, out, n, endian);
          assert.deepEqual(A.mem.slice(out, out + 32 * n), bytes.slice(32));
        }
      });

      it('pointwise add, sub, mul, mulSub (aliased), scale, subScalar, powers, dot, batchInv (zeros), on both representatives', () => {
        const n = 41;
        const xs = input('x', n, [0n, 1n, R - 1n, R - 1n, 0n]);
        const ys = input('y', n, [R - 1n, 0n, R - 1n, 1n, 0n]);
        const zs = input('z', n, [1n, R - 1n, 0n]);
        const [x, y, z, out] = [A.alloc(n), A.alloc(n), A.alloc(n), A.alloc(n)];
        // odd elements in [r, 2r): the kernels' redundant range
        const load = () => {
          for (const [at, vs] of [[x, xs], [y, ys], [z, zs]] as const) vs.forEach((v, i) => writeRaw(A.at(at, i), mont(v) + (i % 2 ? R : 0n)));
        };
        const check = (at: number, want: bigint[], what: string) => assert.deepEqual(A.getAll(at, n), want, what);
        load();
        A.add(out, x, y, n);
        check(out, xs.map((v, i) => Fr.add(v, ys[i])), 'add');
        A.sub(out, x, y, n);
        check(out, xs.map((v, i) => Fr.sub(v, ys[i])), 'sub');
        A.mul(out, x, y, n);
        check(out, xs.map((v, i) => Fr.mul(v, ys[i])), 'mul');
        const mulSub = xs.map((v, i) => Fr.sub(Fr.mul(v, ys[i]), zs[i]));
        A.mulSub(out, x, y, z, n);
        check(out, mulSub, 'mulSub');
        for (const o of [x, y, z]) {
          load();
          A.mulSub(o, x, y, z, n);
          check(o, mulSub, 'mulSub in place');
        }
        load();
        A.add(x, x, y, n);
        check(x, xs.map((v, i) => Fr.add(v, ys[i])), 'add in place');
        load();
        A.sub(y, x, y, n);
        check(y, xs.map((v, i) => Fr.sub(v, ys[i])), 'sub in place (y)');
        load();
        const s = zs[7];
        A.scale(out, x, s, n);
        check(out, xs.map((v) => Fr.mul(v, s)), 'scale');
        A.subScalar(x, x, R - 1n, n);
        check(x, xs.map((v) => Fr.sub(v, R - 1n)), 'subScalar in place');
        A.powers(out, s, R - 1n, n);
        check(out, xs.map((_, k) => Fr.mul(s, Fr.pow(R - 1n, BigInt(k)))), 'powers');
        A.powers(out, 1n, s, n);
        check(out, xs.map((_, k) => Fr.pow(s, BigInt(k))), 'powers');
        load();
        A.dot(out, x, y, n);
        assert.equal(A.get(out), xs.reduce((acc, v, i) => Fr.add(acc, Fr.mul(v, ys[i])), 0n));
        A.dot(out, x, y, 0);
        assert.equal(A.get(out), 0n);
        A.batchInv(out, x, n);
        check(out, xs.map((v) => Fr.inv(v)), 'batchInv');
        A.batchInv(y, y, n);
        check(y, ys.map((v) => Fr.inv(v)), 'batchInv in place');
        assert.throws(() => A.set(out, R), RangeError);
        assert.throws(() => A.set(out, -1n), RangeError);
      });

      it('bitReverse: sizes 1…2^10 against the permutation', () => {
        for (let m = 0; m <= 10; m++) {
          const n = 2 ** m;
          const vs = input(`rev${m}`, n);
          const a = A.work('rev', n);
          A.setAll(a, vs);
          A.bitReverse(a, n);
          assert.deepEqual(A.getAll(a, n), bitReversed(vs), `n = ${n}`);
        }
        assert.throws(() => A.bitReverse(0, 6), RangeError);
      });

      it('roots: root(m) has order 2^m; the reference DFT is the quadratic one', () => {
        for (const m of [0, 1, 2, 5, 13, roots.twoAdicity]) {
          const w = A.root(m);
          assert.equal(w, omega(m));
          if (m > 0) assert.equal(Fr.pow(w, 1n << BigInt(m - 1)), R - 1n, `m = ${m}`);
          assert.equal(Fr.mul(w, A.root(m, true)), 1n);
        }
        assert.throws(() => A.root(roots.twoAdicity + 1), RangeError);
        for (const n of [1, 2, 8, 32]) {
          const vs = random(n);
          assert.deepEqual(refFft(Fr, vs, omega(Math.log2(n))), naiveDft(Fr, vs, omega(Math.log2(n))));
        }
      });

      it('FFTs of sizes 1…2^12: natural order fft / ifft and round trips, raw fft (dit, dif, inverse) against the bigint DFT', () => {
        for (let m = 0; m <= 12; m++) {
          const n = 2 ** m;
          const vs = input(`fft${m}`, n, m === 3 ? [0n, 1n, R - 1n] : []);
          const want = cached(`${c.curve.name}:fft${m}`, () => refFft(Fr, vs, omega(m)));
          const wantInv = cached(`${c.curve.name}:ifft${m}`, () => refFft(Fr, vs, Fr.inv(omega(m))));
          const a = A.work('fft', n);
          A.setAll(a, vs);
          A.fftNatural(a, n);
          assert.deepEqual(A.getAll(a, n), want, `fftNatural ${n}`);
          A.ifftNatural(a, n);
          assert.deepEqual(A.getAll(a, n), vs, `round trip ${n}`);
          A.ifftNatural(a, n);
          const nInv = Fr.inv(BigInt(n));
          assert.deepEqual(A.getAll(a, n), wantInv.map((v) => Fr.mul(v, nInv)), `ifftNatural ${n}`);
          A.setAll(a, vs);
          A.fft(a, n, { dif: true });
          assert.deepEqual(A.getAll(a, n), bitReversed(want), `dif ${n}`);
          A.fft(a, n, { dif: false, inverse: true });
          assert.deepEqual(A.getAll(a, n), vs.map((v) => Fr.mul(v, BigInt(n))), `dif then inverse dit ${n}`);
        }
        for (const bad of [0, 3, 96, 2 ** (A.maxLogN + 1)]) assert.throws(() => A.fftNatural(0, bad), RangeError, `${bad}`);
        assert.equal(A.maxLogN, Math.min(roots.twoAdicity, MAX_LOG_FFT));
      });

      it('FFT of 2^16 (fresh tables, strided by a smaller size after) and given tables', () => {
        const m = 16;
        const n = 2 ** m;
        const vs = input('fft16', n);
        const want = cached(`${c.curve.name}:fft16`, () => refFft(Fr, vs, omega(m)));
        const mark = inst.arena.mark();
        try {
          const F = new FrArrays(arenaHost(inst), roots);
          const a = F.alloc(n);
          F.setAll(a, vs);
          F.fftNatural(a, n);
          assert.deepEqual(F.getAll(a, n), want);
          const held = F.bytes;
          // size 2^4 on the 2^16 tables (stride 2^12): no new table
          const small = input('fft4', 16);
          F.setAll(a, small);
          F.fftNatural(a, 16);
          assert.deepEqual(F.getAll(a, 16), refFft(Fr, small, omega(4)));
          assert.equal(F.bytes, held);
          // tables made once and given: used as they are
          const block = A.host.alloc(fftTableBytes(A.EB, 10));
          const tables = A.makeFftTables(block, 10);
          const G = new FrArrays(arenaHost(inst), roots, { tables });
          const b = G.alloc(1024);
          const vs10 = input('fft10', 1024);
          G.setAll(b, vs10);
          const before = G.bytes;
          G.fftNatural(b, 1024);
          assert.deepEqual(G.getAll(b, 1024), cached(`${c.curve.name}:fft10`, () => refFft(Fr, vs10, omega(10))));
          assert.ok(G.bytes - before <= G.EB, `no table made (${G.bytes - before} bytes taken: the FFT's scratch element)`);
          // a coset table made once and given: toCoset takes nothing more, same values
          const shift = A.groth16Shift(10);
          const cosets = [A.makeCosetTable(A.host.alloc(1024 * A.EB), 1024, shift)];
          const H = new FrArrays(arenaHost(inst), roots, { tables, cosets });
          H.setAll(b, vs10);
          const held2 = H.bytes;
          H.toCoset(b, 1024, shift);
          assert.ok(H.bytes - held2 <= H.EB, `no coset table made (${H.bytes - held2} bytes)`);
          const J = new FrArrays(arenaHost(inst), roots);
          const d = J.alloc(1024);
          J.setAll(d, vs10);
          J.toCoset(d, 1024, shift);
          assert.deepEqual(H.getAll(b, 1024), J.getAll(d, 1024));
        } finally {
          inst.arena.release(mark);
        }
      });

      it('toCoset: evaluations on the domain → on shift·domain, natural order (any shift)', () => {
        for (const m of [0, 1, 3, 7]) {
          const n = 2 ** m;
          const coeffs = random(n);
          const w = omega(m);
          const shift = rng.nextBelow(R);
          const evalAt = (x: bigint) => coeffs.reduceRight((acc, cf) => Fr.add(Fr.mul(acc, x), cf), 0n);
          const a = A.work('coset', n);
          A.setAll(a, coeffs.map((_, j) => evalAt(Fr.pow(w, BigInt(j)))));
          A.toCoset(a, n, shift);
          assert.deepEqual(A.getAll(a, n), coeffs.map((_, j) => evalAt(Fr.mul(shift, Fr.pow(w, BigInt(j))))), `n = ${n}`);
        }
      });

      it('groth16H equals snarkjs\'s formula computed in bigints (ifft, × inc^k, fft, A·B − C; inc = ffjavascript\'s Fr.w[power + 1]), bytes as snarkjs writes them', () => {
        // ffjavascript: w[s] = nqr^t, w[i] = w[i+1]²
        const ws: bigint[] = [];
        ws[roots.twoAdicity] = Fr.pow(roots.generator, (R - 1n) >> BigInt(roots.twoAdicity));
        for (let i = roots.twoAdicity - 1; i >= 0; i--) ws[i] = Fr.sqr(ws[i + 1]);
        for (const m of [0, 2, 6]) {
          const n = 2 ** m;
          const [av, bv] = [random(n), random(n)];
          // C = A·B on the domain except one row (a witness that does not satisfy it): H ≠ 0
          const cv = av.map((v, i) => (i === n - 1 ? rng.nextBelow(R) : Fr.mul(v, bv[i])));
          const inc = ws[m + 1];
          const onCoset = (evals: bigint[]) => {
            // ifft: the quadratic inverse DFT; batchApplyKey: coefficient k times inc^k; fft: the quadratic DFT
            const nInv = Fr.inv(BigInt(n));
            const coeffs = naiveDft(Fr, evals, Fr.inv(ws[m])).map((v, k) => Fr.mul(Fr.mul(v, nInv), Fr.pow(inc, BigInt(k))));
            return naiveDft(Fr, coeffs, ws[m]);
          };
          const [ao, bo, co] = [onCoset(av), onCoset(bv), onCoset(cv)];
          const want = ao.map((v, j) => Fr.sub(Fr.mul(v, bo[j]), co[j]));
          const [a, b, cc] = [A.alloc(n), A.alloc(n), A.alloc(n)];
          const load = () => {
            A.setAll(a, av);
            A.setAll(b, bv);
            A.setAll(cc, cv);
          };
          load();
          A.groth16H(a, b, cc, n);
          assert.deepEqual(A.getAll(a, n), want, `n = ${n}`);
          assert.deepEqual(A.getAll(b, n), bo);
          const le = new Uint8Array(32 * n);
          want.forEach((v, j) => {
            for (let i = 0, x = v; i < 32; i++, x >>= 8n) le[32 * j + i] = Number(x & 0xffn);
          });
          assert.deepEqual(A.toBytes(a, n, 'le'), le);
          // h = (A·B − C)/Z, Z = x^n − 1 = −2 on the odd powers of ω_(m+1)
          assert.equal(A.vanishingOnCoset(n, A.groth16Shift(m)), R - 2n);
          load();
          A.groth16H(a, b, cc, n, { divideByZ: true });
          assert.deepEqual(A.getAll(a, n), want.map((v) => Fr.div(v, R - 2n)));
        }
        assert.equal(A.groth16Shift(roots.twoAdicity), Fr.sqr(roots.generator));
      });

      it('groth16HProgram on 1, 2, 3, 4 and 8 thread slots (blocks and global layers) = groth16H', () => {
        for (const m of [1, 3, 9]) {
          const n = 2 ** m;
          const vs = [random(n), random(n), random(n)];
          const [a, b, cc] = [A.alloc(n), A.alloc(n), A.alloc(n)];
          const load = () => [a, b, cc].forEach((x, i) => A.setAll(x, vs[i]));
          for (const divideByZ of [false, true]) {
            load();
            A.groth16H(a, b, cc, n, { divideByZ });
            const want = [A.getAll(a, n), A.getAll(b, n), A.getAll(cc, n)];
            for (const threads of [1, 2, 3, 4, 8]) {
              load();
              runLocal(inst, A.groth16HProgram(a, b, cc, n, { threads, divideByZ }));
              assert.deepEqual([A.getAll(a, n), A.getAll(b, n), A.getAll(cc, n)], want, `n = ${n}, ${threads} slots${divideByZ ? ', ÷Z' : ''}`);
            }
          }
        }
      });
    });
  }
}

describe('pippin/kzg\'s FrWasm is FrArrays on c-kzg\'s roots', () => {
  it('its 2^13-th root is c-kzg\'s ω; its FFT stops at 8192; a BN254 module is refused', async () => {
    const inst = await instantiateGenerated(module381, { shared: false });
    const F = new FrWasm(arenaHost(inst));
    assert.equal(F.root(13), kzgFr.OMEGA);
    assert.notEqual(new FrArrays(arenaHost(inst), frRootsOf(bls12_381Curve)).root(13), kzgFr.OMEGA);
    assert.throws(() => F.fft(0, 16384, { dif: true }), RangeError);
    const bn = await instantiateGenerated(module254, { shared: false });
    assert.throws(() => new FrWasm(arenaHost(bn)), /pippin\/kzg: the module's F_r is not BLS12-381's/);
    assert.throws(() => new FrArrays(arenaHost(bn), frRootsOf(bls12_381Curve)), /not bls12-381's/);
    assert.throws(() => new FrArrays(arenaHost(bn), { ...frRootsOf(bn254Curve), generator: 4n }), /is a square/);
    assert.throws(() => new FrArrays(arenaHost(bn), { ...frRootsOf(bn254Curve), twoAdicity: 27 }), /2-adicity 28/);
  });
});

describe('groth16HProgram on a worker pool (2 threads, shared memory)', () => {
  const pool = new WorkerPool();
  before(() => pool.resize(2));
  after(() => pool.resize(0));
  for (const c of cases) {
    it(`${c.curve.name}: 2^12 = groth16H on the calling thread`, async () => {
      const inst = await instantiateGenerated(c.mod);
      assert.ok(inst.shared, 'shared memory');
      const A = new FrArrays(arenaHost(inst), frRootsOf(c.curve));
      const n = 4096;
      const vs = [0, 1, 2].map(() => Array.from({ length: n }, () => rng.nextBelow(A.r)));
      const [a, b, cc] = [A.alloc(n), A.alloc(n), A.alloc(n)];
      const load = () => [a, b, cc].forEach((x, i) => A.setAll(x, vs[i]));
      load();
      A.groth16H(a, b, cc, n);
      const want = A.getAll(a, n);
      load();
      await runOnPool(inst, A.groth16HProgram(a, b, cc, n, { threads: 2 }), pool, 2);
      assert.deepEqual(A.getAll(a, n), want);
    });
  }
});
