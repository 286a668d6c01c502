/**
 * Plain-data description of a short Weierstrass curve y² = x³ + a·x + b over F_p
 * with a prime-order subgroup of order r (the "G1" group) and a GLV endomorphism.
 *
 * Instances are frozen plain objects; nothing here computes. Use
 * `checkCurveParams` (src/curves/check.ts) to verify a set of parameters.
 */
import type { PointFormatName } from '../abi/codes.js';
import type { G2Params } from './g2.js';
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
  readonly G1: {
    /** affine x */
    readonly x: bigint;
    /** affine y */
    readonly y: bigint;
  };
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

/** Montgomery product variant of the field kernels (src/codegen/field.ts). */
export const MUL_STRATEGIES = Object.freeze(['cios-loop', 'karatsuba', 'karatsuba-fips', 'karatsuba2-fips', 'karatsuba3-fips', 'comba-fips'] as const);
export type MulStrategy = (typeof MUL_STRATEGIES)[number];

/** Montgomery product variant of the 64-bit-limb kernels (src/codegen/field64.ts). */
export const WIDE_MULS = Object.freeze(['cios', 'fios'] as const);
export type WideMul = (typeof WIDE_MULS)[number];

/** Limb width and product variant of one field, with the command that measured them. */
export interface FieldTuning {
  readonly w: number;
  readonly mul: MulStrategy;
  readonly measuredBy: string;
}

/** A curve's measured tuning values, plain data (read by the generators and the MSM planner). */
export interface CurveTuning {
  /** the base field: the shipped kernels */
  readonly fp: FieldTuning;
  /** the scalar field (shipped where the descriptor sets frKernels, else dev builds and bench:field only; the MSM splits scalars as integers), default: fp's */
  readonly fr?: FieldTuning;
  /**
   * Best window size c by log2 of the point count, measured; sizes between rows take the nearer
   * row, sizes more than one step outside the table (or an empty table) the planner's cost model.
   */
  readonly msmWindow: { readonly table: readonly (readonly [logN: number, c: number])[]; readonly measuredBy: string };
  /**
   * Up to how many points (kept: finite, nonzero scalar) an MSM of each group runs msm_straus (one
   * interleaved wNAF pass) instead of buckets, measured; absent: DEFAULT_STRAUS_MAX_POINTS (src/msm/group.ts).
   */
  readonly straus?: { readonly g1: number; readonly g2?: number; readonly measuredBy: string };
  /**
   * From how many points 'full' validation of each group runs the batched (randomized) subgroup check
   * instead of exact per-point tests, measured; absent: batchedCheckFrom(cofactor) (src/msm/subgroup.ts:
   * 2 points per combination). Either path is exact or ≤ 2^−128 (docs/validation.md): only time differs.
   */
  readonly subgroupBatchFrom?: { readonly g1?: number; readonly g2?: number; readonly measuredBy: string };
}

/**
 * The 2-adic roots of unity of F_r as a prover's FFT domain takes them: r − 1 = 2^twoAdicity·t with t
 * odd, `generator` g a quadratic non-residue mod r, so g^t is a primitive 2^twoAdicity-th root of
 * unity and the domain of size 2^k has the root ω_k = g^(t·2^(twoAdicity − k)). Plain data, checked
 * in test/fr-arrays.test.ts.
 */
export interface ScalarFieldRoots {
  /** g: ffjavascript's (snarkjs's) choice, the smallest quadratic non-residue mod r */
  readonly generator: bigint;
  /** s: the largest power of two dividing r − 1 */
  readonly twoAdicity: number;
}

/**
 * Everything the build, the API, the CLI, the demo, the benchmarks and the tests know about a curve:
 * its parameters, its point encodings (the first is its primary one) and its tuning.
 */
export interface CurveDescriptor<F extends PointFormatName = PointFormatName> {
  readonly name: string;
  readonly params: CurveParams;
  readonly formats: readonly F[];
  readonly tuning: CurveTuning;
  /** the G2 group of a pairing curve with a G2 MSM (absent: G1 only) */
  readonly g2?: G2Params;
  /** the shipped module also carries the scalar field's kernels (fr_*: element and array kernels, for pippin/kzg and the Groth16 prover; src/codegen/module.ts shipsScalarField) */
  readonly frKernels?: boolean;
  /** the shipped modules also carry the pairing's kernels (fp12_*, pairing_*; needs `g2.pairing`: src/codegen/module.ts shipsPairing) */
  readonly pairingKernels?: boolean;
  /** F_r's roots of unity for FFT domains (src/msm/fr-arrays.ts) */
  readonly frRoots?: ScalarFieldRoots;
}
