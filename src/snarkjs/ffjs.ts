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
/**
 * ffjavascript's `multiExpAffine(bases, scalars, logger?, logText?)`: n affine bases and n 32-byte
 * scalars in, the Jacobian sum out.
 *
 * @inline
 */
export type MultiExpFn = (bases: unknown, scalars: unknown, logger?: unknown, logText?: string) => Promise<Uint8Array>;

/**
 * A coordinate field of an ffjavascript group.
 *
 * @inline
 */
export interface FfjsField {
  /** bytes per element */
  readonly n8: number;
}

/**
 * The members of ffjavascript's `curve.G1` / `curve.G2` the engine uses.
 *
 * @example
 * ```ts
 * import * as ffjavascript from 'ffjavascript';
 * import type { FfjsCurve, FfjsGroup } from 'pippin/snarkjs';
 * const curve: FfjsCurve = await ffjavascript.buildBn128();
 * const G1: FfjsGroup = curve.G1;
 * console.log(G1.F.n8, G1.zero.length); // → 32 96
 * ```
 */
export interface FfjsGroup {
  /** the coordinate field */
  readonly F: FfjsField;
  /** the Jacobian point at infinity */
  readonly zero: Uint8Array;
  /** the MSM the engine replaces */
  multiExpAffine: MultiExpFn;
  /** affine Montgomery little-endian points → ffjavascript's "uncompressed" form (on its workers) */
  batchLEMtoU(buff: Uint8Array): Promise<Uint8Array>;
  /** [x, y] with x, y bigints (G1) or [c0, c1] pairs (G2) → the affine point in Montgomery form */
  fromObject(a: unknown[]): Uint8Array;
  /** affine → Jacobian */
  toJacobian(a: Uint8Array): Uint8Array;
  /** Jacobian → affine */
  toAffine(a: Uint8Array): Uint8Array;
  /** point equality */
  eq(a: Uint8Array, b: Uint8Array): boolean;
}

/**
 * The members of an ffjavascript curve (`buildBn128()`, `buildBls12381()`) the engine uses.
 *
 * @example
 * ```ts
 * import * as ffjavascript from 'ffjavascript';
 * import type { FfjsCurve } from 'pippin/snarkjs';
 * const curve: FfjsCurve = await ffjavascript.buildBn128();
 * console.log(curve.name); // → bn128
 * ```
 */
export interface FfjsCurve {
  /** ffjavascript's name: 'bn128' or 'bls12381' */
  readonly name: string;
  /** the G1 group */
  readonly G1: FfjsGroup;
  /** the G2 group */
  readonly G2: FfjsGroup;
  /** ffjavascript's thread manager */
  readonly tm?: {
    /** whether the curve was built with `singleThread` (then snarkjs does not use the shared curve) */
    readonly singleThread?: boolean;
    /** ffjavascript's worker count */
    readonly concurrency?: number;
  };
}

/**
 * What the engine needs of the ffjavascript module (the copy snarkjs imports).
 *
 * @example
 * ```ts
 * import * as ffjavascript from 'ffjavascript';
 * import type { FfjsModule } from 'pippin/snarkjs';
 * const module: FfjsModule = ffjavascript; // the package ships no typings: any
 * console.log(typeof module.buildBn128); // → function
 * ```
 */
export interface FfjsModule {
  /** ffjavascript's `buildBn128` */
  buildBn128?: (singleThread?: boolean) => Promise<FfjsCurve>;
  /** ffjavascript's `buildBls12381` */
  buildBls12381?: (singleThread?: boolean) => Promise<FfjsCurve>;
}
