/**
 * Byte codecs of the EVM precompiles' inputs and outputs: big-endian integers of 32 bytes (BN254
 * coordinates, scalars) and 64 bytes (EIP-2537 field elements: 16 zero bytes, then 48), checked
 * against the field's modulus, each failure a PrecompileInputError naming the precompile and what.
 */
import { PrecompileInputError } from '../errors.js';

/** The unsigned big-endian integer of bytes[off, off + len). */
export function readBE(bytes: Uint8Array, off: number, len: number): bigint {
  let v = 0n;
  let i = off;
  const end = off + len;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (; i + 8 <= end; i += 8) v = (v << 64n) | view.getBigUint64(i);
  for (; i < end; i++) v = (v << 8n) | BigInt(bytes[i]!);
  return v;
}

/** Writes v as len big-endian bytes at out[off]. */
export function writeBE(out: Uint8Array, off: number, len: number, v: bigint): void {
  for (let i = off + len - 1; i >= off; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

/** Where an input error is raised: the precompile and its field modulus. */
export interface Site {
  /** the precompile's name, as its EIP spells it */
  name: string;
  p: bigint;
}

export function inputError(site: Site, reason: string, detail: string, index = -1): PrecompileInputError {
  return new PrecompileInputError(`${site.name}: ${reason}: ${detail}`, site.name, reason, index);
}

/** A field element of `bytes` bytes (32 or 64; the top 16 of 64 must be zero), below p. */
export function readFp(site: Site, input: Uint8Array, off: number, bytes: 32 | 64, what: string, index: number): bigint {
  if (bytes === 64) {
    for (let i = off; i < off + 16; i++) {
      if (input[i] !== 0) throw inputError(site, 'invalid field element', `${what}: the top 16 of its 64 bytes are not zero (at byte ${off})`, index);
    }
  }
  const v = readBE(input, off, bytes);
  if (v >= site.p) throw inputError(site, 'invalid field element', `${what} is not below the field modulus p (at byte ${off})`, index);
  return v;
}

/** Checks the input length: a positive multiple of `unit` (unit = exact for fixed-size inputs). */
export function checkLength(site: Site, input: Uint8Array, unit: number, exact: boolean): number {
  if (!(input instanceof Uint8Array)) throw inputError(site, 'invalid input length', 'the input is not a Uint8Array');
  const ok = exact ? input.length === unit : input.length > 0 && input.length % unit === 0;
  if (!ok) throw inputError(site, 'invalid input length', `${input.length} bytes, expected ${exact ? unit : `a positive multiple of ${unit}`}`);
  return input.length / unit;
}
