/**
 * The one tile driver: workspaces, the ops of a tile (accumulate halves into a bucket set, then
 * reduce it into per-segment sums) and the statistics read back from its results. The one-piece MSM
 * (src/msm/program.ts), the streamed MSM (src/msm/stream.ts), the fixed-base MSM
 * (src/msm/fixed-base.ts) and the batched subgroup check (src/msm/subgroup.ts) build their tasks
 * here, for either group.
 */
import type { Instance } from '../runtime/instance.js';
import type { Op, TaskResult } from '../runtime/interpreter.js';
import { ACC_STATE_FIELDS, AccStateField, PAIR_BYTES, POINT_LAYOUT_PACKED, POINT_LAYOUT_PAIRS, POINT_LAYOUT_TRIPLES, batchAddScratchBytes, carryInRule, words128 } from '../abi/layout.js';
import { op, type GroupContext } from './group.js';
import { estimatedFieldMuls, workspaceRegions } from './plan.js';

/**
 * Items (halves) per msm_accumulate call: a long accumulation runs as consecutive calls into the
 * same buckets (the kernel leaves no bucket busy and nothing pending), so that on the calling thread
 * no call lasts more than ≈ 15–30 ms and an abort or a progress report never waits longer (measured:
 * ≈ 0.5 µs per item on BLS12-381). Each call ends with a partly filled batch: ≈ 1% more inversions.
 */
export const ACCUMULATE_SLICE = 1 << 15;

/** Bytes of one msm_accumulate state block (8-aligned). */
export const STATE_BLOCK_BYTES = 8 * Math.ceil((4 * ACC_STATE_FIELDS.length) / 8);

export { estimatedFieldMuls } from './plan.js';

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
}

/** A bucket set: the buckets, their states and pending slots (a workspace's own, or a streamed window's). */
export type BucketSet = Pick<Workspace, 'buckets' | 'bstate' | 'pending'>;

/** Where a reduction writes its S segment sums R, weighted sums P and their flags. */
export interface SegmentOut {
  R: number;
  P: number;
  flags: number;
}

/**
 * A workspace for accumulations into L buckets with batches of B pairs (and reduction batches of
 * S), its bucket states and pending slots cleared (msm_accumulate expects them clear, and leaves
 * them so only after the ops that `accumulateOps` appends).
 */
export function allocWorkspace(ctx: GroupContext, L: number, B: number, tempCap: number, deferredCap: number, S = 0, maxItems = 0, ownBuckets = true): Workspace {
  const { arena } = ctx.inst;
  const r = workspaceRegions(ctx, L, B, tempCap, deferredCap, S, ownBuckets);
  const stateBlocks = Math.max(1, Math.ceil(maxItems / ACCUMULATE_SLICE));
  const at = (bytes: number) => (bytes ? arena.alloc(bytes) : 0);
  const ws: Workspace = {
    st: arena.alloc(stateBlocks * STATE_BLOCK_BYTES, 8),
    stateBlocks,
    // without its own buckets the caller supplies them per accumulation (streamed MSM: per window)
    buckets: at(r.buckets),
    bstate: at(r.bstate),
    pending: at(r.pending),
    pendingList: arena.alloc(r.pendingList),
    pairs: arena.alloc(r.pairs),
    deferred: arena.alloc(r.deferred),
    temps: arena.alloc(r.temps),
    freeTemps: arena.alloc(r.freeTemps),
    scratch: arena.alloc(r.scratch),
  };
  if (ownBuckets) clearBuckets(ctx.inst, ws, L);
  return ws;
}

/** Clears the states and pending slots of L buckets (the buckets' points need no clearing). */
export function clearBuckets(inst: Instance, set: BucketSet, L: number): void {
  const mem = new Uint8Array(inst.memory.buffer);
  mem.fill(0, set.bstate, set.bstate + L);
  mem.fill(0, set.pending, set.pending + 4 * L);
}

/** Bytes allocWorkspace reserves (without the state blocks, a few hundred bytes), for memory budgets: its regions and alignment. */
export function workspaceBytes(EB: number, L: number, B: number, tempCap: number, deferredCap: number, S = 0, ownBuckets = true): number {
  const r = workspaceRegions({ EB }, L, B, tempCap, deferredCap, S, ownBuckets);
  return Object.values(r).reduce((a, b) => a + b, 0) + 16 * 10;
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
  /** the window's carry-in rule (`windowJob`); absent: windows of width c all the way down (carryInRule) */
  carry?: { mask: bigint; threshold: bigint };
  batch: number;
  deferredCap: number;
  tempCap: number;
  /** the buckets to accumulate into, if not the workspace's own (the joint reduction: one set per window) */
  set?: BucketSet;
}

/**
 * Writes the msm_accumulate state blocks of `job` into the workspace (from its state block
 * `firstBlock`), one per slice of at most ACCUMULATE_SLICE items; returns the ops that run them, in
 * order, into the same buckets.
 */
