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
export { bn254 } from './bn254.js';
export { bls12_377 } from './bls12-377.js';
export { pallas } from './pallas.js';
export { vesta } from './vesta.js';
export type { Bn254Format } from './bn254.js';
export type { Bls12_377Format } from './bls12-377.js';
export type { PastaFormat } from './pallas.js';
export type { G1Affine, G1PointInput, G1Format, MsmOptions, PointFormatSpec, Validation } from './api/g1.js';
export type { Curve } from './api/curve.js';
export * from './errors.js';
export { startThreads, stopThreads, threads } from './runtime/pool.js';
