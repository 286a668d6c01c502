/**
 * What the test templates iterate over, read off the curve registry (src/curves/index.ts) and the
 * group table (src/msm/group.ts): every curve, the curves with and without a G2, the groups of a
 * curve, each curve's generated module, and the independent oracles @noble/curves offers (its G1,
 * G2 and Fp2 where it has the curve: an oracle's reach, not a curve list).
 */
import { bls12_381 as nobleBls } from '@noble/curves/bls12-381.js';
import { bn254 as nobleBn } from '@noble/curves/bn254.js';
import { curveNames, g2CurveNames, registry, type CurveName, type G2CurveName } from '../../src/curves/index.js';
import { GROUP_NAMES, type GroupName } from '../../src/msm/group.js';

export { curveNames, g2CurveNames, registry, GROUP_NAMES };
export type { CurveName, G2CurveName, GroupName };

/** Whether the curve's descriptor has a G2. */
export const hasG2 = (name: CurveName): name is G2CurveName => (g2CurveNames as readonly CurveName[]).includes(name);
/** The curves whose descriptor has no G2 (registry order). */
export const curvesWithoutG2: readonly CurveName[] = Object.freeze(curveNames.filter((name) => !hasG2(name)));
/** The groups a curve has: g1, and g2 where its descriptor has one. */
export const groupsOf = (name: CurveName): readonly GroupName[] => GROUP_NAMES.filter((g) => g === 'g1' || hasG2(name));
/** Every (curve, group) pair of the registry, curve by curve. */
export const curveGroups: readonly { name: CurveName; group: GroupName }[] = Object.freeze(curveNames.flatMap((name) => groupsOf(name).map((group) => ({ name, group }))));

/** The module src/codegen/build.ts generated for the curve (src/wasm-generated/<name with _>.ts). */
export type GeneratedModule = typeof import('../../src/wasm-generated/bls12_381.js');
export async function generatedModule(name: CurveName): Promise<GeneratedModule> {
  return (await import(`../../src/wasm-generated/${name.replace(/-/g, '_')}.js`)) as GeneratedModule;
}

/** @noble/curves where it has the curve: its G1 and G2 point classes and its Fp2. */
export const noble = {
  'bls12-381': { G1: nobleBls.G1.Point, G2: nobleBls.G2.Point, Fp2: nobleBls.fields.Fp2 },
  bn254: { G1: nobleBn.G1.Point, G2: nobleBn.G2.Point, Fp2: nobleBn.fields.Fp2 },
} as const satisfies Partial<Record<CurveName, unknown>>;
export type NobleCurve = keyof typeof noble;
export const nobleOf = (name: CurveName): (typeof noble)[NobleCurve] | undefined => (noble as Partial<Record<CurveName, (typeof noble)[NobleCurve]>>)[name];

/**
 * The formats of arkworks' own serialization in vectors/<curve>.json: its generic short-Weierstrass
 * flags ('arkworks', 'arkworks-compressed'), except where the arkworks crate of the curve follows
 * another convention (ark-bls12-381 writes ZCash's bytes).
 */
export function vectorFormats(name: CurveName): readonly [uncompressed: string, compressed: string] {
  const own: Partial<Record<CurveName, readonly [string, string]>> = { 'bls12-381': ['zcash', 'zcash-compressed'] };
  return own[name] ?? ['arkworks', 'arkworks-compressed'];
}
