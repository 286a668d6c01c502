/**
 * Codes and constants of the kernel ABI that the generators (src/codegen/) emit and the runtime
 * (src/runtime/, src/api/) reads: one definition, imported by both sides.
 */

/**
 * Kernel codes of the point encodings of `g1_decode_batch` and `g1_encode`: the same on every curve;
 * each curve's module implements the subset its descriptor lists (other codes trap).
 */
export const PointFormat = {
  /** ZCash/IETF uncompressed (BLS12-381): x ‖ y big-endian, flags in the top 3 bits of byte 0. */
  zcash: 0,
  /** ZCash/IETF compressed (BLS12-381): x big-endian with compression, infinity and sort flags in byte 0. */
  'zcash-compressed': 1,
  /** arkworks generic short-Weierstrass uncompressed: x (L bytes LE) ‖ y (La bytes LE), SWFlags in the last byte. */
  arkworks: 2,
  /** arkworks generic short-Weierstrass compressed: x (La bytes LE), SWFlags in the last byte. */
  'arkworks-compressed': 3,
  /** EIP-196/197 (Ethereum precompiles, BN254): x ‖ y big-endian, no flags, infinity = all zero. */
  eip196: 4,
  /** Pasta (o1js field layout): x ‖ y little-endian, no flags, infinity = all zero. */
  pasta: 5,
} as const;

/** Names of the point encodings (the API's `pointFormat` values). */
export type PointFormatName = keyof typeof PointFormat;
export const POINT_FORMAT_NAMES = Object.freeze(Object.keys(PointFormat) as PointFormatName[]);

/**
 * One point encoding of a module: its name, kernel code and encoded size in bytes
 * (`group.formatSpec()`; low level).
 *
 * @example
 * ```ts
 * import { bn254, type PointFormatSpec } from 'pippin';
 * await bn254.init();
 * const spec: PointFormatSpec<string> = bn254.g1.formatSpec();
 * console.log(spec.name, spec.bytes); // → eip196 64
 * ```
 */
export interface PointFormatSpec<F extends string = PointFormatName> {
  /** the format's name (the `pointFormat` option) */
  name: F;
  /** the code the Wasm codec kernels take for it */
  code: number;
  /** bytes per encoded point */
  bytes: number;
}

/** The `check` argument of g1_decode_batch / g1_validate_batch: how much is validated. */
export const Check = { parse: 0, onCurve: 1, subgroup: 2 } as const;

/** The API's validation levels and their kernel check codes. */
export const VALIDATION_CHECK = Object.freeze({ none: Check.parse, 'on-curve': Check.onCurve, full: Check.subgroup } as const);
export type Validation = keyof typeof VALIDATION_CHECK;

/**
 * Result of the checking kernels (g1_decode_batch, g1_validate_batch): NO_ERROR, or
 * (index of the first bad point in the call) << STATUS_SHIFT | PointError code.
 */
export const NO_ERROR = -1;
export const STATUS_SHIFT = 3;
export const PointError = {
  /** flag bits invalid for the format: compression bit, sort/sign flag where none may be, both arkworks flags, stray bits in a flag byte */
  flags: 1,
  /** a coordinate is not canonical (≥ p) */
  coordinate: 2,
  /** the infinity flag (or form) with other non-zero bytes */
  infinity: 3,
  /** compressed x with no curve point (x³ + b is not a square) */
  noSquareRoot: 4,
  /** the y-sign flag disagrees with y (set for y = 0, or arkworks' YIsNegative not y's sign) */
  sign: 5,
  notOnCurve: 6,
  notInSubgroup: 7,
} as const;
export type PointErrorCode = (typeof PointError)[keyof typeof PointError];

/** Malformed-encoding codes (a PointEncodingError) and what each says about the bytes. */
export const MALFORMED: Readonly<Partial<Record<PointErrorCode, string>>> = Object.freeze({
  [PointError.flags]: 'invalid flag bits',
  [PointError.coordinate]: 'a coordinate is not below p (non-canonical)',
  [PointError.infinity]: 'non-zero bytes with the infinity flag',
  [PointError.noSquareRoot]: 'x is not the x-coordinate of a curve point (no square root)',
  [PointError.sign]: "the y-sign flag does not match y",
});

/** Splits a checking kernel's failing status into the index (within the call) and the error code. */
export function decodeStatus(status: number): { index: number; code: PointErrorCode } {
  return { index: status >>> STATUS_SHIFT, code: (status & ((1 << STATUS_SHIFT) - 1)) as PointErrorCode };
}

/** 64 KiB pages of the imported memory as declared by every module (Wasm32 caps it at 65536 = 4 GiB). */
export const INITIAL_PAGES = 2;
export const MAXIMUM_PAGES = 65536;
