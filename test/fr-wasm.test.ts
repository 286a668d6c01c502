/**
 * BLS12-381's F_r kernels of the shipped module (fr_* element kernels and the array kernels of
 * src/codegen/fr-vector.ts) through src/kzg/fr-wasm.ts, against the bigint reference src/kzg/fr.ts,
 * on both backends: the i32 binary as shipped, and the wide64 module (its native binary where the
 * engine has wide arithmetic, else generated/bls12-381.wide64.wat assembled with the polyfilled
 * helpers: the same code, the opcodes called as functions). Hard cases: 0, 1, r − 1, raw values in
 * [r, 2r) (the kernels' redundant range), encodings ≥ r rejected with the lowest index, aliasing.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as module381 from '../src/wasm-generated/bls12_381.js';
import * as module254 from '../src/wasm-generated/bn254.js';
import * as moduleVesta from '../src/wasm-generated/vesta.js';
import { decodeBase64 } from '../src/runtime/instance.js';
import { instantiateGenerated, type Instance } from '../src/runtime/instance.js';
import { assembleWat } from '../src/codegen/assemble.js';
import { wideArithmeticSupported } from '../src/runtime/wide-probe.js';
import { FrWasm, type FrHost } from '../src/kzg/fr-wasm.js';
import * as fr from '../src/kzg/fr.js';
import { toeplitzScalars } from '../src/kzg/fk20.js';
import { ScalarEncodingError } from '../src/errors.js';
import { makeRng } from '../src/reference/rng.js';

const R = fr.R;
const rng = makeRng(0x25f7);
const randomFr = (count: number) => Array.from({ length: count }, () => rng.nextBelow(R));
const be = (v: bigint) => fr.toBytesBE(v);
const le = (v: bigint) => fr.toBytesBE(v).reverse();

function hostOf(inst: Instance): FrHost {
  let u8 = new Uint8Array(inst.memory.buffer);
  return {
    inst,
    get mem() {
      if (u8.buffer !== inst.memory.buffer) u8 = new Uint8Array(inst.memory.buffer);
      return u8;
    },
    alloc: (bytes: number) => inst.arena.alloc(Math.max(16, bytes), 16),
  };
}

async function backends(): Promise<[string, () => Promise<Instance>][]> {
  const wide = module381.wide64;
  const wideNative = wideArithmeticSupported();
  return [
    ['i32', () => instantiateGenerated(module381, { shared: false })],
    [
      wideNative ? 'wide64 (native)' : 'wide64 (polyfilled helpers)',
      async () => {
        if (wideNative) return instantiateGenerated(wide, { shared: false });
        const wat = readFileSync(new URL('../generated/bls12-381.wide64.wat', import.meta.url), 'utf8');
        const wasm = await assembleWat('bls12-381', wat);
        return instantiateGenerated({ ...wide, wasmBase64: Buffer.from(wasm).toString('base64') }, { shared: false });
      },
    ],
  ];
}

it('only modules whose descriptor sets frKernels ship F_r: BLS12-381 and BN254 on both backends (same kernels), not the others; scratch as the contracts state', () => {
  const frExports = (b64: string) => WebAssembly.Module.exports(new WebAssembly.Module(decodeBase64(b64))).map((e) => e.name).filter((n) => n.startsWith('fr_')).sort();
  const i32 = frExports(module381.wasmBase64);
  assert.ok(['fr_mul', 'fr_inv', 'fr_batch_inv', 'fr_fft', 'fr_dot', 'fr_from_bytes_be_batch', 'fr_to_bytes_le_batch'].every((k) => i32.includes(k)), i32.join());
  // the wide64 binary does not compile in an engine without wide arithmetic: its text (generated/) lists the exports
  const wideWat = readFileSync(new URL('../generated/bls12-381.wide64.wat', import.meta.url), 'utf8');
  assert.deepEqual([...wideWat.matchAll(/\(export "(fr_[a-z0-9_]+)"/g)].map((m) => m[1]).sort(), i32);
  assert.deepEqual(frExports(module254.wasmBase64), i32);
  assert.deepEqual(frExports(moduleVesta.wasmBase64), []);
  assert.equal('fr' in moduleVesta.fields, false);
  for (const mod of [module381, module381.wide64, module254, module254.wide64]) {
    const EB = mod.fields.fr.elementBytes;
    const scratch = mod.scratchBytes as Record<string, number>;
    assert.equal(scratch.fr_fft, EB);
    assert.equal(scratch.fr_dot, 2 * EB);
  }
  assert.deepEqual([module381.fields.fr.elementBytes, module381.wide64.fields.fr.elementBytes], [36, 40]);
  assert.deepEqual([module254.fields.fr.elementBytes, module254.wide64.fields.fr.elementBytes], [36, 32]);
});

for (const [label, make] of await backends()) {
  describe(`F_r kernels, ${label}`, () => {
    let inst: Instance;
    let F: FrWasm;
    /** raw Montgomery limbs (any value the layout holds) at `at`: the redundant range's other representative */
    let writeRaw: (at: number, montgomeryValue: bigint) => void;
    let mont: (v: bigint) => bigint;
    before(async () => {
      inst = await make();
      F = new FrWasm(hostOf(inst));
      const field = inst.fields.fr;
      writeRaw = (at, v) => field.writeLimbs(at, v);
      mont = (v) => (v * field.R) % R;
    });

    it('the element kernels: 0, 1, r − 1 and random values; products, sums, inverses, aliasing', () => {
      const xs = [0n, 1n, 2n, R - 1n, R - 2n, ...randomFr(20)];
      const a = F.alloc(1);
      const b = F.alloc(1);
      const c = F.alloc(1);
      for (const x of xs) {
        for (const y of [0n, 1n, R - 1n, xs[xs.length - 1]]) {
          F.set(a, x);
          F.set(b, y);
          F.k.fr_mul(c, a, b);
          assert.equal(F.get(c), fr.mul(x, y));
          F.k.fr_add(c, a, b);
          assert.equal(F.get(c), fr.add(x, y));
          F.k.fr_sub(c, a, b);
          assert.equal(F.get(c), fr.sub(x, y));
          F.k.fr_mul(a, a, a); // out = x = y
          assert.equal(F.get(a), fr.mul(x, x));
        }
        F.set(a, x);
        F.k.fr_inv(a, a);
        assert.equal(F.get(a), x === 0n ? 0n : fr.inv(x));
      }
    });

    it('fromBytesBE: canonical values in, ≥ r rejected with a ScalarEncodingError naming the lowest index; in place', () => {
      const values = [0n, 1n, R - 1n, ...randomFr(13)];
      const bytes = new Uint8Array(32 * values.length);
      values.forEach((v, i) => bytes.set(be(v), 32 * i));
      const out = F.alloc(values.length);
      F.fromBytesBE(out, bytes, values.length, 'element');
      assert.deepEqual(F.getAll(out, values.length), values);
      // the kernel itself, out = src (the bytes already in memory) and out separate
      const src = F.alloc(values.length);
      F.mem.set(bytes, src);
      assert.equal(F.k.fr_from_bytes_be_batch(src, src, values.length), -1);
      assert.deepEqual(F.getAll(src, values.length), values);
      for (const [bad, at] of [[R, [3]], [R + 1n, [0]], [(1n << 256n) - 1n, [15]], [R, [9, 4, 12]]] as const) {
        const b2 = bytes.slice();
        for (const i of at) b2.set(be(bad), 32 * i);
        const low = Math.min(...at);
        assert.throws(() => F.fromBytesBE(out, b2, values.length, 'blob field element'), (e: unknown) => e instanceof ScalarEncodingError && e.index === low && e.message === `blob field element ${low} is not below the scalar field's modulus r`);
        F.mem.set(b2, src);
        assert.equal(F.k.fr_from_bytes_be_batch(src, src, values.length), low);
      }
      // r − 1 is the largest accepted, r the smallest rejected, also alone
      F.fromBytesBE(out, be(R - 1n), 1, 'z');
      assert.throws(() => F.fromBytesBE(out, be(R), 1, 'z'), ScalarEncodingError);
    });

    it('toBytesBE / toBytesLE batches: canonical bytes from both representatives (x and x + r), strided, in place', () => {
      const values = [0n, 1n, R - 1n, ...randomFr(9)];
      const n = values.length;
      const x = F.alloc(n);
      // element i: the representative in [r, 2r) where the layout holds it (xR mod r + r < 2r always)
      values.forEach((v, i) => writeRaw(F.at(x, i), mont(v) + (i % 2 ? R : 0n)));
      const want = new Uint8Array(32 * n);
      values.forEach((v, i) => want.set(be(v), 32 * i));
      assert.deepEqual(F.toBytesBE(x, n), want);
      const stride = 48;
      const dst = F.host.alloc(stride * n);
      F.toBytesLE(dst, stride, x, n);
      values.forEach((v, i) => assert.deepEqual(F.mem.slice(dst + stride * i, dst + stride * i + 32), le(v), `LE ${i}`));
      // in place: dst = x, stride 32 ≤ EB
      F.k.fr_to_bytes_be_batch(x, 32, x, n);
      assert.deepEqual(F.mem.slice(x, x + 32 * n), want);
    });

    it('powers, vec_mul (aliased), vec_scale, vec_sub_scalar, dot, gather, batch_inv (with zeros)', () => {
      const n = 37;
      const xs = [0n, 1n, R - 1n, ...randomFr(n - 3)];
      const ys = [R - 1n, 0n, R - 1n, ...randomFr(n - 3)];
      const x = F.alloc(n);
      const y = F.alloc(n);
      const out = F.alloc(n);
      const s = F.alloc(2);
      const load = () => {
        F.setAll(x, xs);
        F.setAll(y, ys);
      };
      load();
      const [sv, gv] = [randomFr(1)[0], R - 1n];
      F.set(s, sv);
      F.set(F.at(s, 1), gv);
      F.k.fr_powers(out, s, F.at(s, 1), n);
      assert.deepEqual(F.getAll(out, n), xs.map((_, k) => fr.mul(sv, fr.pow(gv, BigInt(k)))));
      F.k.fr_vec_mul(out, x, y, n);
      assert.deepEqual(F.getAll(out, n), xs.map((v, k) => fr.mul(v, ys[k])));
      F.k.fr_vec_mul(x, x, y, n);
      assert.deepEqual(F.getAll(x, n), xs.map((v, k) => fr.mul(v, ys[k])));
      load();
      F.k.fr_vec_mul(y, x, y, n);
      assert.deepEqual(F.getAll(y, n), xs.map((v, k) => fr.mul(v, ys[k])));
      load();
      F.k.fr_vec_scale(x, x, s, n);
      assert.deepEqual(F.getAll(x, n), xs.map((v) => fr.mul(v, sv)));
      load();
      F.k.fr_vec_sub_scalar(out, x, F.at(s, 1), n);
      assert.deepEqual(F.getAll(out, n), xs.map((v) => fr.sub(v, gv)));
      F.k.fr_vec_sub_scalar(x, x, s, n);
      assert.deepEqual(F.getAll(x, n), xs.map((v) => fr.sub(v, sv)));
      load();
      F.dot(out, x, y, n);
      assert.equal(F.get(out), xs.reduce((acc, v, k) => fr.add(acc, fr.mul(v, ys[k])), 0n));
      F.dot(out, x, y, 0);
      assert.equal(F.get(out), 0n);
      F.k.fr_gather(out, F.at(x, 2), 5, 7);
      assert.deepEqual(F.getAll(out, 7), Array.from({ length: 7 }, (_, k) => xs[2 + 5 * k]));
      F.k.fr_gather(out, F.at(x, 3), 0, 4);
      assert.deepEqual(F.getAll(out, 4), new Array(4).fill(xs[3]));
      F.batchInv(out, x, n);
      assert.deepEqual(F.getAll(out, n), xs.map((v) => (v === 0n ? 0n : fr.inv(v))));
      F.batchInv(y, y, n);
      assert.deepEqual(F.getAll(y, n), ys.map((v) => (v === 0n ? 0n : fr.inv(v))));
    });

    it('fr_fft of size 128, 4096 and 8192 (and 1, 2), dit and dif, forward and inverse, equals fr.fftDit / fr.fftDif', () => {
      for (const n of [1, 2, 128, 4096, 8192]) {
        const a = F.alloc(n);
        for (const dif of [false, true]) {
          for (const inverse of n === 8192 ? [dif] : [false, true]) {
            const values = n === 128 ? [R - 1n, 0n, 1n, ...randomFr(n - 3)] : randomFr(n);
            F.setAll(a, values);
            F.fft(a, n, { dif, inverse });
            const want = dif ? fr.fftDif(values.slice(), inverse) : fr.fftDit(values.slice(), inverse);
            assert.deepEqual(F.getAll(a, n), want, `n = ${n}, ${dif ? 'dif' : 'dit'}${inverse ? ', inverse' : ''}`);
          }
        }
      }
      assert.throws(() => F.fft(0, 96, { dif: true }), RangeError);
      assert.throws(() => F.fft(0, 16384, { dif: true }), RangeError);
    });

    it('monomial, coset and FK20 Toeplitz scalars of a blob polynomial equal the bigint path (fr.monomial, cosetEvaluations, toeplitzCoefficients)', () => {
      const evals = [R - 1n, 0n, ...randomFr(4094)];
      const a = F.alloc(4096);
      const b = F.alloc(4096);
      F.setAll(a, evals);
      F.monomial(b, a);
      const coeffs = fr.monomial(evals);
      assert.deepEqual(F.getAll(b, 4096), coeffs);
      F.monomial(a, a);
      assert.deepEqual(F.getAll(a, 4096), coeffs);
      // 32-byte LE scalars, base r·64 + l at 32·(r·64 + l)
      const dst = F.host.alloc(8192 * 32);
      toeplitzScalars(F, dst, a);
      const want = new Uint8Array(8192 * 32);
      fr.toeplitzCoefficients(coeffs).forEach((v, i) => want.set(le(v), 32 * i));
      assert.deepEqual(F.mem.slice(dst, dst + 8192 * 32), want);
      F.coset(a, a);
      assert.deepEqual(F.getAll(a, 4096), fr.cosetEvaluations(coeffs));
    });
  });
}
