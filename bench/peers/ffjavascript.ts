/**
 * Peer: `ffjavascript` 0.3.1 (snarkjs's engine), `G1.multiExpAffine`.
 * BLS12-381 via `buildBls12381(single)`, BN254 via `buildBn128(single)`; the input layout is the same
 * for both (coordinate width from the curve).
 *
 * Threads (`threading: 'auto'`): a 1-thread request builds the single-threaded engine (`true`, no
 * workers; row `ffjavascript`); 'auto' builds the default engine, one worker per CPU
 * (`os.cpus().length`, at most 64; row `ffjavascript-mt`, `threads` = its worker count). ffjavascript
 * takes no thread count, so other requests are unavailable. dispose() calls `curve.terminate()`,
 * which ends the workers so the process can exit.
 */
import { buildBls12381, buildBn128 } from "ffjavascript";
import { curveSpec, pointsToBigints, SCALAR_BYTES, type CurveName } from "../inputs.js";
import { PeerUnavailableError, type AffineResult, type PeerInstance, type ThreadRequest } from "./types.js";

export const name = "ffjavascript";
export const threads = 1;
export const threading = "auto";
export const curves: readonly CurveName[] = ["bls12-381", "bn254"];

export async function setup(
  points: Uint8Array,
  scalars: Uint8Array,
  n: number,
  curveName: CurveName = "bls12-381",
  threads: ThreadRequest = 1,
): Promise<PeerInstance> {
  if (threads !== 1 && threads !== "auto") {
    throw new PeerUnavailableError(`ffjavascript takes no thread count (1 or its default, one worker per CPU)`);
  }
  const { pointBytes, coordBytes } = curveSpec(curveName);
  // true = single thread, no workers; false = one worker per CPU
  const single = threads === 1;
  const curve = curveName === "bn254" ? await buildBn128(single) : await buildBls12381(single);
  const G1 = curve.G1;
  if (G1.F.n8 !== coordBytes) throw new Error(`ffjavascript: unexpected field size ${G1.F.n8} for ${curveName}`);
  // bases: n × (x ‖ y), each coordinate little-endian in Montgomery form
  const bases = new Uint8Array(n * pointBytes);
  const affine = pointsToBigints(points.subarray(0, n * pointBytes), curveName);
  for (let i = 0; i < n; i++) {
    G1.toRprLEM(bases, i * pointBytes, G1.fromObject([affine[i].x, affine[i].y]));
  }
  // scalars: n × 32 bytes little-endian, normal form — same as our input format
  const scs = scalars.slice(0, n * SCALAR_BYTES);
  return {
    threads: curve.tm.concurrency,
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
