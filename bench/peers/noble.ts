/** Peer: `@noble/curves` 2.4.0 (pure JS), `pippenger` from abstract/curve. */
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { pippenger } from "@noble/curves/abstract/curve.js";
import { pointsToBigints, scalarsToBigints } from "../inputs.js";
import type { AffineResult, PeerInstance } from "./types.js";

export const name = "noble";
export const threads = 1;

export async function setup(points: Uint8Array, scalars: Uint8Array, n: number): Promise<PeerInstance> {
  const Point = bls12_381.G1.Point;
  const pts = pointsToBigints(points.subarray(0, n * 96)).map((a) => Point.fromAffine(a));
  const scs = scalarsToBigints(scalars.subarray(0, n * 32));
  return {
    async run(): Promise<AffineResult | null> {
      const r = pippenger(Point, pts, scs);
      if (r.is0()) return null;
      const a = r.toAffine();
      return { x: a.x, y: a.y };
    },
  };
}
