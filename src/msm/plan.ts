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

/** A unit of parallel work: window `win` over halves [start, start + count). */
export interface Tile {
  win: number;
  start: number;
  count: number;
}

/**
 * Splits the MSM into tiles for `slots` threads: every window, cut into `ranges` equal ranges of
 * halves (each tile has its own buckets; tiles of one window are summed when combining). A tile
 * costs ≈ count + 2L batched additions (accumulation, then reduction of its L buckets); tiles are
 * handed out dynamically, so the finishing time is ≈ ⌈tiles/slots⌉ tiles. `ranges` minimizes that
 * estimate (the smallest one on ties): whole windows when they divide evenly among the threads, cut
 * windows when there are fewer windows than threads or they divide badly.
 */
export function planTiles(halves: number, plan: Pick<MsmPlan, 'windows' | 'buckets'>, slots: number, forceRanges?: number): { ranges: number; tiles: Tile[] } {
  const K = plan.windows;
  const cost = (r: number) => Math.ceil((K * r) / slots) * (halves / r + 2 * plan.buckets);
  let ranges = 1;
  if (forceRanges !== undefined) ranges = Math.max(1, Math.min(forceRanges, halves));
  else if (slots > 1) {
    for (let r = 2; r <= 16 && halves / r >= 256; r++) if (cost(r) < cost(ranges)) ranges = r;
  }
  const tiles: Tile[] = [];
  for (let win = K - 1; win >= 0; win--) {
    for (let j = 0; j < ranges; j++) {
      const start = Math.floor((halves * j) / ranges);
      const end = Math.floor((halves * (j + 1)) / ranges);
      tiles.push({ win, start, count: end - start });
    }
  }
  return { ranges, tiles };
}
