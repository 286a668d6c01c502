/**
 * The curve registry: every curve pippin builds, by name. The build (src/codegen/build.ts), the
 * public API, the CLI, the demo, the benchmarks and the tests all read this list; adding a curve
 * means its descriptor file (parameters, formats) with its tuning file, and one line here.
 */
import type { CurveDescriptor, CurveParams } from './types.js';
import type { G2Params } from './g2.js';
import { bls12_381, bls12_381Curve } from './bls12-381.js';
import { bls12_377, bls12_377Curve } from './bls12-377.js';
import { bn254, bn254Curve } from './bn254.js';
import { pallas, pallasCurve } from './pallas.js';
import { vesta, vestaCurve } from './vesta.js';

export type { CurveDescriptor, CurveParams, CurveTuning } from './types.js';
export { bls12_381, bls12_377, bn254, pallas, vesta };

/** The registry: descriptors by name (the order is the order of builds, lists and tests). */
export const registry = Object.freeze({
  'bls12-381': bls12_381Curve,
  bn254: bn254Curve,
  'bls12-377': bls12_377Curve,
  pallas: pallasCurve,
  vesta: vestaCurve,
} as const satisfies Record<string, CurveDescriptor>);

export type CurveName = keyof typeof registry;
export const curveNames = Object.freeze(Object.keys(registry) as CurveName[]);

/** Parameters by name (the reference and its tests). */
export const curves = Object.freeze(
  Object.fromEntries(curveNames.map((name) => [name, registry[name].params])) as { readonly [K in CurveName]: CurveParams },
);

/** The curves whose descriptor has a G2 (a G2 MSM). */
export type G2CurveName = { [K in CurveName]: (typeof registry)[K] extends { readonly g2: G2Params } ? K : never }[CurveName];
/** The G2 group specs by curve name, read off the registry (the curves with a G2, in registry order). */
export const g2Params = Object.freeze(
  Object.fromEntries(curveNames.flatMap((name) => {
    const g2 = (registry[name] as CurveDescriptor).g2;
    return g2 ? [[name, g2]] : [];
  })) as { readonly [K in G2CurveName]: G2Params },
);
export const g2CurveNames = Object.freeze(Object.keys(g2Params) as G2CurveName[]);
