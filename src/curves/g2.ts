/**
 * The G2 group spec of the pairing curves with a G2 MSM (the `g2` of their descriptors in
 * src/curves/bls12-381.ts and src/curves/bn254.ts): the sextic twist E': y² = x³ + b' over F_p² = F_p[i]/(i² + 1)
 * and its order-r subgroup. Plain data (coordinates [c0, c1] = c0 + c1·i), verified by
 * test/g2-reference.test.ts against @noble/curves (generator, b', group order) and by the G2
 * reference (src/reference/g2.ts) at construction (beta acts as lambda, ψ constants).
 *
 * - BLS12-381: M-type twist b' = 4(1 + i) (the IETF pairing-friendly-curves draft, ZCash).
 * - BN254: D-type twist b' = 3/(9 + i) of EIP-197.
 * The GLV endomorphism (x, y) ↦ (beta·x, y) with beta ∈ F_p a cube root of unity acts on G2 too, as
 * lambda (the G1 descriptor's lambda, so the same scalar split carries over) for the beta below,
 * which is the G1 beta or its square (the one that matches, found by test).
 * Subgroup test: ψ(P) = [psiEigen]P with ψ = twist⁻¹ ∘ Frobenius ∘ twist, ψ(x, y) =
 * (psiX·conj(x), psiY·conj(y)); psiEigen = z (BLS12-381, Bowe's test as proven in eprint 2021/1130 §4)
 * and 6u² (BN254, eprint 2022/352 Prop. 3 for BN curves: ψ(P) = [6u²]P iff P ∈ G2).
 */
import type { CurveParams } from './types.js';

export type Fp2Pair = readonly [bigint, bigint];

/**
 * G2 point encodings: the G1 names where the layout is of the same family, and EIP-197 (BN254).
 *
 * @example
 * ```ts
 * import { bls12_381, type G2FormatName } from 'pippin';
 * await bls12_381.init();
 * const format: G2FormatName = 'zcash-compressed';
 * console.log(bls12_381.g2.toBytes(null, format).length); // → 96
 * ```
 */
export type G2FormatName = 'zcash' | 'zcash-compressed' | 'arkworks' | 'arkworks-compressed' | 'eip197';

/**
 * The optimal ate pairing's parameters (src/codegen/pairing.ts, src/reference/pairing.ts): the
 * family's loop over the curve parameter u and the tower's ξ (F_p⁶ = F_p²[v]/(v³ − ξ), F_p¹² =
 * F_p⁶[w]/(w² − v)).
 */
export interface PairingParams {
  /**
   * 'bls12': the loop runs over the bits of |u| and conjugates for u < 0; 'bn': over 6u + 2 in
   * NAF, then the lines through π(Q) and −π²(Q)
   */
  readonly family: 'bls12' | 'bn';
  /** the curve parameter (BLS12-381: −0xd201000000010000; BN254: 0x44e992b44a6909f1) */
  readonly u: bigint;
  /** ξ = c0 + c1·i with v³ = ξ */
  readonly xi: Fp2Pair;
  /** M-type: b′ = b·ξ (lines of the sparse shape 014); D-type: b′ = b/ξ (shape 034). Checked by the reference. */
  readonly twist: 'M' | 'D';
}

export interface G2Params {
  readonly name: string;
  /** the G1 descriptor's parameters (p, r, lambda shared) */
  readonly g1: CurveParams;
  readonly b: Fp2Pair;
  readonly G2: { readonly x: Fp2Pair; readonly y: Fp2Pair };
  /** #E'(F_p²) = h2 · r */
  readonly h2: bigint;
  /** cube root of unity in F_p with (beta·x, y) = [lambda]P on G2 */
  readonly beta: bigint;
  /** ψ(x, y) = (psiX·conj(x), psiY·conj(y)) */
  readonly psiX: Fp2Pair;
  readonly psiY: Fp2Pair;
  /** ψ(P) = [psiEigen]P exactly on G2 (an integer, may be negative) */
  readonly psiEigen: bigint;
  /** the point encodings, primary first */
  readonly formats: readonly G2FormatName[];
  /** the pairing's parameters, where implemented (built into the module when the descriptor sets pairingKernels) */
  readonly pairing?: PairingParams;
}

/** A step of the Miller loop: T ← 2T, T ← T ± Q, or (BN) T ← T + π(Q), T ← T − π²(Q); each gives one line. */
export type MillerStep = 'dbl' | 'add' | 'sub' | 'frob1' | 'frob2';

/**
 * The Miller loop's schedule. BLS12: for each bit of |u| below the leading one a doubling, then an
 * addition where the bit is 1. BN: the same over the NAF digits of 6u + 2 (−1: T − Q), then the two
 * Frobenius additions.
 */
export function millerSchedule(params: Pick<PairingParams, 'family' | 'u'>): MillerStep[] {
  const { family, u } = params;
  const n = family === 'bn' ? 6n * u + 2n : u < 0n ? -u : u;
  const digits: number[] = [];
  if (family === 'bn') {
    // NAF, least significant first
    for (let k = n; k > 0n; k >>= 1n) {
      let d = 0;
      if (k & 1n) {
        d = 2 - Number(k & 3n);
        k -= BigInt(d);
      }
      digits.push(d);
    }
  } else for (const b of n.toString(2)) digits.unshift(b === '1' ? 1 : 0);
  const steps: MillerStep[] = [];
  for (let i = digits.length - 2; i >= 0; i--) {
    steps.push('dbl');
    if (digits[i] === 1) steps.push('add');
    if (digits[i] === -1) steps.push('sub');
  }
  if (family === 'bn') steps.push('frob1', 'frob2');
  return steps;
}
