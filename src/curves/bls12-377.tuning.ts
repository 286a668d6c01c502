/**
 * bls12-377 tuning values, in one place, each with the command that measured it. The measurements
 * behind them: docs/performance.md ("Tuning measurements of the other curves"); the cache values
 * every curve shares: src/curves/cache.tuning.ts.
 */
import type { CurveTuning } from './types.js';
export const bls12_377Tuning: CurveTuning = {
  fp: { w: 30, mul: 'karatsuba', measuredBy: 'npm run bench:field -- --curves bls12-377' },
  /** not measured yet: the cost model in src/msm/plan.ts picks c */
  msmWindow: { table: [], measuredBy: '' },
};
