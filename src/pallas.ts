/**
 * pallas: `import { pallas } from 'pippin'` (or 'pippin/pallas'). Points: 64 bytes x‖y little-endian as o1js lays out fields (infinity = 64 zero bytes), or arkworks (65 / 33 bytes).
 *
 * @example
 * ```ts
 * import { pallas } from 'pippin';
 * await pallas.init();
 * const sum = pallas.g1.msm(pointBytes, scalarBytes); // { x, y, infinity }
 * ```
 */
import { defineCurve } from './api/curve.js';
import { pallas as params } from './curves/pallas.js';
import { pallasTuning } from './curves/pallas.tuning.js';
import * as generated from './wasm-generated/pallas.js';

export type PastaFormat = 'pasta' | 'arkworks' | 'arkworks-compressed';

export const pallas = defineCurve<PastaFormat>({ name: 'pallas', params, module: generated, msmWindow: pallasTuning.msmWindow });
