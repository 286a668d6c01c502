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
import { PAIR_BYTES, POINT_LAYOUT_PAIRS, batchAddScratchBytes } from '../abi/layout.js';
import { tileCounts, type MsmStats } from './program.js';
import { ACCUMULATE_SLICE, TileStats, allocWorkspace, tileTask, type TileTask } from './tiles.js';
import { op, type GroupContext } from './group.js';
import { accumulationCaps, batchFor, segmentsFor, windowsFor } from './plan.js';

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
    const B = batchFor(2 * m);
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
        combiner.addWindow(0, c, o.R, o.P, o.flags, S, L / S);
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
        plan: { c, windows, buckets: L, batch: B, segments: S },
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
