/**
 * A cost model of the MSM's batched-addition phases, checked against the measured time
 * (`pippin msm --explain`). Two predictions per phase, from microbenchmarks run in the same process
 * on the same instance:
 *
 * - field model: additions × (5 mul + 1 sqr + 5 add/sub) + batches × 1 inversion — the operation
 *   count of g1_batch_add (src/codegen/msm.ts: Montgomery's trick 3M per pair, λ 1M, λ² 1S, y3 1M;
 *   dx, dy, x3 = λ² − x1 − x2 (one pass), x1 − x3, y3 − y1 in add/sub, three of them lazy, i.e. without
 *   the final correction, yet timed as fp_add / fp_sub) with each op timed alone;
 * - kernel model: additions × the time per pair of g1_batch_add itself at the phase's mean batch
 *   size, on points that stay in cache (so it includes the kernel's loads, stores and loop, and the
 *   batch's inversion, but no bucket scheduling and no cache misses).
 *
 * Measured − kernel model is what the bucket scheduling costs (collision handling, deferred items,
 * state bytes) plus the memory stalls of random bucket access; kernel − field model is the batch
 * kernel's own overhead beyond the field operations. Findings: docs/performance.md.
 */
import type { Instance } from '../runtime/instance.js';
import { PAIR_BYTES, batchAddScratchBytes } from '../abi/layout.js';
import type { MsmStats, PhaseCount } from './program.js';

/** Nanoseconds per field operation and per batched pair, measured on one instance. */
export interface KernelCosts {
  mul: number;
  sqr: number;
  /** mean of fp_add and fp_sub */
  addsub: number;
  inv: number;
  /** ns per pair of g1_batch_add at a batch size (measured on demand, memoized) */
  pair(batch: number): number;
  /**
   * ns more per pair of g1_batch_touch + g1_batch_add (batches of `batch`) when each pair's a
   * operand (its bucket) is a random slot of MISS_REGION_BYTES rather than of a region in L1/L2:
   * the cost of an accumulation addition whose bucket misses L2 (memoized)
   */
  miss(batch: number): number;
}

/** Bytes the far buckets of the miss benchmark spread over: above every L2 (≤ 2 MiB per core today), within a shared L3. */
export const MISS_REGION_BYTES = 8 << 20;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * ns per call of `body` (repeated `reps` times per sample, median of `samples`), less the same for
 * `baseline` (a kernel call that does almost nothing: the JS→Wasm call overhead).
 */
function timePerCall(body: () => void, reps: number, samples = 9, baseline?: () => void): number {
  const sample = (f: () => void) => {
    const t = performance.now();
    for (let i = 0; i < reps; i++) f();
    return ((performance.now() - t) * 1e6) / reps;
  };
  for (let i = 0; i < reps; i++) body(); // warm-up (tier-up of the Wasm and of this loop)
  const own: number[] = [];
  const base: number[] = [];
  for (let s = 0; s < samples; s++) {
    own.push(sample(body));
    if (baseline) base.push(sample(baseline));
  }
  return Math.max(0, median(own) - (baseline ? median(base) : 0));
}

/**
 * Times the field ops and the batch-addition kernel on `inst` (≈ 0.3 s). `G` is a finite point of
 * the curve (affine, canonical); the pair benchmark adds multiples of it, kept in cache.
 * Allocates from the arena and releases everything before it returns.
 */
