/**
 * Reference short Weierstrass curve y² = x³ + a·x + b on plain bigints,
 * affine coordinates only. Test oracle for the Wasm curve and MSM kernels:
 * slow (one field inversion per group operation) but written to be obviously
 * correct.
 */
import { isqrt } from './arith.js';
import type { CurveParams } from '../curves/types.js';
import { RefField } from './field.js';

/** A finite affine point. */
export interface AffinePoint {
  readonly x: bigint;
  readonly y: bigint;
}

/** Affine point or the point at infinity O (represented as null). */
export type Affine = AffinePoint | null;

/** One vector (a, b) of the GLV lattice: a + b·lambda ≡ 0 (mod r). */
export interface GlvVector {
  readonly a: bigint;
  readonly b: bigint;
}

/** Result of a GLV decomposition: s ≡ k1 + k2·lambda (mod r); k1, k2 are signed. */
export interface GlvSplit {
  readonly k1: bigint;
  readonly k2: bigint;
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** Nearest integer to num/den (den > 0), ties rounded up; exact. */
function roundDiv(num: bigint, den: bigint): bigint {
  if (den <= 0n) throw new RangeError('roundDiv: denominator must be positive');
  // floor((2·num + den) / (2·den)), with floor done correctly for negatives.
  const n2 = 2n * num + den;
  const d2 = 2n * den;
  const q = n2 / d2;
  return n2 % d2 !== 0n && n2 < 0n ? q - 1n : q;
}


/**
 * Short basis of the lattice L = {(a, b) ∈ Z² : a + b·lambda ≡ 0 (mod r)}
 * (Gallant–Lambert–Vanstone, via the extended Euclidean algorithm on (r, lambda)).
 *
 * The EEA produces remainders r_i and cofactors t_i with s_i·r + t_i·lambda = r_i,
 * hence r_i - t_i·lambda ≡ 0 (mod r) and every (r_i, -t_i) lies in L. With l the
 * last index having r_l ≥ sqrt(r), v1 = (r_{l+1}, -t_{l+1}) and v2 is the shorter
 * of (r_l, -t_l) and (r_{l+2}, -t_{l+2}).
 */
export function glvBasis(r: bigint, lambda: bigint): [GlvVector, GlvVector] {
  lambda = ((lambda % r) + r) % r;
  if (lambda === 0n) throw new RangeError('glvBasis: lambda must be non-zero mod r');
  const rs: bigint[] = [r, lambda];
  const ts: bigint[] = [0n, 1n];
  while (rs[rs.length - 1]! !== 0n) {
    const i = rs.length - 1;
    const q = rs[i - 1]! / rs[i]!;
    rs.push(rs[i - 1]! - q * rs[i]!);
    ts.push(ts[i - 1]! - q * ts[i]!);
  }
  const root = isqrt(r);
  let l = 0;
  while (l + 1 < rs.length && rs[l + 1]! >= root) l++;
  // rs ends with 0, and rs[l+1] < sqrt(r) so l+1 exists; l+2 exists unless rs[l+1] = 0,
  // which cannot happen for gcd(r, lambda) = 1 (the final non-zero remainder is 1).
  const vec = (i: number): GlvVector => ({ a: rs[i]!, b: -ts[i]! });
  const norm2 = (v: GlvVector): bigint => v.a * v.a + v.b * v.b;
  const v1 = vec(l + 1);
  let v2 = vec(l);
  if (l + 2 < rs.length) {
    const alt = vec(l + 2);
    if (norm2(alt) < norm2(v2)) v2 = alt;
  }
  return [v1, v2];
}

export class RefCurve {
  readonly params: CurveParams;
  readonly Fp: RefField;
  readonly Fr: RefField;
  readonly a: bigint;
  readonly b: bigint;
  /** Generator from the params. */
  readonly G: AffinePoint;
  /** Short GLV lattice basis derived from (r, lambda) at construction. */
  readonly glvBasis: readonly [GlvVector, GlvVector];
  /**
   * Proven bound on the GLV split: |k1| <= glvBound[0] and |k2| <= glvBound[1].
   *
   * Proof: write (s, 0) = x1·v1 + x2·v2 over Q (the basis has determinant ±r, so
   * x1 = s·b2/det, x2 = -s·b1/det). glvSplit rounds x_i to the nearest integer c_i,
   * so |x_i - c_i| <= 1/2 and (k1, k2) = (x1 - c1)·v1 + (x2 - c2)·v2, giving
   * |k1| <= (|a1| + |a2|)/2 and |k2| <= (|b1| + |b2|)/2. Since k_i are integers the
   * bounds are floored. The constructor asserts both are < 2^129; for BLS12-381
   * they are (|v1|+|v2|)/2 ≈ 2^126.4, i.e. k1, k2 fit in 128 signed bits.
   */
  readonly glvBound: readonly [bigint, bigint];
  private readonly glvDet: bigint;

