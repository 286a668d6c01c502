/** Peer: `ffjavascript` 0.3.1 (snarkjs's engine), `G1.multiExpAffine`, single-threaded build. */
import { buildBls12381 } from "ffjavascript";
import { pointsToBigints, POINT_BYTES } from "../inputs.js";
import type { AffineResult, PeerInstance } from "./types.js";

export const name = "ffjavascript";
export const threads = 1;

export async function setup(points: Uint8Array, scalars: Uint8Array, n: number): Promise<PeerInstance> {
  const curve = await buildBls12381(true); // true = single thread, no workers
  const G1 = curve.G1;
  // bases: n × (x ‖ y), each 48-byte little-endian in Montgomery form
  const bases = new Uint8Array(n * POINT_BYTES);
  const affine = pointsToBigints(points.subarray(0, n * POINT_BYTES));
  for (let i = 0; i < n; i++) {
    G1.toRprLEM(bases, i * POINT_BYTES, G1.fromObject([affine[i].x, affine[i].y]));
  }
  // scalars: n × 32 bytes little-endian, normal form — same as our input format
  const scs = scalars.slice(0, n * 32);
  return {
    async run(): Promise<AffineResult | null> {
      const r = await G1.multiExpAffine(bases, scs);
      if (G1.isZero(r)) return null;
      const [x, y] = G1.toObject(G1.toAffine(r));
      return { x, y };
    },
    async dispose(): Promise<void> {
      await curve.terminate();
    },
  };
}
