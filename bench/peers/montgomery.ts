/** Peer: `montgomery` 0.2.1 (ZPrize 2022 Wasm MSM), single-threaded. */
import { msm } from "montgomery";
import { bytesLEToBigint, COORD_BYTES, P, POINT_BYTES, SCALAR_BYTES } from "../inputs.js";
import type { AffineResult, PeerInstance } from "./types.js";

export const name = "montgomery";
export const threads = 1;
/** BLS12-381 only (montgomery has no other curve). */
export const curves = ["bls12-381"] as const;

type InputPoint = [x: Uint8Array, y: Uint8Array, isInfinity: boolean];

/** 48-byte big-endian coordinate at `offset` → new 48-byte little-endian array. */
function reverseCoord(src: Uint8Array, offset: number): Uint8Array {
  const out = new Uint8Array(COORD_BYTES);
  for (let i = 0; i < COORD_BYTES; i++) out[i] = src[offset + COORD_BYTES - 1 - i];
  return out;
}

export async function setup(points: Uint8Array, scalars: Uint8Array, n: number): Promise<PeerInstance> {
  const pts: InputPoint[] = new Array(n);
  const scs: Uint8Array[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * POINT_BYTES;
    pts[i] = [reverseCoord(points, o), reverseCoord(points, o + COORD_BYTES), false];
    scs[i] = scalars.slice(i * SCALAR_BYTES, (i + 1) * SCALAR_BYTES);
  }
  return {
    async run(): Promise<AffineResult | null> {
      const [x, y, isInfinity] = msm(scs, pts).result;
      if (isInfinity) return null;
      // reduce defensively in case the output is not fully canonical
      return { x: bytesLEToBigint(x) % P, y: bytesLEToBigint(y) % P };
    },
  };
}