  constructor(params: CurveParams) {
    this.params = params;
    this.Fp = new RefField(params.p);
    this.Fr = new RefField(params.r);
    this.a = this.Fp.mod(params.a);
    this.b = this.Fp.mod(params.b);
    this.G = Object.freeze({ x: params.G1.x, y: params.G1.y });

    const [v1, v2] = glvBasis(params.r, params.lambda);
    const det = v1.a * v2.b - v1.b * v2.a;
    if (abs(det) !== params.r) throw new Error(`RefCurve(${params.name}): GLV basis determinant is not ±r`);
    if (this.Fr.mod(v1.a + v1.b * params.lambda) !== 0n || this.Fr.mod(v2.a + v2.b * params.lambda) !== 0n) {
      throw new Error(`RefCurve(${params.name}): GLV basis vectors are not in the lattice`);
    }
    this.glvBasis = Object.freeze([Object.freeze(v1), Object.freeze(v2)] as const);
    this.glvDet = det;
    this.glvBound = Object.freeze([(abs(v1.a) + abs(v2.a)) / 2n, (abs(v1.b) + abs(v2.b)) / 2n] as const);
    const limit = 1n << 129n;
    if (this.glvBound[0] >= limit || this.glvBound[1] >= limit) {
      throw new Error(`RefCurve(${params.name}): GLV bound exceeds 2^129`);
    }
  }

  isOnCurve(P: Affine): boolean {
    if (P === null) return true;
    const { Fp } = this;
    if (!Fp.isValid(P.x) || !Fp.isValid(P.y)) return false;
    const lhs = Fp.sqr(P.y);
    const rhs = Fp.add(Fp.add(Fp.mul(Fp.sqr(P.x), P.x), Fp.mul(this.a, P.x)), this.b);
    return lhs === rhs;
  }

  eq(P: Affine, Q: Affine): boolean {
    if (P === null || Q === null) return P === Q;
    return this.Fp.eq(P.x, Q.x) && this.Fp.eq(P.y, Q.y);
  }

  neg(P: Affine): Affine {
    if (P === null) return null;
    return { x: this.Fp.mod(P.x), y: this.Fp.neg(P.y) };
  }

  /** Chord-and-tangent addition; handles O + Q, P + O, P + P and P + (-P). */
  add(P: Affine, Q: Affine): Affine {
    if (P === null) return Q === null ? null : { x: Q.x, y: Q.y };
    if (Q === null) return { x: P.x, y: P.y };
    const { Fp } = this;
    if (Fp.eq(P.x, Q.x)) {
      // Same x: either Q = P (double) or Q = -P (sum is O).
      if (Fp.eq(P.y, Q.y)) return this.double(P);
      return null;
    }
    const m = Fp.div(Fp.sub(Q.y, P.y), Fp.sub(Q.x, P.x));
    const x3 = Fp.sub(Fp.sub(Fp.sqr(m), P.x), Q.x);
    const y3 = Fp.sub(Fp.mul(m, Fp.sub(P.x, x3)), P.y);
    return { x: x3, y: y3 };
  }

