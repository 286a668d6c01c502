/**
 * MSM planning: window size c and batch sizes from a cost model.
 *
 * With GLV, 2n halves of < 127 bits; K = ⌈128/c⌉ signed-digit windows, L = 2^(c−1) buckets each.
 * Cost in batch-affine additions ≈ K·(2n + 2L) (accumulation: one addition per nonzero digit;
 * reduction: two per bucket). The bucket-reduction additions are measured to cost about as much as
 * accumulation ones, so the model is unweighted; `windowOverride` in the tuning file pins c where
 * measurement disagrees (see src/curves/bls12-381.tuning.ts for the command).
 */
export interface MsmPlan {
  c: number;
  windows: number;
  buckets: number;
  /** pairs per accumulation batch (one inversion each) */
  batch: number;
  /** segments in the bucket reduction (independent running sums, one batch of ≤ segments pairs) */
  segments: number;
}

import { HALF_MAGNITUDE_BITS } from './layout.js';

export function windowsFor(c: number): number {
  // signed digits need one bit more than the magnitude: K·c ≥ HALF_MAGNITUDE_BITS + 1
  return Math.ceil((HALF_MAGNITUDE_BITS + 1) / c);
}

export function modelCost(halves: number, c: number): number {
  return windowsFor(c) * (halves + 2 * 2 ** (c - 1));
}

export function planMsm(halves: number, override?: (halves: number) => number | undefined): MsmPlan {
  let c = override?.(halves);
  if (c === undefined) {
    c = 2;
    for (let t = 3; t <= 16; t++) if (modelCost(halves, t) < modelCost(halves, c)) c = t;
  }
  const buckets = 2 ** (c - 1);
  const batch = Math.max(16, Math.min(2048, halves >> 3));
  const segments = Math.min(buckets, 256);
  return { c, windows: windowsFor(c), buckets, batch, segments };
}

/**
 * A window rule from measured points [log2 n, best c]: sizes between measured points take the
 * nearer one (by log2); outside [first − 1, last + 1] the cost model decides (undefined).
 */
export function windowFromTable(measured: readonly (readonly [logN: number, c: number])[]): (halves: number) => number | undefined {
  return (halves) => {
    const logN = Math.log2(Math.max(halves, 2) / 2);
    if (logN < measured[0][0] - 1 || logN > measured[measured.length - 1][0] + 1) return undefined;
    let best = measured[0];
    for (const m of measured) if (Math.abs(m[0] - logN) < Math.abs(best[0] - logN)) best = m;
    return best[1];
  };
}
