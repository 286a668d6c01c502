/**
 * BLS12-381's scalar field F_r in JavaScript bigints: the arithmetic (src/reference/field.ts RefField on the descriptor's r), the roots of unity as c-kzg
 * derives them, the radix-2 FFTs of the blob code (sizes 128, 4096, 8192) and its compositions
 * (monomial form, coset evaluations, FK20's Toeplitz coefficients). pippin/kzg computes all of these
 * on the module's Wasm kernels (src/kzg/fr-wasm.ts); this file is their reference in the tests and
 * serves the few scalar steps (the challenge, y, the roots' table).
 *
 * Roots: ω = 7^((r − 1)/8192), a primitive 8192nd root of unity (c-kzg's ROOT_OF_UNITY for
 * FIELD_ELEMENTS_PER_EXT_BLOB, primitive root 7); a domain of size n uses ω^(8192/n). The blob's
 * 4096 evaluation points are ω₄₀₉₆^brp(i) (bit-reversed order), so a blob read in order is the
 * bit-reversed input a decimation-in-time transform wants, and a decimation-in-frequency transform
 * returns its outputs in bit-reversed order: neither FFT here permutes anything.
 *
 * Cost on the measured host (Intel Xeon, Node 20): one reduced product ≈ 0.3 µs, so a 4096-point
 * FFT (24 576 products) ≈ 7–10 ms (the fr_fft kernel: ≈ 1.3 ms).
 */

import { RefField } from '../reference/field.js';
import { bls12_381Curve } from '../curves/bls12-381.js';

/** F_r of BLS12-381 as the bigint reference field (src/reference/field.ts). */
export const Fr = new RefField(bls12_381Curve.params.r);
/** r, the order of G1 and the modulus of blob field elements (from the curve's descriptor). */
export const R = Fr.p;
/** The extended domain of EIP-7594 (FIELD_ELEMENTS_PER_EXT_BLOB). */
export const EXT_DOMAIN = 8192;

export const add = (a: bigint, b: bigint): bigint => Fr.add(a, b);
export const sub = (a: bigint, b: bigint): bigint => Fr.sub(a, b);
export const mul = (a: bigint, b: bigint): bigint => Fr.mul(a, b);
export const pow = (x: bigint, e: bigint): bigint => Fr.pow(x, e);
/** x⁻¹ (0 ↦ 0, the reference field's convention). */
export const inv = (x: bigint): bigint => Fr.inv(x);

/** Montgomery's trick: the inverses of xs (none zero) with one inversion and 3(n − 1) products. */
export function batchInv(xs: readonly bigint[]): bigint[] {
  const n = xs.length;
  const prefix = new Array<bigint>(n);
  let acc = 1n;
  for (let i = 0; i < n; i++) {
    prefix[i] = acc;
    acc = (acc * xs[i]) % R;
  }
  let invAcc = inv(acc);
  const out = new Array<bigint>(n);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = (invAcc * prefix[i]) % R;
    invAcc = (invAcc * xs[i]) % R;
  }
  return out;
}

/** c-kzg's ROOT_OF_UNITY: 7^((r − 1)/8192). */
export const OMEGA = pow(7n, (R - 1n) / BigInt(EXT_DOMAIN));

let rootsCache: bigint[] | undefined;
/** ω^i for i ≤ 8192 (c-kzg's roots_of_unity: starts and ends with 1). */
export function roots(): bigint[] {
  if (!rootsCache) {
    const out = new Array<bigint>(EXT_DOMAIN + 1);
    out[0] = 1n;
    for (let i = 1; i <= EXT_DOMAIN; i++) out[i] = (out[i - 1] * OMEGA) % R;
    if (out[EXT_DOMAIN] !== 1n || out[EXT_DOMAIN / 2] !== R - 1n) throw new Error('fr: ω is not a primitive 8192nd root of unity');
    rootsCache = out;
  }
  return rootsCache;
}

