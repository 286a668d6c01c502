/**
 * MSM planning: window size c and batch sizes from a cost model that counts field multiplications
 * and L2 misses.
 *
 * With GLV, 2n halves of < 127 bits; K = ⌈128/c⌉ signed-digit windows of c or c − 1 bits
 * (`narrowFor`: together 128 bits where they can), L_w = 2^(c_w−1) buckets each.
 * Additions ≈ Σ_w (2n − L_w) (accumulation: one per nonzero digit but the first in each bucket) + Σ_w 2L_w
 * (reduction: two per bucket), each 6 field multiplications plus a share of its batch's inversion
 * (28 multiplications per batch). The
 * accumulation touches one random bucket per addition: when its per-thread working set W
 * (`accumulationWorkingSet`) exceeds the L2 budget `cacheTuning.l2Bytes`, a fraction 1 − l2/W of
 * those touches miss, each costing `cacheTuning.missMuls` more (src/curves/cache.tuning.ts). A
 * curve's measured window table (its tuning file) pins c; a table c whose working set exceeds the
 * budget stands only if it also wins on this model against every c that fits (docs/msm.md).
 */
export interface MsmPlan {
  /** window width in bits (signed digits) */
  c: number;
  /** number of windows */
  windows: number;
  /** windows of c − 1 bits, the lowest ones (`narrowFor`; `windowAt` gives each window's bits) */
  narrow: number;
  /** buckets of the widest window: 2^(c−1) (a narrow window uses the first half) */
  buckets: number;
  /** pairs per accumulation batch (one inversion each) */
  batch: number;
  /** segments in the bucket reduction (independent running sums, one batch of ≤ segments pairs) */
  segments: number;
  /**
   * bytes per thread the accumulation keeps hot (buckets, batch temporaries, items in flight:
   * `accumulationWorkingSet`); 0 when planned without the group's point sizes
   */
  workingSet: number;
}

import { HALF_MAGNITUDE_BITS, PAIR_BYTES, batchAddScratchBytes, carryIntoWindow } from '../abi/layout.js';
import { cacheTuning } from '../curves/cache.tuning.js';

/** Field multiplications by the model: 6 per batched affine addition, 28 per inversion (one per batch). */
export const MULS_PER_ADDITION = 6;
export const MULS_PER_INVERSION = 28;

export function estimatedFieldMuls(additions: number, inversions: number): number {
  return MULS_PER_ADDITION * additions + MULS_PER_INVERSION * inversions;
}

/** Byte sizes of a group's points as the accumulation lays them out (GroupContext's EB and packedBytes). */
export interface PointGeometry {
  /** bytes of one coordinate: a bucket or temporary is an affine point of 2·EB bytes */
  EB: number;
  /** bytes of a packed element (POINT_LAYOUT_PACKED: triples of packed elements), 0 or absent: triples of EB-byte elements */
  packedBytes?: number;
}

/** Bytes of each region of one accumulation workspace for L buckets, batches of B (reductions of S); allocWorkspace allocates exactly these. */
export function workspaceRegions(g: PointGeometry, L: number, B: number, tempCap: number, deferredCap: number, S = 0, ownBuckets = true) {
  const PB = 2 * g.EB;
  return {
    buckets: ownBuckets ? L * PB : 0,
    bstate: ownBuckets ? L : 0,
    pending: ownBuckets ? 4 * L : 0,
    pendingList: 4 * (L + B + 1),
    pairs: PAIR_BYTES * Math.max(B, S),
    deferred: 8 * deferredCap,
    temps: tempCap * PB,
    freeTemps: 4 * tempCap,
    scratch: batchAddScratchBytes(Math.max(B, S), g.EB),
  };
}

