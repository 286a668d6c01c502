/**
 * G1 MSM orchestration over the Wasm kernels (src/codegen/msm.ts): memory layout, phases, timing.
 * Everything per element runs inside Wasm; this file runs O(windows + segments) steps.
 */
import type { Instance } from '../runtime/instance.js';
import { MsmPlan, planMsm } from './plan.js';
import { ACC_STATE_FIELDS, AccStateField, PAIR_BYTES, batchAddScratchBytes } from './layout.js';

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
  allocInputs(n: number): { points: number; inf: number; scalars: number } {
    const { arena } = this.inst;
    const points = arena.alloc((2 * n + 1) * this.layout.PB);
    const inf = arena.alloc(n + 8);
    const scalars = arena.alloc(32 * n + 32);
    return { points, inf, scalars };
  }

  /**
   * Runs the MSM on inputs already in memory: points (affine, decoded), inf flags, scalars as
   * 32-byte integers (LE, or BE). Consumes the regions (they are rewritten in place).
   */
  run(
    regions: { points: number; inf: number; scalars: number },
    n: number,
    scalarsBigEndian: boolean,
    forcePlan?: Partial<MsmPlan>,
  ): { result: { x: bigint; y: bigint } | null; stats: MsmStats } {
    const { arena } = this.inst;
    const { PB, EB } = this.layout;
    const k = this.k;
    const statPairs = this.inst.exports.stat_pairs as WebAssembly.Global;
    const statBatches = this.inst.exports.stat_batches as WebAssembly.Global;
    statPairs.value = 0;
    statBatches.value = 0;
    const t0 = performance.now();
    k.msm_split_scalars(regions.scalars, regions.scalars, n, scalarsBigEndian ? 1 : 0);
    const t1 = performance.now();
    const kept = k.msm_compact(regions.points, regions.inf, regions.scalars, n);
    k.msm_expand_endo(regions.points, regions.scalars, kept);
    const halves = 2 * kept;
    const t2 = performance.now();
    const plan = { ...planMsm(halves, this.windowOverride), ...forcePlan };
    const { c, windows, buckets: L, batch: B, segments: S } = plan;
    const mark = arena.mark();
    const carries = arena.alloc(halves + 8);
    new Uint8Array(this.inst.memory.buffer, carries, halves).fill(0);
    const buckets = arena.alloc(L * PB);
    const bstate = arena.alloc(L);
    const pending = arena.alloc(4 * L);
    const pendingList = arena.alloc(4 * (L + B + 1));
    const pairs = arena.alloc(PAIR_BYTES * Math.max(B, S));
    const D = 8 * B + 16;
    const deferred = arena.alloc(8 * D);
    // temporaries hold partial sums of colliding items until they reach their bucket: at most one
    // pending per bucket plus those in or produced by a batch, so 2B + L slots make running out
    // (which forces an early, smaller batch) rare even when few buckets are hot (short scalars)
    const tempCap = 2 * B + L;
    const temps = arena.alloc(tempCap * PB);
    const freeTemps = arena.alloc(4 * tempCap);
    const scratch = arena.alloc(batchAddScratchBytes(Math.max(B, S), EB));
    const R = arena.alloc(S * PB);
    const P = arena.alloc(S * PB);
    const flags = arena.alloc(S);
    const st = arena.alloc(128);
    const mem = () => new Uint8Array(this.inst.memory.buffer);
    mem().fill(0, bstate, bstate + L);
    mem().fill(0, pending, pending + 4 * L);
    const combiner = this.makeCombiner();
    let flushes = 0;
    let tAcc = 0;
    let tRed = 0;
    let tFin = 0;
    for (let win = 0; win < windows; win++) {
      const ta = performance.now();
      const i32 = new Int32Array(this.inst.memory.buffer, st, 32);
      const state: Record<AccStateField, number> = {
        points: regions.points, halves: regions.scalars, carries, count: halves, shift: win * c, c, buckets, bstate,
        pending, pairs, batch: B, deferred, deferredCap: D, temps, freeTemps, scratch, pendingList, tempCap,
      };
      ACC_STATE_FIELDS.forEach((name, j) => (i32[j] = state[name]));
      flushes += k.msm_accumulate(st);
      const tb = performance.now();
      k.msm_reduce_segments(buckets, bstate, L, S, R, P, flags, pairs, scratch);
      mem().fill(0, bstate, bstate + L);
      const tc = performance.now();
      combiner.addWindow(win, c, R, P, flags, S, L / S);
      const td = performance.now();
      tAcc += tb - ta;
      tRed += tc - tb;
      tFin += td - tc;
    }
    const te = performance.now();
    const result = combiner.finish();
    tFin += performance.now() - te;
    const peakMemoryBytes = this.inst.memory.buffer.byteLength;
    const additions = statPairs.value as number;
    const inversions = statBatches.value as number;
    arena.release(mark);
    return {
      result,
      stats: {
        plan,
        kept,
        flushes,
        additions,
        inversions,
        estimatedFieldMuls: 6 * additions + 28 * inversions,
        times: { split: t1 - t0, prepare: t2 - t1, accumulate: tAcc, reduce: tRed, final: tFin },
        peakMemoryBytes,
      },
    };
  }
}
