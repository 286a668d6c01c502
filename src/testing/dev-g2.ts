/**
 * Dev builds of the G2 kernels for tests: base field + F_p² (+ G2 curve and MSM kernels when asked),
 * generated, assembled and instantiated in-process, for any limb width.
 */
import { assembleWat } from '../codegen/assemble.js';
import { FieldGen, type MulStrategy } from '../codegen/field.js';
import { Fp2Gen } from '../codegen/fp2.js';
import { ModuleBuilder } from '../codegen/wat.js';
import { Instance, instantiate } from '../runtime/instance.js';
import { INITIAL_PAGES, MAXIMUM_PAGES } from '../abi/codes.js';
import type { FieldKernels } from '../wasm-generated/kernels.js';

/** The fp2_* kernels as the tests call them (generic signatures: pointers in, i32 status out). */
export type Fp2Kernels = Record<`fp2_${string}`, (...args: number[]) => number>;

export interface DevFp2Instance {
  inst: Instance<FieldKernels<'fp'> & Fp2Kernels>;
  fp2: Fp2Gen;
  wat: string;
}

/** A module with the base field's kernels and the F_p² kernels over it. */
export async function devFp2Instance(name: string, p: bigint, field: { w: number; mul?: MulStrategy }): Promise<DevFp2Instance> {
  const header = [`pippin dev module (${name} Fp2) — test build`];
  const mb = new ModuleBuilder(header, { imported: true, shared: false, initialPages: INITIAL_PAGES, maximumPages: MAXIMUM_PAGES });
  const fp = new FieldGen(mb, { name: 'fp', p, w: field.w, mul: field.mul });
  const fp2 = new Fp2Gen(mb, fp);
  header.push(...fp.describe(), ...fp2.describe());
  fp.emitAll();
  fp2.emitAll();
  const wat = mb.toWat();
  const L = fp.L;
  const inst = await instantiate<FieldKernels<'fp'> & Fp2Kernels>(await assembleWat(name, wat), [
    { name: 'fp', p: L.p, w: L.w, n: L.n, elementBytes: L.elementBytes, byteLength: L.byteLength },
  ]);
  return { inst, fp2, wat };
}
