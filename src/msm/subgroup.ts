/**
 * Batched subgroup check: are all n points (on the curve, decoded) in the order-r subgroup G1?
 *
 * E(F_p) has order h1·r with gcd(h1, r) = 1, so every point is P = Q + T with Q in G1 and T in the
 * h1-torsion H, and P is in G1 iff T = 0. For random coefficients c_i, S = Σ c_i·P_i is in G1 iff
 * Σ c_i·T_i = 0. If some T_j ≠ 0, fix every other coefficient: c_j·T_j must hit one value, and as
 * c_j runs over a set of s values that are distinct modulo every prime factor of h1, c ↦ c·T_j is
 * injective on it — so a uniform c_j hits with probability ≤ 1/s. Independent combinations multiply:
 * k of them miss a bad point with probability ≤ s^−k. The coefficient set is {−1, 0, 1} (s = 3) when
 * h1 is odd (BLS12-381: its smallest prime factor is 3) and {0, 1} (s = 2) when h1 is even
 * (BLS12-377), so k = ⌈128 / log2 s⌉: 81 or 128 combinations for ≤ 2^−128 per call. Each S is then
 * tested exactly (g1_subgroup_check_batch, all k at once). docs/validation.md has the argument with each curve's numbers.
 *
 * The k combinations are computed g at a time by bucketing (the MSM's own msm_accumulate): the g
 * coefficients of point i in a group form a base-s number v_i (balanced ternary for s = 3), which is
 * its bucket; then combination j of the group is Σ_m digit_j(m)·B_m over the buckets (XYZZ, on the
 * calling thread). Cost per point: one batch-affine addition per group, ⌈k/g⌉ groups; per group
 * ≈ g·s^(g−1) mixed additions for the bucket sums, and k exact checks per call.
 *
 * G2 (BLS12-381, BN254) runs the same program over its own kernels (its GroupContext): #E'(F_p²) = h2·r
 * with gcd(h2, r) = 1, and the smallest prime factors of h2 (13 and 10069) allow ternary coefficients.
 */
import type { Batch, PhaseProgram } from '../runtime/executor.js';
import { allocWorkspace, tileTask, type Workspace } from './tiles.js';
import { runExactCheck, type GroupContext } from './group.js';
import { accumulationCaps, batchFor } from './plan.js';
import type { Op } from '../runtime/interpreter.js';
import { POINT_LAYOUT_PAIRS } from '../abi/layout.js';

/** Error probability bound per call: 2^−SECURITY_BITS. */
export const SECURITY_BITS = 128;

/** The smallest prime factor of h1 (h1 > 1), by trial division up to 2^20, else h1 itself if that is prime-free below it. */
export function smallestPrimeFactor(h: bigint): bigint {
  if (h < 2n) throw new RangeError('smallestPrimeFactor: h must be > 1');
  if (h % 2n === 0n) return 2n;
  for (let d = 3n; d < 1n << 20n && d * d <= h; d += 2n) if (h % d === 0n) return d;
  // no factor below 2^20: every prime factor is ≥ 2^20 > 3, so ternary coefficients stay sound
  return 1n << 20n;
}

export interface SubgroupBatchPlan {
  /** coefficient set size s: 3 ({−1, 0, 1}) or 2 ({0, 1}) */
  base: 2 | 3;
  /** independent combinations: ⌈SECURITY_BITS / log2 base⌉ */
  combinations: number;
  /** combinations per bucket pass (the last group may be smaller) */
  groupSize: number;
  groups: number;
  /** window bits of the bucket pass: 2^(c−1) ≥ the largest bucket index */
  c: number;
}

/** The coefficient set for a cofactor: 2 values ({0, 1}) when h1 is even, else 3 ({−1, 0, 1}). */
export function coefficientBase(h1: bigint): 2 | 3 {
  return smallestPrimeFactor(h1) === 2n ? 2 : 3;
}

/** Combinations for a coefficient set of `base` values: ⌈bits / log2 base⌉. */
export function combinationsFor(base: 2 | 3, bits = SECURITY_BITS): number {
  return Math.ceil(bits / Math.log2(base));
}

/** Largest bucket index of a group of g coefficients: (3^g − 1)/2 balanced ternary, 2^g − 1 binary. */
export function bucketsFor(base: 2 | 3, g: number): number {
  return base === 3 ? (3 ** g - 1) / 2 : 2 ** g - 1;
}

/**
 * The plan for n points: the group size g minimizing n·⌈k/g⌉ accumulation additions plus
 * ⌈k/g⌉·g·s^(g−1) bucket-sum additions (the latter weighted 2: XYZZ mixed additions on the
 * calling thread cost about twice a batch-affine one).
 */
