/** Interface every benchmarked MSM implementation module (bench/peers/<name>.ts) exports. */
import type { CurveName } from "../inputs.js";

export type { CurveName } from "../inputs.js";

export interface AffineResult {
  x: bigint;
  y: bigint;
}

/**
 * Threads asked of one benchmark row (run-peer.ts `--threads`): a thread count, or 'auto' = the
 * library's own multi-threaded mode when it does not take a count (ffjavascript: one worker per CPU).
 */
export type ThreadRequest = number | "auto";

/**
 * Name of a benchmark row: the module's name for one thread, `<name>-<N>t` for N threads,
 * `<name>-mt` for 'auto' (e.g. pippin, pippin-2t, ffjavascript-mt).
 */
export function rowName(name: string, threads: ThreadRequest): string {
  return threads === 1 ? name : threads === "auto" ? `${name}-mt` : `${name}-${threads}t`;
}

export interface PeerInstance {
  /** Threads the run actually uses, if not the requested count (e.g. for 'auto'). */
  threads?: number;
  /** The MSM only (inputs already in the implementation's own format); null = point at infinity. */
  run(): Promise<AffineResult | null>;
  /**
   * The last run()'s time as the implementation measured it, in ms; run-peer.ts records it instead
   * of the wall time around run() (native peers: their own clock, without the pipe round trip).
   */
  lastRunMs?(): number;
  dispose?(): Promise<void>;
  /** Extra fields for the JSON output (e.g. pippin's bytesPerPoint), read after the timed runs. */
  extra?(): Record<string, unknown>;
}

export interface PeerModule {
  name: string;
  /** Number of threads the implementation uses for a single-thread request (default 1). */
  threads?: number;
  /**
   * Thread requests setup() honours besides 1: 'count' = any positive thread count (pippin),
   * 'auto' = the library's own multi-threaded mode (ffjavascript). Default: none (single thread
   * only). run-peer.ts reports any other request as skipped.
   */
  threading?: "count" | "auto";
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
   * `threads` (default 1) is the row's thread request, within what `threading` declares.
   * Converts into the implementation's format (untimed); starts workers if any (dispose() ends them).
   */
  setup(
    points: Uint8Array,
    scalars: Uint8Array,
    n: number,
    curve?: CurveName,
    threads?: ThreadRequest,
  ): Promise<PeerInstance>;
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

export const KNOWN_PEERS = ["montgomery", "yrrid", "ffjavascript", "mcl", "noble", "blst-native", "arkworks-native"] as const;

/** Known peers whose module declares `threading: 'auto'` (measured again as `<name>-mt` in multi-thread runs). */
export const MULTI_THREADED_PEERS: readonly string[] = ["ffjavascript"];

/**
 * Known peers whose module declares `threading: 'count'` (native, bench/peers/native.ts): measured
 * at every thread count of a multi-thread run, rows `<name>`, `<name>-2t`, ….
 */
export const COUNT_THREADED_PEERS: readonly string[] = ["blst-native", "arkworks-native"];

/** Default peers (besides pippin) per curve. */
export const DEFAULT_PEERS: Readonly<Record<CurveName, readonly string[]>> = {
  "bls12-381": ["montgomery", "ffjavascript", "mcl", "noble"],
  bn254: ["ffjavascript", "mcl", "noble"],
};
