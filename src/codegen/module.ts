/**
 * Module generators: one Wasm module per curve holding its field, G1 and MSM kernels. The header
 * records everything the output depends on, so the `.wat` explains itself. Shipped modules carry
 * exactly the kernels the runtime calls (for BLS12-381 and BN254 also their scalar field's, which
 * pippin/kzg and the Groth16 prover call: shipsScalarField); dev builds (tests, benchmarks) add the scalar-field kernels and the
 * benchmark loops.
 */
import { FieldGen, FieldSpec } from './field.js';
import { Wide64FieldGen } from './field64.js';
import { emitWideHelpers, wideHelperIndices } from './wide-arith.js';
import { KernelAbi, ModuleBuilder } from './wat.js';
import { MsmGen } from './msm.js';
import { CurveGen } from './curve.js';
import { FieldVectorGen } from './fr-vector.js';
import { Fp2Gen, emitFp2ByCalls } from './fp2.js';
import { PairingGen } from './pairing.js';
import { G2CurveGen, type G2FormatName } from './curve-g2.js';
import type { CurveDescriptor } from '../curves/types.js';
import { INITIAL_PAGES, MAXIMUM_PAGES, type PointFormatSpec, type PointFormatName } from '../abi/codes.js';

export const GENERATOR_VERSION = 1;

export interface FieldModuleSpec {
  /** e.g. 'bls12-381' */
  curve: string;
  fields: FieldSpec[];
  /** declare the imported memory shared (build.ts assembles it once this way to locate the flag byte) */
  sharedMemory?: boolean;
  /** add the benchmark loops (`<f>_bench_*`) */
  bench?: boolean;
}

/** What a generated module holds: its text, field layouts, exported kernels and globals. */
export interface GeneratedWat {
  wat: string;
  gens: FieldGen[];
  abi: KernelAbi[];
  globals: string[];
  /** 64-bit-limb fields only: function index → wide opcode, for the native binary (wide-arith.ts patchWideCalls) */
  wideHelpers?: Map<number, number>;
}

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
    initialPages: INITIAL_PAGES,
    maximumPages: MAXIMUM_PAGES,
  });
  // w = 64: the 64-bit-limb generator on wide arithmetic; its helpers must be the module's first functions
  if (spec.fields.some((f) => f.w === 64)) {
    emitWideHelpers(mb);
    header.push(
      'wide arithmetic: this text calls $wide64_mul_u, $wide64_add128, $wide64_sub128, $wide64_mul_s (functions 0..3, an i64 polyfill);',
      '  the shipped binary replaces every such call by i64.mul_wide_u / i64.add128 / i64.sub128 / i64.mul_wide_s (src/codegen/wide-arith.ts)',
    );
  }
  const gens = spec.fields.map((f) => (f.w === 64 ? new Wide64FieldGen(mb, f) : new FieldGen(mb, f)));
  for (const g of gens) header.push(...g.describe());
  for (const g of gens) g.emitAll();
  if (spec.bench) for (const g of gens) g.emitBench();
  return { mb, header, gens };
}

const done = (mb: ModuleBuilder, gens: FieldGen[]): GeneratedWat => ({
  wat: mb.toWat(),
  gens,
  abi: mb.abi,
  globals: mb.exportedGlobals,
  ...(gens.some((g) => g instanceof Wide64FieldGen) ? { wideHelpers: wideHelperIndices(mb) } : {}),
});

/** Field kernels only (field tests and tuning benchmarks). */
export function generateFieldModule(spec: FieldModuleSpec): GeneratedWat {
  const { mb, gens } = startModule(spec);
  return done(mb, gens);
}

/**
 * Whether the curve's shipped module carries its scalar field F_r: the element kernels (fr_*) and
 * the array kernels of ./fr-vector.ts (the descriptor's `frKernels: true`; BLS12-381 and BN254, for
 * pippin/kzg and the Groth16 prover).
 */
export function shipsScalarField(curve: CurveDescriptor): boolean {
  return curve.frKernels === true;
}