export function planSubgroupBatch(h1: bigint, n: number, combinations?: number): SubgroupBatchPlan {
  const base = coefficientBase(h1);
  const k = combinations ?? combinationsFor(base);
  let best = { g: 1, cost: Infinity };
  for (let g = 1; g <= (base === 3 ? 9 : 14); g++) {
    const groups = Math.ceil(k / g);
    const cost = n * groups + 2 * groups * g * base ** (g - 1);
    if (cost < best.cost) best = { g, cost };
  }
  const g = Math.min(best.g, k);
  // 2^(c−1) > the largest index, so a negative index −m (stored as 2^c − m) reads back as −m
  const c = Math.floor(Math.log2(bucketsFor(base, g))) + 2;
  return { base, combinations: k, groupSize: g, groups: Math.ceil(k / g), c };
}

/**
 * Below this many points per combination, exact per-point checks are cheaper than the batch
 * (measured with msmSync, BLS12-381 and BLS12-377, n = 64…500: the batch wins from ≈ 1.5 points per
 * combination; docs/validation.md).
 */
export const MIN_POINTS_PER_COMBINATION = 2;

/** Points from which 'full' validation runs the batched check for cofactor h (Infinity when h = 1: no check at all). */
export function batchedCheckFrom(h: bigint): number {
  return h > 1n ? MIN_POINTS_PER_COMBINATION * combinationsFor(coefficientBase(h)) : Infinity;
}

/** Uniform integers in [0, bound) from crypto.getRandomValues (rejection sampling, no modulo bias). */
function randomBelow(bound: number, count: number): Uint32Array {
  const out = new Uint32Array(count);
  const limit = Math.floor(2 ** 32 / bound) * bound;
  const buf = new Uint32Array(Math.min(16384, Math.max(count, 1)));
  let have = 0;
  let at = buf.length;
  while (have < count) {
    if (at === buf.length) {
      globalThis.crypto.getRandomValues(buf);
      at = 0;
    }
    const u = buf[at++];
    if (u < limit) out[have++] = u % bound;
  }
  return out;
}

/**
 * The bucket index (signed) of each point for one group: balanced ternary v ∈ [−(3^g−1)/2, (3^g−1)/2]
 * or binary v ∈ [0, 2^g), 0 for points at infinity; digit j of v is the point's coefficient in the
 * group's combination j.
 */
export function randomGroupIndices(base: 2 | 3, g: number, inf: Uint8Array): Int32Array {
  const n = inf.length;
  const span = base ** g;
  const offset = base === 3 ? (span - 1) / 2 : 0;
  const raw = randomBelow(span, n);
  const v = new Int32Array(n);
  for (let i = 0; i < n; i++) v[i] = inf[i] ? 0 : raw[i] - offset;
  return v;
}

const digitTables = new Map<string, Int8Array>();

/** Digits of the bucket indices 1 … bucketsFor(base, g), g per index: balanced ternary (−1, 0, 1) or binary. */
export function digitTable(base: 2 | 3, g: number): Int8Array {
  const key = `${base}:${g}`;
  let table = digitTables.get(key);
  if (!table) {
    const last = bucketsFor(base, g);
    table = new Int8Array(last * g);
    for (let m = 1; m <= last; m++) {
      for (let j = 0, t = m; j < g; j++) {
        let d = base === 2 ? t & 1 : t % 3;
        if (d === 2) d = -1; // balanced ternary (t > 0 here)
        table[(m - 1) * g + j] = d;
        t = base === 2 ? t >> 1 : (t - d) / 3;
      }
    }
    digitTables.set(key, table);
  }
  return table;
}

/**
 * 'full' validation of n decoded points with the batched check: `batch(lo, hi)` (subgroupBatchProgram
 * over points [lo, hi)) on all of them; when it fails, bisection with batched checks down to
 * `shortest` points, then `exact(lo, hi)` (per-point tests that throw the typed error with the index)
 * on that range — the lowest bad index, since every left half passed — and, not reached but with
 * probability ≤ 2^−128 per bisection step (a bad left half that passed), on all points.
 */
export function* validateInSubgroupBatched(
  n: number,
  shortest: number,
  batch: (lo: number, hi: number, onGroup?: (share: number) => void) => PhaseProgram<boolean>,
  exact: (lo: number, hi: number) => PhaseProgram<void>,
  onShare?: (share: number) => void,
): PhaseProgram<void> {
  if (yield* batch(0, n, onShare)) return;
  let lo = 0;
  let hi = n;
  while (hi - lo > shortest) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (yield* batch(lo, mid)) lo = mid;
    else hi = mid;
  }
  yield* exact(lo, hi);
  yield* exact(0, n);
}

/**
 * The batched check as a phase program over decoded points (regions: affine points of stride 2·EB,
 * inf flags): true when every combination is in G1 (all points are, except with probability
 * ≤ 2^−128), false when some point is not (then locate it exactly).
 */
