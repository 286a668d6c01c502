/**
 * The MSM of one group as a phase program (src/runtime/executor.ts) over the Wasm kernels
 * (src/codegen/msm.ts): memory layout, phases, timing. Everything per element runs inside Wasm; this
 * file runs O(windows + segments) steps. The same program runs on the calling thread or on the
 * worker pool, for G1 and G2 alike (the group's kernels come from its GroupContext).
 */
import type { Batch, PhaseProgram } from '../runtime/executor.js';
import type { Op } from '../runtime/interpreter.js';
import { MsmPlan, planJob, windowAt, windowJob } from './plan.js';
import { POINT_LAYOUT_PACKED, POINT_LAYOUT_TRIPLES, STRAUS_WNAF_WIDTH, strausScratchBytes } from '../abi/layout.js';
import { op, type AnyKernelName, type GroupContext } from './group.js';
import { ACCUMULATE_SLICE, TileStats, allocWorkspace, clearBuckets, tileTask, type PhaseCount, type TileTask } from './tiles.js';

export type { PhaseCount } from './tiles.js';

/** Milliseconds of an MSM's phases (wall time on the calling thread). */
export interface PhaseTimes {
  /** the scalars' GLV split into signed digits */
  split: number;
  /** compaction (points at infinity and zero scalars out) and the expansion into the MSM's layout */
  prepare: number;
  /** bucket accumulation (the tiles' wall time, shared with `reduce` by their measured kernel times) */
  accumulate: number;
  /** bucket reduction */
  reduce: number;
  /** combining the windows into the result */
  final: number;
}

/**
 * What one MSM did (onStats: `MsmCallStats` adds the input conversion and streaming).
 *
 * @inlineType MsmPlan
 * @inlineType PhaseTimes
 * @inlineType PhaseCount
 * @example
 * ```ts
 * import { bls12_381, type MsmStats } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * let stats: MsmStats | undefined;
 * bls12_381.g1.msmSync([G, G, { infinity: true }], [1n, 2n, 3n], { onStats: (s) => (stats = s), windowBits: 4 });
 * console.log(stats?.kept, stats?.plan.c); // → 2 4
 * ```
 */
export interface MsmStats {
  /**
   * how the sum was computed: 'buckets' (Pippenger's bucket method over windows, the plan below) or,
   * for a few points, 'straus' (one interleaved wNAF pass, src/codegen/msm-straus.ts; the plan then
   * has no windows and its c is the wNAF width)
   */
  method: 'buckets' | 'straus';
  /** the window plan: window bits c, windows, buckets, batch and reduction segments */
  plan: MsmPlan;
  /** points kept after dropping those at infinity and those with a zero scalar */
  kept: number;
  /** batch flushes of the accumulation (each one batched inversion) */
  flushes: number;
  /** batched affine additions (accumulation + reduction) and their inversions (one per batch) */
  additions: number;
  /** batched inversions (one per batch of additions) */
  inversions: number;
  /** the same counts per phase (the cost model of `pippin msm --explain`, src/msm/explain.ts) */
  phaseCounts: {
    /** additions and inversions of the bucket accumulation */
    accumulate: PhaseCount;
    /** additions and inversions of the bucket reduction */
    reduce: PhaseCount;
  };
  /** field multiplications by the model 6 per batched addition + 28 per inversion */
  estimatedFieldMuls: number;
  /** threads that ran the tiles (1 = the calling thread) */
  threads: number;
  /** the number of tiles (the pieces of work the MSM was split into for the threads) */
  tiles: number;
  /** milliseconds per phase */
  times: PhaseTimes;
  /** the Wasm memory's size at the end of the MSM, bytes */
  peakMemoryBytes: number;
}

