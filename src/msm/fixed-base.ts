/**
 * Fixed-base MSM over precomputed tables (prepared bases with `precompute`, src/api/prepared.ts).
 *
 * With GLV every point P_i gives two bases, P_i and φ(P_i), and every scalar two signed halves
 * < 2^127; the window-k digit d_k of a half (signed, width c, carry rule of src/abi/layout.ts) stands
 * for d_k·2^(kc). The table holds, for every window k, the bases multiplied by 2^(kc): window-major,
 * table[k] = 2n affine points (2^(kc)·P_i, 2^(kc)·φ(P_i)) interleaved as msm_expand_endo lays them
 * out. Then Σ_k Σ_i d_{k,i}·2^(kc)·B_i is ONE bucket sum: every window accumulates into the same L =
 * 2^(c−1) buckets (msm_accumulate leaves buckets empty or full and its pending slots clear, so a
 * second call continues the first), and one reduction per thread replaces one per window. Cost in
 * batch-affine additions ≈ K·2m + T·2L for m scalars on T threads (plain MSM: K·(2m + 2L)), so the
 * window can grow where the table fits: c is chosen by that model among the windows whose table
 * fits the budget (bytes K·2n·PB, K = windowsFor(c)). Building the table costs K·c batched
 * doublings per base (the group's batch_add with a = b), done once at prepare, in parallel chunks.
 */
import type { Batch, PhaseProgram } from '../runtime/executor.js';
import type { Op } from '../runtime/interpreter.js';
import { PAIR_BYTES, POINT_LAYOUT_PAIRS, POINT_LAYOUT_TRIPLES, batchAddScratchBytes } from '../abi/layout.js';
import { tileCounts, type MsmStats } from './program.js';
import { ACCUMULATE_SLICE, TileStats, allocWorkspace, tileTask, type AccumulateJob, type TileTask } from './tiles.js';
import type { AffineBatch, Points } from './affine-batch.js';
import { op, type GroupContext } from './group.js';
import { accumulationCaps, accumulationWorkingSet, batchFor, batchToFit, segmentsFor, windowsFor } from './plan.js';

/** A built table: `windows` × 2n points from `ptr`, each window `windowBytes` long. */
export interface FixedBaseTable {
  ptr: number;
  c: number;
  windows: number;
  windowBytes: number;
}

/** Widest window considered (the accumulation kernel's digit range; bucket memory 2^(c−1)·PB per thread). */
const MAX_FIXED_WINDOW = 16;

/** Table bytes for n points with window c (+ the slot msm_expand_endo keeps β in while building window 0). */
export function fixedBaseTableBytes(n: number, c: number, PB: number): number {
  return windowsFor(c) * 2 * n * PB + PB;
}

/** Model cost (batched additions) of one fixed-base MSM of m scalars with window c on `threads` threads. */
export function fixedBaseCost(m: number, c: number, threads: number): number {
  return windowsFor(c) * 2 * m + Math.min(threads, windowsFor(c)) * 2 * 2 ** (c - 1);
}

/**
 * The window for a table of n points within `maxBytes`: the model's cheapest c in 2…16 (for m = n,
 * on `threads` threads) whose table fits; undefined when none fits (or n = 0).
 */
export function chooseFixedWindow(n: number, PB: number, maxBytes: number, threads: number): number | undefined {
  let best: number | undefined;
  for (let c = 2; c <= MAX_FIXED_WINDOW; c++) {
    if (n === 0 || fixedBaseTableBytes(n, c, PB) > maxBytes) continue;
    if (best === undefined || fixedBaseCost(n, c, threads) < fixedBaseCost(n, best, threads)) best = c;
  }
  return best;
}

/** Points of a doubling task (pairs in the table's finite entries). */
const DOUBLING_CHUNK = 2048;

