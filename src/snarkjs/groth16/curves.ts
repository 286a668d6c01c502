/**
 * The two curves of snarkjs keys pippin reads (snarkjs's names: `bn128` = BN254, `bls12381` =
 * BLS12-381), recognized from their primes, and the conversions out of ffjavascript's storage form.
 *
 * ffjavascript stores a field element as its Montgomery residue x·R mod p, little-endian in n8 bytes,
 * R = 2^(8·n8) (2^256 for BN254's q and both curves' r, 2^384 for BLS12-381's q); an affine point as
 * x‖y (G2: x.c0‖x.c1‖y.c0‖y.c1), the point at infinity as all zeros.
 */
import { LengthMismatchError, PointEncodingError } from '../../errors.js';
import { bigintToLe, firstNotBelow, leToBigint } from './binfile.js';

export type SnarkjsCurveName = 'bn128' | 'bls12381';

/** A curve of snarkjs keys: its primes and the sizes of its stored elements. */
export interface SnarkjsCurve {
  readonly name: SnarkjsCurveName;
  /** the base field's prime */
  readonly q: bigint;
  /** the scalar field's prime (the group order) */
  readonly r: bigint;
  /** bytes of a base-field element (32 on BN254, 48 on BLS12-381) */
  readonly n8q: number;
  /** bytes of a scalar-field element (32 on both) */
  readonly n8r: number;
  /** bytes of a stored affine G1 point: 2·n8q */
  readonly g1Bytes: number;
  /** bytes of a stored affine G2 point: 4·n8q */
  readonly g2Bytes: number;
  /** the largest s with 2^s dividing r − 1 (28 on BN254, 32 on BLS12-381): FFT domains go up to 2^s */
  readonly twoAdicity: number;
}

function curve(name: SnarkjsCurveName, q: bigint, r: bigint, n8q: number, twoAdicity: number): SnarkjsCurve {
  return Object.freeze({ name, q, r, n8q, n8r: 32, g1Bytes: 2 * n8q, g2Bytes: 4 * n8q, twoAdicity });
}

/** The supported curves by snarkjs's name. */
export const SNARKJS_CURVES: Readonly<Record<SnarkjsCurveName, SnarkjsCurve>> = Object.freeze({
  bn128: curve('bn128', 21888242871839275222246405745257275088696311157297823662689037894645226208583n, 21888242871839275222246405745257275088548364400416034343698204186575808495617n, 32, 28),
  bls12381: curve(
    'bls12381',
    0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn,
    0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n,
    48,
    32,
  ),
});

/** The curve whose base field is `q`, or undefined. */
export function curveOfQ(q: bigint): SnarkjsCurve | undefined {
  return Object.values(SNARKJS_CURVES).find((c) => c.q === q);
}
/** The curve whose scalar field is `r`, or undefined. */
export function curveOfR(r: bigint): SnarkjsCurve | undefined {
  return Object.values(SNARKJS_CURVES).find((c) => c.r === r);
}

function modpow(b: bigint, e: bigint, m: bigint): bigint {
  let x = 1n;
  for (b %= m; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) x = (x * b) % m;
  return x;
}

interface Field {
  p: bigint;
  n8: number;
  /** p as n8 little-endian bytes */
  bytes: Uint8Array;
  /** R^−1 mod p */
  rInv: bigint;
  /** −p^−1 mod R (R = 2^(8·n8)), for Montgomery reduction */
  nInv: bigint;
  /** 8·n8 */
  bits: bigint;
}
const fields = new Map<bigint, Field>();
/** The constants of the field of prime `p` stored in `n8` bytes (made once). */
export function field(p: bigint, n8: number): Field {
  let f = fields.get(p);
  if (!f) {
    const bytes = new Uint8Array(n8);
    bigintToLe(p, bytes, 0, n8);
    const bits = BigInt(8 * n8);
    const R = 1n << bits;
    // p^−1 mod R by Newton's iteration (each step doubles the correct low bits: 2^1 → 2^(8·n8))
    let inv = 1n;
    for (let k = 1; k < 8 * n8; k *= 2) inv = BigInt.asUintN(8 * n8, inv * (2n - p * inv));
    f = { p, n8, bytes, rInv: modpow(R % p, p - 2n, p), nInv: R - inv, bits };
    fields.set(p, f);
  }
  return f;
}

/** x·R⁻¹ mod p for 0 ≤ x < p (Montgomery's reduction REDC: two products and a shift, no division). */
function fromMontgomery(f: Field, x: bigint): bigint {
  const m = BigInt.asUintN(8 * f.n8, x * f.nInv);
  const v = (x + m * f.p) >> f.bits;
  return v >= f.p ? v - f.p : v;
}

/** Index of the first element of `count` (n8-byte, little-endian) at `offset` that is not below p, or −1. */
export function firstNonCanonical(f: Field, bytes: Uint8Array, offset: number, count: number): number {
  return firstNotBelow(bytes, offset, count, f.n8, f.bytes);
}

/** A G1 point with standard coordinates (pippin's point objects), null for infinity. */
export type G1Point = { x: bigint; y: bigint } | null;
/** A G2 point with standard coordinates, c0 + c1·i as [c0, c1] (pippin's point objects), null for infinity. */
export type G2Point = { x: [bigint, bigint]; y: [bigint, bigint] } | null;

function pointSize(c: SnarkjsCurve, group: 'G1' | 'G2'): number {
  return group === 'G1' ? c.g1Bytes : c.g2Bytes;
}

