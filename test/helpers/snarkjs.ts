/**
 * Inputs for the snarkjs engine's tests, in ffjavascript's layouts: a seeded generator, bases
 * (affine, Montgomery little-endian, with infinity, duplicate and negated entries) and scalars
 * (32-byte little-endian, edge values mixed with random ones).
 */
import * as ffjavascript from 'ffjavascript';
import type { FfjsCurve, FfjsGroup, FfjsModule } from '../../src/snarkjs/index.js';

export const ff = ffjavascript as unknown as FfjsModule & { buildBn128: (s?: boolean) => Promise<FfjsCurve>; buildBls12381: (s?: boolean) => Promise<FfjsCurve> };

export interface Field { p: bigint; bits: number; n8: number }
export const FIELDS: Record<'bn128' | 'bls12381', Field & { r: bigint }> = {
  bn128: { p: 21888242871839275222246405745257275088696311157297823662689037894645226208583n, r: 21888242871839275222246405745257275088548364400416034343698204186575808495617n, bits: 256, n8: 32 },
  bls12381: {
    p: 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn,
    r: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n,
    bits: 384,
    n8: 48,
  },
};

/** Deterministic 32-bit generator (tests reproduce). */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0);
  };
}
export function randBig(next: () => number, bits: number): bigint {
  let v = 0n;
  for (let i = 0; i < bits; i += 32) v = (v << 32n) | BigInt(next());
  return v & ((1n << BigInt(bits)) - 1n);
}
export function le(v: bigint, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}
export function modpow(b: bigint, e: bigint, m: bigint): bigint {
  let r = 1n;
  b %= m;
  for (; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) r = (r * b) % m;
  return r;
}
/** A coordinate in ffjavascript's Montgomery little-endian form. */
export function mont(f: Field, v: bigint): Uint8Array {
  return le((v << BigInt(f.bits)) % f.p, f.n8);
}

/** n affine bases in ffjavascript's layout: multiples of the generator, with infinity entries, duplicates and negations. */
export function adversarialBases(G: FfjsGroup, n: number, next: () => number): Uint8Array {
  const PB = 2 * G.F.n8;
  const out = new Uint8Array(n * PB);
  const gen = G.toAffine((G as unknown as { g: Uint8Array }).g);
  let acc = (G as unknown as { g: Uint8Array }).g;
  const step = (G as unknown as { timesScalar(a: Uint8Array, s: Uint8Array): Uint8Array }).timesScalar(acc, le(BigInt(next()) | 1n, 4));
  for (let i = 0; i < n; i++) {
    acc = (G as unknown as { add(a: Uint8Array, b: Uint8Array): Uint8Array }).add(acc, step);
    const a = G.toAffine(acc);
    if (i % 17 === 5) continue; // infinity: (0, 0)
    if (i % 13 === 7 && i > 0) out.copyWithin(i * PB, (i - 1) * PB, i * PB); // duplicate of the previous point
    else if (i % 11 === 3) out.set((G as unknown as { neg(a: Uint8Array): Uint8Array }).neg(a).subarray(0, PB), i * PB);
    else if (i === 1) out.set(gen.subarray(0, PB), i * PB);
    else out.set(a.subarray(0, PB), i * PB);
  }
  return out;
}

/** Scalars 0, 1, 2, r−1, r−2, small, 128-bit and full-size, 32 bytes LE each. */
export function adversarialScalars(r: bigint, n: number, next: () => number): Uint8Array {
  const out = new Uint8Array(32 * n);
  for (let i = 0; i < n; i++) {
    const k = i % 9;
    const v = k === 0 ? 0n : k === 1 ? 1n : k === 2 ? 2n : k === 3 ? r - 1n : k === 4 ? r - 2n : k === 5 ? BigInt(next() & 0xffff) : k === 6 ? randBig(next, 128) : randBig(next, 256) % r;
    out.set(le(v, 32), 32 * i);
  }
  return out;
}

/** A witness (`.wtns` bytes) with its last value changed: a private signal of the test circuits, so its proof must not verify. */
export function wrongWitness(wtns: Uint8Array): Uint8Array {
  const bad = wtns.slice();
  bad[bad.length - 32] ^= 1;
  return bad;
}
