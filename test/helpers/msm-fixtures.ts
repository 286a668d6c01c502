/**
 * One fixture per registry curve for the MSM templates: the public curve object, its bigint
 * reference, points with known discrete logs (cached per curve) and the oracles built on them —
 * the closed form Σ s_i·P_i = (Σ s_i·a_i mod r)·G and, on the curves @noble/curves has
 * (bls12-381, bn254), noble's G1.
 */
import assert from 'node:assert/strict';
import { bls12_381 as nobleBls } from '@noble/curves/bls12-381.js';
import { bn254 as nobleBn } from '@noble/curves/bn254.js';
import type { WeierstrassPointCons } from '@noble/curves/abstract/weierstrass.js';
import { curves, type Curve, type G1Affine } from '../../src/index.js';
import type { CurveName } from '../../src/curves/index.js';
import { RefCurve } from '../../src/reference/curve.js';
import type { makeRng } from '../../src/reference/rng.js';
import { pointsWithLogs, type Pt } from './known-logs.js';

export type { Pt };
type Rng = ReturnType<typeof makeRng>;

const noble: Partial<Record<CurveName, WeierstrassPointCons<bigint>>> = { 'bls12-381': nobleBls.G1.Point, bn254: nobleBn.G1.Point };

export class CurveFixture {
  readonly api: Curve<string>;
  readonly ref: RefCurve;
  readonly r: bigint;
  readonly p: bigint;
  readonly G: { x: bigint; y: bigint };
  /** noble's G1 where it has the curve */
  readonly noble: WeierstrassPointCons<bigint> | undefined;
  private known: { pts: Pt[]; logs: bigint[] } = { pts: [], logs: [] };

  constructor(readonly name: CurveName) {
    this.api = curves[name] as Curve<string>;
    this.ref = new RefCurve(this.api.params);
    ({ r: this.r, p: this.p, G1: this.G } = this.api.params);
    this.noble = noble[name];
  }

  get hasCofactor(): boolean {
    return this.api.params.h1 !== 1n;
  }
  /** The curve's point formats, primary first (after init). */
  get formats(): string[] {
    return this.api.g1.pointFormats.map((f) => f.name);
  }
  /** Whether `format` is the default for packed bytes of its size (the first format with that size). */
  isDefault(format: string): boolean {
    const all = this.api.g1.pointFormats;
    return all.find((f) => f.bytes === all.find((g) => g.name === format)!.bytes)!.name === format;
  }

  mod(x: bigint): bigint {
    return ((x % this.r) + this.r) % this.r;
  }
  /** The first n points of one fixed set with known logs (logs[i] = 0 ⇔ infinity). */
  withLogs(n: number): { pts: Pt[]; logs: bigint[] } {
    // pointsWithLogs is prefix-stable for one seed: a longer set extends a shorter one
    if (this.known.pts.length < n) this.known = pointsWithLogs(this.ref, this.G, this.r, Math.max(n, 300), 5);
    return { pts: this.known.pts.slice(0, n), logs: this.known.logs.slice(0, n) };
  }
  /** Closed form (Σ s_i·a_i mod r)·G. */
  closed(logs: readonly bigint[], s: readonly bigint[]): Pt {
    let e = 0n;
    for (let i = 0; i < logs.length; i++) e += logs[i] * this.mod(s[i]);
    return this.ref.mulScalar(this.G, e);
  }
  /** n scalars in [0, 2^256): even positions reduced mod r, odd ones raw 256-bit (often ≥ r). */
  scalars(rng: Rng, n: number): bigint[] {
    return Array.from({ length: n }, (_, i) => (i % 2 ? rng.nextBigint(256) : rng.nextBigint(256) % this.r));
  }
  toPt(res: G1Affine): Pt {
    return res.infinity ? null : { x: res.x, y: res.y };
  }
  /** Asserts that the MSM result `got` is the point `want`. */
  check(got: G1Affine, want: Pt, what: string): void {
    assert.ok(this.ref.eq(this.toPt(got), want), `${this.name}: ${what}`);
  }
  /** The first curve point with x ≥ x0 (outside the order-r subgroup if `outside`). */
  curvePoint(x0: bigint, outside = false): { x: bigint; y: bigint } {
    const { Fp, b, a } = this.ref;
    for (let x = x0; ; x++) {
      const y = Fp.sqrt(Fp.add(Fp.add(Fp.mul(Fp.sqr(x), x), Fp.mul(a, x)), b));
      if (y !== undefined && (!outside || !this.ref.isInSubgroup({ x, y }))) return { x, y };
    }
  }
  /** The first x ≥ x0 that is no point's abscissa (x³ + ax + b a non-square). */
  nonAbscissa(x0: bigint): bigint {
    const { Fp, b, a } = this.ref;
    for (let x = x0; ; x++) if (Fp.sqrt(Fp.add(Fp.add(Fp.mul(Fp.sqr(x), x), Fp.mul(a, x)), b)) === undefined) return x;
  }
}

/** Rejection with a typed error of one of `types` carrying `index`. */
export const withIndex =
  (index: number, ...types: (new (...a: never[]) => Error)[]) =>
  (e: unknown) =>
    types.some((T) => e instanceof T) && (e as { index?: number }).index === index;

const cache = new Map<CurveName, CurveFixture>();
export function fixture(name: CurveName): CurveFixture {
  let f = cache.get(name);
  if (!f) cache.set(name, (f = new CurveFixture(name)));
  return f;
}