/**
 * Fills the table at `ptr` from n decoded points (affine at `points`, stride PB; flags at `inf`):
 * window 0 = the points with their endomorphism images (msm_expand_endo), window k = window k − 1
 * doubled c times (batches of g1_batch_add with a = b = dst over the finite entries, in chunks that
 * run in parallel). Entries of points at infinity are left as copied (never read: their halves are
 * zeroed at each MSM).
 */
export function* buildFixedBaseTable(ctx: GroupContext, points: number, inf: number, n: number, c: number, ptr: number, threads: number): PhaseProgram<FixedBaseTable> {
  const { inst, EB } = ctx;
  const PB = 2 * EB;
  const { arena } = inst;
  const { k, kn } = ctx;
  const windows = windowsFor(c);
  const windowBytes = 2 * n * PB;
  const table: FixedBaseTable = { ptr, c, windows, windowBytes };
  const mark = arena.mark();
  try {
    let mem = new Uint8Array(inst.memory.buffer);
    mem.copyWithin(ptr, points, points + n * PB);
    // zero halves: no sign moves onto the table's points (each MSM's signs are applied by msm_accumulate)
    const zeroHalves = arena.alloc(32 * n + 32);
    new Uint8Array(inst.memory.buffer).fill(0, zeroHalves, zeroHalves + 32 * n + 32);
    k[kn.expandEndo](ptr, zeroHalves, n);
    mem = new Uint8Array(inst.memory.buffer);
    const finite: number[] = [];
    for (let i = 0; i < n; i++) if (mem[inf + i] === 0) finite.push(2 * i, 2 * i + 1);
    const chunks = Array.from({ length: Math.ceil(finite.length / DOUBLING_CHUNK) }, (_, j) => finite.slice(j * DOUBLING_CHUNK, (j + 1) * DOUBLING_CHUNK));
    const pairs = chunks.map((ch) => arena.alloc(PAIR_BYTES * ch.length));
    const slots = Math.max(1, Math.min(threads, chunks.length));
    const scratch = Array.from({ length: slots }, () => arena.alloc(batchAddScratchBytes(DOUBLING_CHUNK, EB)));
    for (let w = 1; w < windows; w++) {
      const at = ptr + w * windowBytes;
      new Uint8Array(inst.memory.buffer).copyWithin(at, at - windowBytes, at);
      const i32 = new Int32Array(inst.memory.buffer);
      chunks.forEach((ch, j) => {
        ch.forEach((e, q) => {
          const p = at + e * PB;
          const o = (pairs[j] + q * PAIR_BYTES) >> 2;
          i32[o] = p;
          i32[o + 1] = p;
          i32[o + 2] = p;
          i32[o + 3] = 0;
        });
      });
      const batch: Batch = {
        tasks: chunks.map((ch, j) => (slot: number): Op[] => Array.from({ length: c }, (): Op => op(kn.batchAdd, pairs[j], ch.length, scratch[slot]))),
        done: () => {},
      };
      yield batch;
    }
    return table;
  } finally {
    arena.release(mark);
  }
}

/**
 * Σ scalars[i]·P_i for the first m points over a table (scalars: m × 32 bytes at `scalarBytes`
 * in memory, LE or BE; consumed). Windows are dealt round-robin to at most `threads` tiles, each
 * accumulating all its windows into one bucket set, then reducing it once; tile sums are added.
 */
