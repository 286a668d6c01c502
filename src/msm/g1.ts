/**
 * The G1 MSM as a phase program (src/runtime/executor.ts) over the Wasm kernels (src/codegen/msm.ts):
 * memory layout, phases, timing. Everything per element runs inside Wasm; this file runs
 * O(windows + segments) steps. The same program runs on the calling thread or on the worker pool.
 */
import type { Instance } from '../runtime/instance.js';
import type { Batch, PhaseProgram } from '../runtime/executor.js';
import type { Op, TaskResult } from '../runtime/interpreter.js';
import { JobPlan, MsmPlan, WindowTable, planJob } from './plan.js';
import { ACC_STATE_FIELDS, AccStateField, PAIR_BYTES, POINT_LAYOUT_PACKED, POINT_LAYOUT_PAIRS, POINT_LAYOUT_TRIPLES, batchAddScratchBytes, carryInRule, words128 } from '../abi/layout.js';

export interface PhaseTimes {
  split: number;
  prepare: number;
  accumulate: number;
  reduce: number;
  final: number;
}

/** Batched affine additions of one phase and their batches (one inversion each). */
export interface PhaseCount {
  additions: number;
  inversions: number;
}

export interface MsmStats {
  plan: MsmPlan;
  kept: number;
  flushes: number;
  /** batched affine additions (accumulation + reduction) and their inversions (one per batch) */
  additions: number;
  inversions: number;
  /** the same counts per phase (the cost model of `pippin msm --explain`, src/msm/explain.ts) */
  phaseCounts: { accumulate: PhaseCount; reduce: PhaseCount };
  /** field multiplications by the model 6 per batched addition + 28 per inversion */
  estimatedFieldMuls: number;
  /** threads that ran the tiles (1 = the calling thread) and the number of tiles */
  threads: number;
  tiles: number;
  times: PhaseTimes;
  peakMemoryBytes: number;
}

/** Combines the per-window segment results; implemented over XYZZ kernels (or a reference). */
export interface WindowCombiner {
  /** Starts a window: R and P are S affine points at the given pointers with flags (bit0 R, bit1 P). */
  addWindow(k: number, c: number, R: number, P: number, flags: number, S: number, m: number): void;
  /** Returns the final sum Σ 2^(kc)·W_k as affine {x, y} or null. */
  finish(): { x: bigint; y: bigint } | null;
}

export interface MsmRegions {
  points: number;
  inf: number;
  scalars: number;
}

/** What the MSM needs of a curve: its instance, element size, window table and a combiner. */
export interface G1MsmContext {
  inst: Instance;
  /** bytes per field element (an affine point is 2·EB) */
  EB: number;
  /**
   * bytes of a packed element when the MSM lays points out packed (POINT_LAYOUT_PACKED, G1:
   * msm_expand_packed); absent: shared-y triples of EB-byte elements (G2: msm_expand_triples)
   */
  packedBytes?: number;
  windowTable: WindowTable;
  makeCombiner(): WindowCombiner;
  /**
   * the group whose kernels the tiles call: 'g1' (msm_accumulate, …, the default) or 'g2'
   * (g2_msm_accumulate, …; `inst.k` is then a G2 view, see src/msm/g2.ts)
   */
  group?: 'g1' | 'g2';
}

/** How the MSM lays out its points after the split: the expansion kernel, the layout and the triple's bytes. */
export function pointLayoutOf(ctx: G1MsmContext): { expand: 'msm_expand_packed' | 'msm_expand_triples'; layout: typeof POINT_LAYOUT_TRIPLES | typeof POINT_LAYOUT_PACKED; tripleBytes: number } {
  return ctx.packedBytes
    ? { expand: 'msm_expand_packed', layout: POINT_LAYOUT_PACKED, tripleBytes: 3 * ctx.packedBytes }
    : { expand: 'msm_expand_triples', layout: POINT_LAYOUT_TRIPLES, tripleBytes: 3 * ctx.EB };
}