/** The statistics fields that come from the tiles' counters. */
export function tileCounts(t: TileStats): Pick<MsmStats, 'flushes' | 'additions' | 'inversions' | 'phaseCounts' | 'estimatedFieldMuls'> {
  return {
    flushes: t.flushes,
    additions: t.additions,
    inversions: t.inversions,
    phaseCounts: { accumulate: { ...t.accumulate }, reduce: { ...t.reduce } },
    estimatedFieldMuls: t.estimatedFieldMuls,
  };
}

/** Combines the per-window segment results; implemented over XYZZ kernels (or a reference). */
export interface WindowCombiner<A = unknown> {
  /**
   * Adds (a tile of) window k, whose digits start at bit `shift`: R and P are S affine points at the
   * given pointers with flags (bit0 R, bit1 P), each segment of m buckets. Tiles of one window add up.
   */
  addWindow(k: number, shift: number, R: number, P: number, flags: number, S: number, m: number): void;
  /** Returns the final sum Σ 2^(shift_k)·W_k as an affine point, or null for infinity. */
  finish(): A | null;
}

export interface MsmRegions {
  points: number;
  inf: number;
  scalars: number;
}

/** How the MSM lays out its points after the split: the expansion kernel, the layout and the triple's bytes. */
export function pointLayoutOf(ctx: GroupContext): { expand: AnyKernelName & ('msm_expand_packed' | GroupContext['kn']['expandTriples']); layout: typeof POINT_LAYOUT_TRIPLES | typeof POINT_LAYOUT_PACKED; tripleBytes: number } {
  return ctx.packedBytes
    ? { expand: 'msm_expand_packed', layout: POINT_LAYOUT_PACKED, tripleBytes: 3 * ctx.packedBytes }
    : { expand: ctx.kn.expandTriples, layout: POINT_LAYOUT_TRIPLES, tripleBytes: 3 * ctx.EB };
}

/**
 * Reserves the input regions for n points: affine points (stride 2·EB) that the expansion kernel
 * turns into shared-y triples (3n elements, packed or not, + 4 elements: β and scratch), infinity
 * flags (n bytes), scalars (32 bytes each, room for the 2n 16-byte halves + padding).
 */
export function allocInputs(ctx: GroupContext, n: number): MsmRegions {
  const { arena } = ctx.inst;
  const points = arena.alloc(Math.max(2 * ctx.EB * n, pointLayoutOf(ctx).tripleBytes * n) + 4 * ctx.EB);
  const inf = arena.alloc(n + 8);
  const scalars = arena.alloc(32 * n + 32);
  return { points, inf, scalars };
}

export interface MsmRunOptions {
  scalarsBigEndian: boolean;
  /** thread slots the program may use (1 on the calling thread) */
  threads: number;
  windowBits?: number;
  /** called as each tile finishes with its share of the tile work (the shares sum to 1) */
  onTile?: (share: number) => void;
  /** tests: ranges per window (cut tiles) and reduction segments */
  ranges?: number;
  segments?: number;
  /**
   * run the split, compaction and endomorphism on the calling thread before the first yield, so
   * the program allocates everything before it yields and yields one batch (the tiles): what
   * `together()` (prepared msmBatch) needs to interleave programs on one stack arena
   */
  prepareInline?: boolean;
}

/**
 * The MSM of `kept` points already split and compacted (halves at regions.scalars) by one
 * msm_straus call, then one conversion to affine; its statistics (no windows, no batched additions).
 */
