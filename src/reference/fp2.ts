/**
 * Reference quadratic extension F_p² = F_p[i]/(i² + 1) on plain bigints (p ≡ 3 mod 4, so −1 is a
 * non-residue: BLS12-381 and BN254). The oracle of the generated `fp2_*` kernels
 * (src/codegen/fp2.ts): each operation is written as the kernel computes it, with the kernel's
 * cost in base-field multiplications M beside it, and is checked itself against @noble/curves.
 * Elements are pairs [c0, c1] = c0 + c1·i, canonical (each in [0, p)).
 */
import { RefField } from './field.js';

export type Fp2 = readonly [bigint, bigint];

export class RefFp2 {
  readonly Fp: RefField;
  readonly p: bigint;
  readonly zero: Fp2 = [0n, 0n];
  readonly one: Fp2 = [1n, 0n];
  constructor(p: bigint) {
    if (p % 4n !== 3n) throw new RangeError('RefFp2: p must be 3 mod 4 (i² = −1 a non-residue)');
    this.Fp = new RefField(p);
    this.p = p;
  }
  of(a: readonly [bigint, bigint]): Fp2 {
    return [this.Fp.mod(a[0]), this.Fp.mod(a[1])];
  }
  add(a: Fp2, b: Fp2): Fp2 {
    return [this.Fp.add(a[0], b[0]), this.Fp.add(a[1], b[1])];
  }
  sub(a: Fp2, b: Fp2): Fp2 {
    return [this.Fp.sub(a[0], b[0]), this.Fp.sub(a[1], b[1])];
  }
  neg(a: Fp2): Fp2 {
    return [this.Fp.neg(a[0]), this.Fp.neg(a[1])];
  }
  /** Karatsuba: v0 = a0·b0, v1 = a1·b1, c0 = v0 − v1, c1 = (a0 + a1)(b0 + b1) − v0 − v1. Cost 3M. */
  mul(a: Fp2, b: Fp2): Fp2 {
    const F = this.Fp;
    const v0 = F.mul(a[0], b[0]);
    const v1 = F.mul(a[1], b[1]);
    return [F.sub(v0, v1), F.sub(F.sub(F.mul(F.add(a[0], a[1]), F.add(b[0], b[1])), v0), v1)];
  }
  /** Product by a base-field element: 2M. */
  mulFp(a: Fp2, k: bigint): Fp2 {
    return [this.Fp.mul(a[0], k), this.Fp.mul(a[1], k)];
  }
  /** Complex squaring: c0 = (a0 + a1)(a0 − a1), c1 = 2·a0·a1. Cost 2M. */
  sqr(a: Fp2): Fp2 {
    const F = this.Fp;
    return [F.mul(F.add(a[0], a[1]), F.sub(a[0], a[1])), F.mul(F.add(a[0], a[0]), a[1])];
  }
  /** Conjugate a0 − a1·i = a^p (the Frobenius). */
  conj(a: Fp2): Fp2 {
    return [a[0], this.Fp.neg(a[1])];
  }
  /** Norm a·conj(a) = a0² + a1² ∈ F_p. Cost 2S. */
  norm(a: Fp2): bigint {
    return this.Fp.add(this.Fp.sqr(a[0]), this.Fp.sqr(a[1]));
  }
  /** 1/a = conj(a)/norm(a); inv(0) = 0 like the base field. Cost 1I + 2S + 2M. */
  inv(a: Fp2): Fp2 {
    const t = this.Fp.inv(this.norm(a));
    return [this.Fp.mul(a[0], t), this.Fp.neg(this.Fp.mul(a[1], t))];
  }
  eq(a: Fp2, b: Fp2): boolean {
    return this.Fp.eq(a[0], b[0]) && this.Fp.eq(a[1], b[1]);
  }
  isZero(a: Fp2): boolean {
    return this.Fp.isZero(a[0]) && this.Fp.isZero(a[1]);
  }
  pow(a: Fp2, e: bigint): Fp2 {
    let r: Fp2 = this.one;
    for (const bit of e.toString(2)) {
      r = this.sqr(r);
      if (bit === '1') r = this.mul(r, a);
    }
    return r;
  }
  /**
   * A square root, or undefined for a non-square: Algorithm 9 of Adj and Rodríguez-Henríquez,
   * "Square root computation over even extension fields" (eprint 2012/685), for p ≡ 3 mod 4:
   * a1 = a^((p−3)/4), α = a1²·a, x0 = a1·a; α = −1 → i·x0; else (1 + α)^((p−1)/2)·x0; non-square
   * iff α^p·α = −1. Which of the two roots comes out is fixed by the algorithm (callers pick the sign).
   */
  sqrt(a: Fp2): Fp2 | undefined {
    const { p } = this;
    const a1 = this.pow(a, (p - 3n) / 4n);
    const alpha = this.mul(this.sqr(a1), a);
    const a0 = this.mul(this.conj(alpha), alpha);
    const minusOne: Fp2 = [p - 1n, 0n];
    if (this.eq(a0, minusOne)) return undefined;
    const x0 = this.mul(a1, a);
    if (this.eq(alpha, minusOne)) return [this.Fp.neg(x0[1]), x0[0]];
    const b = this.pow(this.add(this.one, alpha), (p - 1n) / 2n);
    return this.mul(b, x0);
  }
  /**
   * The "lexicographically largest" predicate of the ZCash G2 encoding (sort flag): c1 > (p − 1)/2,
   * or c1 = 0 and c0 > (p − 1)/2.
   */
  isLargest(a: Fp2): boolean {
    const half = (this.p - 1n) / 2n;
    return a[1] !== 0n ? a[1] > half : a[0] > half;
  }
}