function coordinates(c: SnarkjsCurve, group: 'G1' | 'G2', points: Uint8Array, index: number): bigint[] | null {
  const f = field(c.q, c.n8q);
  const size = pointSize(c, group);
  const base = index * size;
  let zero = true;
  for (let i = base; i < base + size && zero; i++) zero = points[i] === 0;
  if (zero) return null;
  const k = size / c.n8q;
  if (firstNonCanonical(f, points, base, k) >= 0) throw new PointEncodingError(`${c.name} ${group} point ${index}: a Montgomery coordinate is not below q`, index);
  const out: bigint[] = [];
  for (let j = 0; j < k; j++) out.push(fromMontgomery(f, leToBigint(points, base + j * c.n8q, c.n8q)));
  return out;
}

function checkLength(c: SnarkjsCurve, group: 'G1' | 'G2', points: Uint8Array): number {
  const size = pointSize(c, group);
  if (points.length % size !== 0) throw new LengthMismatchError(`${c.name} ${group}: ${points.length} bytes is not a whole number of ${size}-byte points`);
  return points.length / size;
}

/**
 * Point `index` of stored points (ffjavascript's affine Montgomery layout, as a key's sections hold
 * them) as a point object with standard coordinates; null for infinity. A coordinate not below q
 * throws PointEncodingError. Cost: one modular multiplication per coordinate.
 * E.g. `pointAt(key.curve, 'G1', key.alpha1, 0)` is alpha1 as `{ x, y }`.
 */
export function pointAt(c: SnarkjsCurve, group: 'G1', points: Uint8Array, index: number): G1Point;
export function pointAt(c: SnarkjsCurve, group: 'G2', points: Uint8Array, index: number): G2Point;
export function pointAt(c: SnarkjsCurve, group: 'G1' | 'G2', points: Uint8Array, index: number): G1Point | G2Point {
  const n = checkLength(c, group, points);
  if (!Number.isInteger(index) || index < 0 || index >= n) throw new RangeError(`${c.name} ${group}: point ${index} of ${n}`);
  const v = coordinates(c, group, points, index);
  if (!v) return null;
  return group === 'G1' ? { x: v[0], y: v[1] } : { x: [v[0], v[1]], y: [v[2], v[3]] };
}

/**
 * Stored points (ffjavascript's affine Montgomery layout) with standard coordinates, as new bytes:
 * - `'le'` (default): the same layout, each coordinate its standard little-endian value, infinity
 *   still all zeros;
 * - `'primary'`: pippin's primary uncompressed format of the curve, what `g1.msm` / `g2.msm` and
 *   `prepare` read by default: big-endian x‖y, G2 coordinates imaginary part first (c1‖c0) — on
 *   BN254 EIP-196 / EIP-197 (infinity all zeros), on BLS12-381 ZCash (infinity: 0x40 in the first
 *   byte, the rest zeros).
 *
 * A coordinate not below q throws PointEncodingError naming the point. Cost: one bigint modular
 * multiplication per coordinate: 2^16 G1 points take ≈ 80 ms on BN254, 130 ms on BLS12-381 (Node 20, one core).
 */
export function pointsToStandard(c: SnarkjsCurve, group: 'G1' | 'G2', points: Uint8Array, format: 'le' | 'primary' = 'le'): Uint8Array {
  const n = checkLength(c, group, points);
  const size = pointSize(c, group);
  const n8 = c.n8q;
  const out = new Uint8Array(points.length);
  const tmp = new Uint8Array(n8);
  for (let i = 0; i < n; i++) {
    const v = coordinates(c, group, points, i);
    const base = i * size;
    if (!v) {
      if (format === 'primary' && c.name === 'bls12381') out[base] = 0x40;
      continue;
    }
    for (let j = 0; j < v.length; j++) {
      if (format === 'le') {
        bigintToLe(v[j], out, base + j * n8, n8);
        continue;
      }
      // big-endian, and within an F_p² coordinate c1 first: slot of coordinate j is j ^ 1 on G2
      const slot = group === 'G2' ? j ^ 1 : j;
      bigintToLe(v[j], tmp, 0, n8);
      for (let b = 0; b < n8; b++) out[base + slot * n8 + b] = tmp[n8 - 1 - b];
    }
  }
  return out;
}

/**
 * The inverse of `pointsToStandard` from point objects: points with standard coordinates (null for
 * infinity) as new bytes in ffjavascript's affine Montgomery layout (each coordinate x·R mod q
 * little-endian, G2 x.c0‖x.c1‖y.c0‖y.c1, infinity all zeros), as a key's sections hold them.
 * Coordinates are taken mod q (not checked to be on the curve). Cost: one bigint modular
 * multiplication per coordinate.
 */
export function pointsToMontgomery(c: SnarkjsCurve, group: 'G1', points: readonly G1Point[]): Uint8Array;
export function pointsToMontgomery(c: SnarkjsCurve, group: 'G2', points: readonly G2Point[]): Uint8Array;
export function pointsToMontgomery(c: SnarkjsCurve, group: 'G1' | 'G2', points: readonly (G1Point | G2Point)[]): Uint8Array {
  const size = pointSize(c, group);
  const n8 = c.n8q;
  const R = (1n << BigInt(8 * n8)) % c.q;
  const out = new Uint8Array(points.length * size);
  points.forEach((p, i) => {
    if (!p) return;
    const v = group === 'G1' ? [(p as { x: bigint }).x, (p as { y: bigint }).y] : [...(p as { x: bigint[] }).x, ...(p as { y: bigint[] }).y];
    v.forEach((x, j) => bigintToLe((((x % c.q) + c.q) % c.q * R) % c.q, out, i * size + j * n8, n8));
  });
  return out;
}