function strausMsm<A>(ctx: GroupContext<A>, regions: MsmRegions, kept: number, t0: number, t1: number): { result: A | null; stats: MsmStats } {
  const { inst, k, kn, EB } = ctx;
  const { arena } = inst;
  const mark = arena.mark();
  try {
    const t2 = performance.now();
    const out = arena.alloc(4 * EB);
    // (its fixed part also holds the scratch of the conversion to affine)
    const scratch = arena.alloc(strausScratchBytes(kept, EB));
    k[kn.straus](out, regions.points, regions.scalars, kept, scratch);
    const t3 = performance.now();
    const result = k[kn.toAffine](out, out, scratch) ? null : ctx.readAffine(out);
    const t4 = performance.now();
    const none = { additions: 0, inversions: 0 };
    return {
      result,
      stats: {
        method: 'straus',
        plan: { c: STRAUS_WNAF_WIDTH, windows: 0, narrow: 0, buckets: 0, batch: 0, segments: 0, workingSet: 0 },
        kept,
        flushes: 0,
        additions: 0,
        inversions: 0,
        phaseCounts: { accumulate: { ...none }, reduce: { ...none } },
        estimatedFieldMuls: 0,
        threads: 1,
        tiles: 0,
        times: { split: t1 - t0, prepare: t2 - t1, accumulate: t3 - t2, reduce: 0, final: t4 - t3 },
        peakMemoryBytes: inst.memory.buffer.byteLength,
      },
    };
  } finally {
    arena.release(mark);
  }
}

/**
 * The joint reduction (one thread, whole windows, windows × halves ≤ maxItems, so the one task
 * lasts ≈ 15 ms at most, like one msm_accumulate slice; benchmarks and tests set maxItems = 0 for the tiles): all K windows accumulate into their own
 * buckets in one task, then one msm_reduce_segments call over the K·L buckets with `segments`
 * segments per window (its batches have K·segments lanes), so the combination costs ≈ 3
 * XYZZ operations per window instead of ≈ 3·plan.segments. Measured: npm run bench:msm-phases.
 */
export const jointReduction = { maxItems: ACCUMULATE_SLICE, segments: 4 };

/** Scalars per msm_split_scalars task (≈ 7 ms on BLS12-381), at most; with threads, at least one task per thread from 2^13 scalars. */
const SPLIT_CHUNK = 1 << 16;

/** The GLV split of n scalars at `scalars`, in place, as independent tasks of ≤ SPLIT_CHUNK scalars (≥ `threads` tasks when each keeps ≥ 4096). */
export function splitBatch(scalars: number, n: number, bigEndian: 0 | 1, threads = 1): Batch {
  const chunk = Math.min(SPLIT_CHUNK, Math.max(4096, Math.ceil(n / threads)));
  const starts = Array.from({ length: Math.ceil(n / chunk) }, (_, i) => i * chunk);
  return {
    tasks: starts.map((a) => (): Op[] => [['msm_split_scalars', scalars + 32 * a, scalars + 32 * a, Math.min(chunk, n - a), bigEndian]]),
    done() {},
  };
}

/**
 * The GLV split, the compaction (points at infinity and zero scalars out) and the expansion into
 * the MSM's point layout, as three steps of tasks; returns the points kept.
 */
export function* prepareProgram(ctx: GroupContext, regions: MsmRegions, n: number, bigEndian: 0 | 1, onSplit?: () => void, threads = 1): PhaseProgram<number> {
  yield splitBatch(regions.scalars, n, bigEndian, threads);
  onSplit?.();
  let kept = 0;
  yield { tasks: [() => [op(ctx.kn.compact, regions.points, regions.inf, regions.scalars, n)]], done: (_, r) => (kept = r.values[0]) };
  yield { tasks: [() => [op(pointLayoutOf(ctx).expand, regions.points, kept)]], done() {} };
  return kept;
}

/**
 * The MSM on inputs already in memory: points (affine, decoded), inf flags, scalars as 32-byte
 * integers (LE, or BE). Consumes the regions (they are rewritten in place). Split, compaction and
 * the endomorphism first; then the tiles (window × range of halves: accumulation, reduction) form
 * one batch, each finished tile is combined as it arrives.
 */