/** i with its `bits` low bits reversed. */
export function reverseBits(i: number, bits: number): number {
  let r = 0;
  for (let b = 0; b < bits; b++) r |= ((i >>> b) & 1) << (bits - 1 - b);
  return r;
}

const log2 = (n: number): number => {
  const k = Math.log2(n);
  if (!Number.isInteger(k) || n > EXT_DOMAIN) throw new RangeError(`fr: FFT size ${n} is not a power of two ≤ ${EXT_DOMAIN}`);
  return k;
};

/**
 * Decimation in time, in place: a holds the coefficients in bit-reversed order, and on return the
 * evaluations a(w^j) in natural order, w = ω^(8192/n) (inverse: w⁻¹, without the 1/n factor).
 * Cost: (n/2)·log₂n products.
 */
export function fftDit(a: bigint[], inverse = false): bigint[] {
  const n = a.length;
  const rs = roots();
  log2(n);
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const step = EXT_DOMAIN / len;
    for (let j = 0; j < half; j++) {
      const w = rs[inverse ? EXT_DOMAIN - j * step : j * step];
      for (let i = j; i < n; i += len) {
        const u = a[i];
        const v = j === 0 ? a[i + half] : (a[i + half] * w) % R;
        const s = u + v;
        a[i] = s >= R ? s - R : s;
        const d = u - v;
        a[i + half] = d < 0n ? d + R : d;
      }
    }
  }
  return a;
}

/**
 * Decimation in frequency, in place: a holds the coefficients in natural order, and on return the
 * evaluations in bit-reversed order (index i holds a(w^brp(i))). Cost: (n/2)·log₂n products.
 */
export function fftDif(a: bigint[], inverse = false): bigint[] {
  const n = a.length;
  const rs = roots();
  log2(n);
  for (let len = n; len >= 2; len >>= 1) {
    const half = len >> 1;
    const step = EXT_DOMAIN / len;
    for (let j = 0; j < half; j++) {
      const w = rs[inverse ? EXT_DOMAIN - j * step : j * step];
      for (let i = j; i < n; i += len) {
        const u = a[i];
        const v = a[i + half];
        const s = u + v;
        a[i] = s >= R ? s - R : s;
        const d = u - v;
        a[i + half] = j === 0 ? (d < 0n ? d + R : d) : ((d < 0n ? d + R : d) * w) % R;
      }
    }
  }
  return a;
}

/** 32 big-endian bytes → bigint (no range check). */
export function fromBytesBE(bytes: Uint8Array, offset = 0): bigint {
  const dv = new DataView(bytes.buffer, bytes.byteOffset + offset, 32);
  return (dv.getBigUint64(0) << 192n) | (dv.getBigUint64(8) << 128n) | (dv.getBigUint64(16) << 64n) | dv.getBigUint64(24);
}

/** x (< 2^256) as 32 big-endian bytes, written at out[offset…]. */
export function toBytesBE(x: bigint, out: Uint8Array = new Uint8Array(32), offset = 0): Uint8Array {
  const dv = new DataView(out.buffer, out.byteOffset + offset, 32);
  const M = 0xffffffffffffffffn;
  dv.setBigUint64(0, x >> 192n);
  dv.setBigUint64(8, (x >> 128n) & M);
  dv.setBigUint64(16, (x >> 64n) & M);
  dv.setBigUint64(24, x & M);
  return out;
}

/**
 * The blob polynomial's monomial coefficients (natural order) from its 4096 evaluations
 * (bit-reversed order): an inverse FFT by decimation in time and 1/n. The bigint reference of
 * src/kzg/fr-wasm.ts FrWasm.monomial.
 */
export function monomial(evals: readonly bigint[]): bigint[] {
  const a = fftDit(evals.slice(), true);
  const invN = inv(BigInt(a.length));
  for (let i = 0; i < a.length; i++) a[i] = (a[i] * invN) % R;
  return a;
}

/**
 * The evaluations at the odd powers of ω (the coset ω·H₄₀₉₆), bit-reversed — cells 64…127 — from
 * the monomial coefficients: c_k·ω^k, then an FFT by decimation in frequency. The bigint reference
 * of FrWasm.coset.
 */
