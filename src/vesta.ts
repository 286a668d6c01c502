/**
 * vesta: `import { vesta } from 'pippin'` (or 'pippin/vesta'). Points: 64 bytes x‖y little-endian as o1js lays out fields (infinity = 64 zero bytes), or arkworks (65 / 33 bytes).
 *
 * @example
 * ```ts
 * import { vesta } from 'pippin';
 * await vesta.init();
 * const sum = vesta.g1.msm(pointBytes, scalarBytes); // { x, y, infinity }
 * ```
 */
import { defineCurve } from './api/curve.js';
import { vesta as params } from './curves/vesta.js';
import { vestaTuning } from './curves/vesta.tuning.js';
import * as generated from './wasm-generated/vesta.js';

import type { PastaFormat } from './pallas.js';

export const vesta = defineCurve<PastaFormat>({ name: 'vesta', params, module: generated, msmWindow: vestaTuning.msmWindow });
