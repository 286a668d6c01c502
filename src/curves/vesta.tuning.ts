/**
 * vesta tuning values, in one place. Each value names the command that measured it.
 *
 * Base-field limb width and Montgomery product variant: `npm run bench:field -- --curves vesta`
 * (all w ∈ 26…30 × {cios-loop, karatsuba}, interleaved; table in docs/curves.md): 9 limbs either way at w = 29 or 30; the CIOS loop without intermediate carries is ≈ 4% faster than Karatsuba at n = 9.
 * The scalar field is not used by the MSM kernels (scalars are split as integers), so it has no entry.
 *
 * MSM window size: not measured yet for this curve — the cost model of the planner (src/msm/plan.ts) decides.
 */
import type { CurveTuning } from './types.js';
export const vestaTuning: CurveTuning = {
  fp: { w: 29, mul: 'cios-loop', measuredBy: 'npm run bench:field -- --curves vesta' },
  /** not measured yet: the cost model in src/msm/plan.ts picks c */
  msmWindow: { table: [], measuredBy: '' },
};