export function* fixedBaseMsmProgram<A>(
  ctx: GroupContext<A>,
  table: FixedBaseTable,
  inf: number,
  scalars: number,
  m: number,
  /** onTile: called as each tile finishes with its share of the windows (the shares sum to 1) */
  options: { scalarsBigEndian: boolean; threads: number; onTile?: (share: number) => void },
): PhaseProgram<{ result: A | null; stats: MsmStats }> {
  const { inst, EB } = ctx;
  const PB = 2 * EB;
  const { arena } = inst;
  const { k } = ctx;
  const mark = arena.mark();
  try {
    const t0 = performance.now();
    k.msm_split_scalars(scalars, scalars, m, options.scalarsBigEndian ? 1 : 0);
    // a point at infinity contributes nothing: its halves become zero digits
    const mem = new Uint8Array(inst.memory.buffer);
    for (let i = 0; i < m; i++) if (mem[inf + i]) mem.fill(0, scalars + 32 * i, scalars + 32 * i + 32);
    const t1 = performance.now();
    const { c, windows } = table;
    const L = 2 ** (c - 1);
    const S = segmentsFor(L);
    const tilesCount = m === 0 ? 0 : Math.max(1, Math.min(options.threads, windows));
    const tileWindows = Array.from({ length: tilesCount }, (_, t) => Array.from({ length: windows }, (_, w) => w).filter((w) => w % tilesCount === t));
    const B = batchToFit(2 * m, c, ctx);
    const caps = accumulationCaps(B, L);
    const slots = Math.max(1, Math.min(options.threads, tilesCount));
    // state blocks: each window of a tile gets its own run of slices (all are written before the task runs)
    const slicesPerWindow = Math.max(1, Math.ceil((2 * m) / ACCUMULATE_SLICE));
    const windowsPerTile = Math.ceil(windows / Math.max(1, tilesCount));
    const workspaces = Array.from({ length: slots }, () => allocWorkspace(ctx, L, B, caps.tempCap, caps.deferredCap, S, windowsPerTile * slicesPerWindow * ACCUMULATE_SLICE));
    const outs = tileWindows.map(() => ({ R: arena.alloc(S * PB), P: arena.alloc(S * PB), flags: arena.alloc(S) }));
    const combiner = ctx.makeCombiner();
    const stats = new TileStats();
    const running: (TileTask | undefined)[] = [];
    const batch: Batch = {
      tasks: tileWindows.map((wins, t) => (slot: number): Op[] => {
        const ws = workspaces[slot];
        running[t] = tileTask(ctx, ws, {
          // each window of a tile gets its own run of state blocks (all are written before the task runs)
          accumulate: wins.map((w) => ({
            points: table.ptr + w * table.windowBytes, layout: POINT_LAYOUT_PAIRS, pointBytes: PB, halves: scalars, count: 2 * m, shift: w * c, c, batch: B, deferredCap: caps.deferredCap, tempCap: caps.tempCap,
          })),
          reduce: { set: ws, L, S, out: outs[t], clear: true },
        });
        return running[t]!.ops;
      }),
      done(t, r) {
        running[t]!.record(r, stats);
        const o = outs[t];
        combiner.addWindow(0, 0, o.R, o.P, o.flags, S, L / S);
        options.onTile?.(tileWindows[t].length / windows);
      },
    };
    const t2 = performance.now();
    yield batch;
    const tilesMs = performance.now() - t2;
    const t3 = performance.now();
    const result = combiner.finish();
    const work = stats.ms.accumulate + stats.ms.reduce || 1;
    return {
      result,
      stats: {
        method: 'buckets',
        plan: { c, windows, narrow: 0, buckets: L, batch: B, segments: S, workingSet: accumulationWorkingSet(ctx, L, B).total },
        kept: m,
        ...tileCounts(stats),
        threads: slots,
        tiles: tilesCount,
        times: {
          split: t1 - t0,
          prepare: 0,
          accumulate: (tilesMs * stats.ms.accumulate) / work,
          reduce: (tilesMs * stats.ms.reduce) / work,
          final: performance.now() - t3,
        },
        peakMemoryBytes: inst.memory.buffer.byteLength,
      },
    };
  } finally {
    arena.release(mark);
  }
}

// ------------------------------------------------------------------ many small fixed-base MSMs at once

