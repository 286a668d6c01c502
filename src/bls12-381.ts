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
  formats: [
    { name: 'zcash', code: 0, bytes: 96 },
    { name: 'zcash-compressed', code: 1, bytes: 48 },
    { name: 'arkworks', code: 2, bytes: 96 },
  ],
  defaultFormat: (bytesPerPoint) => (bytesPerPoint === 48 ? 'zcash-compressed' : 'zcash'),
  msmWindow: bls12_381Tuning.msmWindow,
});
