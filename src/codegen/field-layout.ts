/**
 * Limb layout of a prime field element, derived from the prime p and the limb width w.
 *
 * An element is stored as n little-endian limbs of w bits, each in a u32 slot (4n bytes), in
 * Montgomery form x·R mod p with R = 2^(n·w). Field kernels keep values in the redundant range
 * [0, 2p); n is the least count with 4p < R, which is what makes that range closed under the
 * Montgomery product (inputs < 2p ⇒ output < 2p) and under add/sub with one conditional 2p.
 */
import { bitLength, modInv } from '../reference/arith.js';

export { bitLength, modInv, modPow } from '../reference/arith.js';

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
