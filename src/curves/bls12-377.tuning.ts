/**
 * bls12-377 tuning values, in one place. Each value names the command that measured it.
 *
 * Base-field limb width and Montgomery product variant: `npm run bench:field -- --curves bls12-377`
 * (all w ∈ 26…30 × {cios-loop, karatsuba}, interleaved; table in docs/curves.md): w = 30 with Karatsuba: 59.8 ns vs 69.0 (CIOS loop, w = 30) and ≥ 66.4 at w ≤ 29.
 * The scalar field is not used by the MSM kernels (scalars are split as integers), so it has no entry.
 *
 * MSM window size: not measured yet for this curve — the cost model of the planner (src/msm/plan.ts) decides.
 */
import type { CurveTuning } from './types.js';
export const bls12_377Tuning: CurveTuning = {
  fp: { w: 30, mul: 'karatsuba', measuredBy: 'npm run bench:field -- --curves bls12-377' },
  /** not measured yet: the cost model in src/msm/plan.ts picks c */
  msmWindow: { table: [], measuredBy: '' },
};
