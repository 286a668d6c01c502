/**
 * bn254: `import { bn254 } from 'pippin'` (or 'pippin/bn254'). Points: EIP-196 (64 bytes x‖y big-endian; infinity = 64 zero bytes) or arkworks LE.
 *
 * @example
 * ```ts
 * import { bn254 } from 'pippin';
 * await bn254.init();
 * const sum = bn254.g1.msm(pointBytes, scalarBytes); // { x, y, infinity }
 * ```
 */
import { defineCurve } from './api/curve.js';
import { bn254 as params } from './curves/bn254.js';
import { bn254Tuning } from './curves/bn254.tuning.js';
import * as generated from './wasm-generated/bn254.js';

export type Bn254Format = 'eip196' | 'arkworks' | 'arkworks-compressed';

export const bn254 = defineCurve<Bn254Format>({ name: 'bn254', params, module: generated, msmWindow: bn254Tuning.msmWindow });
