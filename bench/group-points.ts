/** Distinct random point objects of G1 or G2 of a curve (random multiples of the generator, bigint reference), for the small-n benchmarks. */
import type { Curve } from '../src/index.js';
import { g2Params, type G2CurveName } from '../src/curves/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { RefG2 } from '../src/reference/g2.js';
import type { Rng } from '../src/reference/rng.js';

export function subgroupPointObjects(curve: Curve<string>, group: 'g1' | 'g2', n: number, rng: Rng): unknown[] {
  const r = curve.params.r;
  const multiple = () => rng.nextBelow(r - 1n) + 1n;
  if (group === 'g1') {
    const ref = new RefCurve(curve.params);
    return Array.from({ length: n }, () => ref.mul(curve.params.G1, multiple()));
  }
  const g2 = g2Params[curve.name as G2CurveName];
  if (!g2) throw new Error(`${curve.name} has no G2`);
  const ref = new RefG2(g2);
  return Array.from({ length: n }, () => ref.mul(g2.G2, multiple()));
}
