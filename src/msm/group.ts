/**
 * One group (G1, or G2 where the curve has one) as the MSM programs see it: the instance, the
 * kernels of the group by role (one typed table used by direct calls and by task ops alike), the
 * byte sizes of its coordinates, its scratch sizes, its cofactor, and how its affine points are read
 * and written. Every program in src/msm/ takes a GroupContext; nothing below names a group.
 *
 * G1 and G2 kernels come from the same generators (src/codegen/msm.ts over F_p and F_p²); the MSM
 * kernels of G1 have no prefix (msm_accumulate), those of G2 the prefix g2_ (g2_msm_accumulate).
 * The GLV scalar split (msm_split_scalars) works on scalars only and is shared.
 */
import type { Instance } from '../runtime/instance.js';
import type { Op } from '../runtime/interpreter.js';
import type { G2Kernels, Kernels } from '../wasm-generated/kernels.js';
import type { WindowTable } from './plan.js';
import { packedElementBytes, subgroupBatchScratchBytes } from '../abi/layout.js';
import { VALIDATION_CHECK } from '../abi/codes.js';
import type { WindowCombiner } from './program.js';
import { xyzzCombiner } from './combine-xyzz.js';

/** Every kernel a module may export (G2's only in modules of curves with a G2). */
export type AllKernels = Kernels & G2Kernels;
export type AnyKernelName = keyof AllKernels;

/** The kernels of each group by role. */
export const GROUP_KERNELS = Object.freeze({
  g1: Object.freeze({
    setInf: 'g1_xyzz_set_inf',
    addAffine: 'g1_xyzz_add_affine',
    add: 'g1_xyzz_add',
    double: 'g1_xyzz_double',
    toAffine: 'g1_xyzz_to_affine',
    batchAdd: 'g1_batch_add',
    accumulate: 'msm_accumulate',
    reduceSegments: 'msm_reduce_segments',
    compact: 'msm_compact',
    expandEndo: 'msm_expand_endo',
    expandTriples: 'msm_expand_triples',
    decodeBatch: 'g1_decode_batch',
    validateBatch: 'g1_validate_batch',
    encode: 'g1_encode',
    straus: 'msm_straus',
  }),
  g2: Object.freeze({
    setInf: 'g2_xyzz_set_inf',
    addAffine: 'g2_xyzz_add_affine',
    add: 'g2_xyzz_add',
    double: 'g2_xyzz_double',
    toAffine: 'g2_xyzz_to_affine',
    batchAdd: 'g2_batch_add',
    accumulate: 'g2_msm_accumulate',
    reduceSegments: 'g2_msm_reduce_segments',
    compact: 'g2_msm_compact',
    expandEndo: 'g2_msm_expand_endo',
    expandTriples: 'g2_msm_expand_triples',
    decodeBatch: 'g2_decode_batch',
    validateBatch: 'g2_validate_batch',
    encode: 'g2_encode',
    straus: 'g2_msm_straus',
  }),
} as const satisfies Record<string, Record<string, AnyKernelName>>);

export type GroupName = keyof typeof GROUP_KERNELS;
export const GROUP_NAMES = Object.freeze(Object.keys(GROUP_KERNELS) as GroupName[]);
/** A role's kernel name: the G1 or the G2 one (the two have the same signature). */
export type GroupKernels = { readonly [R in keyof (typeof GROUP_KERNELS)['g1']]: (typeof GROUP_KERNELS)[GroupName][R] };

/** A task op calling kernel `name` (typed against the generated ABI, for either group's name). */
export function op<N extends AnyKernelName>(name: N, ...args: Parameters<AllKernels[N]>): Op {
  return [name, ...args] as unknown as Op;
}

/** Scratch bytes of the group's fixed-scratch kernels (the module's `scratchBytes`). */
export interface GroupScratch {
  addAffine: number;
  add: number;
  double: number;
  toAffine: number;
  decode: number;
  validate: number;
  encode: number;
  isOnCurve: number;
}

