/** The error of the snarkjs file readers (`.zkey`, `.wtns`). */
import { PippinError } from '../../errors.js';

/**
 * What is wrong with a file, one code per kind of fault:
 * - `truncated`: the bytes end before a header, a section or a value they announce;
 * - `magic`: the first four bytes are not the expected file type; `version`: an unknown container version;
 * - `section-unknown`, `section-duplicate`, `section-missing`: the section table does not match the format;
 * - `section-size`: a section's size differs from what its contents require; `trailing-data`: bytes after the last section;
 * - `protocol`: a zkey of another protocol (PLONK, FFLONK) where a Groth16 key is needed;
 * - `curve`: a prime (or pair of primes) of no supported curve;
 * - `value`: a field that cannot be right (an index out of range, a field element not below its
 *   modulus, a domain size that is not a power of two);
 * - `witness-prime`, `witness-length`: a witness that does not belong to the key (`checkWitness`).
 *
 * @example
 * ```ts
 * import type { FileFormatCode } from 'pippin/snarkjs';
 * const retry: FileFormatCode[] = ['truncated'];
 * console.log(retry.includes('truncated')); // → true
 * ```
 */
export type FileFormatCode =
  | 'truncated'
  | 'magic'
  | 'version'
  | 'section-unknown'
  | 'section-duplicate'
  | 'section-missing'
  | 'section-size'
  | 'trailing-data'
  | 'protocol'
  | 'curve'
  | 'value'
  | 'witness-prime'
  | 'witness-length';

/**
 * A `.zkey` or `.wtns` file that cannot be read, or a witness that does not fit its key. `code` says
 * what kind of fault; `section` the section type it is in (null for the container's own header or
 * for a fault about the whole file); `offset` the byte position in the file where it was found (−1
 * when it is not about one position).
 *
 * @example
 * ```ts
 * import { groth16, FileFormatError } from 'pippin/snarkjs';
 * const e = await groth16.loadKey(new Uint8Array(3)).catch((x: unknown) => x);
 * if (e instanceof FileFormatError) console.log(e.code, e.offset); // → magic 0
 * ```
 */
export class FileFormatError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'FileFormatError';
  /**
   * A file format error.
   *
   * @param message - what is wrong, and where
   * @param code - the kind of fault
   * @param section - the section type the fault is in, or null
   * @param offset - the byte offset in the file, or −1
   */
  constructor(
    message: string,
    readonly code: FileFormatCode,
    readonly section: number | null = null,
    readonly offset = -1,
  ) {
    super(message);
  }
}
