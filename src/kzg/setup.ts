/**
 * The trusted setup in c-kzg's text format (trusted_setup.txt): the decimal counts n1 = 4096 and
 * n2 = 65, then hex bytes — n1 G1 points in Lagrange form (48 bytes each, compressed), n2 G2 points
 * in monomial form (96 bytes each), n1 G1 points in monomial form — any whitespace between tokens,
 * as c-kzg's load_trusted_setup_file reads it (two hex digits per byte).
 */
import { PippinError } from '../errors.js';

/**
 * Field elements per blob (EIP-4844): 4096.
 *
 * @example
 * ```ts
 * import { FIELD_ELEMENTS_PER_BLOB, BYTES_PER_BLOB } from 'pippin/kzg';
 * console.log(BYTES_PER_BLOB / FIELD_ELEMENTS_PER_BLOB); // → 32
 * ```
 */
export const FIELD_ELEMENTS_PER_BLOB = 4096;
export const NUM_G2_POINTS = 65;
export const BYTES_PER_G1 = 48;
export const BYTES_PER_G2 = 96;

/**
 * The trusted setup is malformed or not the expected size; `index` is the offending point's, or −1.
 *
 * @example
 * ```ts
 * import { loadKzg, TrustedSetupError } from 'pippin/kzg';
 * try {
 *   await loadKzg({ setup: '4096 65\n' }); // the counts, then no points
 * } catch (e) {
 *   console.log(e instanceof TrustedSetupError); // → true
 * }
 * ```
 */
export class TrustedSetupError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'TrustedSetupError';
}

export interface SetupBytes {
  /** 4096 compressed G1 points, Lagrange form, in file order */
  g1Lagrange: Uint8Array;
  /** 65 compressed G2 points, monomial form */
  g2Monomial: Uint8Array;
  /** 4096 compressed G1 points, monomial form (τ^i·G) */
  g1Monomial: Uint8Array;
}

const HEX = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) t[65 + i] = t[97 + i] = 10 + i;
  return t;
})();

/** Parses c-kzg's trusted_setup.txt text; TrustedSetupError on anything else. */
export function parseTrustedSetup(text: string): SetupBytes {
  if (typeof text !== 'string') throw new TrustedSetupError(`trusted setup: expected the text of trusted_setup.txt, got ${typeof text}`);
  const counts = /^\s*(\d+)\s+(\d+)\s/.exec(text);
  if (!counts) throw new TrustedSetupError('trusted setup: the text must start with the two point counts');
  const [n1, n2] = [Number(counts[1]), Number(counts[2])];
  if (n1 !== FIELD_ELEMENTS_PER_BLOB || n2 !== NUM_G2_POINTS) {
    throw new TrustedSetupError(`trusted setup: expected ${FIELD_ELEMENTS_PER_BLOB} G1 and ${NUM_G2_POINTS} G2 points, the file declares ${n1} and ${n2}`);
  }
  const total = n1 * BYTES_PER_G1 * 2 + n2 * BYTES_PER_G2;
  const out = new Uint8Array(total);
  let k = 0;
  let hi = -1;
  for (let i = counts[0].length; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) {
      if (hi >= 0) throw new TrustedSetupError(`trusted setup: odd number of hex digits before offset ${i}`);
      continue;
    }
    const v = c < 128 ? HEX[c] : -1;
    if (v < 0) throw new TrustedSetupError(`trusted setup: unexpected character ${JSON.stringify(text[i])} at offset ${i}`);
    if (hi < 0) hi = v;
    else {
      if (k === total) throw new TrustedSetupError(`trusted setup: more than the ${total} bytes of ${n1}·2 G1 and ${n2} G2 points`);
      out[k++] = (hi << 4) | v;
      hi = -1;
    }
  }
  if (k !== total || hi >= 0) throw new TrustedSetupError(`trusted setup: ${k} bytes of points, expected ${total}`);
  const a = n1 * BYTES_PER_G1;
  const b = a + n2 * BYTES_PER_G2;
  return { g1Lagrange: out.subarray(0, a), g2Monomial: out.subarray(a, b), g1Monomial: out.subarray(b) };
}