export function measureKernelCosts(inst: Instance, G: { x: bigint; y: bigint }): KernelCosts {
  const { k, arena } = inst;
  const fp = inst.fields.fp;
  const EB = fp.info.elementBytes;
  const mark = arena.mark();
  try {
    const x = fp.alloc();
    const y = fp.alloc();
    const out = fp.alloc();
    fp.write(x, 0x1234567890abcdef1234567890abcdefn % fp.info.p);
    fp.write(y, fp.info.p - 7n);
    const call = () => k.fp_copy(out, x); // the call overhead (and a copy of one element)
    const mul = timePerCall(() => k.fp_mul(x, x, y), 200_000, 9, call);
    const sqr = timePerCall(() => k.fp_sqr(x, x), 200_000, 9, call);
    const add = timePerCall(() => k.fp_add(x, x, y), 200_000, 9, call);
    const sub = timePerCall(() => k.fp_sub(x, x, y), 200_000, 9, call);
    const inv = timePerCall(() => k.fp_inv(x, x), 2_000, 9);
    const PB = 2 * EB;
    /** A batch of B pairs with its scratch, and 2B distinct points G, 2G, …, 2B·G (one single-pair batch per point: set-up, not timed). */
    const setup = (B: number) => {
      const pts = arena.alloc(2 * B * PB);
      const pairs = arena.alloc(PAIR_BYTES * B);
      const scratch = arena.alloc(batchAddScratchBytes(B, EB));
      fp.write(pts, G.x);
      fp.write(pts + EB, G.y);
      const i32 = new Int32Array(inst.memory.buffer, pairs, 4 * B);
      for (let j = 1; j < 2 * B; j++) {
        i32.set([pts + j * PB, pts + (j - 1) * PB, pts, 0]);
        k.g1_batch_add(pairs, 1, scratch);
      }
      return { pts, pairs, scratch };
    };
    const pairCache = new Map<number, number>();
    const pair = (batch: number): number => {
      const B = Math.max(1, Math.round(batch));
      const hit = pairCache.get(B);
      if (hit !== undefined) return hit;
      const m = arena.mark();
      try {
        const { pts, pairs, scratch } = setup(B);
        // timed: P_t ← P_t + P_{B+t} for t < B (no two equal, no two opposite), one inversion per call
        const fill = () => {
          const v = new Int32Array(inst.memory.buffer, pairs, 4 * B);
          for (let t = 0; t < B; t++) v.set([pts + t * PB, pts + t * PB, pts + (B + t) * PB, 0], 4 * t);
        };
        fill();
        const reps = Math.max(3, Math.ceil(20_000 / B));
        const perCall = timePerCall(() => k.g1_batch_add(pairs, B, scratch), reps, 7);
        const ns = perCall / B;
        pairCache.set(B, ns);
        return ns;
      } finally {
        arena.release(m);
      }
    };
    const missCache = new Map<number, number>();
    const miss = (batch: number): number => {
      const B = Math.max(16, Math.round(batch));
      const hit = missCache.get(B);
      if (hit !== undefined) return hit;
      const m = arena.mark();
      try {
        const slots = Math.floor(MISS_REGION_BYTES / PB);
        // slots hold copies of G, …, B·G; the b operands are (B + 1)·G, …, 2B·G (never ±a on the first call)
        const region = arena.alloc(slots * PB);
        const { pts: bs, pairs, scratch } = setup(B);
        let v: Int32Array;
        const mem = new Uint8Array(inst.memory.buffer);
        for (let s = 0; s < slots; s += B) mem.copyWithin(region + s * PB, bs, bs + Math.min(B, slots - s) * PB);
        // 64 batches of random slot indices, fixed, so both runs below do the same JS work
        let seed = 0x9e3779b9;
        const rnd = () => ((seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
        const sets = Array.from({ length: 64 }, () => Int32Array.from({ length: B }, () => Math.floor(rnd() * slots)));
        const run = (span: number) => {
          let r = 0;
          return () => {
            const set = sets[r++ & 63];
            v = new Int32Array(inst.memory.buffer, pairs, 4 * B);
            for (let t = 0; t < B; t++) {
              const a = region + (set[t] % span) * PB;
              v[4 * t] = a;
              v[4 * t + 1] = a;
              v[4 * t + 2] = bs + (B + t) * PB;
              v[4 * t + 3] = 0;
            }
            k.g1_batch_touch(pairs, B, scratch);
            k.g1_batch_add(pairs, B, scratch);
          };
        };
        const reps = Math.max(8, Math.ceil(40_000 / B));
        // near: the first 4B slots (4B·PB bytes: 416 KiB at B = 512 on BLS12-381); far: all of them;
        // samples alternate, so a neighbour's load hits both alike
        const near = run(Math.min(slots, 4 * B));
        const far = run(slots);
        const diffs: number[] = [];
        for (let s = 0; s < 21; s++) diffs.push(timePerCall(far, reps, 1) - timePerCall(near, reps, 1));
        const ns = Math.max(0, median(diffs)) / B;
        missCache.set(B, ns);
        return ns;
      } finally {
        arena.release(m);
      }
    };
    return { mul, sqr, addsub: (add + sub) / 2, inv, pair, miss };
  } finally {
    arena.release(mark);
  }
}

export interface PhaseExplanation {
  phase: 'accumulate' | 'reduce';
  additions: number;
  inversions: number;
  /** mean pairs per batch */
  meanBatch: number;
  fieldModelMs: number;
  kernelModelMs: number;
  measuredMs: number;
}

/** The field and kernel models of one phase's counts. */
export function predictPhase(costs: KernelCosts, count: PhaseCount): { fieldModelMs: number; kernelModelMs: number; meanBatch: number } {
  const meanBatch = count.inversions > 0 ? count.additions / count.inversions : 0;
  const perAddition = 5 * costs.mul + costs.sqr + 5 * costs.addsub;
  const fieldModelMs = (count.additions * perAddition + count.inversions * costs.inv) / 1e6;
  const kernelModelMs = count.additions > 0 ? (count.additions * costs.pair(meanBatch)) / 1e6 : 0;
  return { fieldModelMs, kernelModelMs, meanBatch };
}

/** Predicted and measured time of the accumulation and the reduction of one MSM run. */
export function explainMsm(costs: KernelCosts, stats: MsmStats): PhaseExplanation[] {
  return (['accumulate', 'reduce'] as const).map((phase) => {
    const count = stats.phaseCounts[phase];
    return { phase, ...count, ...predictPhase(costs, count), measuredMs: stats.times[phase] };
  });
}