export function* subgroupBatchProgram(
  ctx: GroupContext,
  points: number,
  infPtr: number,
  n: number,
  threads: number,
  plan: SubgroupBatchPlan,
  /** called as each group finishes with its share of the check (the shares sum to 1) */
  onGroup?: (share: number) => void,
): PhaseProgram<boolean> {
  const { inst, EB, k, kn } = ctx;
  const PB = 2 * EB;
  const { arena } = inst;
  // a coordinate is EB / fpBytes base-field elements (G2: c0, c1): negation is per element
  const fpBytes = inst.fields.fp.info.elementBytes;
  const negate = (dst: number, src: number) => {
    for (let o = 0; o < EB; o += fpBytes) {
      k.fp_copy(dst + o, src + o);
      k.fp_neg(dst + EB + o, src + EB + o);
    }
  };
  const mark = arena.mark();
  try {
    const L = 2 ** (plan.c - 1);
    const B = batchFor(n);
    const { tempCap, deferredCap } = accumulationCaps(B, L);
    const slots = Math.max(1, Math.min(threads, plan.groups));
    const workspaces: Workspace[] = Array.from({ length: slots }, () => allocWorkspace(ctx, L, B, tempCap, deferredCap, 0, n));
    const inf = new Uint8Array(inst.memory.buffer, infPtr, n).slice();
    // per slot the halves of the group it runs (16 bytes per point: v mod 2^c in the low word, so the
    // signed digit msm_accumulate derives at shift 0 is v itself, the other words zero), filled when
    // the group starts
    const halves = workspaces.map(() => {
      const at = arena.alloc(16 * n + 16);
      new Uint8Array(inst.memory.buffer, at, 16 * n + 16).fill(0);
      return at;
    });
    const mask = 2 ** plan.c - 1;
    const groupSize = (gi: number) => Math.min(plan.groupSize, plan.combinations - gi * plan.groupSize);
    const slotOf = new Int32Array(plan.groups);
    // the combinations (XYZZ) and the calling thread's scratch for summing buckets into them
    const XB = 4 * EB;
    const sums = arena.alloc(plan.combinations * XB);
    const negBucket = arena.alloc(PB);
    const scratch = arena.alloc(Math.max(16, ctx.scratch.addAffine, ctx.scratch.toAffine));
    for (let j = 0; j < plan.combinations; j++) k[kn.setInf](sums + j * XB);
    const sumBuckets = (gi: number, ws: Workspace) => {
      const g = groupSize(gi);
      const first = gi * plan.groupSize;
      const last = bucketsFor(plan.base, g);
      const digits = digitTable(plan.base, g);
      const state = new Uint8Array(inst.memory.buffer, ws.bstate, last).slice();
      for (let m = 1; m <= last; m++) {
        if (state[m - 1] === 0) continue; // empty bucket
        const at = ws.buckets + (m - 1) * PB;
        let negReady = false;
        for (let j = 0; j < g; j++) {
          const d = digits[(m - 1) * g + j];
          if (d === 0) continue;
          if (d === 1) k[kn.addAffine](sums + (first + j) * XB, at, scratch);
          else {
            if (!negReady) {
              negate(negBucket, at);
              negReady = true;
            }
            k[kn.addAffine](sums + (first + j) * XB, negBucket, scratch);
          }
        }
      }
    };
    const batch: Batch = {
      tasks: Array.from({ length: plan.groups }, (_, gi) => (slot: number): Op[] => {
        slotOf[gi] = slot;
        const v = randomGroupIndices(plan.base, groupSize(gi), inf);
        const words = new Uint32Array(inst.memory.buffer, halves[slot], 4 * n + 4);
        for (let i = 0; i < n; i++) words[4 * i] = v[i] & mask;
        const ws = workspaces[slot];
        return [
          // the slot's previous group left its buckets for `done` to read: clear them first
          ['@zero', ws.bstate, L],
          ['@zero', ws.pending, 4 * L],
          // (the counters it ends with reset the MSM's: these additions are not the MSM's)
          ...tileTask(ctx, ws, { accumulate: [{ points, layout: POINT_LAYOUT_PAIRS, pointBytes: PB, halves: halves[slot], count: n, shift: 0, c: plan.c, batch: B, deferredCap, tempCap }] }).ops,
        ];
      }),
      done(gi) {
        sumBuckets(gi, workspaces[slotOf[gi]]);
        onGroup?.(groupSize(gi) / plan.combinations);
      },
    };
    yield batch;
    // the combinations in affine (infinity is in G1: flagged, skipped), tested exactly all at once
    const sumsAffine = arena.alloc(plan.combinations * PB);
    const sumsInf = arena.alloc(plan.combinations);
    const exactScratch = arena.alloc(Math.max(16, ctx.exactCheck.scratchBytes(plan.combinations)));
    for (let j = 0; j < plan.combinations; j++) {
      const inf = k[kn.toAffine](sumsAffine + j * PB, sums + j * XB, scratch);
      new Uint8Array(inst.memory.buffer)[sumsInf + j] = inf;
    }
    return runExactCheck(ctx, sumsAffine, sumsInf, plan.combinations, exactScratch) === -1;
  } finally {
    arena.release(mark);
  }
}

