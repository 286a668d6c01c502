/**
 * pippin — multi-scalar multiplication in WebAssembly.
 *
 * @example
 * ```ts
 * import { bls12_381 } from 'pippin';
 * await bls12_381.init();
 * const { x, y, infinity } = bls12_381.g1.msm(points, scalars);
 * ```
 */
export { bls12_381 } from './bls12-381.js';
export type { G1Affine, G1PointInput, G1Format, MsmOptions, PointFormatSpec, Validation } from './api/g1.js';
export type { Curve } from './api/curve.js';
export * from './api/errors.js';
