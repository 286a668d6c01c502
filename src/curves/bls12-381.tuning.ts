/**
 * BLS12-381 tuning values, in one place. Each value names the command that measured it.
 *
 * Limb width and Montgomery product variant (field kernels):
 *   measured with `npm run bench:field -- --variants` (all w × {cios-loop, karatsuba} in one run);
 *   w = 30 with one level of Karatsuba + separated reduction was fastest for both Fp and Fr.
 *   See docs/field.md for the table.
 */
import { windowFromTable } from '../msm/plan.js';

export const bls12_381Tuning = {
  fp: { w: 30, mul: 'karatsuba' },
  fr: { w: 30, mul: 'karatsuba' },
  msmWindow: (halves: number) => msmWindow(halves),
} as const;

/**
 * MSM window size c by point count, measured single-threaded on the 2-core EPYC (Zen 5) dev machine
 * with `npm run bench:windows -- --sizes 8,10,12,14,16,18 --runs 5` (median ms per c, docs/msm.md).
 * Best c: 2^8 → 7, 2^10 → 8 (≈ 10), 2^12 → 12, 2^14 → 13, 2^16 → 13, 2^18 → 16 (halves < 2^127 give
 * K = ⌈128/c⌉ windows, so c = 16 needs 8; `--sizes 18 --cs 13,15,16`: 3274, 3091, 2902 ms).
 * The op-count model in src/msm/plan.ts picks smaller c at 2^12, where it underrates the cost of
 * more windows relative to the (cheap, cache-friendly) reduction.
 * Sizes between measured points take the nearer one (by log2); beyond 2^19 the model decides.
 */
export const msmWindow = windowFromTable([
  [8, 7],
  [10, 8],
  [12, 12],
  [14, 13],
  [16, 13],
  [18, 16],
]);