/** Per-point results as the API returns them: G1 coordinates are bigints, G2 ones [c0, c1] pairs. */
export type G1AffineValue = { x: bigint; y: bigint };
export type G2AffineValue = { x: [bigint, bigint]; y: [bigint, bigint] };

export interface GroupContext<A = unknown> {
  inst: Instance;
  /** the instance's kernels, G2's included (present where the module has them) */
  k: AllKernels;
  name: GroupName;
  kn: GroupKernels;
  /** bytes of one coordinate (G1: a base-field element; G2: two); an affine point is 2·EB */
  EB: number;
  /** base-field elements per coordinate (1 or 2) */
  degree: 1 | 2;
  /**
   * bytes of a packed element when the MSM lays points out packed (POINT_LAYOUT_PACKED, G1:
   * msm_expand_packed); absent: shared-y triples of EB-byte elements (G2: msm_expand_triples)
   */
  packedBytes?: number;
  windowTable: WindowTable;
  /** up to this many points (after dropping infinity and zero scalars) an MSM runs msm_straus instead of buckets (the curve's tuning) */
  strausMaxPoints: number;
  /** from this many points 'full' validation runs the batched subgroup check (default: batchedCheckFrom(cofactor), src/msm/subgroup.ts; benchmarks set it) */
  subgroupBatchFrom?: number;
  /** #E = cofactor · r for this group's curve (1: every point on the curve is in the subgroup) */
  cofactor: bigint;
  scratch: GroupScratch;
  /** the module's scratch bytes of every fixed-scratch kernel, by name (e.g. the pairing's: src/msm/pairing.ts) */
  kernelScratch: Readonly<Record<string, number>>;
  /** the canonical affine point at ptr */
  readAffine(ptr: number): A;
  /** writes the canonical coordinates (2·degree base-field elements: x then y, c0 before c1) at ptr */
  writeAffine(ptr: number, coords: readonly bigint[]): void;
  /** whether the affine point at ptr is on the curve */
  isOnCurve(ptr: number, scratch: number): boolean;
  /** a combiner of window sums for one MSM (XYZZ kernels; tests may supply a reference one) */
  makeCombiner(): WindowCombiner<A>;
  /** the exact subgroup test of `count` points: its scratch, and whether it runs batch-affine or point by point */
  exactCheck: { scratchBytes(count: number): number; kernel(count: number): 'batch' | 'each' };
}

/** What a curve gives a group: its instance, the module's scratch sizes, the window table, the cofactor. */
export interface GroupSetup {
  inst: Instance;
  scratchBytes: Readonly<Record<string, number>>;
  windowTable: WindowTable;
  /** GroupContext.strausMaxPoints (default DEFAULT_STRAUS_MAX_POINTS) */
  strausMaxPoints?: number;
  /** GroupContext.subgroupBatchFrom (default: batchedCheckFrom(cofactor)) */
  subgroupBatchFrom?: number;
  cofactor: bigint;
}

/**
 * Points up to which an MSM runs msm_straus when the curve's tuning names no value (BLS12-377, Pallas,
 * Vesta: not measured; BLS12-381 and BN254 G1 break even at ≈ 56–64 points, G2 at ≈ 40).
 */
export const DEFAULT_STRAUS_MAX_POINTS = 32;

/**
 * The exact subgroup test from this many points per call runs batch-affine (G1: g1_subgroup_check_batch); below, the
 * per-point Jacobian kernel (g1_is_in_subgroup). `npm run bench:subgroup -- --points 1024 --chunks 8,16,24,32,64,128,256,1024`
 * (Intel Xeon, Node 20.20.2): batch-affine ÷ per-point 1.40 at 8, 1.07 at 24, 1.03 at 32, 0.97 at 64, 0.91 at 1024.
 */
export const EXACT_BATCH_FROM = 40;

