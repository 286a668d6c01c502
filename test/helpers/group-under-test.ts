/**
 * One group of a curve under test through the API: its msmSync, context, order, bigint reference
 * (RefCurve for G1, RefG2 for G2) and generator, for the MSM path tests (msm-small, msm-joint).
 */
import type { Curve } from '../../src/index.js';
import { groupContextOf } from '../../src/api/group.js';
import { RefCurve } from '../../src/reference/curve.js';
import { RefG2 } from '../../src/reference/g2.js';
import { g2Params, type G2CurveName } from '../../src/curves/index.js';

export type Pt = { x: unknown; y: unknown } | null;
export interface RefLike {
  add(P: Pt, Q: Pt): Pt;
  neg(P: Pt): Pt;
  mul(P: Pt, k: bigint): Pt;
  eq(P: Pt, Q: Pt): boolean;
  msmNaive(points: readonly Pt[], scalars: readonly bigint[]): Pt;
}

/** The group `group` of an initialized curve, with its reference and generator. */
export function groupUnderTest(curve: Curve<string>, group: 'g1' | 'g2') {
  const grp = curve[group] as unknown as {
    r: bigint;
    msmSync(points: unknown, scalars: unknown, options?: object): { x: unknown; y: unknown; infinity: boolean };
  };
  const ctx = groupContextOf(curve[group] as never);
  const ref = (group === 'g1' ? new RefCurve(curve.params) : new RefG2(g2Params[curve.name as G2CurveName])) as unknown as RefLike;
  const G = (group === 'g1' ? curve.params.G1 : g2Params[curve.name as G2CurveName].G2) as Pt;
  return { grp, ctx, r: grp.r, ref, G };
}