/** The accumulation's per-thread working set, bytes: what one window's scan touches over and over. */
export interface WorkingSet {
  /** L buckets, their state bytes and pending slots: one random touch per addition */
  buckets: number;
  /** a batch's pairs, batch_add scratch, the temporaries and deferred entries a batch fills, the pending list */
  batch: number;
  /** the items scanned while a batch fills: B halves (16 bytes) and their points (half a triple each) */
  inFlight: number;
  total: number;
}

/**
 * The working set of accumulating into L buckets with batches of B pairs, from the regions
 * allocWorkspace lays out (`workspaceRegions`). Of the temporaries pool (2B + L/16 slots, LIFO) and
 * the deferred ring (8B + 16 entries) it counts what a full batch can use: B slots and 2B entries;
 * inputs that use more put many items into few buckets, so their bucket part is smaller.
 */
export function accumulationWorkingSet(g: PointGeometry, L: number, B: number): WorkingSet {
  const { tempCap, deferredCap } = accumulationCaps(B, L);
  const r = workspaceRegions(g, L, B, tempCap, deferredCap);
  const buckets = r.buckets + r.bstate + r.pending;
  const tempsUsed = Math.min(tempCap, B);
  const batch = r.pairs + r.scratch + r.pendingList + (r.temps + r.freeTemps) * (tempsUsed / tempCap) + r.deferred * Math.min(1, (2 * B) / deferredCap);
  const inFlight = B * (16 + (3 * (g.packedBytes || g.EB)) / 2);
  return { buckets, batch: Math.ceil(batch), inFlight, total: Math.ceil(buckets + batch + inFlight) };
}

/** Share of the accumulation's bucket touches that miss an L2 of `l2` bytes with working set W: 1 − l2/W (random touches, LRU), 0 when it fits. */
export function missFraction(W: number, l2: number = cacheTuning.l2Bytes): number {
  return W <= l2 ? 0 : 1 - l2 / W;
}

export function windowsFor(c: number): number {
  // signed digits need one bit more than the magnitude: K·c ≥ HALF_MAGNITUDE_BITS + 1
  return Math.ceil((HALF_MAGNITUDE_BITS + 1) / c);
}

/**
 * Windows of c − 1 bits (the lowest ones) so that the K = windowsFor(c) windows span exactly the 128
 * bits a signed-digit recoding of a half needs, where they can: the widths stay within one bit of
 * each other, which minimizes the buckets Σ 2^(c_w − 1) for K windows (the accumulation's additions
 * are ≈ K·halves − Σ L_w, the reduction's 2·Σ L_w). c = 15: 7 windows of 14 bits and 2 of 15 (Σ L
 * = 90 112) instead of 8 of 15 and one of 8 (131 200). All K narrow when even that overshoots.
 */
export function narrowFor(c: number): number {
  const K = windowsFor(c);
  return Math.min(K, K * c - (HALF_MAGNITUDE_BITS + 1));
}

/** Window w of a plan: its first bit, width and buckets, and its reduction's segments (`windowAt`). */
export interface PlanWindow {
  shift: number;
  c: number;
  buckets: number;
  /** min(plan.segments, buckets): a narrow window keeps the plan's batch of S pairs over half the steps */
  segments: number;
  perSegment: number;
}

/** Width of window j: c − 1 bits below `narrow`, else c. */
function windowWidth(plan: Pick<MsmPlan, 'c' | 'narrow'>, j: number): number {
  return j < plan.narrow ? plan.c - 1 : plan.c;
}

/** Window w of a plan (see PlanWindow). */
export function windowAt(plan: Pick<MsmPlan, 'c' | 'narrow' | 'segments'>, w: number): PlanWindow {
  const c = windowWidth(plan, w);
  const buckets = 2 ** (c - 1);
  const segments = Math.min(plan.segments, buckets);
  return { shift: w * plan.c - Math.min(w, plan.narrow), c, buckets, segments, perSegment: buckets / segments };
}