export function groupContext(name: 'g1', setup: GroupSetup): GroupContext<G1AffineValue>;
export function groupContext(name: 'g2', setup: GroupSetup): GroupContext<G2AffineValue>;
export function groupContext(name: GroupName, setup: GroupSetup): GroupContext<G1AffineValue> | GroupContext<G2AffineValue>;
export function groupContext(name: GroupName, setup: GroupSetup): GroupContext<G1AffineValue> | GroupContext<G2AffineValue> {
  const { inst, scratchBytes: s } = setup;
  const fp = inst.fields.fp;
  const E = fp.info.elementBytes;
  const k = inst.k as AllKernels;
  const degree = name === 'g1' ? 1 : 2;
  const EB = degree * E;
  const writeAffine = (ptr: number, coords: readonly bigint[]) => coords.forEach((c, j) => fp.write(ptr + j * E, c));
  const base = { inst, k, name, kn: GROUP_KERNELS[name], EB, degree, windowTable: setup.windowTable, strausMaxPoints: setup.strausMaxPoints ?? DEFAULT_STRAUS_MAX_POINTS, subgroupBatchFrom: setup.subgroupBatchFrom, cofactor: setup.cofactor, writeAffine, kernelScratch: s } as const;
  const scratch = (p: string): GroupScratch => ({
    addAffine: s[`${p}_xyzz_add_affine`],
    add: s[`${p}_xyzz_add`],
    double: s[`${p}_xyzz_double`],
    toAffine: s[`${p}_xyzz_to_affine`],
    decode: s[`${p}_decode_batch`],
    validate: s[`${p}_validate_batch`],
    encode: s[`${p}_encode`],
    isOnCurve: s[`${p}_is_on_curve`] ?? 0,
  });
  if (name === 'g1') {
    const ctx: GroupContext<G1AffineValue> = {
      ...base,
      packedBytes: packedElementBytes(fp.info),
      scratch: scratch('g1'),
      readAffine: (ptr) => ({ x: fp.read(ptr), y: fp.read(ptr + E) }),
      isOnCurve: (ptr) => k.g1_is_on_curve(ptr) === 1,
      exactCheck: { scratchBytes: (count) => Math.max(subgroupBatchScratchBytes(count, EB), s.g1_validate_batch), kernel: (count) => (count < EXACT_BATCH_FROM ? 'each' : 'batch') },
      makeCombiner: () => xyzzCombiner(ctx),
    };
    return ctx;
  }
  const ctx: GroupContext<G2AffineValue> = {
    ...base,
    scratch: scratch('g2'),
    readAffine: (ptr) => ({ x: [fp.read(ptr), fp.read(ptr + E)], y: [fp.read(ptr + 2 * E), fp.read(ptr + 3 * E)] }),
    isOnCurve: (ptr, scratchPtr) => k.g2_is_on_curve(ptr, scratchPtr) === 1,
    exactCheck: { scratchBytes: () => s.g2_validate_batch, kernel: () => 'each' },
    makeCombiner: () => xyzzCombiner(ctx),
  };
  return ctx;
}

/**
 * The op of the exact subgroup test of `count` affine points at `points` (flags at `inf`): G1's
 * batch-affine kernel from EXACT_BATCH_FROM points, else the per-point test of the validation kernel.
 * Returns −1 or (index << 3) | code.
 */
export function exactCheckOp(ctx: GroupContext, points: number, inf: number, count: number, scratch: number): Op {
  if (ctx.exactCheck.kernel(count) === 'batch') return op('g1_subgroup_check_batch', points, inf, count, scratch);
  return op(ctx.kn.validateBatch, points, inf, count, VALIDATION_CHECK.full, scratch);
}

/** exactCheckOp's test called directly on the calling thread. */
export function runExactCheck(ctx: GroupContext, points: number, inf: number, count: number, scratch: number): number {
  if (ctx.exactCheck.kernel(count) === 'batch') return ctx.k.g1_subgroup_check_batch(points, inf, count, scratch);
  return ctx.k[ctx.kn.validateBatch](points, inf, count, VALIDATION_CHECK.full, scratch);
}