export function* msmProgram<A>(ctx: GroupContext<A>, regions: MsmRegions, n: number, options: MsmRunOptions): PhaseProgram<{ result: A | null; stats: MsmStats }> {
  const { inst, EB } = ctx;
  const PB = 2 * EB;
  const { arena } = inst;
  const mark = arena.mark();
  try {
    const t0 = performance.now();
    const bigEndian = options.scalarsBigEndian ? 1 : 0;
    let kept: number;
    let t1 = t0;
    // few points: no bucket plan, one msm_straus call on this thread (a fixed window or cut tiles ask for buckets)
    const straus = options.windowBits === undefined && options.ranges === undefined && options.segments === undefined && n <= ctx.strausMaxPoints;
    if (straus) {
      const { k, kn } = ctx;
      k.msm_split_scalars(regions.scalars, regions.scalars, n, bigEndian);
      t1 = performance.now();
      kept = k[kn.compact](regions.points, regions.inf, regions.scalars, n);
      return strausMsm(ctx, regions, kept, t0, t1);
    }
    if (options.prepareInline) {
      const { k, kn } = ctx;
      k.msm_split_scalars(regions.scalars, regions.scalars, n, bigEndian);
      t1 = performance.now();
      kept = k[kn.compact](regions.points, regions.inf, regions.scalars, n);
      k[pointLayoutOf(ctx).expand](regions.points, kept);
    } else {
      // tasks, so threads share the split and the calling thread can return to the event loop between them
      kept = yield* prepareProgram(ctx, regions, n, bigEndian, () => (t1 = performance.now()), options.threads);
    }
    const t2 = performance.now();
    const job = planJob(kept, options.threads, { table: ctx.windowTable, windowBits: options.windowBits, ranges: options.ranges, segments: options.segments, geometry: ctx });
    const { plan, tiles } = job;
    const L = plan.buckets;
    const longestTile = tiles.reduce((most, t) => Math.max(most, t.count), 0);
    // one thread, whole windows, at most maxItems items in all: one task, every window its own buckets, one joint reduction
    const joint = job.slots === 1 && tiles.length === plan.windows && tiles.length > 0 && tiles.every((t) => t.start === 0) && tiles.length * 2 * kept <= jointReduction.maxItems && options.segments === undefined;
    const S = joint ? Math.min(jointReduction.segments, L) : plan.segments;
    if (joint) {
      const K = tiles.length;
      const ws = allocWorkspace(ctx, L, job.tileBatch, job.tempCap, job.deferredCap, K * S, K * ACCUMULATE_SLICE * Math.max(1, Math.ceil(longestTile / ACCUMULATE_SLICE)), false);
      const set = { buckets: arena.alloc(K * L * PB), bstate: arena.alloc(K * L), pending: arena.alloc(4 * K * L, 4) };
      clearBuckets(inst, set, K * L);
      const out = { R: arena.alloc(K * S * PB), P: arena.alloc(K * S * PB), flags: arena.alloc(K * S) };
      const { layout, tripleBytes } = pointLayoutOf(ctx);
      const makeTask = () => tileTask(ctx, ws, {
        accumulate: tiles.map((tile) => ({
          points: regions.points, layout, pointBytes: tripleBytes, halves: regions.scalars, count: tile.count, ...windowJob(plan, tile.win),
          batch: job.tileBatch, deferredCap: job.deferredCap, tempCap: job.tempCap,
          set: { buckets: set.buckets + tile.win * L * PB, bstate: set.bstate + tile.win * L, pending: set.pending + 4 * tile.win * L },
        })),
        // segment j of the K·L buckets lies in window ⌊j/S⌋: each window's S sums come out on their own
        // (a narrow window's buckets are the first half of its L: its upper segments stay empty)
        reduce: { set, L: K * L, S: K * S, out, clear: false },
      });
      const stats = new TileStats();
      let task: TileTask | undefined;
      const t3 = performance.now();
      yield { tasks: [() => (task = makeTask()).ops], done: (_, r) => task!.record(r, stats) };
      const t4 = performance.now();
      const combiner = ctx.makeCombiner();
      for (const tile of tiles) combiner.addWindow(tile.win, windowAt(plan, tile.win).shift, out.R + tile.win * S * PB, out.P + tile.win * S * PB, out.flags + tile.win * S, S, L / S);
      const result = combiner.finish();
      const t5 = performance.now();
      options.onTile?.(1);
      const work = stats.ms.accumulate + stats.ms.reduce || 1;
      return {
        result,
        stats: {
          method: 'buckets',
          plan: { ...plan, segments: S },
          kept,
          ...tileCounts(stats),
          threads: 1,
          tiles: 1,
          times: { split: t1 - t0, prepare: t2 - t1, accumulate: ((t4 - t3) * stats.ms.accumulate) / work, reduce: ((t4 - t3) * stats.ms.reduce) / work, final: t5 - t4 },
          peakMemoryBytes: inst.memory.buffer.byteLength,
        },
      };
    }
    const workspaces = Array.from({ length: job.slots }, () => allocWorkspace(ctx, L, job.tileBatch, job.tempCap, job.deferredCap, S, longestTile));
    const outs = tiles.map(() => ({ R: arena.alloc(S * PB), P: arena.alloc(S * PB), flags: arena.alloc(S) }));
    const combiner = ctx.makeCombiner();
    const stats = new TileStats();
    let combineMs = 0;
    const tileWork = tiles.reduce((sum, t) => sum + t.count, 0) || 1;
    const { layout, tripleBytes } = pointLayoutOf(ctx);
    // each tile reduces its window's buckets (a narrow window: the first half) in up to S segments
    const windows = tiles.map((tile) => windowAt(plan, tile.win));
    const tasks = tiles.map((tile, i) => {
      // the kernel tells a triple's two halves apart by the item's parity in the call: a tile starts at a triple
      if (tile.start % 2 !== 0) throw new Error(`msmProgram: tile ${i} starts at half ${tile.start}, inside a triple`);
      return (slot: number) => tileTask(ctx, workspaces[slot], {
        accumulate: [{
          points: regions.points + (tile.start / 2) * tripleBytes, layout, pointBytes: tripleBytes,
          halves: regions.scalars + 16 * tile.start, count: tile.count, ...windowJob(plan, tile.win),
          batch: job.tileBatch, deferredCap: job.deferredCap, tempCap: job.tempCap,
        }],
        reduce: { set: workspaces[slot], L: windows[i].buckets, S: windows[i].segments, out: outs[i], clear: true },
      });
    });
    const running: (TileTask | undefined)[] = [];
    const tilesBatch: Batch = {
      tasks: tasks.map((make, i) => (slot: number) => (running[i] = make(slot)).ops),
      done(i, r) {
        running[i]!.record(r, stats);
        const t = performance.now();
        const o = outs[i];
        combiner.addWindow(tiles[i].win, windows[i].shift, o.R, o.P, o.flags, windows[i].segments, windows[i].perSegment);
        combineMs += performance.now() - t;
        options.onTile?.(tiles[i].count / tileWork);
      },
    };
    const t3 = performance.now();
    yield tilesBatch;
    const tilesMs = performance.now() - t3;
    const t4 = performance.now();
    const result = combiner.finish();
    const final = performance.now() - t4;
    // the tile phase's wall time, attributed to accumulation and reduction by their measured shares
    // (on threads these overlap each other and the combination of finished tiles)
    const parallel = workspaces.length > 1;
    const work = stats.ms.accumulate + stats.ms.reduce || 1;
    const inTiles = Math.max(0, tilesMs - (parallel || tiles.length === 0 ? 0 : combineMs));
    return {
      result,
      stats: {
        method: 'buckets',
        plan,
        kept,
        ...tileCounts(stats),
        threads: workspaces.length,
        tiles: tiles.length,
        times: {
          split: t1 - t0,
          prepare: t2 - t1,
          accumulate: (inTiles * stats.ms.accumulate) / work,
          reduce: (inTiles * stats.ms.reduce) / work,
          final: final + (parallel ? 0 : combineMs),
        },
        peakMemoryBytes: inst.memory.buffer.byteLength,
      },
    };
  } finally {
    arena.release(mark);
  }
}
