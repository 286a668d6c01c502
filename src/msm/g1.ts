/**
 * G1 MSM orchestration over the Wasm kernels (src/codegen/msm.ts): memory layout, phases, timing.
 * Everything per element runs inside Wasm; this file runs O(windows + segments) steps.
 */
import type { Instance } from '../runtime/instance.js';
import { MsmPlan, Tile, planMsm, planTiles } from './plan.js';
import { ACC_STATE_FIELDS, AccStateField, PAIR_BYTES, batchAddScratchBytes, carryInRule, words128 } from './layout.js';
import type { Op, TaskResult, WorkerPool } from '../runtime/pool.js';

type Fn = (...args: number[]) => number;

export interface PhaseTimes {
  split: number;
  prepare: number;
  accumulate: number;
  reduce: number;
  final: number;
}

export interface MsmStats {
  plan: MsmPlan;
  kept: number;
  flushes: number;
  /** batched affine additions (accumulation + reduction) and their inversions (one per batch) */
  additions: number;
  inversions: number;
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

export interface G1Layout {
  /** bytes per field element and per affine point */
  EB: number;
  PB: number;
}

export class G1Msm {
  private readonly k: Record<string, Fn>;
  constructor(
    readonly inst: Instance,
    readonly layout: G1Layout,
    readonly makeCombiner: () => WindowCombiner,
    readonly windowOverride?: (halves: number) => number | undefined,
  ) {
    this.k = inst.exports as Record<string, Fn>;
  }

  /**
   * Reserves the input regions for n points: affine points (stride PB, room for 2n + 1),
   * infinity flags (n bytes), scalars (32 bytes each, room for the 2n 16-byte halves + padding).
   */
  allocInputs(n: number): MsmRegions {
    const { arena } = this.inst;
    const points = arena.alloc((2 * n + 1) * this.layout.PB);
    const inf = arena.alloc(n + 8);
    const scalars = arena.alloc(32 * n + 32);
    return { points, inf, scalars };
  }

  /**
   * Runs the MSM on inputs already in memory: points (affine, decoded), inf flags, scalars as
   * 32-byte integers (LE, or BE). Consumes the regions (they are rewritten in place). Everything
   * runs on the calling thread.
   */
  run(
    regions: MsmRegions,
    n: number,
    scalarsBigEndian: boolean,
    forcePlan?: Partial<MsmPlan> & { ranges?: number },
  ): { result: { x: bigint; y: bigint } | null; stats: MsmStats } {
    const job = this.prepare(regions, n, scalarsBigEndian, forcePlan, 1);
    try {
      const t = performance.now();
      job.tiles.forEach((_, i) => this.tileDone(job, i, runOpsLocally(this.inst, this.tileOps(job, i, 0))));
      return this.finish(job, performance.now() - t);
    } finally {
      this.inst.arena.release(job.mark);
    }
  }

  /**
   * The same on `threads` workers of `pool` (the instance must be on a shared memory): the calling
   * thread prepares, the workers run the tiles (planTiles), the calling thread combines each tile
   * as it arrives. Resolves to the same result as `run`.
   */
  async runParallel(
    regions: MsmRegions,
    n: number,
    scalarsBigEndian: boolean,
    pool: WorkerPool,
    threads: number,
    forcePlan?: Partial<MsmPlan> & { ranges?: number },
  ): Promise<{ result: { x: bigint; y: bigint } | null; stats: MsmStats }> {
    const job = this.prepare(regions, n, scalarsBigEndian, forcePlan, threads);
    try {
      const t = performance.now();
      await pool.run(this.inst, job.tiles.map((_, i) => (slot: number) => this.tileOps(job, i, slot)), threads, (i, r) => this.tileDone(job, i, r));
      return this.finish(job, performance.now() - t);
    } finally {
      this.inst.arena.release(job.mark);
    }
  }

