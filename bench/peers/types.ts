/** Interface every benchmarked MSM implementation module (bench/peers/<name>.ts) exports. */
import type { CurveName } from "../inputs.js";

export type { CurveName } from "../inputs.js";

export interface AffineResult {
  x: bigint;
  y: bigint;
}

export interface PeerInstance {
  /** The MSM only (inputs already in the implementation's own format); null = point at infinity. */
  run(): Promise<AffineResult | null>;
  dispose?(): Promise<void>;
  /** Extra fields for the JSON output (e.g. pippin's bytesPerPoint), read after the timed runs. */
  extra?(): Record<string, unknown>;
}

export interface PeerModule {
  name: string;
  /** Number of threads the implementation uses (default 1). */
  threads?: number;
  /**
   * Curves this module's setup() accepts. Default ['bls12-381'] — a module written before the
   * curve parameter existed is never handed BN254 inputs. run-peer.ts reports a peer asked for a
   * curve outside this list as skipped.
   */
  curves?: readonly CurveName[];
  /**
   * points: n × pointBytes, x ‖ y, each coordinate big-endian (BLS12-381: 96 bytes/point, 48 per
   * coordinate; BN254: 64 bytes/point, 32 per coordinate = EIP-196); scalars: n × 32 bytes
   * little-endian, below r. `curve` (default 'bls12-381') says which curve the bytes belong to.
   * Converts into the implementation's format (untimed).
   */
  setup(points: Uint8Array, scalars: Uint8Array, n: number, curve?: CurveName): Promise<PeerInstance>;
}

/**
 * Thrown by setup() when the implementation cannot run this configuration at all (e.g. an API that
 * does not exist yet): run-peer.ts then reports the peer as skipped instead of failed.
 */
export class PeerUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PeerUnavailableError";
  }
}

export const KNOWN_PEERS = ["montgomery", "ffjavascript", "mcl", "noble"] as const;

/** Default peers (besides pippin) per curve. */
export const DEFAULT_PEERS: Readonly<Record<CurveName, readonly string[]>> = {
  "bls12-381": ["montgomery", "ffjavascript", "mcl", "noble"],
  bn254: ["ffjavascript", "mcl", "noble"],
};
