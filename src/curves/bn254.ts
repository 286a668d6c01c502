/**
 * BN254 G1 (alt_bn128, as used by Ethereum's precompiles and circom): E: y² = x³ + 3 over F_p.
 *
 * A Barreto–Naehrig curve with parameter u = 4965661367192848881 (0x44e992b44a6909f1):
 *   p = 36u⁴ + 36u³ + 24u² + 6u + 1,  r = 36u⁴ + 36u³ + 18u² + 6u + 1,  h1 = 1 (E(F_p) = G1).
 * Generator (1, 2) as in EIP-196. The endomorphism pair is the one with the smaller of the two
 * cube roots of unity mod r (lambda has 192 bits) and the beta that makes
 * lambda·(x, y) = (beta·x, y); r = lambda² + lambda + 1 does NOT hold here. arkworks
 * (ark-bn254 0.5) uses the other pair (beta², lambda²).
 * All of this is verified by checkCurveParams (src/curves/check.ts), and p, r, a, b, the
 * generator and the cofactor are compared with arkworks' values in test/vectors.test.ts
 * (vectors/bn254.json).
 */
import type { CurveDescriptor, CurveParams } from './types.js';
import type { G2Params } from './g2.js';
import { bn254Tuning } from './bn254.tuning.js';

export const bn254: CurveParams = Object.freeze({
  name: 'bn254',
  p: 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n,
  r: 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n,
  a: 0n,
  b: 3n,
  G1: Object.freeze({ x: 1n, y: 2n }),
  h1: 1n,
  beta: 0x59e26bcea0d48bacd4f263f1acdb5c4f5763473177fffffen,
  lambda: 0xb3c4d79d41a917585bfc41088d8daaa78b17ea66b99c90ddn,
});

/** G2: the twist, its generator, cofactor, GLV beta, ψ constants and formats (src/curves/g2.ts). */
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
  // the optimal ate pairing: loop over 6u + 2 (NAF) and the two Frobenius lines, ξ = 9 + i (b' = 3/ξ)
  pairing: { family: 'bn', u: 0x44e992b44a6909f1n, xi: [9n, 1n], twist: 'D' },
});

/** The bn254 descriptor: parameters, point encodings (EIP-196/197 (Ethereum precompiles) and ark-bn254's encodings; the first is the primary one), tuning. */
export const bn254Curve = Object.freeze({
  name: 'bn254',
  params: bn254,
  formats: ['eip196', 'arkworks', 'arkworks-compressed'] as const,
  tuning: bn254Tuning,
  g2: bn254G2,
  /** the shipped module also carries F_r's kernels (fr_*: element and array kernels, for the Groth16 prover's H polynomial; src/codegen/module.ts shipsScalarField) */
  frKernels: true,
  /** the shipped modules (i32 and wide64) also carry the pairing's kernels (fp12_*, pairing_*: src/codegen/pairing.ts) */
  pairingKernels: true,
  /** r − 1 = 2^28·t; g = 5 as ffjavascript's bn128 F_r (snarkjs's Groth16 domain ω_k = 5^(t·2^(28−k)), coset shift ω_(k+1)) */
  frRoots: Object.freeze({ generator: 5n, twoAdicity: 28 }),
}) satisfies CurveDescriptor;
