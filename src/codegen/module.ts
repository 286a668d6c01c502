/**
 * Module generators: one Wasm module per curve holding its field kernels (and, later, curve and
 * MSM kernels). The header records everything the output depends on, so the `.wat` explains itself.
 */
import { FieldGen, FieldSpec } from './field.js';
import { ModuleBuilder } from './wat.js';
import { MsmGen } from './msm.js';
import type { CurveParams } from '../curves/types.js';

export interface FieldModuleSpec {
  /** e.g. 'bls12-381' */
  curve: string;
  fields: FieldSpec[];
  /** 64 KiB pages */
  initialPages?: number;
  maximumPages?: number;
  /** declare the imported memory shared (build.ts assembles it once this way to locate the flag byte) */
  sharedMemory?: boolean;
}

export const GENERATOR_VERSION = 1;

/** Module builder, header and field generators shared by both module kinds. */
function startModule(spec: FieldModuleSpec): { mb: ModuleBuilder; header: string[]; gens: FieldGen[] } {
  const header: string[] = [
    `pippin generated module — do not edit; regenerate with \`npm run build\``,
    `generator version ${GENERATOR_VERSION}, curve ${spec.curve}`,
  ];
  // the memory is imported (env.memory) so that the runtime can hand every thread the same one; the
  // module is built non-shared, and the runtime sets the import's shared flag when threads are possible
  const mb = new ModuleBuilder(header, {
    imported: true,
    shared: spec.sharedMemory ?? false,
    initialPages: spec.initialPages ?? 2,
    maximumPages: spec.maximumPages ?? 65536,
  });
  const gens = spec.fields.map((f) => new FieldGen(mb, f));
  for (const g of gens) header.push(...g.describe());
  for (const g of gens) g.emitAll();
  return { mb, header, gens };
}

export function generateFieldModule(spec: FieldModuleSpec): { wat: string; gens: FieldGen[] } {
  const { mb, gens } = startModule(spec);
  return { wat: mb.toWat(), gens };
}

export interface CurveModuleSpec extends FieldModuleSpec {
  params: CurveParams;
  /** include the G1 curve kernels (codecs, validation, XYZZ) from ./curve.ts */
  curveKernels?: boolean;
}

/** The per-curve module: Fp and Fr kernels, G1 kernels, MSM kernels. */
export async function generateCurveModule(spec: CurveModuleSpec): Promise<{ wat: string; gens: FieldGen[] }> {
  const { mb, header, gens } = startModule(spec);
  const fp = gens.find((g) => g.f === 'fp');
  if (!fp) throw new Error('curve module needs an fp field');
  if (spec.curveKernels ?? true) {
    const { CurveGen } = await import('./curve.js');
    const cg = new CurveGen(mb, fp, spec.params);
    header.push(...cg.describe());
    cg.emitAll();
  }
  new MsmGen(mb, fp, spec.params).emitAll();
  return { wat: mb.toWat(), gens };
}
