/**
 * Vesta: E_q: y² = x³ + 5 over F_q, q = 2^254 + 45560315531506369815346746415080538113,
 * of prime order r = 2^254 + 45560315531419706090280762371685220353 (h1 = 1): the other half of
 * the Pasta cycle, with base and scalar fields swapped relative to Pallas (src/curves/pallas.ts).
 *
 * Generator (-1, 2) = (q - 1, 2), as in arkworks' ark-vesta. The endomorphism pair uses the
 * smaller of the two cube roots of unity mod r as lambda (253 bits; r = lambda² + lambda + 1
 * does not hold), with the beta that makes lambda·(x, y) = (beta·x, y). Since the fields are
 * swapped, Vesta's beta is Pallas' lambda and vice versa. arkworks (ark-vesta 0.5) uses the
 * other pair (beta², lambda²).
 * All of this is verified by checkCurveParams (src/curves/check.ts), and p, r, a, b, the
 * generator and the cofactor are compared with arkworks' values in test/vectors.test.ts
 * (vectors/vesta.json).
 */
import type { CurveDescriptor, CurveParams } from './types.js';
import { vestaTuning } from './vesta.tuning.js';

export const vesta: CurveParams = Object.freeze({
  name: 'vesta',
  p: 0x40000000000000000000000000000000224698fc0994a8dd8c46eb2100000001n,
  r: 0x40000000000000000000000000000000224698fc094cf91b992d30ed00000001n,
  a: 0n,
  b: 5n,
  G1: Object.freeze({ x: 0x40000000000000000000000000000000224698fc0994a8dd8c46eb2100000000n, y: 2n }),
  h1: 1n,
  beta: 0x06819a58283e528e511db4d81cf70f5a0fed467d47c033af2aa9d2e050aa0e4fn,
  lambda: 0x12ccca834acdba712caad5dc57aab1b01d1f8bd237ad31491dad5ebdfdfe4ab9n,
});

/** The vesta descriptor: parameters, point encodings (the o1js field layout and ark-vesta's encodings; the first is the primary one), tuning. */
export const vestaCurve = Object.freeze({
  name: 'vesta',
  params: vesta,
  formats: ['pasta', 'arkworks', 'arkworks-compressed'] as const,
  tuning: vestaTuning,
}) satisfies CurveDescriptor;