/** The windows in words: `8 windows of 16 bits`, `9 windows: 7 of 14 bits, 2 of 15`. */
export function describeWindows(plan: Pick<MsmPlan, 'c' | 'narrow' | 'windows'>): string {
  const wide = plan.windows - plan.narrow;
  if (plan.narrow === 0 || wide === 0) return `${plan.windows} windows of ${plan.narrow ? plan.c - 1 : plan.c} bits`;
  return `${plan.windows} windows: ${plan.narrow} of ${plan.c - 1} bits, ${wide} of ${plan.c}`;
}

/** Window w's part of an accumulation job: its first bit, its width and its carry-in rule (carryIntoWindow over the widths below it). */
export function windowJob(plan: Pick<MsmPlan, 'c' | 'narrow'>, w: number): { shift: number; c: number; carry: { mask: bigint; threshold: bigint } } {
  return { shift: w * plan.c - Math.min(w, plan.narrow), c: windowWidth(plan, w), carry: carryIntoWindow(Array.from({ length: w }, (_, j) => windowWidth(plan, j))) };
}

/**
 * The model's cost of an MSM over `halves` halves at window c with accumulation batches of B, in
 * field multiplications. Per window (of the `windowAt` widths, L_w buckets): the accumulation's
 * additions (one per item, less one per bucket it fills: that item is copied in; L_w·(1 − e^(−halves/L_w))
 * buckets filled), its L2 misses with the group's sizes `g` (one bucket touch per item), and the
 * reduction's 2L_w additions in batches of its segments; each batch one inversion.
 */
