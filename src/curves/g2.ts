/**
 * G2 of the pairing curves with a G2 MSM: the sextic twist E': y² = x³ + b' over F_p² = F_p[i]/(i² + 1)
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
import { bls12_381 } from './bls12-381.js';
import { bn254 } from './bn254.js';

export type Fp2Pair = readonly [bigint, bigint];

/** G2 point encodings: the G1 names where the layout is of the same family, and EIP-197 (BN254). */
export type G2FormatName = 'zcash' | 'zcash-compressed' | 'arkworks' | 'arkworks-compressed' | 'eip197';

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
}

export const bls12_381G2: G2Params = Object.freeze<G2Params>({
  name: 'bls12-381',
  g1: bls12_381,
  b: [4n, 4n],
  G2: {
    x: [
      0x24aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8n,
      0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7en,
    ],
    y: [
      0xce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801n,
      0x606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79ben,
    ],
  },
  h2: 0x5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5n,
  // the square of the G1 beta (the G1 beta acts as lambda² on G2)
  beta: 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffen,
  // M-type twist (b' = b·ξ, ξ = 1 + i): psiX = ξ^−((p−1)/3), psiY = ξ^−((p−1)/2)
  psiX: [0n, 0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaadn],
  psiY: [
    0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2n,
    0x6af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09n,
  ],
  // z, the BLS parameter
  psiEigen: -0xd201000000010000n,
  // ZCash/IETF (192 and 96 bytes), ark-ec's generic encoding (192)
  formats: ['zcash', 'zcash-compressed', 'arkworks'],
});

export const bn254G2: G2Params = Object.freeze<G2Params>({
  name: 'bn254',
  g1: bn254,
  // b' = 3/(9 + i)
  b: [
    19485874751759354771024239261021720505790618469301721065564631296452457478373n,
    266929791119991161246907387137283842545076965332900288569378510910307636690n,
  ],
  G2: {
    x: [0x1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6edn, 0x198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2n],
    y: [0x12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daan, 0x90689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975bn],
  },
  h2: 0x30644e72e131a029b85045b68181585e06ceecda572a2489345f2299c0f9fa8dn,
  // the square of the G1 beta (the G1 beta acts as lambda² on G2)
  beta: 0x30644e72e131a0295e6dd9e7e0acccb0c28f069fbb966e3de4bd44e5607cfd48n,
  // D-type twist (b' = b/ξ, ξ = 9 + i): psiX = ξ^((p−1)/3), psiY = ξ^((p−1)/2)
  psiX: [0x2fb347984f7911f74c0bec3cf559b143b78cc310c2c3330c99e39557176f553dn, 0x16c9e55061ebae204ba4cc8bd75a079432ae2a1d0b7c9dce1665d51c640fcba2n],
  psiY: [0x63cf305489af5dcdc5ec698b6e2f9b9dbaae0eda9c95998dc54014671a0135an, 0x7c03cbcac41049a0704b5a7ec796f2b21807dc98fa25bd282d37f632623b0e3n],
  // 6u², u = 0x44e992b44a6909f1 the BN parameter (p ≡ 6u² + 1 − 1 mod r: ψ acts as the trace minus one)
  psiEigen: 6n * 0x44e992b44a6909f1n ** 2n,
  // EIP-197 (128 bytes), ark-bn254's (128 and 64)
  formats: ['eip197', 'arkworks', 'arkworks-compressed'],
});

/** The G2 parameters by curve name (the curves that have a G2 MSM). */
export const g2Params = { 'bls12-381': bls12_381G2, bn254: bn254G2 } as const;
export type G2CurveName = keyof typeof g2Params;
