/**
 * pippin — multi-scalar multiplication in WebAssembly: one object per curve (`bls12_381`, `bn254`,
 * `bls12_377`, `pallas`, `vesta`; also `pippin/<curve>`), its `init()`, and the same MSM API on `g1`
 * and `g2`; the thread pool; typed errors. Blob KZG is `pippin/kzg`, the snarkjs engine `pippin/snarkjs`.
 *
 * @module pippin
 * @example
 * ```ts
 * import { bls12_381 } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * const points = [G, G, G]; // or packed bytes: n × 96 ('zcash'), n × 48 ('zcash-compressed')
 * const scalars = [1n, 2n, 3n]; // or n × 32 bytes little-endian
 * const { x, y, infinity } = await bls12_381.g1.msm(points, scalars); // 6·G
 * console.log(infinity, x === bls12_381.g1.msmSync([G], [6n]).x); // → false true
 * ```
 */
// the curve objects (bls12_381, bn254, …) and `curves` by name, generated from the registry
export * from './wasm-generated/curves.js';
export type { Bls12_381Format, Bn254Format, Bls12_377Format, PastaFormat } from './curves/formats.js';
export type { ByteSource, Fp2, G1, G2, G1Affine, G1MsmStats, G1PointInput, G1Format, G2Affine, G2PointInput, Group, MsmCallStats, MsmOptions, MsmPhase, MsmProgress, PointFormatSpec, Validation } from './api/group.js';
export type { G2FormatName } from './curves/g2.js';
export { DEFAULT_MAX_MEMORY_BYTES } from './msm/stream.js';
export type { MsmStats } from './msm/program.js';
export type { PreparedBases, PrepareOptions, PreparedMsmOptions } from './api/prepared.js';
export type { Curve, Backend, CurveInfo, InitOptions } from './api/curve.js';
export * from './errors.js';
export { startThreads, stopThreads, threads, type PoolWorker, type StartThreadsOptions } from './runtime/pool.js';