  /** Split, compaction, endomorphism expansion (calling thread), the plan, and every region the tiles use. */
  private prepare(regions: MsmRegions, n: number, scalarsBigEndian: boolean, forcePlan: (Partial<MsmPlan> & { ranges?: number }) | undefined, threads: number): Job {
    const { arena } = this.inst;
    const { PB, EB } = this.layout;
    const k = this.k;
    const mark = arena.mark();
    const t0 = performance.now();
    k.msm_split_scalars(regions.scalars, regions.scalars, n, scalarsBigEndian ? 1 : 0);
    const t1 = performance.now();
    const kept = k.msm_compact(regions.points, regions.inf, regions.scalars, n);
    k.msm_expand_endo(regions.points, regions.scalars, kept);
    const halves = 2 * kept;
    const t2 = performance.now();
    const { ranges: _forcedRanges, ...forcedPlan } = forcePlan ?? {};
    const plan: MsmPlan = { ...planMsm(halves, this.windowOverride), ...forcedPlan };
    const { ranges, tiles } = planTiles(halves, plan, threads, forcePlan?.ranges);
    const slots = Math.max(1, Math.min(threads, tiles.length));
    const L = plan.buckets;
    const S = plan.segments;
    // batch per tile: the planner's, capped for short tiles (an eighth of the tile, at least 16)
    const B = Math.max(16, Math.min(plan.batch, Math.ceil(halves / ranges) >> 3));
    const D = 8 * B + 16;
    // temporaries hold partial sums of colliding items until they reach their bucket: at most one
    // pending per bucket plus those in or produced by a batch, so 2B + L slots make running out
    // (which forces an early, smaller batch) rare even when few buckets are hot (short scalars)
    const tempCap = 2 * B + L;
    const workspaces: Workspace[] = [];
    for (let w = 0; w < slots; w++) {
      workspaces.push({
        st: arena.alloc(4 * ACC_STATE_FIELDS.length, 8),
        buckets: arena.alloc(L * PB),
        bstate: arena.alloc(L),
        pending: arena.alloc(4 * L),
        pendingList: arena.alloc(4 * (L + B + 1)),
        pairs: arena.alloc(PAIR_BYTES * Math.max(B, S)),
        deferred: arena.alloc(8 * D),
        temps: arena.alloc(tempCap * PB),
        freeTemps: arena.alloc(4 * tempCap),
        scratch: arena.alloc(batchAddScratchBytes(Math.max(B, S), EB)),
      });
    }
    const outs = tiles.map(() => ({ R: arena.alloc(S * PB), P: arena.alloc(S * PB), flags: arena.alloc(S) }));
    const mem = new Uint8Array(this.inst.memory.buffer);
    for (const ws of workspaces) {
      mem.fill(0, ws.bstate, ws.bstate + L);
      mem.fill(0, ws.pending, ws.pending + 4 * L);
    }
    return {
      mark, regions, plan, kept, tiles, outs, workspaces, B, D, tempCap, combiner: this.makeCombiner(),
      times: { split: t1 - t0, prepare: t2 - t1 }, additions: 0, inversions: 0, flushes: 0, opMs: { accumulate: 0, reduce: 0, final: 0 },
    };
  }

  /** Writes tile i's state block into slot's workspace; the ops accumulate, reduce, and clear the workspace. */
  private tileOps(job: Job, i: number, slot: number): Op[] {
    const { plan, tiles, outs, B, D, tempCap } = job;
    const { PB } = this.layout;
    const tile = tiles[i];
    const ws = job.workspaces[slot];
    const L = plan.buckets;
    const shift = tile.win * plan.c;
    const carry = carryInRule(shift, plan.c);
    const state: Record<AccStateField, number> = {
      points: job.regions.points + tile.start * PB, halves: job.regions.scalars + 16 * tile.start, count: tile.count,
      shift, c: plan.c, buckets: ws.buckets, bstate: ws.bstate, pending: ws.pending, pairs: ws.pairs, batch: B,
      deferred: ws.deferred, deferredCap: D, temps: ws.temps, freeTemps: ws.freeTemps, scratch: ws.scratch,
      pendingList: ws.pendingList, tempCap,
      ...words4('carryMask', carry.mask), ...words4('carryThreshold', carry.threshold),
    };
    const i32 = new Int32Array(this.inst.memory.buffer, ws.st, ACC_STATE_FIELDS.length);
    ACC_STATE_FIELDS.forEach((name, j) => (i32[j] = state[name]));
    const o = outs[i];
    return [
      ['msm_accumulate', ws.st],
      ['msm_reduce_segments', ws.buckets, ws.bstate, L, plan.segments, o.R, o.P, o.flags, ws.pairs, ws.scratch],
      ['@zero', ws.bstate, L],
      ['@zero', ws.pending, 4 * L],
      ['@take', 'stat_pairs'],
      ['@take', 'stat_batches'],
    ];
  }

