/**
 * Deterministic MSM benchmark inputs for G1 of BLS12-381 (default) or BN254.
 *
 * Layout (shared by every implementation under benchmark):
 * - points:  BLS12-381: n × 96 bytes, x ‖ y, each coordinate 48-byte big-endian (ZCash
 *            "uncompressed" encoding without the flag bits).
 *            BN254: n × 64 bytes, x ‖ y, each coordinate 32-byte big-endian (the EIP-196 encoding).
 *            No point is the point at infinity; all are in the prime-order subgroup (BN254 G1 has
 *            cofactor 1, so every curve point is).
 * - scalars: n × 32 bytes little-endian, uniformly random in [0, r) (r of the curve).
 *
 * Generation (fast even for n = 2^18, no per-point scalar multiplication):
 *   1. a small base set of random multiples [k]G of the generator (noble),
 *   2. the set is doubled level by level: each new point is P_a + P_b for two random existing points
 *      with distinct x coordinates, using affine addition and ONE batched field inversion per level
 *      (Montgomery's trick),
 *   3. a seeded Fisher–Yates shuffle.
 * Sums of subgroup points stay in the subgroup, so every point is valid.
 *
 * Results are cached in bench/.cache/ (gitignored), keyed by curve, format version, logSize and seed
 * (`bls12-381-g1-v1-log<k>-seed<s>.bin`, `bn254-g1-v1-log<k>-seed<s>.bin`).
 *
 * Every function that depends on the curve takes it as a last parameter defaulting to 'bls12-381';
 * the BLS12-381 output (and cache files) is byte-identical to the BLS-only version of this module.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bls12_381 as nobleBls12_381 } from "@noble/curves/bls12-381.js";
import { bn254 as nobleBn254 } from "@noble/curves/bn254.js";
import type { WeierstrassPointCons } from "@noble/curves/abstract/weierstrass.js";
import { bls12_381, bn254 } from "../src/curves/index.js";

/** Curves the benchmark inputs (and peers) support. */
export const CURVE_NAMES = ["bls12-381", "bn254"] as const;
export type CurveName = (typeof CURVE_NAMES)[number];

/** The default curve (kept for callers written before BN254 was added). */
export const CURVE: CurveName = "bls12-381";
/** Base field modulus p of BLS12-381. */
export const P = bls12_381.p;
/** Prime order r of the BLS12-381 G1 subgroup (scalar field). */
export const R = bls12_381.r;

/** BLS12-381 point / coordinate sizes (BN254: CURVES.bn254.pointBytes / coordBytes). */
export const POINT_BYTES = 96;
export const COORD_BYTES = 48;
/** Scalar size, the same for every curve here. */
export const SCALAR_BYTES = 32;

/** Everything the input generation and the cross-checks need to know about a curve's G1. */
export interface CurveSpec {
  name: CurveName;
  /** Base field modulus. */
  p: bigint;
  /** Prime order of G1 (scalar field). */
  r: bigint;
  /** E: y² = x³ + b. */
  b: bigint;
  /** Bytes per big-endian coordinate. */
  coordBytes: number;
  /** Bytes per point, x ‖ y. */
  pointBytes: number;
  /** noble's G1 point class (used for the base multiples and the reference Σ[s]P). */
  Point: WeierstrassPointCons<bigint>;
}

export const CURVES: Readonly<Record<CurveName, CurveSpec>> = Object.freeze({
  "bls12-381": Object.freeze({
    name: "bls12-381",
    p: bls12_381.p,
    r: bls12_381.r,
    b: bls12_381.b,
    coordBytes: COORD_BYTES,
    pointBytes: POINT_BYTES,
    Point: nobleBls12_381.G1.Point,
  }),
  bn254: Object.freeze({
    name: "bn254",
    p: bn254.p,
    r: bn254.r,
    b: bn254.b,
    coordBytes: 32,
    pointBytes: 64,
    Point: nobleBn254.G1.Point,
  }),
});

export function isCurveName(s: string): s is CurveName {
  return (CURVE_NAMES as readonly string[]).includes(s);
}

/** The spec of a curve; throws on an unknown name. */
export function curveSpec(curve: CurveName | string = CURVE): CurveSpec {
  if (!isCurveName(curve)) throw new Error(`unknown curve ${curve} (expected one of ${CURVE_NAMES.join(", ")})`);
  return CURVES[curve];
}

/** Bump whenever the generation procedure changes, so stale cache files are not reused. */
const FORMAT_VERSION = 1;
const BASE_POINTS = 32;

export interface MsmInputs {
  n: number;
  /** n × pointBytes: x ‖ y, each coordinate big-endian (96 bytes for BLS12-381, 64 for BN254). */
  points: Uint8Array;
  /** n × 32 bytes little-endian, uniform in [0, r). */
  scalars: Uint8Array;
}

export interface AffinePoint {
  x: bigint;
  y: bigint;
}

