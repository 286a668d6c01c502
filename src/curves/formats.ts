/** The point-format names of each curve, as types (derived from the descriptors). */
import type { bls12_381Curve } from './bls12-381.js';
import type { bn254Curve } from './bn254.js';
import type { bls12_377Curve } from './bls12-377.js';
import type { pallasCurve } from './pallas.js';

export type Bls12_381Format = (typeof bls12_381Curve.formats)[number];
export type Bn254Format = (typeof bn254Curve.formats)[number];
export type Bls12_377Format = (typeof bls12_377Curve.formats)[number];
/** Pallas and Vesta share their encodings. */
export type PastaFormat = (typeof pallasCurve.formats)[number];
