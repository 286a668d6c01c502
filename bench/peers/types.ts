/** Interface every benchmarked MSM implementation module (bench/peers/<name>.ts) exports. */
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
   * points: n × 96 bytes (x ‖ y, 48-byte big-endian each); scalars: n × 32 bytes little-endian.
   * Converts into the implementation's format (untimed).
   */
  setup(points: Uint8Array, scalars: Uint8Array, n: number): Promise<PeerInstance>;
}

export const KNOWN_PEERS = ["montgomery", "ffjavascript", "mcl", "noble"] as const;