export function modelMuls(halves: number, c: number, B: number, g?: PointGeometry, l2: number = cacheTuning.l2Bytes): number {
  const plan = { c, narrow: narrowFor(c), segments: segmentsFor(2 ** (c - 1)) };
  let total = 0;
  for (let w = 0; w < windowsFor(c); w++) {
    const { buckets: L, segments } = windowAt(plan, w);
    const additions = halves - L * (1 - Math.exp(-halves / L));
    const miss = g ? missFraction(accumulationWorkingSet(g, L, B).total, l2) * cacheTuning.missMuls : 0;
    total += additions * (MULS_PER_ADDITION + MULS_PER_INVERSION / B) + halves * miss + 2 * L * (MULS_PER_ADDITION + MULS_PER_INVERSION / segments);
  }
  return total;
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

/**
 * Window size and batch for `points` points (2·points halves): the caller's c, else the table's,
 * else the model's (`modelMuls`). With the group's point sizes `g`: the batch shrinks (to
 * MIN_FIT_BATCH at least) until the working set fits the L2 budget, and a table c that still does
 * not fit is kept only if no c that fits costs less by the model; otherwise the model's best c.
 */
export function planMsm(points: number, table: WindowTable = [], windowBits?: number, g?: PointGeometry): MsmPlan {
  const halves = 2 * points;
  const cost = (t: number) => modelMuls(halves, t, batchToFit(halves, t, g), g);
  const fits = (t: number) => g === undefined || accumulationWorkingSet(g, 2 ** (t - 1), batchToFit(halves, t, g)).total <= cacheTuning.l2Bytes;
  const best = (ok: (t: number) => boolean) => {
    let b: number | undefined;
    for (let t = 2; t <= 16; t++) if (ok(t) && (b === undefined || cost(t) < cost(b))) b = t;
    return b;
  };
  let c = windowBits ?? windowFromTable(table, points);
  if (c === undefined) c = best(() => true)!;
  else if (windowBits === undefined && !fits(c)) {
    const fitting = best(fits);
    if (fitting !== undefined && cost(fitting) < cost(c)) c = best(() => true)!;
  }
  const buckets = 2 ** (c - 1);
  const batch = batchToFit(halves, c, g);
  return { c, windows: windowsFor(c), narrow: narrowFor(c), buckets, batch, segments: segmentsFor(buckets), workingSet: g ? accumulationWorkingSet(g, buckets, batch).total : 0 };
}

/**
 * Batches the working-set rule shrinks to, not below: 28/(6·512) ≈ 0.9% more field work for the
 * inversions. Measured (Intel Xeon, 2^16 c = 13, one thread, interleaved): B = 2048, 1024, 512, 256
 * within 0.7%; 2^18 c = 16: 512 0.8% faster than 2048, 256 2.2% slower (docs/performance.md).
 */
export const MIN_FIT_BATCH = 512;

/** The accumulation batch at window c: `batchFor(halves)`, halved while the working set exceeds the L2 budget, down to MIN_FIT_BATCH. */
export function batchToFit(halves: number, c: number, g?: PointGeometry): number {
  let B = batchFor(halves);
  if (g === undefined) return B;
  const L = 2 ** (c - 1);
  while (B > MIN_FIT_BATCH && accumulationWorkingSet(g, L, B).total > cacheTuning.l2Bytes) B = Math.max(MIN_FIT_BATCH, B >> 1);
  return B;
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
export function planJob(points: number, threads: number, options: { table?: WindowTable; windowBits?: number; ranges?: number; segments?: number; geometry?: PointGeometry } = {}): JobPlan {
  const halves = 2 * points;
  const plan = planMsm(points, options.table, options.windowBits, options.geometry);
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
 * Splits the MSM into tiles for `slots` threads. A tile costs ≈ count + 2L batched additions
 * (accumulation, then reduction of its own L buckets); tiles are handed out dynamically, so the
 * finishing time is ≈ the largest thread's share. Two shapes, the cheaper by that estimate (the
 * first on ties):
 * - every window cut into `ranges` equal ranges of halves: ⌈K·r/slots⌉·(halves/r + 2L), r the best
 *   (whole windows when they divide evenly among the threads, cut ones when there are fewer windows
 *   than threads or they divide badly);
 * - whole windows for the top K − (K mod slots), the lowest K mod slots windows cut into `slots`
 *   ranges each, handed out last: q·(halves + 2L) + (K mod slots)·(halves/slots + 2L) with
 *   q = ⌊K/slots⌋ (9 windows on 2 threads: 4 whole each, then half a window each).
 * `ranges` is the most any window is cut into.
 */
export function planTiles(halves: number, plan: Pick<MsmPlan, 'windows' | 'buckets'>, slots: number, forceRanges?: number): { ranges: number; tiles: Tile[] } {
  const K = plan.windows;
  const L = plan.buckets;
  const cost = (r: number) => Math.ceil((K * r) / slots) * (halves / r + 2 * L);
  let ranges = 1;
  if (forceRanges !== undefined) ranges = Math.max(1, Math.min(forceRanges, halves / 2));
  else if (slots > 1) {
    for (let r = 2; r <= 16 && halves / r >= 256; r++) if (cost(r) < cost(ranges)) ranges = r;
  }
  // ranges cut at even halves: a point's two GLV halves stay in one tile (they share its y, see POINT_LAYOUT_TRIPLES)
  const cutInto = (win: number, r: number): Tile[] => {
    const cut = (j: number) => 2 * Math.floor((halves * j) / r / 2);
    return Array.from({ length: r }, (_, j) => ({ win, start: cut(j), count: (j === r - 1 ? halves : cut(j + 1)) - cut(j) }));
  };
  const rest = K % slots;
  const mixed = Math.floor(K / slots) * (halves + 2 * L) + rest * (halves / slots + 2 * L);
  if (forceRanges === undefined && slots > 1 && K > slots && rest > 0 && halves / slots >= 256 && mixed < cost(ranges)) {
    const tiles: Tile[] = [];
    for (let win = K - 1; win >= rest; win--) tiles.push(...cutInto(win, 1));
    for (let win = rest - 1; win >= 0; win--) tiles.push(...cutInto(win, slots));
    return { ranges: slots, tiles };
  }
  const tiles: Tile[] = [];
  for (let win = K - 1; win >= 0; win--) tiles.push(...cutInto(win, ranges));
  return { ranges, tiles };
}
