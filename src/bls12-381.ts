/**
 * BLS12-381: `import { bls12_381 } from 'pippin'` (or 'pippin/bls12-381').
 *
 * @example
 * ```ts
 * import { bls12_381 } from 'pippin';
 * await bls12_381.init();
 * const sum = bls12_381.g1.msm(pointBytes, scalarBytes); // { x, y, infinity }
 * ```
 */
import { defineCurve } from './api/curve.js';
import type { G1Format } from './api/g1.js';
import { bls12_381 as params } from './curves/bls12-381.js';
import { bls12_381Tuning } from './curves/bls12-381.tuning.js';
import * as generated from './wasm-generated/bls12_381.js';

export const bls12_381 = defineCurve<G1Format>({
  name: 'bls12-381',
  params,
  module: generated,
  // formats: the module's table (zcash 96, zcash-compressed 48, arkworks 96); 48 bytes per point
  // selects zcash-compressed, anything else zcash
  msmWindow: bls12_381Tuning.msmWindow,
});
