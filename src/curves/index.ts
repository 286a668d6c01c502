/**
 * Registry of the curve descriptors (plain data, see types.ts). Only BLS12-381 has Wasm kernels
 * so far; the others are checked against arkworks' vectors (test/vectors.test.ts).
 */
import type { CurveParams } from './types.js';
import { bls12_381 } from './bls12-381.js';
import { bls12_377 } from './bls12-377.js';
import { bn254 } from './bn254.js';
import { pallas } from './pallas.js';
import { vesta } from './vesta.js';

export type { CurveParams } from './types.js';
export { bls12_381, bls12_377, bn254, pallas, vesta };

export const curves = Object.freeze({
  'bls12-381': bls12_381,
  bn254,
  'bls12-377': bls12_377,
  pallas,
  vesta,
} as const satisfies Record<string, CurveParams>);

export type CurveName = keyof typeof curves;
