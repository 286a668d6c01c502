/**
 * pallas tuning values, in one place, each with the command that measured it. The measurements
 * behind them: docs/performance.md ("Tuning measurements of the other curves"); the cache values
 * every curve shares: src/curves/cache.tuning.ts.
 */
import type { CurveTuning } from './types.js';
export const pallasTuning: CurveTuning = {
  fp: { w: 29, mul: 'cios-loop', measuredBy: 'npm run bench:field -- --curves pallas' },
  /** not measured yet: the cost model in src/msm/plan.ts picks c */
  msmWindow: { table: [], measuredBy: '' },
};
