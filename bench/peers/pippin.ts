/**
 * pippin as a benchmark peer: the timed run is the public API call on the raw bytes and 32-byte LE
 * scalars, so input conversion and on-curve validation are inside the timing. Peak Wasm memory per
 * point is reported as bytesPerPoint, the threads that ran the tiles (onStats) as threadsUsed.
 *
 * Threads (`threading: 'count'`; run-peer.ts `--threads N`, rows pippin, pippin-2t, …): the timed
 * call is `await g1.msm(points, scalars, { threads: N, … })`. setup() calls `stopThreads()` for
 * N = 1 (the MSM then runs on the calling thread, like msmSync) and `await startThreads(N)` for
 * N > 1 (workers started before the warm-up, so their start-up is untimed; unavailable threads make
 * the row skipped); dispose() calls `stopThreads()` so the child process exits.
 *
 * - BLS12-381: `bls12_381.g1.msm(points, scalars)`, points x‖y big-endian 48 bytes each (ZCash
 *   uncompressed without flags, the default format for 96 bytes per point).
 * - BN254: `bn254.g1.msm(points, scalars, { pointFormat: 'eip196' })`, points x‖y big-endian 32 bytes
 *   each.
 */
import * as pippin from '../../src/index.js';
import type { CurveName } from '../inputs.js';
import { PeerUnavailableError, type PeerInstance, type ThreadRequest } from './types.js';

export const name = 'pippin';
export const threads = 1;
export const threading = 'count';
export const curves: readonly CurveName[] = ['bls12-381', 'bn254'];

/** Validation level used in the benchmark (peers do not check subgroup membership either). */
export const VALIDATE = (process.env.PIPPIN_BENCH_VALIDATE ?? 'on-curve') as 'full' | 'on-curve' | 'none';

/** Stats fields the adapter reads (a subset of what onStats receives). */
interface Stats {
  threads: number;
  peakMemoryBytes: number;
  plan: { c: number };
}

/** The part of a pippin curve entry the benchmark uses (structural, so it also fits entries added later). */
interface CurveEntry {
  init(): Promise<void>;
  readonly g1: {
    msm(
      points: Uint8Array,
      scalars: Uint8Array,
      options: {
        pointFormat?: string;
        validate?: 'full' | 'on-curve' | 'none';
        threads?: number;
        onStats?: (s: Stats) => void;
      },
    ): Promise<{ x: bigint; y: bigint; infinity: boolean }>;
  };
}

/** The pippin entry for `curve` (from the registry) and the point format to pass: the curve's primary one. */
function entryFor(curve: CurveName): { entry: CurveEntry; pointFormat?: string } {
  const entry = pippin.curves[curve] as unknown as CurveEntry | undefined;
  if (!entry) throw new PeerUnavailableError(`pippin has no curve ${curve}`);
  return { entry, pointFormat: curve === 'bn254' ? 'eip196' : undefined };
}

export async function setup(
  points: Uint8Array,
  scalars: Uint8Array,
  n: number,
  curve: CurveName = 'bls12-381',
  threads: ThreadRequest = 1,
): Promise<PeerInstance> {
  if (threads === 'auto') throw new PeerUnavailableError('pippin takes a thread count, not auto');
  const { entry, pointFormat } = entryFor(curve);
  await entry.init();
  if (threads === 1) pippin.stopThreads();
  else {
    const state = await pippin.startThreads(threads);
    if (!state.active) throw new PeerUnavailableError(`pippin threads unavailable: ${state.reason ?? '?'}`);
    if (state.count !== threads) throw new Error(`pippin: asked for ${threads} threads, pool has ${state.count}`);
  }
  const g1 = entry.g1;
  let peak = 0;
  let plan = '';
  let threadsUsed = 0;
  const options = {
    ...(pointFormat !== undefined ? { pointFormat } : {}),
    validate: VALIDATE,
    threads,
    onStats: (s: Stats) => {
      peak = Math.max(peak, s.peakMemoryBytes);
      plan = `c=${s.plan.c}`;
      threadsUsed = s.threads;
    },
  };
  return {
    async run() {
      const r = await g1.msm(points, scalars, options);
      return r.infinity ? null : { x: r.x, y: r.y };
    },
    async dispose() {
      pippin.stopThreads();
    },
    extra: () => ({ bytesPerPoint: Math.round(peak / Math.max(n, 1)), validate: VALIDATE, plan, threadsUsed }),
  };
}