/** Whether the curve's modules (both backends) carry the pairing kernels (fp12_*, pairing_*: ./pairing.ts; the descriptor's `pairingKernels: true`). */
export function shipsPairing(curve: CurveDescriptor): boolean {
  return curve.pairingKernels === true && curve.g2?.pairing !== undefined;
}

export interface CurveModuleSpec {
  curve: CurveDescriptor;
  sharedMemory?: boolean;
  /** dev build: also the scalar field's kernels (fr_*) and the benchmark loops */
  dev?: boolean;
  /** limb width / product variant of the base field instead of the tuned ones (tuning, tests) */
  fp?: Pick<FieldSpec, 'w' | 'mul'>;
}

/** The per-curve module: Fp kernels (+ Fr in dev builds and where the descriptor asks: shipsScalarField), G1 kernels, MSM kernels. */
export function generateCurveModule(spec: CurveModuleSpec): GeneratedWat & { formats: PointFormatSpec<PointFormatName>[]; g2Formats?: PointFormatSpec<G2FormatName>[]; g2Cofactor?: bigint } {
  const { name, params, tuning, formats } = spec.curve;
  const fields: FieldSpec[] = [{ name: 'fp', p: params.p, w: tuning.fp.w, mul: tuning.fp.mul, ...spec.fp }];
  const frShipped = shipsScalarField(spec.curve);
  // the shipped F_r follows the module's backend (64-bit limbs in the wide64 module); dev builds of
  // the other curves keep their tuned F_r
  const frW = frShipped && fields[0].w === 64 ? 64 : (tuning.fr ?? tuning.fp).w;
  if (spec.dev || frShipped) fields.push({ name: 'fr', p: params.r, w: frW, mul: (tuning.fr ?? tuning.fp).mul });
  const { mb, header, gens } = startModule({ curve: name, fields, sharedMemory: spec.sharedMemory, bench: spec.dev });
  if (frShipped) {
    // F_r's element kernels (fr_*, from the field generator) and its array kernels (./fr-vector.ts)
    const fv = new FieldVectorGen(gens[1]);
    header.push(...fv.describe());
    fv.emitAll();
  }
  const cg = new CurveGen(mb, gens[0], params, 'g1', { formats });
  header.push(...cg.describe());
  cg.emitAll();
  new MsmGen(mb, gens[0], params, cg.scratchBytes('subgroup')).emitAll();
  let g2Formats: PointFormatSpec<G2FormatName>[] | undefined;
  const g2 = spec.curve.g2;
  // the F_p² kernels work on the 26…30-bit limb layout (lazy reduction needs its headroom): a wide64
  // module has no G2, whose MSMs then run on the curve's i32 module (src/api/curve.ts)
  if (g2 !== undefined && !(gens[0] instanceof Wide64FieldGen)) {
    // G2 (curves of src/curves/g2.ts): F_p² over the base field, the G2 kernels, and the MSM kernels
    // of the same generator over F_p² (g2_*; the scalar split msm_split_scalars is shared)
    const fp2 = new Fp2Gen(mb, gens[0]);
    const c2 = new G2CurveGen(mb, gens[0], fp2, g2, g2.formats);
    header.push(...fp2.describe(), ...c2.describe());
    fp2.emitAll();
    c2.emitAll();
    new MsmGen(mb, fp2, { ...params, beta: g2.beta }, 0, 'g2').emitAll();
    g2Formats = c2.g2FormatSpecs;
  }
  if (shipsPairing(spec.curve)) {
    // over Fp2Gen's kernels (i32), or on 64-bit limbs over an internal F_p² by base-field calls
    const wide = gens[0] instanceof Wide64FieldGen;
    if (wide) emitFp2ByCalls(mb, gens[0]);
    const pg = new PairingGen(mb, gens[0], g2!, g2!.pairing!, wide);
    header.push(...pg.describe());
    pg.emitAll();
  }
  return { ...done(mb, gens), formats: [...cg.formats], ...(g2Formats ? { g2Formats, g2Cofactor: g2!.h2 } : {}) };
}
