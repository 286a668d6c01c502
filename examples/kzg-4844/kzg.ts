/**
 * EIP-4844 blob commitments (`blob_to_kzg_commitment`) on pippin's prepared bases.
 *
 * A blob is 4096 field elements of BLS12-381's scalar field (32 bytes each, big-endian, each < r):
 * the evaluations of a polynomial at the 4096th roots of unity taken in bit-reversed order. Its
 * commitment is Σ blob[i]·L[i] over the G1 points L of the trusted setup in Lagrange form, in that
 * same bit-reversed order (c-kzg-4844 permutes the setup's points when it loads them), returned as a
 * 48-byte compressed G1 point (ZCash encoding). The setup is the official one of the KZG ceremony as
 * the `kzg-wasm` npm package ships it (dist/esm/trustedSetup.js: the points as hex in file order,
 * the order of c-kzg-4844's trusted_setup.txt).
 *
 * In a project of your own, import from 'pippin' instead of '../../src/index.js'.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bls12_381, ScalarEncodingError, LengthMismatchError, type PreparedBases, type Validation } from '../../src/index.js';

export const FIELD_ELEMENTS_PER_BLOB = 4096;
export const BYTES_PER_FIELD_ELEMENT = 32;
export const BYTES_PER_BLOB = FIELD_ELEMENTS_PER_BLOB * BYTES_PER_FIELD_ELEMENT;
const COMPRESSED_G1 = 48;

/** The setup's G1 Lagrange points as kzg-wasm@1.0.0 ships them: 4096 × 48 bytes compressed, in file order. */
export async function kzgWasmLagrangePoints(): Promise<Uint8Array> {
  const dir = new URL('.', import.meta.resolve('kzg-wasm'));
  const source = await readFile(fileURLToPath(new URL('trustedSetup.js', dir)), 'utf8');
  const hex = /"g1_lagrange":\s*"([0-9a-f]+)"/.exec(source)?.[1];
  if (!hex || hex.length !== 2 * COMPRESSED_G1 * FIELD_ELEMENTS_PER_BLOB) throw new Error('kzg-wasm: g1_lagrange not found or of the wrong size');
  return Uint8Array.from(hex.match(/../g)!, (b) => parseInt(b, 16));
}

/** Index i with its `bits` low bits reversed. */
export function reverseBits(i: number, bits: number): number {
  let r = 0;
  for (let b = 0; b < bits; b++) r |= ((i >>> b) & 1) << (bits - 1 - b);
  return r;
}

/** Records of `size` bytes permuted to bit-reversed order: record i of the result is record reverseBits(i) of `bytes`. */
export function bitReversed(bytes: Uint8Array, size: number): Uint8Array {
  const count = bytes.length / size;
  const bits = Math.log2(count);
  if (!Number.isInteger(bits)) throw new RangeError(`bitReversed: ${count} records is not a power of two`);
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < count; i++) {
    const j = reverseBits(i, bits);
    out.set(bytes.subarray(j * size, (j + 1) * size), i * size);
  }
  return out;
}

/** Commits to blobs over a prepared trusted setup; `dispose()` releases its Wasm memory. */
export class BlobCommitter {
  constructor(readonly bases: PreparedBases) {}

  /** blob_to_kzg_commitment: the 48-byte compressed commitment of one blob. */
  async commit(blob: Uint8Array): Promise<Uint8Array> {
    checkBlob(blob);
    return bls12_381.g1.toBytes(await this.bases.msm(blob, { scalarEndian: 'be' }), 'zcash-compressed');
  }

  /** The same for several blobs in one msmBatch. */
  async commitMany(blobs: readonly Uint8Array[]): Promise<Uint8Array[]> {
    blobs.forEach(checkBlob);
    const points = await this.bases.msmBatch(blobs, { scalarEndian: 'be' });
    return points.map((P) => bls12_381.g1.toBytes(P, 'zcash-compressed'));
  }

  /** The same as `commit` on the calling thread. */
  commitSync(blob: Uint8Array): Uint8Array {
    checkBlob(blob);
    return bls12_381.g1.toBytes(this.bases.msmSync(blob, { scalarEndian: 'be' }), 'zcash-compressed');
  }

  dispose(): void {
    this.bases.dispose();
  }
}

/** A blob is 4096 canonical field elements: each 32-byte big-endian value below r (as c-kzg-4844 requires). */
function checkBlob(blob: Uint8Array): void {
  if (!(blob instanceof Uint8Array) || blob.length !== BYTES_PER_BLOB) {
    throw new LengthMismatchError(`blob: expected ${BYTES_PER_BLOB} bytes, got ${blob instanceof Uint8Array ? blob.length : typeof blob}`);
  }
  const { r } = bls12_381.params;
  for (let i = 0; i < FIELD_ELEMENTS_PER_BLOB; i++) {
    // compare big-endian bytes with r's, most significant first; stop at the first difference
    for (let b = 0; b < BYTES_PER_FIELD_ELEMENT; b++) {
      const rb = Number((r >> BigInt(8 * (31 - b))) & 0xffn);
      const v = blob[i * BYTES_PER_FIELD_ELEMENT + b];
      if (v < rb) break;
      if (v > rb || b === BYTES_PER_FIELD_ELEMENT - 1) throw new ScalarEncodingError(`blob: field element ${i} is not below the scalar field's modulus r`, i);
    }
  }
}

/**
 * Loads the trusted setup from kzg-wasm's copy: the Lagrange points put in bit-reversed order,
 * decompressed and validated once ('full' by default: on the curve and in G1) into prepared bases.
 */
export async function loadTrustedSetup(
  options: { validate?: Validation; threads?: number; points?: Uint8Array; precompute?: boolean | { maxBytes: number } } = {},
): Promise<BlobCommitter> {
  await bls12_381.init();
  const points = bitReversed(options.points ?? (await kzgWasmLagrangePoints()), COMPRESSED_G1);
  const bases = await bls12_381.g1.prepare(points, { pointFormat: 'zcash-compressed', validate: options.validate ?? 'full', threads: options.threads, precompute: options.precompute });
  return new BlobCommitter(bases);
}
