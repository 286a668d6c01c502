/** Generates, assembles and instantiates a field module in-process (tests, tuning benchmarks). */
import { assembleWat } from './assemble.js';
import { FieldSpec } from './field.js';
import { CurveModuleSpec, generateCurveModule, generateFieldModule } from './module.js';
import { Instance, instantiate } from '../runtime/instance.js';

export async function devFieldInstance(curve: string, fields: FieldSpec[]): Promise<Instance> {
  const { wat, gens } = generateFieldModule({ curve, fields });
  const bytes = await assembleWat(curve, wat);
  return instantiate(
    bytes,
    gens.map((g) => ({ name: g.f, p: g.L.p, w: g.L.w, n: g.L.n, elementBytes: g.L.elementBytes, byteLength: g.L.byteLength })),
  );
}

/** Same for a whole curve module (fields + G1 + MSM kernels). */
export async function devCurveModule(spec: CurveModuleSpec): Promise<Instance> {
  const { wat, gens } = await generateCurveModule(spec);
  const bytes = await assembleWat(spec.curve, wat);
  return instantiate(
    bytes,
    gens.map((g) => ({ name: g.f, p: g.L.p, w: g.L.w, n: g.L.n, elementBytes: g.L.elementBytes, byteLength: g.L.byteLength })),
  );
}
