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

/** The bn254 descriptor: parameters, point encodings (EIP-196/197 (Ethereum precompiles) and ark-bn254's encodings; the first is the primary one), tuning. */
export const bn254Curve = Object.freeze({
  name: 'bn254',
  params: bn254,
  formats: ['eip196', 'arkworks', 'arkworks-compressed'] as const,
  tuning: bn254Tuning,
}) satisfies CurveDescriptor;
