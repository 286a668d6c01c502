/**
 * Dev builds for tests and benchmarks: generate, assemble and instantiate modules in-process (the
 * shipped modules come from src/codegen/build.ts). Build-time code meets the runtime only here.
 */
import { assembleWat } from '../codegen/assemble.js';
import { FieldGen, FieldSpec, type MulStrategy } from '../codegen/field.js';
import { CurveGen, CurveGenOptions } from '../codegen/curve.js';
import { CurveModuleSpec, generateCurveModule, generateFieldModule } from '../codegen/module.js';
import { ModuleBuilder } from '../codegen/wat.js';
import { emitWideHelpers, patchWideCalls } from '../codegen/wide-arith.js';
import { Wide64FieldGen } from '../codegen/field64.js';
import { Instance, instantiate } from '../runtime/instance.js';
import type { FieldInfo } from '../runtime/field.js';
import type { CurveParams } from '../curves/types.js';
import { INITIAL_PAGES, MAXIMUM_PAGES } from '../abi/codes.js';
import type { DevKernels, FieldBenchKernels, FieldKernels } from '../wasm-generated/kernels.js';

const infos = (gens: FieldGen[]): FieldInfo[] => gens.map((g) => ({ name: g.f, p: g.L.p, w: g.L.w, n: g.L.n, elementBytes: g.L.elementBytes, byteLength: g.L.byteLength }));

/**
 * The binary of a field module for the given fields, e.g. [{ name: 'fp', … }, { name: 'fr', … }]
 * (w = 64: the 64-bit-limb kernels; `wide: 'native'` patches in the wide-arithmetic opcodes, which
 * only engines with the proposal validate, else the i64 polyfill helpers are called).
 */
export async function devFieldBinary(curve: string, fields: FieldSpec[], wide: 'native' | 'polyfill' = 'polyfill'): Promise<{ wasm: Uint8Array<ArrayBuffer>; infos: FieldInfo[] }> {
  const { wat, gens, wideHelpers } = generateFieldModule({ curve, fields, bench: true });
  const poly = await assembleWat(curve, wat);
  const wasm = wide === 'native' && wideHelpers ? patchWideCalls(poly, wideHelpers).wasm : poly;
  return { wasm, infos: infos(gens) };
}

/** Field kernels (and their benchmark loops) for the given fields, instantiated in this engine. */
export async function devFieldInstance<F extends string = 'fp'>(curve: string, fields: (FieldSpec & { name: F })[]): Promise<Instance<FieldKernels<F> & FieldBenchKernels<F>>> {
  const { wasm, infos: fi } = await devFieldBinary(curve, fields);
  return instantiate(wasm, fi);
}

/** A whole curve module as a dev build: Fp and Fr, G1 and MSM kernels, benchmark loops. */
export async function devCurveModule(spec: Omit<CurveModuleSpec, 'dev'>): Promise<Instance<DevKernels>> {
  const { wat, gens } = generateCurveModule({ ...spec, dev: true });
  return instantiate(await assembleWat(spec.curve.name, wat), infos(gens));
}

/** A field + G1 module instantiated in-process (curve kernel tests), for any parameters. */
export interface DevCurveInstance {
  inst: Instance<DevKernels>;
  fp: FieldGen;
  curve: CurveGen;
  wat: string;
}

/** Generates, assembles and instantiates a module with the base-field kernels and the G1 kernels only. */
export async function devCurveInstance(
  params: CurveParams,
  field: { w: number; mul?: MulStrategy } = { w: 30, mul: 'karatsuba' },
  options: CurveGenOptions = {},
): Promise<DevCurveInstance> {
  const header = [`pippin dev module (curve ${params.name}) — test build`];
  const mb = new ModuleBuilder(header, { imported: true, shared: false, initialPages: INITIAL_PAGES, maximumPages: MAXIMUM_PAGES });
  // w = 64: the 64-bit-limb kernels, wide-arithmetic helpers polyfilled (Node has no wide arithmetic)
  if (field.w === 64) emitWideHelpers(mb);
  const fp = field.w === 64 ? new Wide64FieldGen(mb, { name: 'fp', p: params.p, w: 64 }) : new FieldGen(mb, { name: 'fp', p: params.p, w: field.w, mul: field.mul });
  const curve = new CurveGen(mb, fp, params, 'g1', options);
  header.push(...fp.describe(), ...curve.describe());
  fp.emitAll();
  curve.emitAll();
  const wat = mb.toWat();
  const inst = await instantiate<DevKernels>(await assembleWat(params.name, wat), infos([fp]));
  return { inst, fp, curve, wat };
}