  /** Tangent doubling; 2·O = O and 2·P = O when y = 0 (a point of order 2). */
  double(P: Affine): Affine {
    if (P === null) return null;
    const { Fp } = this;
    if (Fp.isZero(P.y)) return null;
    const m = Fp.div(Fp.add(Fp.mul(3n, Fp.sqr(P.x)), this.a), Fp.mul(2n, P.y));
    const x3 = Fp.sub(Fp.sqr(m), Fp.mul(2n, P.x));
    const y3 = Fp.sub(Fp.mul(m, Fp.sub(P.x, x3)), P.y);
    return { x: x3, y: y3 };
  }

  sub(P: Affine, Q: Affine): Affine {
    return this.add(P, this.neg(Q));
  }

  /**
   * k·P for the exact integer k (no reduction mod r, no subgroup assumption):
   * left-to-right double-and-add on |k|, negating P first when k < 0.
   */
  mul(P: Affine, k: bigint): Affine {
    if (k < 0n) return this.mul(this.neg(P), -k);
    let acc: Affine = null;
    for (let i = k.toString(2).length - 1; i >= 0 && k > 0n; i--) {
      acc = this.double(acc);
      if ((k >> BigInt(i)) & 1n) acc = this.add(acc, P);
    }
    return acc;
  }

  /** s·P with s reduced mod r first (meaningful for P in the order-r subgroup). */
  mulScalar(P: Affine, s: bigint): Affine {
    return this.mul(P, this.Fr.mod(s));
  }

  /** Naive subgroup check: on the curve and r·P = O. */
  isInSubgroup(P: Affine): boolean {
    return this.isOnCurve(P) && this.mul(P, this.params.r) === null;
  }

  /** The GLV endomorphism (x, y) ↦ (beta·x, y); equals lambda·P on the r-torsion. */
  endo(P: Affine): Affine {
    if (P === null) return null;
    return { x: this.Fp.mul(this.params.beta, P.x), y: this.Fp.mod(P.y) };
  }

  /**
   * GLV decomposition: returns signed k1, k2 with s ≡ k1 + k2·lambda (mod r) and
   * |k1| <= glvBound[0], |k2| <= glvBound[1] (see glvBound for the proof; both
   * < 2^129, and < 2^127 for BLS12-381). s may be any bigint; it is reduced mod r.
   */
  glvSplit(s: bigint): GlvSplit {
    const k = this.Fr.mod(s);
    const [v1, v2] = this.glvBasis;
    // Solve (k, 0) = x1·v1 + x2·v2 over Q, then round.
    let num1 = k * v2.b;
    let num2 = -k * v1.b;
    let den = this.glvDet;
    if (den < 0n) {
      num1 = -num1;
      num2 = -num2;
      den = -den;
    }
    const c1 = roundDiv(num1, den);
    const c2 = roundDiv(num2, den);
    const k1 = k - c1 * v1.a - c2 * v2.a;
    const k2 = -c1 * v1.b - c2 * v2.b;
    if (this.Fr.mod(k1 + k2 * this.params.lambda) !== k) throw new Error('glvSplit: internal error (congruence)');
    if (abs(k1) > this.glvBound[0] || abs(k2) > this.glvBound[1]) throw new Error('glvSplit: internal error (bound)');
    return { k1, k2 };
  }

  /** Σ s_i·P_i with every scalar reduced mod r. Throws if the lengths differ. */
  msmNaive(points: readonly Affine[], scalars: readonly bigint[]): Affine {
    if (points.length !== scalars.length) {
      throw new RangeError(`msmNaive: ${points.length} points but ${scalars.length} scalars`);
    }
    let acc: Affine = null;
    for (let i = 0; i < points.length; i++) acc = this.add(acc, this.mulScalar(points[i]!, scalars[i]!));
    return acc;
  }
}
