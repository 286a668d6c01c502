/** Peer: `@noble/curves` 2.4.0 (pure JS), `pippenger` from abstract/curve; BLS12-381 or BN254 G1. */
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { bn254 } from "@noble/curves/bn254.js";
import { pippenger } from "@noble/curves/abstract/curve.js";
import { curveSpec, pointsToBigints, scalarsToBigints, SCALAR_BYTES, type CurveName } from "../inputs.js";
import type { AffineResult, PeerInstance } from "./types.js";

export const name = "noble";
export const threads = 1;
export const curves: readonly CurveName[] = ["bls12-381", "bn254"];

export async function setup(
  points: Uint8Array,
  scalars: Uint8Array,
  n: number,
  curve: CurveName = "bls12-381",
): Promise<PeerInstance> {
  const { pointBytes } = curveSpec(curve);
  const Point = curve === "bn254" ? bn254.G1.Point : bls12_381.G1.Point;
  const pts = pointsToBigints(points.subarray(0, n * pointBytes), curve).map((a) => Point.fromAffine(a));
  const scs = scalarsToBigints(scalars.subarray(0, n * SCALAR_BYTES));
  return {
    async run(): Promise<AffineResult | null> {
      const r = pippenger(Point, pts, scs);
      if (r.is0()) return null;
      const a = r.toAffine();
      return { x: a.x, y: a.y };
    },
  };
}
