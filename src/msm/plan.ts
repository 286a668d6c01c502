/**
 * MSM planning: window size c and batch sizes from a cost model.
 *
 * With GLV, 2n halves of < 127 bits; K = ⌈128/c⌉ signed-digit windows, L = 2^(c−1) buckets each.
 * Cost in batch-affine additions ≈ K·(2n + 2L) (accumulation: one addition per nonzero digit;
 * reduction: two per bucket). The bucket-reduction additions are measured to cost about as much as
 * accumulation ones, so the model is unweighted; a curve's measured window table (its tuning file)
 * pins c where measurement disagrees.
 */
export interface MsmPlan {
  /** window width in bits (signed digits) */
  c: number;
  /** number of windows */
  windows: number;
  /** buckets per window */
  buckets: number;
  /** pairs per accumulation batch (one inversion each) */
  batch: number;
  /** segments in the bucket reduction (independent running sums, one batch of ≤ segments pairs) */
  segments: number;
}

import { HALF_MAGNITUDE_BITS } from '../abi/layout.js';

export function windowsFor(c: number): number {
  // signed digits need one bit more than the magnitude: K·c ≥ HALF_MAGNITUDE_BITS + 1
  return Math.ceil((HALF_MAGNITUDE_BITS + 1) / c);
}

export function modelCost(halves: number, c: number): number {
  return windowsFor(c) * (halves + 2 * 2 ** (c - 1));
}

/** A measured window table: rows [log2 of the point count, best c] (see CurveTuning.msmWindow). */
export type WindowTable = readonly (readonly [logN: number, c: number])[];

/**
 * The measured c for `points` points: the row nearest by log2; undefined more than one step
 * outside the table (or for an empty table), where the cost model decides.
 */
export function windowFromTable(table: WindowTable, points: number): number | undefined {
  if (table.length === 0) return undefined;
  const logN = Math.log2(Math.max(points, 1));
  if (logN < table[0][0] - 1 || logN > table[table.length - 1][0] + 1) return undefined;
  let best = table[0];
  for (const m of table) if (Math.abs(m[0] - logN) < Math.abs(best[0] - logN)) best = m;
  return best[1];
}

/** Window size and batch for `points` points (2·points halves): the caller's c, else the table's, else the model's. */
export function planMsm(points: number, table: WindowTable = [], windowBits?: number): MsmPlan {
  const halves = 2 * points;
  let c = windowBits ?? windowFromTable(table, points);
  if (c === undefined) {
    c = 2;
    for (let t = 3; t <= 16; t++) if (modelCost(halves, t) < modelCost(halves, c)) c = t;
  }
  const buckets = 2 ** (c - 1);
  const batch = batchFor(halves);
  return { c, windows: windowsFor(c), buckets, batch, segments: segmentsFor(buckets) };
}

/**
 * Segments of the bucket reduction of L buckets: 32 buckets per segment, 16…256 segments (at most L).
 * The calling thread combines ≈ 3 points per segment and window, which competes with the workers;
 * 256 segments at c = 13 measured 1–2% slower on 2 threads (G2 2^14: 286.7 / 293.3 → 284.9 / 287.1 ms
 * BLS12-381, 180.7 / 184.7 → 180.1 / 178.3 ms BN254, Zen 5).
 */
export function segmentsFor(L: number): number {
  return Math.min(256, Math.max(16, L / 32), L);
}

/** Everything an MSM over `points` points on `threads` threads runs with: the plan, its tiles and per-tile buffer sizes. */
export interface JobPlan {
  plan: MsmPlan;
  ranges: number;
  tiles: Tile[];
  /** thread slots that get a workspace */
  slots: number;
  /** pairs per accumulation batch in a tile: the plan's, capped for short tiles (an eighth of the tile, at least 16) */
  tileBatch: number;
  /** deferred-item ring capacity of msm_accumulate */
  deferredCap: number;
  /**
   * temporaries: they hold partial sums of colliding items until they reach their bucket (at most
   * one pending per bucket plus those in or produced by a batch); running out forces an early,
   * smaller batch. 2B + L/16 slots: at 2^18 points (c = 16, B = 2048) scalar families from all-equal
   * through 300, 700, 1500, 4096, 16384 distinct values to random ran with exactly the same flushes
   * and inversions at 2B + L/16 as at 2B + L, which held 13 bytes per point more
   */
  tempCap: number;
}

/** The one planner: c (caller, measured table or model), tiles for the threads, and batch and buffer sizes. */
export function planJob(points: number, threads: number, options: { table?: WindowTable; windowBits?: number; ranges?: number; segments?: number } = {}): JobPlan {
  const halves = 2 * points;
  const plan = planMsm(points, options.table, options.windowBits);
  if (options.segments !== undefined) {
    // tests: fewer reduction segments than the planner's (S must divide L)
    if (plan.buckets % options.segments !== 0) throw new RangeError(`planJob: ${options.segments} segments do not divide ${plan.buckets} buckets`);
    plan.segments = options.segments;
  }
  const { ranges, tiles } = planTiles(halves, plan, threads, options.ranges);
  const slots = Math.max(1, Math.min(threads, tiles.length));
  const tileBatch = Math.max(16, Math.min(plan.batch, Math.ceil(halves / ranges) >> 3));
  return { plan, ranges, tiles, slots, tileBatch, ...accumulationCaps(tileBatch, plan.buckets) };
}

/** Pairs per accumulation batch (one inversion each) for `items` items: an eighth of them, in 16…2048. */
export function batchFor(items: number): number {
  return Math.max(16, Math.min(2048, items >> 3));
}

/** Buffer capacities of msm_accumulate for batches of B pairs into L buckets (see JobPlan). */
export function accumulationCaps(B: number, L: number): { deferredCap: number; tempCap: number } {
  return { deferredCap: 8 * B + 16, tempCap: 2 * B + (L >> 4) };
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
  if (forceRanges !== undefined) ranges = Math.max(1, Math.min(forceRanges, halves / 2));
  else if (slots > 1) {
    for (let r = 2; r <= 16 && halves / r >= 256; r++) if (cost(r) < cost(ranges)) ranges = r;
  }
  const tiles: Tile[] = [];
  // ranges cut at even halves: a point's two GLV halves stay in one tile (they share its y, see POINT_LAYOUT_TRIPLES)
  const cut = (j: number) => 2 * Math.floor((halves * j) / ranges / 2);
  for (let win = K - 1; win >= 0; win--) {
    for (let j = 0; j < ranges; j++) {
      const start = cut(j);
      const end = j === ranges - 1 ? halves : cut(j + 1);
      tiles.push({ win, start, count: end - start });
    }
  }
  return { ranges, tiles };
}