// ---------------------------------------------------------------------------------------------
// Seeded RNG: xoshiro128** on 32-bit words, state initialised with splitmix32.

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = 0) {
    let s = (seed ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
    const next = (): number => {
      // splitmix32
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    const rotl = (x: number, k: number) => (x << k) | (x >>> (32 - k));
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform integer in [0, k), 1 <= k <= 2^32, without modulo bias. */
  below(k: number): number {
    const limit = 0x1_0000_0000 - (0x1_0000_0000 % k);
    for (;;) {
      const v = this.u32();
      if (v < limit) return v % k;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// byte <-> bigint helpers

function bytesToBigintBE(bytes: Uint8Array, offset: number, len: number): bigint {
  return BigInt("0x" + Buffer.from(bytes.buffer, bytes.byteOffset + offset, len).toString("hex"));
}

function bytesToBigintLE(bytes: Uint8Array, offset: number, len: number): bigint {
  const rev = Buffer.allocUnsafe(len);
  for (let i = 0; i < len; i++) rev[i] = bytes[offset + len - 1 - i];
  return BigInt("0x" + rev.toString("hex"));
}

function writeBigintBE(out: Uint8Array, offset: number, len: number, v: bigint): void {
  const hex = v.toString(16).padStart(2 * len, "0");
  if (hex.length !== 2 * len) throw new Error("value does not fit");
  out.set(Buffer.from(hex, "hex"), offset);
}

/** Little-endian bytes of `v` (len bytes). */
export function bigintToBytesLE(v: bigint, len: number): Uint8Array {
  const hex = v.toString(16).padStart(2 * len, "0");
  if (hex.length !== 2 * len) throw new Error("value does not fit");
  const be = Buffer.from(hex, "hex");
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) out[i] = be[len - 1 - i];
  return out;
}

/** Value of `len` little-endian bytes starting at `offset`. */
export function bytesLEToBigint(bytes: Uint8Array, offset = 0, len = bytes.length - offset): bigint {
  return bytesToBigintLE(bytes, offset, len);
}

/** Decode the x ‖ y big-endian point buffer (96 bytes per point for BLS12-381, 64 for BN254). */
export function pointsToBigints(points: Uint8Array, curve: CurveName = CURVE): AffinePoint[] {
  const { pointBytes, coordBytes } = curveSpec(curve);
  if (points.length % pointBytes !== 0) throw new Error(`points length not a multiple of ${pointBytes}`);
  const n = points.length / pointBytes;
  const out: AffinePoint[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * pointBytes;
    out[i] = { x: bytesToBigintBE(points, o, coordBytes), y: bytesToBigintBE(points, o + coordBytes, coordBytes) };
  }
  return out;
}

/** Decode the 32-byte-per-scalar little-endian buffer into bigints. */
export function scalarsToBigints(scalars: Uint8Array): bigint[] {
  if (scalars.length % SCALAR_BYTES !== 0) throw new Error("scalars length not a multiple of 32");
  const n = scalars.length / SCALAR_BYTES;
  const out: bigint[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = bytesToBigintLE(scalars, i * SCALAR_BYTES, SCALAR_BYTES);
  return out;
}

// ---------------------------------------------------------------------------------------------
// generation

/** r as 8 little-endian 32-bit words, and the mask for the top word (r's bit length rounded up). */
interface ScalarBound {
  words: number[];
  topMask: number;
}

function scalarBound(r: bigint): ScalarBound {
  const words: number[] = [];
  for (let i = 0; i < 8; i++) words.push(Number((r >> BigInt(32 * i)) & 0xffffffffn));
  const topBits = r.toString(2).length - 7 * 32; // BLS12-381: 31 (r < 2^255), BN254: 30 (r < 2^254)
  if (topBits < 1 || topBits > 32) throw new Error("r must have 225..256 bits");
  return { words, topMask: topBits === 32 ? 0xffffffff : ((1 << topBits) >>> 0) - 1 };
}

/** Is the 8-word little-endian value below r? */
function wordsBelow(w: Uint32Array, bound: ScalarBound): boolean {
  for (let i = 7; i >= 0; i--) {
    if (w[i] !== bound.words[i]) return w[i] < bound.words[i];
  }
  return false;
}

function generateScalars(n: number, rng: Rng, spec: CurveSpec): Uint8Array {
  const bound = scalarBound(spec.r);
  const out = new Uint8Array(n * SCALAR_BYTES);
  const words = new Uint32Array(8);
  const view = new DataView(out.buffer);
  for (let i = 0; i < n; i++) {
    // rejection sampling on values of r's bit length (acceptance ≈ 0.9 for BLS12-381, 0.76 for BN254)
    do {
      for (let j = 0; j < 8; j++) words[j] = rng.u32();
      words[7] &= bound.topMask;
    } while (!wordsBelow(words, bound));
    for (let j = 0; j < 8; j++) view.setUint32(i * SCALAR_BYTES + 4 * j, words[j], true);
  }
  return out;
}

function randomFieldScalar(rng: Rng, bound: ScalarBound): bigint {
  const w = new Uint32Array(8);
  for (;;) {
    for (let j = 0; j < 8; j++) w[j] = rng.u32();
    w[7] &= bound.topMask;
    if (!wordsBelow(w, bound)) continue;
    let v = 0n;
    for (let j = 7; j >= 0; j--) v = (v << 32n) | BigInt(w[j]);
    if (v !== 0n) return v;
  }
}

function generatePoints(n: number, rng: Rng, spec: CurveSpec): Uint8Array {
  const G = spec.Point.BASE;
  const bound = scalarBound(spec.r);
  const xs: bigint[] = [];
  const ys: bigint[] = [];
  const base = Math.min(n, BASE_POINTS);
  while (xs.length < base) {
    const a = G.multiply(randomFieldScalar(rng, bound)).toAffine();
    if (xs.includes(a.x)) continue; // also excludes ±duplicates
    xs.push(a.x);
    ys.push(a.y);
  }

  // Grow by levels: each level adds up to as many points as there are, P_new = P_a + P_b.
  // A new point whose x is already present (same point or its negation, e.g. the same pair drawn
  // twice) is dropped; the next level makes up for it. So all points are distinct, none is -another.
  const p = spec.p;
  const Fp = spec.Point.Fp;
  const seen = new Set<bigint>(xs);
  while (xs.length < n) {
    const m = xs.length;
    const k = Math.min(m, n - m);
    const ia = new Uint32Array(k);
    const ib = new Uint32Array(k);
    const dx: bigint[] = new Array(k);
    for (let j = 0; j < k; j++) {
      let a: number, b: number;
      do {
        a = rng.below(m);
        b = rng.below(m);
      } while (a === b || xs[a] === xs[b]);
      ia[j] = a;
      ib[j] = b;
      let d = xs[b] - xs[a];
      if (d < 0n) d += p;
      dx[j] = d;
    }
    // Montgomery's trick: prefix products, one inversion, walk back.
    const prefix: bigint[] = new Array(k);
    let acc = 1n;
    for (let j = 0; j < k; j++) {
      prefix[j] = acc;
      acc = (acc * dx[j]) % p;
    }
    let inv = Fp.inv(acc);
    const invs: bigint[] = new Array(k);
    for (let j = k - 1; j >= 0; j--) {
      invs[j] = (inv * prefix[j]) % p;
      inv = (inv * dx[j]) % p;
    }
    for (let j = 0; j < k; j++) {
      const xa = xs[ia[j]];
      const ya = ys[ia[j]];
      const xb = xs[ib[j]];
      let dy = ys[ib[j]] - ya;
      if (dy < 0n) dy += p;
      const lambda = (dy * invs[j]) % p;
      let x3 = (lambda * lambda - xa - xb) % p;
      if (x3 < 0n) x3 += p;
      let y3 = (lambda * (xa - x3) - ya) % p;
      if (y3 < 0n) y3 += p;
      if (seen.has(x3)) continue;
      seen.add(x3);
      xs.push(x3);
      ys.push(y3);
    }
  }

  // Seeded Fisher–Yates shuffle of the order.
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }

  const { pointBytes, coordBytes } = spec;
  const out = new Uint8Array(n * pointBytes);
  for (let i = 0; i < n; i++) {
    const s = perm[i];
    writeBigintBE(out, i * pointBytes, coordBytes, xs[s]);
    writeBigintBE(out, i * pointBytes + coordBytes, coordBytes, ys[s]);
  }
  return out;
}

/** Generate inputs without touching the cache. */
export function generateInputs(logSize: number, seed = 1, curve: CurveName = CURVE): MsmInputs {
  if (!Number.isInteger(logSize) || logSize < 0 || logSize > 24) throw new Error(`bad logSize ${logSize}`);
  const spec = curveSpec(curve);
  const n = 2 ** logSize;
  const points = generatePoints(n, new Rng(seed, 1), spec);
  const scalars = generateScalars(n, new Rng(seed, 2), spec);
  return { n, points, scalars };
}

export const CACHE_DIR = fileURLToPath(new URL("./.cache/", import.meta.url));

export function cachePath(logSize: number, seed: number, curve: CurveName = CURVE): string {
  return `${CACHE_DIR}${curveSpec(curve).name}-g1-v${FORMAT_VERSION}-log${logSize}-seed${seed}.bin`;
}

/**
 * Deterministic inputs of size 2^logSize, cached on disk (bench/.cache/).
 * The cache file is points ‖ scalars; it is written atomically (temp file + rename).
 */
export async function loadInputs(logSize: number, seed = 1, curve: CurveName = CURVE): Promise<MsmInputs> {
  const { pointBytes } = curveSpec(curve);
  const n = 2 ** logSize;
  const file = cachePath(logSize, seed, curve);
  const total = n * (pointBytes + SCALAR_BYTES);
  if (existsSync(file)) {
    const buf = readFileSync(file);
    if (buf.length === total) {
      const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
      return {
        n,
        points: bytes.slice(0, n * pointBytes),
        scalars: bytes.slice(n * pointBytes),
      };
    }
  }
  const inputs = generateInputs(logSize, seed, curve);
  mkdirSync(CACHE_DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([inputs.points, inputs.scalars]));
  renameSync(tmp, file);
  return inputs;
}
