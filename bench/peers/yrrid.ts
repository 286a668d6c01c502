/**
 * Peer: Yrrid Software's ZPrize 2022 Wasm MSM (the competition's winner), single-threaded.
 *
 * Not on npm and not in this repository: the row runs the compiled `submission/submission.wasm` of
 * github.com/yrrid/submission-wasm-msm (MIT / Apache-2.0) from the path in the environment variable
 * YRRID_WASM, and is skipped when it is unset. The module has no imports; its calling convention is
 * the competition harness's (www/index.js there): `msmInitialize(n, windowBits, 1024, 128)`, the
 * scalars (32-byte little-endian) at `msmScalarsOffset()`, the points at `msmPointsOffset()` as x ‖ y,
 * each 48-byte little-endian (arkworks' `write`: the canonical value), and `msmRun()` returns the
 * offset of the affine result, x ‖ y in the same form. Window bits as the harness picks them: 16 above
 * 2^17 points, 15 above 96·2^10, else 13. Its memory layout holds at most 2^18 points.
 *
 * Timed: copying the prepared inputs into its memory (one `set` each) and the MSM, as the harness
 * times its own call.
 */
import { readFileSync } from "node:fs";
import { bytesLEToBigint, COORD_BYTES, POINT_BYTES, SCALAR_BYTES } from "../inputs.js";
import { PeerUnavailableError, type AffineResult, type PeerInstance } from "./types.js";

export const name = "yrrid";
export const threads = 1;
export const curves = ["bls12-381"] as const;

const MAX_POINTS = 1 << 18;

interface YrridExports {
  memory: WebAssembly.Memory;
  msmInitialize(n: number, windowBits: number, maxChain: number, maxCollisions: number): number;
  msmScalarsOffset(): number;
  msmPointsOffset(): number;
  msmRun(): number;
}

function windowBitsFor(n: number): number {
  return n > 128 * 1024 ? 16 : n > 96 * 1024 ? 15 : 13;
}

export async function setup(points: Uint8Array, scalars: Uint8Array, n: number): Promise<PeerInstance> {
  const path = process.env.YRRID_WASM;
  if (!path) throw new PeerUnavailableError("yrrid: set YRRID_WASM to submission/submission.wasm of github.com/yrrid/submission-wasm-msm");
  if (n > MAX_POINTS) throw new PeerUnavailableError(`yrrid: its memory layout holds at most 2^18 points, not ${n}`);
  const module = await WebAssembly.compile(readFileSync(path));
  const wasm = (await WebAssembly.instantiate(module, {})).exports as unknown as YrridExports;

  const pointsLE = new Uint8Array(n * POINT_BYTES);
  for (let i = 0; i < n * 2; i++) {
    const o = i * COORD_BYTES;
    for (let j = 0; j < COORD_BYTES; j++) pointsLE[o + j] = points[o + COORD_BYTES - 1 - j];
  }
  const scalarBytes = scalars.slice(0, n * SCALAR_BYTES);
  const windowBits = windowBitsFor(n);

  return {
    async run(): Promise<AffineResult | null> {
      wasm.msmInitialize(n, windowBits, 1024, 128);
      new Uint8Array(wasm.memory.buffer).set(scalarBytes, wasm.msmScalarsOffset());
      new Uint8Array(wasm.memory.buffer).set(pointsLE, wasm.msmPointsOffset());
      const at = wasm.msmRun();
      const mem = new Uint8Array(wasm.memory.buffer);
      const x = bytesLEToBigint(mem.slice(at, at + COORD_BYTES));
      const y = bytesLEToBigint(mem.slice(at + COORD_BYTES, at + 2 * COORD_BYTES));
      // The harness has no encoding for infinity; random inputs do not sum to it.
      return { x, y };
    },
  };
}
