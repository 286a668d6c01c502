/** The canonical check of 32-byte big-endian field elements (below r), without converting them. */
import { ScalarEncodingError } from '../errors.js';
import * as fr from './fr.js';

/** r's 32 big-endian bytes. */
export const R_BYTES = fr.toBytesBE(fr.R);

/** ScalarEncodingError(`${what} is not below …`, index) unless bytes[at…at+32) < r. */
export function checkCanonical(bytes: Uint8Array, at: number, what: string, index: number): void {
  for (let b = 0; b < 32; b++) {
    const v = bytes[at + b];
    if (v < R_BYTES[b]) return;
    if (v > R_BYTES[b]) break;
    if (b === 31) break;
  }
  throw new ScalarEncodingError(`${what} is not below the scalar field's modulus r`, index);
}
