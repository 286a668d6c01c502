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
import { G1 } from './api/g1.js';
import { NotInitializedError } from './api/errors.js';
import { bls12_381 as params } from './curves/bls12-381.js';
import { bls12_381Tuning } from './curves/bls12-381.tuning.js';
import { instantiateGenerated } from './runtime/instance.js';
import * as generated from './wasm-generated/bls12_381.js';

let g1: G1 | undefined;
let initializing: Promise<void> | undefined;

export const bls12_381 = {
  name: 'bls12-381' as const,
  /** Curve parameters (p, r, b, generator, cofactor, GLV β and λ). */
  params,
  /** Instantiates the Wasm module once; later calls return the same promise. */
  init(): Promise<void> {
    initializing ??= instantiateGenerated(generated).then((inst) => {
      g1 = new G1(inst, params.r, bls12_381Tuning.msmWindow);
    });
    return initializing;
  },
  /** G1 MSM and codecs; throws NotInitializedError before `init()` resolved. */
  get g1(): G1 {
    if (!g1) throw new NotInitializedError('bls12_381.init() must be awaited before using g1');
    return g1;
  },
};
