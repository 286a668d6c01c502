/**
 * Reference G2: affine arithmetic on the twist E': y² = x³ + b' over F_p² (src/reference/fp2.ts), the
 * oracle of the generated G2 kernels and MSM. Written as directly as RefCurve (src/reference/curve.ts),
 * whose scalar split it reuses (G2 shares r and lambda with G1).
 */
import type { G2Params, Fp2Pair } from '../curves/g2.js';
import { RefCurve } from './curve.js';
import { type Fp2, RefFp2 } from './fp2.js';
import { RefField } from './field.js';

export interface G2Affine {
  readonly x: Fp2;
  readonly y: Fp2;
}
export type G2Point = G2Affine | null;

export class RefG2 {
  readonly F: RefFp2;
  readonly Fr: RefField;
  readonly b: Fp2;
  readonly G: G2Affine;
  /** the G1 reference: its GLV split serves G2 (same r, same lambda) */
  readonly g1: RefCurve;
  constructor(readonly params: G2Params) {
    this.F = new RefFp2(params.g1.p);
    this.Fr = new RefField(params.g1.r);
    this.b = this.F.of(params.b);
    this.G = { x: params.G2.x, y: params.G2.y };
    this.g1 = new RefCurve(params.g1);
  }
  isOnCurve(P: G2Point): boolean {
    if (P === null) return true;
    const { F } = this;
    const valid = (a: Fp2Pair) => a.every((c) => c >= 0n && c < F.p);
    if (!valid(P.x) || !valid(P.y)) return false;
    return F.eq(F.sqr(P.y), F.add(F.mul(F.sqr(P.x), P.x), this.b));
  }
  eq(P: G2Point, Q: G2Point): boolean {
    if (P === null || Q === null) return P === Q;
    return this.F.eq(P.x, Q.x) && this.F.eq(P.y, Q.y);
  }
  neg(P: G2Point): G2Point {
    return P === null ? null : { x: P.x, y: this.F.neg(P.y) };
  }
  add(P: G2Point, Q: G2Point): G2Point {
    if (P === null) return Q;
    if (Q === null) return P;
    const { F } = this;
    if (F.eq(P.x, Q.x)) return F.eq(P.y, Q.y) ? this.double(P) : null;
    const m = F.mul(F.sub(Q.y, P.y), F.inv(F.sub(Q.x, P.x)));
    const x3 = F.sub(F.sub(F.sqr(m), P.x), Q.x);
    return { x: x3, y: F.sub(F.mul(m, F.sub(P.x, x3)), P.y) };
  }
  double(P: G2Point): G2Point {
    if (P === null || this.F.isZero(P.y)) return null;
    const { F } = this;
    const x2 = F.sqr(P.x);
    const m = F.mul(F.add(F.add(x2, x2), x2), F.inv(F.add(P.y, P.y)));
    const x3 = F.sub(F.sqr(m), F.add(P.x, P.x));
    return { x: x3, y: F.sub(F.mul(m, F.sub(P.x, x3)), P.y) };
  }
  /** [k]P for the exact integer k (negative: of −P). */
  mul(P: G2Point, k: bigint): G2Point {
    if (k < 0n) return this.mul(this.neg(P), -k);
    let acc: G2Point = null;
    for (const bit of k.toString(2)) {
      acc = this.double(acc);
      if (bit === '1') acc = this.add(acc, P);
    }
    return acc;
  }
  mulScalar(P: G2Point, s: bigint): G2Point {
    return this.mul(P, this.Fr.mod(s));
  }
  /** (beta·x, y) = [lambda]P on G2. */
  endo(P: G2Point): G2Point {
    return P === null ? null : { x: this.F.mulFp(P.x, this.params.beta), y: P.y };
  }
  /** ψ = twist⁻¹ ∘ Frobenius ∘ twist: (psiX·conj(x), psiY·conj(y)). */
  psi(P: G2Point): G2Point {
    if (P === null) return null;
    const { F } = this;
    return { x: F.mul(this.params.psiX, F.conj(P.x)), y: F.mul(this.params.psiY, F.conj(P.y)) };
  }
  /** The ψ test of the descriptor: on the curve and ψ(P) = [psiEigen]P. */
  isInSubgroup(P: G2Point): boolean {
    return this.isOnCurve(P) && this.eq(this.psi(P), this.mul(P, this.params.psiEigen));
  }
  /** The definition, for tests: on the curve and [r]P = O. */
  isInSubgroupSlow(P: G2Point): boolean {
    return this.isOnCurve(P) && this.mul(P, this.params.g1.r) === null;
  }
  msmNaive(points: readonly G2Point[], scalars: readonly bigint[]): G2Point {
    if (points.length !== scalars.length) throw new RangeError(`msmNaive: ${points.length} points but ${scalars.length} scalars`);
    let acc: G2Point = null;
    for (let i = 0; i < points.length; i++) acc = this.add(acc, this.mulScalar(points[i]!, scalars[i]!));
    return acc;
  }
  /** A point of E'(F_p²) (generally not in G2) with the smallest x = (x0, 1), x0 ≥ start, and y the root sqrt picks. */
  pointFromX0(start: bigint): G2Affine {
    const { F } = this;
    for (let x0 = start; ; x0++) {
      const x: Fp2 = F.of([x0, 1n]);
      const y = F.sqrt(F.add(F.mul(F.sqr(x), x), this.b));
      if (y) return { x, y };
    }
  }
}
