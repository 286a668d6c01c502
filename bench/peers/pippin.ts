/**
 * pippin as a benchmark peer: the timed run is the public API call on the raw bytes (x‖y big-endian,
 * i.e. ZCash uncompressed without flags) and 32-byte LE scalars, so input conversion and on-curve
 * validation are inside the timing. Peak Wasm memory per point is reported as bytesPerPoint.
 */
import { bls12_381 } from '../../src/index.js';
import type { PeerInstance } from './types.js';

export const name = 'pippin';
export const threads = 1;

/** Validation level used in the benchmark (peers do not check subgroup membership either). */
export const VALIDATE = (process.env.PIPPIN_BENCH_VALIDATE ?? 'on-curve') as 'full' | 'on-curve' | 'none';

export async function setup(points: Uint8Array, scalars: Uint8Array, n: number): Promise<PeerInstance> {
  await bls12_381.init();
  let peak = 0;
  let plan = '';
  return {
    async run() {
      const r = bls12_381.g1.msm(points, scalars, {
        validate: VALIDATE,
        onStats: (s) => {
          peak = Math.max(peak, s.peakMemoryBytes);
          plan = `c=${s.plan.c}`;
        },
      });
      return r.infinity ? null : { x: r.x, y: r.y };
    },
    extra: () => ({ bytesPerPoint: Math.round(peak / Math.max(n, 1)), validate: VALIDATE, plan }),
  };
}