/** Window bits of a row table: 16 windows of 8 bits cover a GLV half (< 2^128). */
const ROW_WINDOW = 8;
const ROW_WINDOWS = 16;
const ROW_BUCKETS = 1 << (ROW_WINDOW - 1);
/** Items (GLV halves × windows) per base, each one 16-byte msm_accumulate half. */
const ITEMS_PER_BASE = 2 * ROW_WINDOWS;
/** msm_accumulate's window for row items: one signed 15-bit digit names one of 2^14 buckets (128 rows × 128 digits). */
const ROW_BUCKET_BITS = 15;
/** The most rows one row MSM takes (ROW_BUCKET_BITS − 1 − log2 ROW_BUCKETS bits of row number). */
export const MAX_ROWS = 1 << (ROW_BUCKET_BITS - ROW_WINDOW);

/**
 * The fixed-base tables of `rows` MSMs over `cols` bases each (base g = row·cols + l): for every
 * base and window k the triple (βx, x, y) of 2^(8k)·B_g at ptr + (16g + k)·3EB, so that each row's
 * MSM is one bucket sum over all its windows (as fixedBaseMsmProgram, one bucket set per row).
 */
export interface RowTable {
  ptr: number;
  rows: number;
  cols: number;
  /** infinity flags of the bases (their entries are never read) */
  inf: Uint8Array;
}

/** Bytes of a row table of `bases` bases. */
export function rowTableBytes(bases: number, EB: number): number {
  return bases * ROW_WINDOWS * 3 * EB;
}

/**
 * Fills a row table at `ptr` (rowTableBytes) from the bases (rows·cols points, base row·cols + l),
 * on the calling thread: per base 15·8 batched doublings and 16 products by β.
 */
export function buildRowTable(batch: AffineBatch, bases: Points, rows: number, cols: number, ptr: number): RowTable {
  if (rows > MAX_ROWS) throw new RangeError(`row MSMs: at most ${MAX_ROWS} rows, got ${rows}`);
  const { EB, PB } = batch;
  const T = 3 * EB;
  const n = rows * cols;
  const entry = (g: number, k: number) => ptr + (g * ROW_WINDOWS + k) * T;
  const inf = bases.inf.slice(0, n);
  const live: number[] = [];
  for (let g = 0; g < n; g++) if (!inf[g]) live.push(g);
  for (const g of live) batch.copyPoint(entry(g, 0) + EB, bases.base + g * bases.stride);
  for (let k = 1; k < ROW_WINDOWS; k++) {
    for (const g of live) batch.mem.copyWithin(entry(g, k) + EB, entry(g, k - 1) + EB, entry(g, k - 1) + EB + PB);
    for (let d = 0; d < ROW_WINDOW; d++) {
      batch.begin(live.length);
      for (const g of live) batch.push(entry(g, k) + EB, entry(g, k) + EB, entry(g, k) + EB);
      batch.run();
    }
  }
  for (const g of live) for (let k = 0; k < ROW_WINDOWS; k++) batch.fillBeta(entry(g, k));
  return { ptr, rows, cols, inf };
}

/**
 * Row i's digit items for rows [lo, hi): for base g, GLV half h and window k, the signed 8-bit digit
 * d of the half as msm_accumulate's 16-byte half: |d| + 128·(row − lo) (bucket + 1) in its low 15
 * bits, the sign (d's, flipped for a negative half) in bit 127; zero for d = 0 and for bases at
 * infinity. The items region must be zero (only words 0 and 3 of each item are written).
 */
function writeRowItems(mem: Uint8Array, table: RowTable, halves: number, items: number, lo: number, hi: number): void {
  const words = new Int32Array(mem.buffer);
  const { cols } = table;
  for (let g = lo * cols; g < hi * cols; g++) {
    if (table.inf[g]) continue;
    const w = (items >> 2) + g * ITEMS_PER_BASE * 4;
    const rowBucket = (((g / cols) | 0) - lo) * ROW_BUCKETS;
    for (let h = 0; h < 2; h++) {
      const at = halves + g * 32 + h * 16;
      const negHalf = mem[at + 15] >> 7;
      let carry = 0;
      for (let k = 0; k < ROW_WINDOWS; k++) {
        // signed digit k of the half, with the carry of the windows below
        let d = (k === ROW_WINDOWS - 1 ? mem[at + k] & 0x7f : mem[at + k]) + carry;
        carry = d > ROW_BUCKETS ? 1 : 0;
        if (carry) d -= 2 * ROW_BUCKETS;
        if (d === 0) continue;
        const e = w + (2 * k + h) * 4;
        words[e] = rowBucket + (d < 0 ? -d : d);
        words[e + 3] = ((d < 0 ? 1 : 0) ^ negHalf) << 31;
      }
    }
  }
}

