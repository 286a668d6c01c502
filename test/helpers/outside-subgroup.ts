/** Points on a curve outside its prime-order subgroup, for validation tests of either group. */
import type { Curve } from '../../src/index.js';
import { RefCurve } from '../../src/reference/curve.js';
import { RefG2 } from '../../src/reference/g2.js';
import { g2Params, type G2CurveName } from '../../src/curves/index.js';
import { makeRng } from '../../src/reference/rng.js';
import { pointsOfOrder } from './curve-points.js';

/** A point on the curve outside the prime-order subgroup (the generator plus a point of small order), in the group's primary format; undefined when the group has no other points (cofactor 1). */
export function outsideSubgroup(curve: Curve<string>, group: 'g1' | 'g2'): Uint8Array | undefined {
  const rng = makeRng(99);
  if (group === 'g1') {
    if (curve.params.h1 === 1n) return undefined;
    const ref = new RefCurve(curve.params);
    let ell = 2n;
    while (curve.params.h1 % ell !== 0n) ell++;
    const T = pointsOfOrder(ref, ell, rng)[0];
    return curve.g1.toBytes({ ...ref.add(curve.params.G1, T)!, infinity: false });
  }
  const ref = new RefG2(g2Params[curve.name as G2CurveName]);
  let ell = 2n;
  while (ref.params.h2 % ell !== 0n) ell++;
  let m = ref.params.h2 * ref.params.g1.r;
  while (m % ell === 0n) m /= ell;
  for (;;) {
    let T = ref.mul(ref.pointFromX0(rng.nextBigint(64)), m);
    if (T === null) continue;
    for (let U = ref.mul(T, ell); U !== null; U = ref.mul(U, ell)) T = U;
    const P = ref.add(ref.G, T)!;
    return curve.g2.toBytes({ x: [P.x[0], P.x[1]], y: [P.y[0], P.y[1]], infinity: false });
  }
}
