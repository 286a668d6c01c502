/**
 * Cache values of the MSM planner (src/msm/plan.ts), for every curve: the per-thread L2 the window
 * and batch choice must fit by default, and the measured cost of an accumulation addition whose
 * bucket misses L2. docs/msm.md ("Working set"), docs/performance.md ("Cache tuning measurements").
 */
export const cacheTuning = {
  /** bytes of L2 per core the accumulation's working set should fit: the small end of common CPUs (AMD Zen 2/3) */
  l2Bytes: 512 * 1024,
  /** field multiplications an accumulation addition costs more when its bucket is not in L2 (touch pass on) */
  missMuls: 0.5,
  measuredBy: 'npm run msm -- --size 16 --threads 1 --explain --validate none (the "L2 miss" line, Intel Xeon, 2 MiB L2)',
} as const;
