/**
 * bn254 tuning values, in one place, each with the command that measured it. The measurements
 * behind them: docs/performance.md ("BN254 tuning measurements"); the cache values every curve
 * shares: src/curves/cache.tuning.ts.
 */
import type { CurveTuning } from './types.js';

export const bn254Tuning: CurveTuning = {
  fp: { w: 29, mul: 'karatsuba3-fips', measuredBy: 'npm run bench:field -- --variants --curves bn254 --runs 7' },
  fr: { w: 29, mul: 'karatsuba2-fips', measuredBy: 'npm run bench:field -- --variants --fr --curves bn254 --runs 7' },
  msmWindow: {
    table: [[10, 10], [12, 12], [14, 13], [16, 15], [17, 16], [18, 16]],
    measuredBy: 'npm run bench:windows -- --curve bn254 --sizes 10,12,14,16,18 --runs 5; 2^18: -- --curve bn254 --sizes 16,18 --cs 13,14,15,16 --runs 5; windows of two widths: -- --curve bn254 --sizes 16,17 --cs 13,15,16 --runs 5 [--threads 2]',
  },
  straus: {
    g1: 40,
    g2: 20,
    measuredBy: "npm run bench:straus -- --curve bn254 --sizes 32,40,48,56,64,72 --runs 41; --group g2 --sizes 16,20,24,28,32,36 --runs 31 (Intel Xeon, Node 20.20.2, buckets with the joint reduction; median of the rounds' straus / buckets ≈ 1 at n ≈ 44 on G1, ≈ 24 on G2; the thresholds sit one step below)",
  },
  subgroupBatchFrom: {
    g2: 128,
    measuredBy: "npm run bench:subgroup-msm -- --curve bn254 --group g2 --sizes 64,128,162,200,256 --runs 5 (Intel Xeon, Node 20.20.2): batched ÷ exact G2 1.63 at 64, 0.98 at 128, 0.75 at 162",
  },
};