/**
 * Reserves the input regions for n points: affine points (stride 2·EB) that the expansion kernel
 * turns into shared-y triples (3n elements, packed or not, + 4 elements: β and scratch), infinity
 * flags (n bytes), scalars (32 bytes each, room for the 2n 16-byte halves + padding).
 */
export function allocInputs(ctx: G1MsmContext, n: number): MsmRegions {
  const { arena } = ctx.inst;
  const points = arena.alloc(Math.max(2 * ctx.EB * n, pointLayoutOf(ctx).tripleBytes * n) + 4 * ctx.EB);
  const inf = arena.alloc(n + 8);
  const scalars = arena.alloc(32 * n + 32);
  return { points, inf, scalars };
}

/**
 * The name a task op uses for an MSM kernel of `group`: G2's are the same kernels generated with a
 * `g2_` prefix (src/codegen/msm.ts `kernel`). Ops go to workers by name, so they cannot use the G2
 * view of `inst.k` (src/msm/g2.ts) that direct calls go through.
 */
export function msmKernel<N extends 'msm_compact' | 'msm_expand_endo' | 'msm_expand_triples' | 'msm_expand_packed' | 'msm_accumulate' | 'msm_reduce_segments'>(group: 'g1' | 'g2' | undefined, name: N): N | `g2_${N}` {
  return group === 'g2' ? `g2_${name}` : name;
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
 * Items (halves) per msm_accumulate call: a long accumulation runs as consecutive calls into the
 * same buckets (the kernel leaves no bucket busy and nothing pending), so that on the calling thread
 * no call lasts more than ≈ 15–30 ms and an abort or a progress report never waits longer (measured:
 * ≈ 0.5 µs per item on BLS12-381). Each call ends with a partly filled batch: ≈ 1% more inversions.
 */
export const ACCUMULATE_SLICE = 1 << 15;

/** Bytes of one msm_accumulate state block (8-aligned). */
export const STATE_BLOCK_BYTES = 8 * Math.ceil((4 * ACC_STATE_FIELDS.length) / 8);

/** Scalars per msm_split_scalars task (≈ 7 ms on BLS12-381). */
const SPLIT_CHUNK = 1 << 16;

/** The GLV split of n scalars at `scalars`, in place, as independent tasks of SPLIT_CHUNK scalars. */
export function splitBatch(scalars: number, n: number, bigEndian: 0 | 1): Batch {
  const starts = Array.from({ length: Math.ceil(n / SPLIT_CHUNK) }, (_, i) => i * SPLIT_CHUNK);
  return {
    tasks: starts.map((a) => (): Op[] => [['msm_split_scalars', scalars + 32 * a, scalars + 32 * a, Math.min(SPLIT_CHUNK, n - a), bigEndian]]),
    done() {},
  };
}

/** Private regions of one thread slot's accumulations (tiles, or subgroup-check groups). */
export interface Workspace {
  /** `stateBlocks` state blocks of msm_accumulate, one per slice of a task */
  st: number;
  stateBlocks: number;
  buckets: number;
  bstate: number;
  pending: number;
  pendingList: number;
  pairs: number;
  deferred: number;
  temps: number;
  freeTemps: number;
  scratch: number;
  /** unpacked b operands of a batch (POINT_LAYOUT_PACKED): batch × 2·EB bytes */
  staging: number;
}

/**
 * The MSM on inputs already in memory: points (affine, decoded), inf flags, scalars as 32-byte
 * integers (LE, or BE). Consumes the regions (they are rewritten in place). Split, compaction and
 * the endomorphism run on the calling thread; the tiles (window × range of halves: accumulation,
 * reduction) form one batch, each finished tile is combined as it arrives.
 */
export function* msmProgram(ctx: G1MsmContext, regions: MsmRegions, n: number, options: MsmRunOptions): PhaseProgram<{ result: { x: bigint; y: bigint } | null; stats: MsmStats }> {
  const { inst, EB } = ctx;
  const PB = 2 * EB;
  const { arena } = inst;
  const mark = arena.mark();
  try {
    const t0 = performance.now();
    const { k } = inst;
    const bigEndian = options.scalarsBigEndian ? 1 : 0;
    let kept = 0;
    let t1 = t0;
    if (options.prepareInline) {
      k.msm_split_scalars(regions.scalars, regions.scalars, n, bigEndian);
      t1 = performance.now();
      // inst.k of a G2 context is the G2 view: these names call the G2 twins
      kept = k.msm_compact(regions.points, regions.inf, regions.scalars, n);
      k[pointLayoutOf(ctx).expand](regions.points, kept);
    } else {
      // the GLV split in independent chunks (tasks, so threads share it and the calling thread can
      // return to the event loop between them), then compaction and the endomorphism as one task
      yield splitBatch(regions.scalars, n, bigEndian);
      t1 = performance.now();
      yield {
        tasks: [() => [[msmKernel(ctx.group, 'msm_compact'), regions.points, regions.inf, regions.scalars, n]]],
        done: (_, r) => (kept = r.values[0]),
      };
      // G2 has no packed layout (its contexts carry no packedBytes)
      const expand = ctx.group === 'g2' ? 'g2_msm_expand_triples' : pointLayoutOf(ctx).expand;
      yield { tasks: [() => [[expand, regions.points, kept]]], done() {} };
    }
    const t2 = performance.now();
    const job = planJob(kept, options.threads, { table: ctx.windowTable, windowBits: options.windowBits, ranges: options.ranges, segments: options.segments });
    const { plan, tiles } = job;
    const L = plan.buckets;
    const S = plan.segments;
    const longestTile = tiles.reduce((most, t) => Math.max(most, t.count), 0);
    const workspaces = Array.from({ length: job.slots }, () => allocWorkspace(ctx, L, job.tileBatch, job.tempCap, job.deferredCap, S, longestTile));
    const outs = tiles.map(() => ({ R: arena.alloc(S * PB), P: arena.alloc(S * PB), flags: arena.alloc(S) }));
    const combiner = ctx.makeCombiner();
    const counts = { flushes: 0, additions: 0, inversions: 0 };
    const phaseCounts = { accumulate: { additions: 0, inversions: 0 }, reduce: { additions: 0, inversions: 0 } };
    const opMs = { accumulate: 0, reduce: 0, final: 0 };
    const tileWork = tiles.reduce((sum, t) => sum + t.count, 0) || 1;
    const tilesBatch: Batch = {
      tasks: tiles.map((_, i) => (slot: number) => tileOps(ctx, regions, job, i, workspaces[slot], outs[i])),
      done(i: number, r: TaskResult) {
        // op order of tileOps: a accumulation slices, take pairs, take batches, reduce, zero, zero, take pairs, take batches
        const a = r.values.length - 7;
        for (let j = 0; j < a; j++) {
          counts.flushes += r.values[j];
          opMs.accumulate += r.times[j];
        }
        phaseCounts.accumulate.additions += r.values[a];
        phaseCounts.accumulate.inversions += r.values[a + 1];
        phaseCounts.reduce.additions += r.values[a + 5];
        phaseCounts.reduce.inversions += r.values[a + 6];
        counts.additions += r.values[a] + r.values[a + 5];
        counts.inversions += r.values[a + 1] + r.values[a + 6];
        opMs.reduce += r.times[a + 2];
        const t = performance.now();
        const o = outs[i];
        combiner.addWindow(tiles[i].win, plan.c, o.R, o.P, o.flags, S, L / S);
        opMs.final += performance.now() - t;
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
    const work = opMs.accumulate + opMs.reduce || 1;
    const inTiles = Math.max(0, tilesMs - (parallel || tiles.length === 0 ? 0 : opMs.final));
    return {
      result,
      stats: {
        plan,
        kept,
        ...counts,
        phaseCounts,
        estimatedFieldMuls: 6 * counts.additions + 28 * counts.inversions,
        threads: workspaces.length,
        tiles: tiles.length,
        times: {
          split: t1 - t0,
          prepare: t2 - t1,
          accumulate: (inTiles * opMs.accumulate) / work,
          reduce: (inTiles * opMs.reduce) / work,
          final: final + (parallel ? 0 : opMs.final),
        },
        peakMemoryBytes: inst.memory.buffer.byteLength,
      },
    };
  } finally {
    arena.release(mark);
  }
}

/**
 * A workspace for accumulations into L buckets with batches of B pairs (and reduction batches of
 * S), its bucket states and pending slots cleared (msm_accumulate expects them clear, and leaves
 * them so only after the ops that `accumulateOps` appends).
 */
export function allocWorkspace(ctx: G1MsmContext, L: number, B: number, tempCap: number, deferredCap: number, S = 0, maxItems = 0, ownBuckets = true): Workspace {
  const { arena } = ctx.inst;
  const PB = 2 * ctx.EB;
  const stateBlocks = Math.max(1, Math.ceil(maxItems / ACCUMULATE_SLICE));
  const ws: Workspace = {
    st: arena.alloc(stateBlocks * STATE_BLOCK_BYTES, 8),
    stateBlocks,
    // without its own buckets the caller supplies them per accumulation (streamed MSM: per window)
    buckets: ownBuckets ? arena.alloc(L * PB) : 0,
    bstate: ownBuckets ? arena.alloc(L) : 0,
    pending: ownBuckets ? arena.alloc(4 * L) : 0,
    pendingList: arena.alloc(4 * (L + B + 1)),
    pairs: arena.alloc(PAIR_BYTES * Math.max(B, S)),
    deferred: arena.alloc(8 * deferredCap),
    temps: arena.alloc(tempCap * PB),
    freeTemps: arena.alloc(4 * tempCap),
    scratch: arena.alloc(batchAddScratchBytes(Math.max(B, S), ctx.EB)),
    staging: ctx.packedBytes ? arena.alloc(B * PB) : 0,
  };
  if (ownBuckets) {
    const mem = new Uint8Array(ctx.inst.memory.buffer);
    mem.fill(0, ws.bstate, ws.bstate + L);
    mem.fill(0, ws.pending, ws.pending + 4 * L);
  }
  return ws;
}

/** Bytes allocWorkspace reserves (without the state blocks, a few hundred bytes), for memory budgets. */
export function workspaceBytes(EB: number, L: number, B: number, tempCap: number, deferredCap: number, S = 0, ownBuckets = true): number {
  const PB = 2 * EB;
  return (ownBuckets ? L * (PB + 5) : 0) + 4 * (L + B + 1) + PAIR_BYTES * Math.max(B, S) + 8 * deferredCap + tempCap * (PB + 4) + batchAddScratchBytes(Math.max(B, S), EB) + B * PB + 16 * 10;
}

/** One window of an accumulation: `count` items with their points at `points` and their 16-byte halves. */
export interface AccumulateJob {
  points: number;
  /** POINT_LAYOUT_PAIRS (item i: point at points + i·pointBytes) or _TRIPLES / _PACKED (item i: half of triple ⌊i/2⌋) */
  layout: typeof POINT_LAYOUT_PAIRS | typeof POINT_LAYOUT_TRIPLES | typeof POINT_LAYOUT_PACKED;
  /** bytes per item (pairs: 2·EB) or per triple */
  pointBytes: number;
  halves: number;
  count: number;
  shift: number;
  c: number;
  batch: number;
  deferredCap: number;
  tempCap: number;
}

/**
 * Writes the msm_accumulate state blocks of `job` into the workspace, one per slice of at most
 * ACCUMULATE_SLICE items; returns the ops that run them, in order, into the same buckets.
 */
export function accumulateOps(inst: Instance, ws: Workspace, job: AccumulateJob, group: 'g1' | 'g2' = 'g1'): Op[] {
  const carry = carryInRule(job.shift, job.c);
  const slices = Math.max(1, Math.ceil(job.count / ACCUMULATE_SLICE));
  if (slices > ws.stateBlocks) throw new Error(`accumulateOps: ${job.count} items need ${slices} state blocks, the workspace has ${ws.stateBlocks}`);
  const ops: Op[] = [];
  for (let s = 0; s < slices; s++) {
    const first = s * ACCUMULATE_SLICE;
    const st = ws.st + s * STATE_BLOCK_BYTES;
    const state: Record<AccStateField, number> = {
      points: job.points + (job.layout === POINT_LAYOUT_PAIRS ? first : first / 2) * job.pointBytes, pointLayout: job.layout, staging: ws.staging,
      halves: job.halves + 16 * first, count: Math.min(ACCUMULATE_SLICE, job.count - first),
      shift: job.shift, c: job.c, buckets: ws.buckets, bstate: ws.bstate, pending: ws.pending, pairs: ws.pairs, batch: job.batch,
      deferred: ws.deferred, deferredCap: job.deferredCap, temps: ws.temps, freeTemps: ws.freeTemps, scratch: ws.scratch,
      pendingList: ws.pendingList, tempCap: job.tempCap,
      ...words4('carryMask', carry.mask), ...words4('carryThreshold', carry.threshold),
    };
    const i32 = new Int32Array(inst.memory.buffer, st, ACC_STATE_FIELDS.length);
    ACC_STATE_FIELDS.forEach((name, j) => (i32[j] = state[name]));
    ops.push([msmKernel(group, 'msm_accumulate'), st]);
  }
  return ops;
}

/** Writes tile i's state block into the slot's workspace; the ops accumulate, reduce, and clear the workspace. */
function tileOps(ctx: G1MsmContext, regions: MsmRegions, job: JobPlan, i: number, ws: Workspace, out: { R: number; P: number; flags: number }): Op[] {
  const { inst, group } = ctx;
  const { plan } = job;
  const tile = job.tiles[i];
  const L = plan.buckets;
  const { layout, tripleBytes } = pointLayoutOf(ctx);
  // the kernel tells a triple's two halves apart by the item's parity in the call: a tile starts at a triple
  if (tile.start % 2 !== 0) throw new Error(`tileOps: tile ${i} starts at half ${tile.start}, inside a triple`);
  return [
    ...accumulateOps(inst, ws, {
      points: regions.points + (tile.start / 2) * tripleBytes, layout, pointBytes: tripleBytes,
      halves: regions.scalars + 16 * tile.start, count: tile.count, shift: tile.win * plan.c, c: plan.c,
      batch: job.tileBatch, deferredCap: job.deferredCap, tempCap: job.tempCap,
    }, group),
    ['@take', 'stat_pairs'],
    ['@take', 'stat_batches'],
    [msmKernel(group, 'msm_reduce_segments'), ws.buckets, ws.bstate, L, plan.segments, out.R, out.P, out.flags, ws.pairs, ws.scratch],
    ['@zero', ws.bstate, L],
    ['@zero', ws.pending, 4 * L],
    ['@take', 'stat_pairs'],
    ['@take', 'stat_batches'],
  ];
}

function words4<P extends string>(prefix: P, v: bigint): Record<`${P}${0 | 1 | 2 | 3}`, number> {
  const w = words128(v);
  return { [`${prefix}0`]: w[0], [`${prefix}1`]: w[1], [`${prefix}2`]: w[2], [`${prefix}3`]: w[3] } as Record<`${P}${0 | 1 | 2 | 3}`, number>;
}
