/**
 * bls12-377: `import { bls12_377 } from 'pippin'` (or 'pippin/bls12-377'). Points: arkworks LE (96 bytes; 48 compressed).
 *
 * @example
 * ```ts
 * import { bls12_377 } from 'pippin';
 * await bls12_377.init();
 * const sum = bls12_377.g1.msm(pointBytes, scalarBytes); // { x, y, infinity }
 * ```
 */
import { defineCurve } from './api/curve.js';
import { bls12_377 as params } from './curves/bls12-377.js';
import { bls12_377Tuning } from './curves/bls12-377.tuning.js';
import * as generated from './wasm-generated/bls12_377.js';

export type Bls12_377Format = 'arkworks' | 'arkworks-compressed';

export const bls12_377 = defineCurve<Bls12_377Format>({ name: 'bls12-377', params, module: generated, msmWindow: bls12_377Tuning.msmWindow });
