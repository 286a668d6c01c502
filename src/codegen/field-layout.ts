/**
 * Limb layout of a prime field element, derived from the prime p and the limb width w.
 *
 * An element is stored as n little-endian limbs of w bits, each in a u32 slot (4n bytes), in
 * Montgomery form x·R mod p with R = 2^(n·w). Field kernels keep values in the redundant range
 * [0, 2p); n is the least count with 4p < R, which is what makes that range closed under the
 * Montgomery product (inputs < 2p ⇒ output < 2p) and under add/sub with one conditional 2p.
 */
export interface FieldLayout {
  p: bigint;
  w: number;
  n: number;
  bits: number;
  mask: bigint;
  /** R = 2^(n·w) */
  R: bigint;
  /** Montgomery constant −p⁻¹ mod 2^w */
  mu0: bigint;
  /** bytes of one element in memory */
  elementBytes: number;
  /** bytes of the canonical byte encoding: ⌈bits/8⌉ */
  byteLength: number;
}

export function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

export function modPow(b: bigint, e: bigint, m: bigint): bigint {
  let r = 1n;
  b %= m;
  while (e > 0n) {
    if (e & 1n) r = (r * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return r;
}

export function modInv(a: bigint, m: bigint): bigint {
  let [r0, r1, s0, s1] = [((a % m) + m) % m, m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new Error('not invertible');
  return ((s0 % m) + m) % m;
}

export function fieldLayout(p: bigint, w: number): FieldLayout {
  if (w < 26 || w > 30) throw new Error(`limb width ${w} outside 26..30`);
  if (p % 2n === 0n) throw new Error('p must be odd');
  const bits = bitLength(p);
  const n = Math.ceil((bits + 2) / w);
  const R = 1n << BigInt(n * w);
  if (!(4n * p < R)) throw new Error('layout invariant 4p < R violated');
  const mask = (1n << BigInt(w)) - 1n;
  const mu0 = (((1n << BigInt(w)) - modInv(p, 1n << BigInt(w))) % (1n << BigInt(w)));
  if ((p * mu0 + 1n) % (1n << BigInt(w)) !== 0n) throw new Error('mu0 derivation failed');
  return { p, w, n, bits, mask, R, mu0, elementBytes: 4 * n, byteLength: Math.ceil(bits / 8) };
}

/** Splits x ≥ 0 into n limbs of w bits (throws if it does not fit). */
export function toLimbs(x: bigint, w: number, n: number): bigint[] {
  if (x < 0n || x >= 1n << BigInt(w * n)) throw new Error('value does not fit the limbs');
  const mask = (1n << BigInt(w)) - 1n;
  return Array.from({ length: n }, (_, i) => (x >> BigInt(i * w)) & mask);
}
