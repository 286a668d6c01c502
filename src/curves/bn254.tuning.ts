/**
 * bn254 tuning values, in one place. Each value names the command that measured it.
 *
 * Base-field limb width and Montgomery product variant: `npm run bench:field -- --curves bn254`
 * (all w ∈ 26…30 × {cios-loop, karatsuba}, interleaved; table in docs/curves.md): 9 limbs either way at w = 29 or 30; the CIOS loop without intermediate carries is ≈ 4% faster than Karatsuba at n = 9.
 * Scalar field F_r (shipped for the Groth16 prover's H polynomial; the MSM splits scalars as integers):
 * `npm run bench:field -- --variants --fr --curves bn254 --runs 7` (Intel Xeon, 2 vCPUs, Node 20.20.2,
 * one run, ns per mul / square): w = 29 karatsuba-fips 39.7 / 34.1, karatsuba 40.0 / 34.1, comba-fips
 * 43.3 / 34.0, cios-loop 45.5 / 34.3; w = 30 within 0.5 ns of w = 29; w = 26…28 4–12% slower.
 *
 * MSM window size c by point count, `npm run bench:windows -- --curve bn254 --sizes 10,12,14,16,18 --runs 5`
 * and `-- --curve bn254 --sizes 18 --cs 12,13,14` (median ms per c, docs/curves.md): best c 2^10 → 10,
 * 2^12 → 12, 2^14 → 13, 2^16 → 13, 2^18 → 13 (12: 2140, 13: 1829, 14: 2512 ms).
 */
import type { CurveTuning } from './types.js';

export const bn254Tuning: CurveTuning = {
  fp: { w: 29, mul: 'cios-loop', measuredBy: 'npm run bench:field -- --curves bn254' },
  fr: { w: 29, mul: 'karatsuba-fips', measuredBy: 'npm run bench:field -- --variants --fr --curves bn254 --runs 7' },
  msmWindow: {
    table: [[10, 10], [12, 12], [14, 13], [16, 13], [18, 13]],
    measuredBy: 'npm run bench:windows -- --curve bn254 --sizes 10,12,14,16,18 --runs 5',
  },
};
