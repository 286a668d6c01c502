/** Primes the generator instantiates, taken from the curve parameter files (no second copy). */
import { bls12_381 } from '../curves/bls12-381.js';

export const BLS12_381_P = bls12_381.p;
export const BLS12_381_R = bls12_381.r;
