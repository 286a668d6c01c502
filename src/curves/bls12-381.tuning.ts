/**
 * BLS12-381 tuning values, in one place. Each value names the command that measured it.
 *
 * Limb width and Montgomery product variant (field kernels):
 *   measured with `npm run bench:field -- --variants` (all w × {cios-loop, karatsuba} in one run);
 *   w = 30 with one level of Karatsuba + separated reduction was fastest for both Fp and Fr.
 *   See docs/field.md for the table.
 */
import type { CurveTuning } from './types.js';

/**
 * MSM window size c by point count, measured single-threaded on the 2-core EPYC (Zen 5) dev machine
 * with `npm run bench:windows -- --sizes 8,10,12,14,16,18 --runs 5` (median ms per c, docs/msm.md).
 * Best c: 2^8 → 7, 2^10 → 8 (≈ 10), 2^12 → 12, 2^14 → 13, 2^16 → 13, 2^18 → 13.
 * 2^16 and 2^18 re-measured after the temporaries pool grew to 2B + L slots (c = 16 then carries
 * 3 MB more per thread) and with threads, c values interleaved:
 * `npm run bench:windows -- --sizes 16,18 --cs 12,13,14,16 --runs 5 [--threads 2]`, median ms:
 *   1 thread   2^16: 796, 718, 764, 816   2^18: 3150, 2850, 2914, 2988
 *   2 threads  2^16: 430, 372, 394, 408   2^18: 1723, 1515, 1525, 1586
 * so one table serves both thread counts (c = 13: K = 10 windows, 5 per thread; each thread's
 * buckets and temporaries, ≈ 1.2 MB, stay in its 2 MB L2).
 * The op-count model in src/msm/plan.ts picks smaller c at 2^12, where it underrates the cost of
 * more windows relative to the (cheap, cache-friendly) reduction.
 * Sizes between measured points take the nearer one (by log2); beyond 2^19 the model decides.
 */
export const bls12_381Tuning: CurveTuning = {
  fp: { w: 30, mul: 'karatsuba', measuredBy: 'npm run bench:field -- --variants' },
  fr: { w: 30, mul: 'karatsuba', measuredBy: 'npm run bench:field -- --variants' },
  msmWindow: {
    table: [[8, 7], [10, 8], [12, 12], [14, 13], [16, 13], [18, 13]],
    measuredBy: 'npm run bench:windows -- --sizes 8,10,12,14,16,18 --runs 5; 2^16 and 2^18: -- --sizes 16,18 --cs 12,13,14,16 --runs 5 [--threads 2]',
  },
};
