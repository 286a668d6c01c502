/**
 * BLS12-381 tuning values, in one place, each with the command that measured it. The measurements
 * behind them, per CPU and engine: docs/performance.md ("BLS12-381 tuning measurements").
 */
import type { CurveTuning } from './types.js';

/** MSM window c by log2 of the point count (sizes between rows take the nearer row; beyond 2^19 the cost model in src/msm/plan.ts). */
export const bls12_381Tuning: CurveTuning = {
  fp: { w: 30, mul: 'karatsuba3-fips', measuredBy: 'npm run bench:field -- --variants (Node 20 and 24); npm run bench:field -- --browser --variants --backend i32' },
  fr: { w: 30, mul: 'karatsuba2-fips', measuredBy: 'npm run bench:field -- --variants --fr (Node 20 and 24)' },
  msmWindow: {
    table: [[8, 7], [10, 8], [12, 12], [14, 13], [16, 15], [17, 16], [18, 16]],
    measuredBy: 'npm run bench:windows -- --sizes 8,10,12,14,16,18 --runs 5; 2^16 and 2^18: -- --sizes 16,18 --cs 13,14,15,16 --runs 5 [--threads 2]; 2^18 after the shared-y triples: -- --sizes 18 --cs 13,14,15,16 --runs 5; with the working-set model: -- --sizes 12,14,16 --cs 11,12,13,14,15 --runs 5 and -- --sizes 16,18 --cs 12,13,14,15,16 --runs 7; windows of two widths: -- --sizes 14,15,16,17 --cs 12,13,14,15,16 --runs 5 and -- --sizes 16,17 --cs 13,14,15,16 --runs 5 --threads 2, with windows cut to balance threads: -- --sizes 16 --cs 13,15,16 --runs 7 --threads 2; G2: pippin msm --group g2 --size 16|17 --window 13|15|16 --runs 3',
  },
  straus: {
    g1: 36,
    g2: 20,
    measuredBy: "npm run bench:straus -- --curve bls12-381 --group g1|g2 --sizes 32,36,40,44,48,52,56,64 --runs 61 (g2: --sizes 16,20,24,28,32,36,40 --runs 31) (Intel Xeon, Node 20.20.2, buckets with the joint reduction; median of the rounds' straus / buckets ≈ 1 at n ≈ 36…40 on G1, ≈ 24 on G2; the thresholds sit one step below)",
  },
  subgroupBatchFrom: {
    g1: 144,
    measuredBy: "npm run bench:subgroup-msm -- --curve bls12-381 --group g1|g2 --sizes 96,128,144,162,200,256 --runs 5 (Intel Xeon, Node 20.20.2): batched ÷ exact G1 1.10 at 128, 0.94 at 144, 0.86 at 162; G2 1.18 at 128, 1.00 at 162, 0.90 at 200 (G2 keeps 2 per combination, 162)",
  },
};