export function accumulateOps(ctx: GroupContext, ws: Workspace, job: AccumulateJob, firstBlock = 0): Op[] {
  const carry = job.carry ?? carryInRule(job.shift, job.c);
  const slices = Math.max(1, Math.ceil(job.count / ACCUMULATE_SLICE));
  if (firstBlock + slices > ws.stateBlocks) throw new Error(`accumulateOps: ${job.count} items need ${slices} state blocks from block ${firstBlock}, the workspace has ${ws.stateBlocks}`);
  const set = job.set ?? ws;
  const ops: Op[] = [];
  for (let s = 0; s < slices; s++) {
    const first = s * ACCUMULATE_SLICE;
    const st = ws.st + (firstBlock + s) * STATE_BLOCK_BYTES;
    const state: Record<AccStateField, number> = {
      points: job.points + (job.layout === POINT_LAYOUT_PAIRS ? first : first / 2) * job.pointBytes, pointLayout: job.layout,
      halves: job.halves + 16 * first, count: Math.min(ACCUMULATE_SLICE, job.count - first),
      shift: job.shift, c: job.c, buckets: set.buckets, bstate: set.bstate, pending: set.pending, pairs: ws.pairs, batch: job.batch,
      deferred: ws.deferred, deferredCap: job.deferredCap, temps: ws.temps, freeTemps: ws.freeTemps, scratch: ws.scratch,
      pendingList: ws.pendingList, tempCap: job.tempCap,
      ...words4('carryMask', carry.mask), ...words4('carryThreshold', carry.threshold),
    };
    const i32 = new Int32Array(ctx.inst.memory.buffer, st, ACC_STATE_FIELDS.length);
    ACC_STATE_FIELDS.forEach((name, j) => (i32[j] = state[name]));
    ops.push(op(ctx.kn.accumulate, st));
  }
  return ops;
}

/** Additions and inversions (batches) of one phase. */
export interface PhaseCount {
  /** batched affine additions */
  additions: number;
  /** batched inversions (one per batch) */
  inversions: number;
}

/** Counts and op times of the tiles of one MSM, added up as their tasks finish. */
export class TileStats {
  flushes = 0;
  tasks = 0;
  readonly accumulate: PhaseCount = { additions: 0, inversions: 0 };
  readonly reduce: PhaseCount = { additions: 0, inversions: 0 };
  /** milliseconds inside the accumulation and reduction kernels (summed over threads) */
  readonly ms = { accumulate: 0, reduce: 0 };

  get additions(): number {
    return this.accumulate.additions + this.reduce.additions;
  }
  get inversions(): number {
    return this.accumulate.inversions + this.reduce.inversions;
  }
  get estimatedFieldMuls(): number {
    return estimatedFieldMuls(this.additions, this.inversions);
  }
}

/** A tile's ops and how to read its result into TileStats. */
export interface TileTask {
  ops: Op[];
  record(r: TaskResult, stats: TileStats): void;
}

/**
 * The ops of a tile: optionally accumulations (each job's slices, from consecutive state blocks)
 * followed by the counters they moved; optionally the reduction of `reduce.set` into `reduce.out`
 * (S segments) followed by clearing the bucket set (when `clear`) and the counters.
 */
export function tileTask(
  ctx: GroupContext,
  ws: Workspace,
  parts: { accumulate?: AccumulateJob[]; reduce?: { set: BucketSet; L: number; S: number; out: SegmentOut; clear: boolean } },
): TileTask {
  // the counters start from zero here: other batch additions on this instance (input generation,
  // subgroup checks) would otherwise count as this tile's
  const ops: Op[] = [['@take', 'stat_pairs'], ['@take', 'stat_batches']];
  const firstSlice = ops.length;
  let slices = 0;
  let countersAfterAccumulate = -1;
  let reduceAt = -1;
  let countersAfterReduce = -1;
  if (parts.accumulate) {
    for (const job of parts.accumulate) {
      const jobOps = accumulateOps(ctx, ws, job, slices);
      slices += jobOps.length;
      ops.push(...jobOps);
    }
    countersAfterAccumulate = ops.length;
    ops.push(['@take', 'stat_pairs'], ['@take', 'stat_batches']);
  }
  if (parts.reduce) {
    const { set, L, S, out, clear } = parts.reduce;
    reduceAt = ops.length;
    ops.push(op(ctx.kn.reduceSegments, set.buckets, set.bstate, L, S, out.R, out.P, out.flags, ws.pairs, ws.scratch));
    if (clear) ops.push(['@zero', set.bstate, L], ['@zero', set.pending, 4 * L]);
    countersAfterReduce = ops.length;
    ops.push(['@take', 'stat_pairs'], ['@take', 'stat_batches']);
  }
  return {
    ops,
    record(r, stats) {
      stats.tasks++;
      for (let j = firstSlice; j < firstSlice + slices; j++) {
        stats.flushes += r.values[j];
        stats.ms.accumulate += r.times[j];
      }
      if (countersAfterAccumulate >= 0) {
        stats.accumulate.additions += r.values[countersAfterAccumulate];
        stats.accumulate.inversions += r.values[countersAfterAccumulate + 1];
      }
      if (reduceAt >= 0) {
        stats.ms.reduce += r.times[reduceAt];
        stats.reduce.additions += r.values[countersAfterReduce];
        stats.reduce.inversions += r.values[countersAfterReduce + 1];
      }
    },
  };
}

function words4<P extends string>(prefix: P, v: bigint): Record<`${P}${0 | 1 | 2 | 3}`, number> {
  const w = words128(v);
  return { [`${prefix}0`]: w[0], [`${prefix}1`]: w[1], [`${prefix}2`]: w[2], [`${prefix}3`]: w[3] } as Record<`${P}${0 | 1 | 2 | 3}`, number>;
}
