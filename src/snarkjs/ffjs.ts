/**
 * The parts of ffjavascript's curve objects the engine talks to, as structural types (pippin holds
 * no ffjavascript code: the caller hands its module in, and the engine calls these members).
 *
 * Formats, as ffjavascript 0.3.x defines them:
 * - an affine point is x‖y, each coordinate little-endian in Montgomery form (G2: c0‖c1), and the
 *   all-zero point is infinity — the layout of zkey sections and of `multiExpAffine`'s bases;
 * - a Jacobian point is x‖y‖z in the same form (what `multiExpAffine` resolves to);
 * - `batchLEMtoU` turns affine Montgomery LE into "uncompressed": each coordinate big-endian in
 *   standard form (G2: c1‖c0), the all-zero point still infinity, on ffjavascript's own workers.
 */
export type MultiExpFn = (bases: unknown, scalars: unknown, logger?: unknown, logText?: string) => Promise<Uint8Array>;

export interface FfjsField {
  readonly n8: number;
}

export interface FfjsGroup {
  readonly F: FfjsField;
  readonly zero: Uint8Array;
  multiExpAffine: MultiExpFn;
  batchLEMtoU(buff: Uint8Array): Promise<Uint8Array>;
  /** [x, y] with x, y bigints (G1) or [c0, c1] pairs (G2) → the affine point in Montgomery form */
  fromObject(a: unknown[]): Uint8Array;
  toJacobian(a: Uint8Array): Uint8Array;
  toAffine(a: Uint8Array): Uint8Array;
  eq(a: Uint8Array, b: Uint8Array): boolean;
}

export interface FfjsCurve {
  readonly name: string;
  readonly G1: FfjsGroup;
  readonly G2: FfjsGroup;
  readonly tm?: { readonly singleThread?: boolean; readonly concurrency?: number };
}

/** What the engine needs of the ffjavascript module (the copy snarkjs imports). */
export interface FfjsModule {
  buildBn128?: (singleThread?: boolean) => Promise<FfjsCurve>;
  buildBls12381?: (singleThread?: boolean) => Promise<FfjsCurve>;
}
