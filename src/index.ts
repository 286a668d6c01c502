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
import { bls12_381 } from './bls12-381.js';
import { bn254 } from './bn254.js';
import { bls12_377 } from './bls12-377.js';
import { pallas } from './pallas.js';
import { vesta } from './vesta.js';

export { bls12_381, bn254, bls12_377, pallas, vesta };
/** Every curve by name (CLI, demo, benchmarks and tests iterate over this). */
export const curves = { 'bls12-381': bls12_381, bn254, 'bls12-377': bls12_377, pallas, vesta } as const;
export type CurveName = keyof typeof curves;
export type { Bn254Format } from './bn254.js';
export type { Bls12_377Format } from './bls12-377.js';
export type { PastaFormat } from './pallas.js';
export type { G1Affine, G1PointInput, G1Format, MsmOptions, PointFormatSpec, Validation } from './api/g1.js';
export type { Curve } from './api/curve.js';
export * from './errors.js';
export { startThreads, stopThreads, threads } from './runtime/pool.js';
