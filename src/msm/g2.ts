/**
 * The G2 MSM: the G1 phase program (src/msm/g1.ts) run over the G2 kernels of the same generators
 * (src/codegen/msm.ts with group 'g2' over F_p², src/codegen/curve-g2.ts). Nothing of the MSM is
 * repeated here: the program reads the G1 kernel names from `inst.k`, so a G2 *view* of the instance
 * maps them to their G2 twins (g1_xyzz_add → g2_xyzz_add, msm_compact → g2_msm_compact, …; the
 * scalar split msm_split_scalars is shared), and the tiles' ops name the G2 kernels directly
 * (`group: 'g2'`), so the worker pool runs them unchanged.
 */
import type { Instance } from '../runtime/instance.js';
import type { G2Kernels, Kernels } from '../wasm-generated/kernels.js';
import type { WindowTable } from './plan.js';
import { allocInputs, msmProgram, type G1MsmContext, type MsmRegions, type MsmRunOptions, type MsmStats } from './g1.js';
import { xyzzCombiner } from './combine-xyzz.js';
import type { PhaseProgram } from '../runtime/executor.js';
import type { GroupIo } from './random-inputs.js';

export type Fp2Value = readonly [bigint, bigint];
export interface G2AffineValue {
  readonly x: Fp2Value;
  readonly y: Fp2Value;
}

/** The G1 kernel names the MSM program and the combiner call, and their G2 twins. */
const G2_TWINS = {
  g1_xyzz_set_inf: 'g2_xyzz_set_inf',
  g1_xyzz_add_affine: 'g2_xyzz_add_affine',
  g1_xyzz_add: 'g2_xyzz_add',
  g1_xyzz_double: 'g2_xyzz_double',
  g1_xyzz_to_affine: 'g2_xyzz_to_affine',
  msm_compact: 'g2_msm_compact',
  msm_expand_endo: 'g2_msm_expand_endo',
  msm_expand_triples: 'g2_msm_expand_triples',
} as const satisfies Partial<Record<keyof Kernels, keyof G2Kernels>>;

/** The instance with `k` showing G2 kernels under the G1 names of G2_TWINS (every other name as is). */
export function g2View(inst: Instance): Instance {
  const k = inst.k as Kernels & G2Kernels;
  const twins = Object.fromEntries(Object.entries(G2_TWINS).map(([g1, g2]) => [g1, k[g2]]));
  return { ...inst, k: { ...k, ...twins } as Kernels };
}

/** Bytes per base-field element of an instance (an F_p² element is twice that, a G2 affine point four times). */
export function g2Context(inst: Instance, windowTable: WindowTable): G1MsmContext & { fpBytes: number } {
  const fp = inst.fields.fp;
  const fpBytes = fp.info.elementBytes;
  const EB = 2 * fpBytes;
  const view = g2View(inst);
  const readAffine = (ptr: number) => readG2Affine(inst, ptr);
  // the combiner and program read x, y as bigints only through readAffine: the G2 pair goes through unchanged
  const makeCombiner = xyzzCombiner(view, EB, readAffine as unknown as (ptr: number) => { x: bigint; y: bigint });
  return { inst: view, EB, windowTable, makeCombiner, group: 'g2', fpBytes };
}

/** The affine G2 point at ptr (c0, c1 of x, then of y), canonical values. */
export function readG2Affine(inst: Instance, ptr: number): G2AffineValue {
  const fp = inst.fields.fp;
  const E = fp.info.elementBytes;
  return { x: [fp.read(ptr), fp.read(ptr + E)], y: [fp.read(ptr + 2 * E), fp.read(ptr + 3 * E)] };
}

/** Writes affine points (null = infinity) into the regions in Montgomery form, infinity flags beside. */
export function writeG2Points(inst: Instance, regions: MsmRegions, points: readonly (G2AffineValue | null)[]): void {
  const fp = inst.fields.fp;
  const E = fp.info.elementBytes;
  const inf = new Uint8Array(inst.memory.buffer, regions.inf, points.length);
  points.forEach((P, i) => {
    const at = regions.points + i * 4 * E;
    if (P === null) {
      inf[i] = 1;
      new Uint8Array(inst.memory.buffer, at, 4 * E).fill(0);
      return;
    }
    inf[i] = 0;
    [P.x[0], P.x[1], P.y[0], P.y[1]].forEach((c, j) => fp.write(at + j * E, c));
  });
}

/**
 * The G2 MSM on points and scalars already written (`regions`: points by writeG2Points or a decoder,
 * scalars 32 bytes each); the program of src/msm/g1.ts over the G2 context.
 */
export function g2MsmProgram(
  ctx: G1MsmContext,
  regions: MsmRegions,
  n: number,
  options: MsmRunOptions,
): PhaseProgram<{ result: G2AffineValue | null; stats: MsmStats }> {
  return msmProgram(ctx, regions, n, options) as unknown as PhaseProgram<{ result: G2AffineValue | null; stats: MsmStats }>;
}

/** G2 for the random-input generator (src/msm/random-inputs.ts): F_p² coordinates, g2_batch_add, g2_encode. */
export function g2Io(inst: Instance): GroupIo<G2AffineValue> {
  const k = inst.k as unknown as G2Kernels;
  const E = inst.fields.fp.info.elementBytes;
  return {
    EB: 2 * E,
    write(ptr, P) {
      [P.x[0], P.x[1], P.y[0], P.y[1]].forEach((c, j) => inst.fields.fp.write(ptr + j * E, c));
    },
    batchAdd: (pairs, count, scratch) => k.g2_batch_add(pairs, count, scratch),
    encode: (dst, ptr, code, scratch) => k.g2_encode(dst, ptr, 0, code, scratch),
  };
}

export { allocInputs };