/**
 * The `rows` MSMs of a row table: out[row] ← Σ_l s_{row·cols + l}·B_{row·cols + l} for the scalars
 * at `scalars` (rows·cols × 32 bytes little-endian, < 2^255, in memory; consumed). The rows are cut
 * into at most `threads` parts, each one task: msm_accumulate over its digit items (every row's 128
 * buckets in one bucket set) and msm_reduce_segments (a segment per row, its weighted sum the row's
 * MSM). Cost ≈ 32·cols·rows batched additions (a bucket hit per non-zero digit) + 128·rows for the
 * reduction; memory per call 512·rows·cols bytes of items and a workspace per part.
 */
export function* rowMsmProgram(ctx: GroupContext, table: RowTable, scalars: number, out: Points, threads: number): PhaseProgram<void> {
  const { inst, EB } = ctx;
  const PB = 2 * EB;
  const T = 3 * EB;
  const { arena } = inst;
  const { rows, cols } = table;
  const n = rows * cols;
  const mark = arena.mark();
  try {
    const halves = arena.alloc(n * 32);
    ctx.k.msm_split_scalars(halves, scalars, n, 0);
    const itemsBytes = n * ITEMS_PER_BASE * 16;
    const items = arena.alloc(itemsBytes);
    const parts = Math.max(1, Math.min(threads, rows));
    const bounds = Array.from({ length: parts + 1 }, (_, p) => Math.round((p * rows) / parts));
    const jobs = Array.from({ length: parts }, (_, p) => {
      const [lo, hi] = [bounds[p], bounds[p + 1]];
      const count = (hi - lo) * cols * ITEMS_PER_BASE;
      const L = (hi - lo) * ROW_BUCKETS;
      const B = batchFor(count);
      const caps = accumulationCaps(B, L);
      const ws = allocWorkspace(ctx, L, B, caps.tempCap, caps.deferredCap, hi - lo, count);
      const sums = { R: arena.alloc((hi - lo) * PB), P: arena.alloc((hi - lo) * PB), flags: arena.alloc(hi - lo) };
      const job: AccumulateJob = {
        points: table.ptr + lo * cols * ROW_WINDOWS * T, layout: POINT_LAYOUT_TRIPLES, pointBytes: T,
        halves: items + lo * cols * ITEMS_PER_BASE * 16, count, shift: 0, c: ROW_BUCKET_BITS, batch: B, ...caps,
      };
      return { lo, hi, ws, L, sums, job };
    });
    let mem = new Uint8Array(inst.memory.buffer);
    mem.fill(0, items, items + itemsBytes);
    for (const { lo, hi } of jobs) writeRowItems(mem, table, halves, items, lo, hi);
    const batch: Batch = {
      tasks: jobs.map(({ lo, hi, ws, L, sums, job }) => (): Op[] => tileTask(ctx, ws, { accumulate: [job], reduce: { set: ws, L, S: hi - lo, out: sums, clear: true } }).ops),
      done: () => {},
    };
    yield batch;
    mem = new Uint8Array(inst.memory.buffer);
    for (const { lo, hi, sums } of jobs) {
      for (let r = lo; r < hi; r++) {
        // segment flags: bit 1, the weighted sum is finite
        out.inf[r] = mem[sums.flags + r - lo] & 2 ? 0 : 1;
        mem.copyWithin(out.base + r * out.stride, sums.P + (r - lo) * PB, sums.P + (r - lo + 1) * PB);
      }
    }
  } finally {
    arena.release(mark);
  }
}