  /** A finished tile: its counters, and its segment sums into the combination. */
  private tileDone(job: Job, i: number, r: TaskResult): void {
    job.flushes += r.values[0];
    job.additions += r.values[4];
    job.inversions += r.values[5];
    job.opMs.accumulate += r.times[0];
    job.opMs.reduce += r.times[1];
    const t = performance.now();
    const o = job.outs[i];
    job.combiner.addWindow(job.tiles[i].win, job.plan.c, o.R, o.P, o.flags, job.plan.segments, job.plan.buckets / job.plan.segments);
    job.opMs.final += performance.now() - t;
  }

  /** The final sum and the statistics; `tilesMs` is the wall time of the tile phase. */
  private finish(job: Job, tilesMs: number): { result: { x: bigint; y: bigint } | null; stats: MsmStats } {
    const t = performance.now();
    const result = job.combiner.finish();
    const final = performance.now() - t;
    // the tile phase's wall time, attributed to accumulation and reduction by their measured shares
    // (on threads these overlap each other and the combination of finished tiles)
    const work = job.opMs.accumulate + job.opMs.reduce || 1;
    const inTiles = Math.max(0, tilesMs - (job.workspaces.length > 1 || job.tiles.length === 0 ? 0 : job.opMs.final));
    return {
      result,
      stats: {
        plan: job.plan,
        kept: job.kept,
        flushes: job.flushes,
        additions: job.additions,
        inversions: job.inversions,
        estimatedFieldMuls: 6 * job.additions + 28 * job.inversions,
        threads: job.workspaces.length,
        tiles: job.tiles.length,
        times: {
          ...job.times,
          accumulate: (inTiles * job.opMs.accumulate) / work,
          reduce: (inTiles * job.opMs.reduce) / work,
          final: final + (job.workspaces.length > 1 ? 0 : job.opMs.final),
        },
        peakMemoryBytes: this.inst.memory.buffer.byteLength,
      },
    };
  }
}

export interface MsmRegions {
  points: number;
  inf: number;
  scalars: number;
}

/** Private regions of one thread's tiles. */
interface Workspace {
  st: number;
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

interface Job {
  mark: number;
  regions: MsmRegions;
  plan: MsmPlan;
  kept: number;
  tiles: Tile[];
  outs: { R: number; P: number; flags: number }[];
  workspaces: Workspace[];
  B: number;
  D: number;
  tempCap: number;
  combiner: WindowCombiner;
  times: { split: number; prepare: number };
  additions: number;
  inversions: number;
  flushes: number;
  /** summed op times: on threads CPU time over all workers */
  opMs: { accumulate: number; reduce: number; final: number };
}

function words4<P extends string>(prefix: P, v: bigint): Record<`${P}${0 | 1 | 2 | 3}`, number> {
  const w = words128(v);
  return { [`${prefix}0`]: w[0], [`${prefix}1`]: w[1], [`${prefix}2`]: w[2], [`${prefix}3`]: w[3] } as Record<`${P}${0 | 1 | 2 | 3}`, number>;
}

/** Runs ops on the calling thread: the same built-ins as the worker (src/runtime/worker-source.ts). */
export function runOpsLocally(inst: Instance, ops: Op[]): TaskResult {
  const values: number[] = [];
  const times: number[] = [];
  for (const op of ops) {
    const t0 = performance.now();
    let v = 0;
    const [name, a, b] = op;
    if (name === '@zero') new Uint8Array(inst.memory.buffer, a as number, b as number).fill(0);
    else if (name === '@take') {
      const g = inst.exports[a as string] as WebAssembly.Global;
      v = g.value as number;
      g.value = 0;
    } else v = (inst.exports[name] as (...args: unknown[]) => number)(...op.slice(1));
    values.push(v);
    times.push(performance.now() - t0);
  }
  return { values, times };
}