export function cosetEvaluations(coeffs: readonly bigint[]): bigint[] {
  const rs = roots();
  return fftDif(coeffs.map((c, k) => (c * rs[k]) % R));
}

/**
 * FK20's Toeplitz coefficients (src/kzg/fk20.ts, step 1) from the 4096 monomial coefficients:
 * for each offset l < 64 the vector t_l of 128 (t_l[0] = p[4095 − l], t_l[66 + i] = p[127 − l + 64i]
 * for i < 62, else 0) with p = coeffs/128, transformed by a 128-point FFT by decimation in
 * frequency; out[r·64 + l] = t̂_l[r]. The bigint reference of the kernel path.
 */
export function toeplitzCoefficients(coeffs: readonly bigint[]): bigint[] {
  const inv128 = inv(128n);
  const p = coeffs.map((c) => (c * inv128) % R);
  const out = new Array<bigint>(8192);
  for (let l = 0; l < 64; l++) {
    const t = new Array<bigint>(128).fill(0n);
    t[0] = p[4095 - l];
    for (let i = 0; i < 62; i++) t[66 + i] = p[127 - l + 64 * i];
    fftDif(t);
    for (let r = 0; r < 128; r++) out[r * 64 + l] = t[r];
  }
  return out;
}

/** a permuted: element i to position reverseBits(i). */
function bitReversedCopy(a: readonly bigint[]): bigint[] {
  const bits = log2(a.length);
  return a.map((_, i) => a[reverseBits(i, bits)]);
}

/** Evaluations at w^j, natural order in and out (inverse: the coefficients, 1/n included). */
function fftNatural(a: readonly bigint[], inverse = false): bigint[] {
  const out = fftDit(bitReversedCopy(a), inverse);
  if (!inverse) return out;
  const invN = inv(BigInt(a.length));
  return out.map((x) => (x * invN) % R);
}

/**
 * The bigint reference of src/kzg/recovery.ts: the coefficients (8192, natural order) recovered
 * from cells (128 entries, each 64 values or undefined when missing; cells in c-kzg's order), as
 * the consensus-specs write recover_polynomialcoeff — Z's coefficients by long multiplication, E·Z
 * on the domain, the division on the coset 7·⟨ω⟩ — in natural order with explicit permutations.
 */
export function recoverReference(cells: readonly (readonly bigint[] | undefined)[]): bigint[] {
  const n = EXT_DOMAIN;
  const brp = bitReversedCopy(cells.flatMap((c) => c ?? new Array<bigint>(64).fill(0n)));
  const missing = cells.flatMap((c, i) => (c ? [] : [reverseBits(i, 7)]));
  if (missing.length === 0) return fftNatural(brp, true);
  // Z(x) = Π_m (x^64 − ω^(64m)): short = Π (x − ω₁₂₈^m), its coefficients spread by 64
  let short = [1n];
  for (const m of missing) {
    const root = roots()[64 * m];
    const next = new Array<bigint>(short.length + 1).fill(0n);
    short.forEach((c, k) => {
      next[k + 1] = add(next[k + 1], c);
      next[k] = sub(next[k], mul(c, root));
    });
    short = next;
  }
  const zCoeffs = new Array<bigint>(n).fill(0n);
  short.forEach((c, k) => (zCoeffs[64 * k] = c));
  const zEvals = fftNatural(zCoeffs);
  const ezCoeffs = fftNatural(brp.map((e, i) => mul(e, zEvals[i])), true);
  const shiftCoeffs = (a: bigint[], s: bigint) => a.map((c, k) => mul(c, pow(s, BigInt(k))));
  const ezCoset = fftNatural(shiftCoeffs(ezCoeffs, 7n));
  const zCoset = fftNatural(shiftCoeffs(zCoeffs, 7n));
  const quotient = ezCoset.map((v, i) => mul(v, inv(zCoset[i])));
  return shiftCoeffs(fftNatural(quotient, true), inv(7n));
}
