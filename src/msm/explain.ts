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
}

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
    const pairCache = new Map<number, number>();
    const pair = (batch: number): number => {
      const B = Math.max(1, Math.round(batch));
      const hit = pairCache.get(B);
      if (hit !== undefined) return hit;
      const m = arena.mark();
      try {
        const PB = 2 * EB;
        // 2B distinct points: G, 2G, …, 2B·G (one batch of one pair per point: set-up, not timed)
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
    return { mul, sqr, addsub: (add + sub) / 2, inv, pair };
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
