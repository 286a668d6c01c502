export { RefField, bigintToBytesLE, bytesToBigintLE, type BigintSource } from './field.js';
export { RefCurve, glvBasis, type Affine, type AffinePoint, type GlvVector, type GlvSplit } from './curve.js';
export { makeRng, type Rng } from './rng.js';
export type { CurveParams } from '../curves/types.js';
export { bls12_381 } from '../curves/bls12-381.js';
export { checkCurveParams, isProbablePrime } from '../curves/check.js';
