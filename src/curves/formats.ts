/** The point-format names of each curve, as types (derived from the descriptors). */
import type { bls12_381Curve } from './bls12-381.js';
import type { bn254Curve } from './bn254.js';
import type { bls12_377Curve } from './bls12-377.js';
import type { pallasCurve } from './pallas.js';

/**
 * The G1 point formats of BLS12-381: 'zcash' (96 bytes, the default), 'zcash-compressed' (48),
 * 'arkworks' (96).
 *
 * @example
 * ```ts
 * import { bls12_381, type Bls12_381Format } from 'pippin';
 * await bls12_381.init();
 * const format: Bls12_381Format = 'arkworks';
 * console.log(bls12_381.g1.toBytes(bls12_381.params.G1, format).length); // → 96
 * ```
 */
export type Bls12_381Format = (typeof bls12_381Curve.formats)[number];
/**
 * The G1 point formats of BN254: 'eip196' (64 bytes x‖y big-endian, the default), 'arkworks' and
 * 'arkworks-compressed'.
 *
 * @example
 * ```ts
 * import { bn254, type Bn254Format } from 'pippin';
 * await bn254.init();
 * const format: Bn254Format = 'eip196';
 * console.log(bn254.g1.toBytes(bn254.params.G1, format).length); // → 64
 * ```
 */
export type Bn254Format = (typeof bn254Curve.formats)[number];
/**
 * The G1 point formats of BLS12-377: 'arkworks' (the default) and 'arkworks-compressed'.
 *
 * @example
 * ```ts
 * import { bls12_377, type Bls12_377Format } from 'pippin';
 * await bls12_377.init();
 * const format: Bls12_377Format = bls12_377.g1.pointFormats[0].name;
 * console.log(bls12_377.g1.toBytes(bls12_377.params.G1, format).length > 0); // → true
 * ```
 */
export type Bls12_377Format = (typeof bls12_377Curve.formats)[number];
/**
 * The point formats of Pallas and Vesta (they share their encodings): 'pasta' (the default),
 * 'arkworks' and 'arkworks-compressed'.
 *
 * @example
 * ```ts
 * import { vesta, type PastaFormat } from 'pippin';
 * await vesta.init();
 * const format: PastaFormat = vesta.g1.pointFormats[0].name;
 * console.log(vesta.g1.toBytes(vesta.params.G1, format).length > 0); // → true
 * ```
 */
export type PastaFormat = (typeof pallasCurve.formats)[number];
