/**
 * BLS12-381 tuning values, in one place. Each value names the command that measured it.
 *
 * Limb width and Montgomery product variant (field kernels):
 *   measured with `npm run bench:field -- --variants` (all w × every variant in one run) on Node 20
 *   and on Node 24 (`$(bash scripts/node24.sh) --import tsx bench/field.ts --variants`), and in
 *   Chromium with `npm run bench:field -- --browser --variants --backend i32`; CPU: AMD EPYC family 26
 *   model 2 (Zen 5, 2 cores, KVM). Fp at w = 30, ns per mul / square:
 *                      Node 20.20.2 (V8 11.3)   Node 24.19.0 (V8 13.6)   Chromium 156
 *     cios-loop          66.2 / 49.1              68.2 / 62.0              68.5 / 61.6
 *     karatsuba          54.8 / 49.0              73.3 / 62.1              73.8 / 61.8
 *     karatsuba-fips     53.2 / 46.6              55.3 / 47.7              54.5 / 47.3
 *     comba-fips         53.7 / 46.4              58.2 / 47.8              56.3 / 47.3
 *   w = 30 with Karatsuba product columns scanned with the integrated reduction (karatsuba-fips) is
 *   fastest on all three engines, so one variant ships (no start-up choice); w = 26..29 are slower
 *   for every variant. Fr (scratch run of the same loops, Node 20): karatsuba-fips 28.5 / 23.6,
 *   karatsuba 30.6 / 25.5, comba-fips 27.8 / 23.4 (within noise), cios-loop 29.1 / 25.5.
 *   See docs/performance.md, "The product kernels on Node 20, Node 24 and Chromium".
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
 * Re-measured on another Zen 5 host (AMD EPYC family 26 model 2, L2 1 MiB per core, Node 20.20.2,
 * quiet) after the karatsuba-fips product and the 2^15-item accumulation slices, c values interleaved:
 * `npm run bench:windows -- --sizes 16,18 --cs 13,14,15,16 --runs 5 [--threads 2]`, median ms:
 *   1 thread   2^16: 642.3, 624.0, 617.8, 623.3   2^18: 2511.8, 2401.7, 2306.2, 2178.4
 *   2 threads  2^16: 337.4, 337.6, 357.8, 332.0   2^18: 1276.9, 1283.2, 1211.6, 1087.9
 * so 2^18 now takes c = 16 (the op-count model's choice too): 13% faster on one thread, 15% on two,
 * peak 274 instead of 250 bytes per point. (A later CLI pair on the same host, `npm run msm -- --size 18
 * --threads 1 --validate none --runs 3 [--window 13]`, gave 2444 vs 2557 ms: 4.5%; the host's speed drifts.) 2^16 keeps c = 13: c = 16 was 3% faster on one thread and
 * 1.5% on two but raised the peak from 276 to 371 bytes per point (303 → 494 on two threads: the
 * 2^15 buckets and temporaries per thread). On the earlier host c = 16 was 5% (2^18) and 14% (2^16) slower than 13
 * with the older product; issue #12 asks for a choice that holds on every CPU: re-measure there.
 * The op-count model in src/msm/plan.ts picks smaller c at 2^12, where it underrates the cost of
 * more windows relative to the (cheap, cache-friendly) reduction.
 * After the shared-y triples (issue #12, 274 → 210 bytes per point at c = 16, 198 at c = 14), on the
 * same Zen 5 host (Node 20.20.2), two runs of `npm run bench:windows -- --sizes 18 --cs 13,14,15,16
 * --runs 5` minutes apart, while neighbours on the host were busy and then quieter:
 *   1 thread   2^18: 2629.5, 2504.7, 2546.9, 2563.0   then   2556.2, 2447.2, 2424.1, 2368.2
 *   2 threads  2^18 (second run, `--threads 2`):              1303.1, 1307.9, 1327.5, 1200.1
 * c = 16's 2^15 buckets (3.4 MB) live in L3, c = 14's (0.85 MB) in the 1 MiB L2: c = 16 leads by 3–13%
 * when the shared L3 is quiet and loses it when it is not. With the points packed (48-byte elements,
 * POINT_LAYOUT_PACKED) c = 16 peaks at 198 bytes per point (c = 14: 187), and on a quiet host
 * (`npm run msm -- --size 18 --threads 1 --validate none --runs 3 --window 14|16`, two interleaved rounds
 * with the unpacked build): unpacked 2431.7 / 2126.1 and 2411.0 / 2197.9 ms, packed 2439.5 / 2180.4
 * and 2423.7 / 2136.8 ms: packing costs nothing measurable, so 2^18 keeps c = 16 (12% faster here).
 * With the touch pass before each batch (g1_batch_touch, session 23), on the same host with busier
 * neighbours, `npm run bench:windows -- --sizes 16,18 --cs 12,13,14,15,16 --runs 5`, median ms:
 *   1 thread   2^16: 646.3, 596.5, 580.6, 576.2, 581.6   2^18: 2592.7, 2315.3, 2235.4, 2193.6, 2055.6
 * and `npm run msm -- --size 16 --threads 1 --validate none --runs 5 --window 13|14|15`, two rounds:
 * 630.9 / 633.2 / 618.4 and 624.4 / 611.3 / 611.7 ms at 205 / 217 / 231 bytes per point, so 2^16
 * keeps c = 13 (the wider windows' 1–3% is within the host's drift) and 2^18 keeps c = 16.
 * Sizes between measured points take the nearer one (by log2); beyond 2^19 the model decides.
 */
export const bls12_381Tuning: CurveTuning = {
  fp: { w: 30, mul: 'karatsuba-fips', measuredBy: 'npm run bench:field -- --variants (Node 20 and 24); npm run bench:field -- --browser --variants --backend i32' },
  fr: { w: 30, mul: 'karatsuba-fips', measuredBy: 'npm run bench:field -- --variants (Node 20 and 24)' },
  msmWindow: {
    table: [[8, 7], [10, 8], [12, 12], [14, 13], [16, 13], [18, 16]],
    measuredBy: 'npm run bench:windows -- --sizes 8,10,12,14,16,18 --runs 5; 2^16 and 2^18: -- --sizes 16,18 --cs 13,14,15,16 --runs 5 [--threads 2]; 2^18 after the shared-y triples: -- --sizes 18 --cs 13,14,15,16 --runs 5',
  },
};
