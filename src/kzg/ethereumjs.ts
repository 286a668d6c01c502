/**
 * pippin/kzg as ethereumjs's KZG (`@ethereumjs/util`'s `KZG` interface, 10.x): its method names,
 * hex strings in and out ('0x'-prefixed, lowercase), synchronous — on `kzg.sync`. For
 * `new Common({ …, customCrypto: { kzg: toEthereumjsKzg(kzg) } })` and `@ethereumjs/tx`'s blob
 * transactions. No dependency on ethereumjs: the interface is restated structurally here.
 */
import { LengthMismatchError, PippinError } from '../errors.js';
import type { Kzg } from './index.js';

/**
 * `@ethereumjs/util`'s `KZG` interface (10.1.3), which `toEthereumjsKzg` implements: every byte
 * string is a '0x'-prefixed hex string.
 *
 * @example
 * ```ts
 * import { loadKzg, toEthereumjsKzg, type EthereumjsKzg } from 'pippin/kzg';
 * const kzg = await loadKzg();
 * const ejs: EthereumjsKzg = toEthereumjsKzg(kzg);
 * const blob = '0x' + '00'.repeat(131072);
 * console.log(ejs.blobToKzgCommitment(blob).slice(0, 4)); // → 0xc0
 * kzg.dispose();
 * ```
 */
export interface EthereumjsKzg {
  /** blob_to_kzg_commitment */
  blobToKzgCommitment(blob: string): string;
  /** compute_blob_kzg_proof */
  computeBlobProof(blob: string, commitment: string): string;
  /** verify_kzg_proof */
  verifyProof(polynomialKZG: string, z: string, y: string, KZGProof: string): boolean;
  /** verify_blob_kzg_proof_batch */
  verifyBlobProofBatch(blobs: string[], expectedKZGCommitments: string[], KZGProofs: string[]): boolean;
  /** compute_cells */
  computeCells(blob: string): string[];
  /** compute_cells_and_kzg_proofs */
  computeCellsAndProofs(blob: string): [string[], string[]];
  /** recover_cells_and_kzg_proofs (`kzg.sync.recoverCellsAndKzgProofs`) */
  recoverCellsAndProofs(indices: number[], cells: string[]): [string[], string[]];
  /** verify_cell_kzg_proof_batch */
  verifyCellKzgProofBatch(commitments: string[], indices: number[], cells: string[], proofs: string[]): boolean;
}

const HEX = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) t[65 + i] = t[97 + i] = 10 + i;
  return t;
})();

/** A hex string ('0x' prefix optional) as bytes; LengthMismatchError for an odd count of digits, PippinError for a non-hex character. */
function fromHex(s: unknown, what: string): Uint8Array {
  if (typeof s !== 'string') throw new LengthMismatchError(`ethereumjs kzg: ${what} must be a hex string, got ${typeof s}`);
  const start = s.startsWith('0x') || s.startsWith('0X') ? 2 : 0;
  if ((s.length - start) % 2 !== 0) throw new LengthMismatchError(`ethereumjs kzg: ${what} has an odd number of hex digits`);
  const out = new Uint8Array((s.length - start) / 2);
  for (let i = 0; i < out.length; i++) {
    const [a, b] = [s.charCodeAt(start + 2 * i), s.charCodeAt(start + 2 * i + 1)];
    const [hi, lo] = [a < 128 ? HEX[a] : -1, b < 128 ? HEX[b] : -1];
    if (hi < 0 || lo < 0) throw new PippinError(`ethereumjs kzg: ${what} has a non-hex character at offset ${start + 2 * i + (hi < 0 ? 0 : 1)}`);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

const DIGITS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const toHex = (b: Uint8Array): string => {
  let s = '0x';
  for (let i = 0; i < b.length; i++) s += DIGITS[b[i]];
  return s;
};
const list = (xs: unknown, what: string): Uint8Array[] => {
  if (!Array.isArray(xs)) throw new LengthMismatchError(`ethereumjs kzg: ${what} must be an array`);
  return xs.map((x, i) => fromHex(x, `${what}[${i}]`));
};

/**
 * ethereumjs's KZG on a loaded pippin Kzg: `new Common({ chain: Mainnet, customCrypto: { kzg:
 * toEthereumjsKzg(kzg) } })` gives `@ethereumjs/tx`'s blob transactions pippin's commitments, proofs,
 * cells and verification (EIP-4844 and EIP-7594 network wrappers). The methods call `kzg.sync` (they
 * block while they run, as ethereumjs calls them synchronously) and are bound. Malformed hex is a
 * PippinError; errors of the Kzg pass through.
 *
 * @example
 * ```ts
 * import { loadKzg, toEthereumjsKzg, BYTES_PER_BLOB } from 'pippin/kzg';
 * const kzg = await loadKzg();
 * const ejs = toEthereumjsKzg(kzg); // Common's customCrypto.kzg in ethereumjs
 * const blob = '0x' + '00'.repeat(BYTES_PER_BLOB - 1) + '05';
 * const commitment = ejs.blobToKzgCommitment(blob);
 * const proof = ejs.computeBlobProof(blob, commitment);
 * console.log(ejs.verifyBlobProofBatch([blob], [commitment], [proof])); // → true
 * kzg.dispose();
 * ```
 */
export function toEthereumjsKzg(kzg: Kzg): EthereumjsKzg {
  const s = kzg.sync;
  return Object.freeze({
    blobToKzgCommitment: (blob: string) => toHex(s.blobToKzgCommitment(fromHex(blob, 'blob'))),
    computeBlobProof: (blob: string, commitment: string) => toHex(s.computeBlobKzgProof(fromHex(blob, 'blob'), fromHex(commitment, 'commitment'))),
    verifyProof: (commitment: string, z: string, y: string, proof: string) => s.verifyKzgProof(fromHex(commitment, 'commitment'), fromHex(z, 'z'), fromHex(y, 'y'), fromHex(proof, 'proof')),
    verifyBlobProofBatch: (blobs: string[], commitments: string[], proofs: string[]) => s.verifyBlobKzgProofBatch(list(blobs, 'blobs'), list(commitments, 'commitments'), list(proofs, 'proofs')),
    computeCells: (blob: string) => s.computeCells(fromHex(blob, 'blob')).map(toHex),
    computeCellsAndProofs: (blob: string): [string[], string[]] => {
      const [cells, proofs] = s.computeCellsAndKzgProofs(fromHex(blob, 'blob'));
      return [cells.map(toHex), proofs.map(toHex)];
    },
    recoverCellsAndProofs: (indices: number[], cells: string[]): [string[], string[]] => {
      const [cs, ps] = s.recoverCellsAndKzgProofs(indices, list(cells, 'cells'));
      return [cs.map(toHex), ps.map(toHex)];
    },
    verifyCellKzgProofBatch: (commitments: string[], indices: number[], cells: string[], proofs: string[]) => s.verifyCellKzgProofBatch(list(commitments, 'commitments'), indices, list(cells, 'cells'), list(proofs, 'proofs')),
  });
}
