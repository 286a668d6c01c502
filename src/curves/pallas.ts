/**
 * Pallas: E_p: y² = x³ + 5 over F_p, p = 2^254 + 45560315531419706090280762371685220353,
 * of prime order r = 2^254 + 45560315531506369815346746415080538113 (h1 = 1). Pallas and
 * Vesta form a cycle: Pallas' base field is Vesta's scalar field and vice versa
 * (src/curves/vesta.ts).
 *
 * Generator (-1, 2) = (p - 1, 2), as in arkworks' ark-pallas ((-1)³ + 5 = 4 = 2²). The
 * endomorphism pair uses the smaller of the two cube roots of unity mod r as lambda (251 bits;
 * neither root is short, and r = lambda² + lambda + 1 does not hold), with the beta that makes
 * lambda·(x, y) = (beta·x, y). arkworks (ark-pallas 0.5) uses the other pair (beta², lambda²).
 * All of this is verified by checkCurveParams (src/curves/check.ts), and p, r, a, b, the
 * generator and the cofactor are compared with arkworks' values in test/vectors.test.ts
 * (vectors/pallas.json).
 */
import type { CurveDescriptor, CurveParams } from './types.js';
import { pallasTuning } from './pallas.tuning.js';

export const pallas: CurveParams = Object.freeze({
  name: 'pallas',
  p: 0x40000000000000000000000000000000224698fc094cf91b992d30ed00000001n,
  r: 0x40000000000000000000000000000000224698fc0994a8dd8c46eb2100000001n,
  a: 0n,
  b: 5n,
  G1: Object.freeze({ x: 0x40000000000000000000000000000000224698fc094cf91b992d30ed00000000n, y: 2n }),
  h1: 1n,
  beta: 0x12ccca834acdba712caad5dc57aab1b01d1f8bd237ad31491dad5ebdfdfe4ab9n,
  lambda: 0x06819a58283e528e511db4d81cf70f5a0fed467d47c033af2aa9d2e050aa0e4fn,
});

/** The pallas descriptor: parameters, point encodings (the o1js field layout and ark-pallas's encodings; the first is the primary one), tuning. */
export const pallasCurve = Object.freeze({
  name: 'pallas',
  params: pallas,
  formats: ['pasta', 'arkworks', 'arkworks-compressed'] as const,
  tuning: pallasTuning,
}) satisfies CurveDescriptor;
