/**
 * Plain-data description of a short Weierstrass curve y² = x³ + a·x + b over F_p
 * with a prime-order subgroup of order r (the "G1" group) and a GLV endomorphism.
 *
 * Instances are frozen plain objects; nothing here computes. Use
 * `checkCurveParams` (src/curves/check.ts) to verify a set of parameters.
 */
export interface CurveParams {
  /** Curve identifier, e.g. 'bls12-381'. */
  readonly name: string;
  /** Base field modulus. */
  readonly p: bigint;
  /** Prime order of the G1 subgroup (the scalar field modulus). */
  readonly r: bigint;
  /** Curve coefficient a. */
  readonly a: bigint;
  /** Curve coefficient b. */
  readonly b: bigint;
  /** Generator of the order-r subgroup, affine coordinates. */
  readonly G1: { readonly x: bigint; readonly y: bigint };
  /** Cofactor: #E(F_p) = h1 · r. */
  readonly h1: bigint;
  /** Primitive cube root of unity in F_p (for the endomorphism (x, y) ↦ (beta·x, y)). */
  readonly beta: bigint;
  /**
   * Primitive cube root of unity in F_r such that lambda·(x, y) = (beta·x, y)
   * for every point of the order-r subgroup.
   */
  readonly lambda: bigint;
}
