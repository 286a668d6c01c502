/**
 * pippin/kzg's verifiers — c-kzg's verify_kzg_proof, verify_blob_kzg_proof,
 * verify_blob_kzg_proof_batch and verify_cell_kzg_proof_batch (EIP-4844, EIP-7594) — on pippin's
 * MSMs (`g1.msmSync`), F_r kernels (src/kzg/fr-wasm.ts over msm/fr-arrays) and pairing
 * (src/msm/pairing.ts: one multi-Miller loop and one final exponentiation per call, the G2 points
 * [1]₂, [τ]₂ and [τ⁶⁴]₂ prepared once per Kzg).
 *
 * Each check is one pairing product of two pairs with prepared G2 points:
 * - a KZG proof π of p(z) = y for the commitment C: e(C − y·G + z·π, [1]₂)·e(−π, [τ]₂) = 1
 *   (the same as c-kzg's e(C − y·G, [1]₂) = e(π, [τ − z]₂), with no G2 arithmetic per call);
 * - a batch of n blob proofs: the random combination with r's powers (r from SHA-256 of every
 *   input, c-kzg's RCKZGBATCH___V1_ transcript): e(Σ rⁱ(Cᵢ − yᵢ·G + zᵢ·πᵢ), [1]₂)·e(−Σ rⁱπᵢ, [τ]₂) = 1;
 * - cells (the universal verification equation of EIP-7594's polynomial-commitments-sampling, with
 *   c-kzg's RCKZGCBATCH__V1_ transcript): e(Σ_k r^k·C_{row k} − [I(τ)]₁ + Σ_k r^k·h_k⁶⁴·π_k, [1]₂)·
 *   e(−Σ_k r^k·π_k, [τ⁶⁴]₂) = 1, where h_k is cell k's coset shift and I = Σ_k r^k·I_k, I_k the
 *   degree < 64 interpolant of cell k's values on its coset (the cells of one column summed first,
 *   then one inverse FFT of 64 and a shift per column, on the fr_* kernels).
 *
 * Input rules are c-kzg's (commitments and proofs: 48-byte compressed points of G1 or infinity;
 * field elements below r; cell indices below 128) and every broken rule is a typed error, where
 * c-kzg throws: a check that fails on well-formed inputs is `false`. Everything here is synchronous;
 * arena memory is taken and released within each call.
 */
import { bls12_381, type G1Affine } from '../index.js';
import { LengthMismatchError, PippinError, ScalarEncodingError } from '../errors.js';
import { describeValue } from '../api/option-kit.js';
import { convertProgram, copyBytes } from '../msm/convert.js';
import { AffineBatch, CHECK, FORMAT_COMPRESSED, FORMAT_ZCASH, type Points } from '../msm/affine-batch.js';
import { Pairing, type PreparedG2 } from '../msm/pairing.js';
import type { G1AffineValue, GroupContext } from '../msm/group.js';
import type { PointFormatSpec } from '../abi/codes.js';
import { bls12_381Curve, bls12_381G2 } from '../curves/bls12-381.js';
import { runSync } from '../msm/call.js';
import { FrWasm, arenaHost, type Twiddles } from './fr-wasm.js';
import * as fr from './fr.js';
import { sha256 } from './sha256.js';
import { FIELD_ELEMENTS_PER_BLOB, type SetupBytes } from './setup.js';

const BLOB_BYTES = FIELD_ELEMENTS_PER_BLOB * 32;
const COMPRESSED: PointFormatSpec<string> = { name: 'zcash-compressed', code: FORMAT_COMPRESSED, bytes: 48 };
const G1_BYTES = 48;
const ZCASH_BYTES = 96;
const CELL_ELEMENTS = 64;
const CELL_BYTES = CELL_ELEMENTS * 32;
const CELLS = 128;

/**
 * A cell index is not an integer in 0…127 (`index`: its position in the call's `cellIndices`), as
 * c-kzg refuses it.
 *
 * @example
 * ```ts
 * import { loadKzg, CellIndexError } from 'pippin/kzg';
 * const kzg = await loadKzg();
 * const commitment = new Uint8Array(48);
 * commitment[0] = 0xc0; // infinity
 * try {
 *   await kzg.verifyCellKzgProofBatch([commitment], [128], [new Uint8Array(2048)], [commitment]);
 * } catch (e) {
 *   console.log(e instanceof CellIndexError, (e as CellIndexError).index); // → true 0
 * }
 * kzg.dispose();
 * ```
 */
export class CellIndexError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'CellIndexError';
}

/**
 * The verifiers of `kzg.sync` (part of KzgSync): c-kzg's names, argument order and rules, booleans
 * returned on the calling thread. Malformed inputs (wrong sizes or counts, a point that does not
 * decode or is not in G1, a field element ≥ r, a cell index outside 0…127) throw typed errors where
 * c-kzg throws; inputs that are well-formed but do not verify give `false`.
 *
 * @example
 * ```ts
 * import { loadKzg, BYTES_PER_BLOB } from 'pippin/kzg';
 * const kzg = await loadKzg();
 * const blob = new Uint8Array(BYTES_PER_BLOB);
 * blob[31] = 9;
 * const { blobToKzgCommitment, computeBlobKzgProof, verifyBlobKzgProof } = kzg.sync;
 * const commitment = blobToKzgCommitment(blob);
 * const proof = computeBlobKzgProof(blob, commitment);
 * console.log(verifyBlobKzgProof(blob, commitment, proof), verifyBlobKzgProof(blob, proof, commitment)); // → true false
 * kzg.dispose();
 * ```
 */
export interface KzgVerifySync {
  /** verify_kzg_proof: whether `proof` shows p(z) = y for the polynomial of `commitment` (z, y: 32 bytes big-endian, below r). */
  verifyKzgProof(commitment: Uint8Array, z: Uint8Array, y: Uint8Array, proof: Uint8Array): boolean;
  /** verify_blob_kzg_proof: whether `proof` is the blob's proof at EIP-4844's challenge for `commitment`. */
  verifyBlobKzgProof(blob: Uint8Array, commitment: Uint8Array, proof: Uint8Array): boolean;
  /** verify_blob_kzg_proof_batch: all at once (a random linear combination, one pairing product); `true` for none. */
  verifyBlobKzgProofBatch(blobs: Uint8Array[], commitments: Uint8Array[], proofs: Uint8Array[]): boolean;
  /**
   * verify_cell_kzg_proof_batch: cell i (2048 bytes) is column `cellIndices[i]` of the extended blob of
   * `commitments[i]`, with `proofs[i]` (EIP-7594's universal verification equation; `true` for none).
   */
  verifyCellKzgProofBatch(commitments: Uint8Array[], cellIndices: number[], cells: Uint8Array[], proofs: Uint8Array[]): boolean;
}

/**
 * The verifiers of a Kzg (part of Kzg): as KzgVerifySync, returning promises. Inputs are read and
 * copied before the promise is returned (buffers may be refilled at once); calls may be in flight
 * together with every other call of the curve.
 *
 * @example
 * ```ts
 * import { loadKzg, BYTES_PER_BLOB } from 'pippin/kzg';
 * const kzg = await loadKzg();
 * const blob = new Uint8Array(BYTES_PER_BLOB);
 * blob[63] = 2;
 * const [cells, proofs] = await kzg.computeCellsAndKzgProofs(blob);
 * const commitment = await kzg.blobToKzgCommitment(blob);
 * const ok = await kzg.verifyCellKzgProofBatch([commitment, commitment], [5, 77], [cells[5], cells[77]], [proofs[5], proofs[77]]);
 * const swapped = await kzg.verifyCellKzgProofBatch([commitment], [5], [cells[5]], [proofs[77]]);
 * console.log(ok, swapped); // → true false
 * kzg.dispose();
 * ```
 */
export interface KzgVerify {
  /** verify_kzg_proof (KzgVerifySync.verifyKzgProof). */
  verifyKzgProof(commitment: Uint8Array, z: Uint8Array, y: Uint8Array, proof: Uint8Array): Promise<boolean>;
  /** verify_blob_kzg_proof (KzgVerifySync.verifyBlobKzgProof). */
  verifyBlobKzgProof(blob: Uint8Array, commitment: Uint8Array, proof: Uint8Array): Promise<boolean>;
  /** verify_blob_kzg_proof_batch (KzgVerifySync.verifyBlobKzgProofBatch). */
  verifyBlobKzgProofBatch(blobs: Uint8Array[], commitments: Uint8Array[], proofs: Uint8Array[]): Promise<boolean>;
  /** verify_cell_kzg_proof_batch (KzgVerifySync.verifyCellKzgProofBatch). */
  verifyCellKzgProofBatch(commitments: Uint8Array[], cellIndices: number[], cells: Uint8Array[], proofs: Uint8Array[]): Promise<boolean>;
}

/** What the verifiers keep of the setup: the first 64 G1 monomial points, [τ]₂ and [τ⁶⁴]₂ (compressed). */
export interface VerifySetup {
  g1Monomial64: Uint8Array;
  g2Tau: Uint8Array;
  g2Tau64: Uint8Array;
}

/** The parts of a setup the verifiers read (copies: the setup text's bytes are not kept). */
export function verifySetupOf(setup: SetupBytes): VerifySetup {
  return {
    g1Monomial64: setup.g1Monomial.slice(0, CELL_ELEMENTS * G1_BYTES),
    g2Tau: setup.g2Monomial.slice(96, 192),
    g2Tau64: setup.g2Monomial.slice(96 * CELL_ELEMENTS, 96 * (CELL_ELEMENTS + 1)),
  };
}

// ------------------------------------------------------------------ inputs, checked and copied at the call

/** verifyKzgProof's inputs, copied. */
export interface KzgProofInput {
  commitment: Uint8Array;
  z: Uint8Array;
  y: Uint8Array;
  proof: Uint8Array;
}
/** verifyBlobKzgProof(Batch)'s inputs, copied. */
export interface BlobProofsInput {
  blobs: Uint8Array[];
  commitments: Uint8Array[];
  proofs: Uint8Array[];
}
/** verifyCellKzgProofBatch's inputs, copied. */
export interface CellProofsInput {
  commitments: Uint8Array[];
  cellIndices: number[];
  cells: Uint8Array[];
  proofs: Uint8Array[];
}

function bytesOf(v: unknown, size: number, entry: string, what: string, index = -1): Uint8Array {
  if (!(v instanceof Uint8Array) || v.length !== size) {
    throw new LengthMismatchError(`${entry}: ${what} is ${size} bytes, got ${v instanceof Uint8Array ? `${v.length} bytes` : describeValue(v)}`, index);
  }
  return copyBytes(v);
}

function arrayOf(v: unknown, entry: string, what: string): readonly unknown[] {
  if (!Array.isArray(v)) throw new LengthMismatchError(`${entry}: ${what} must be an array, got ${describeValue(v)}`);
  return v;
}

export function takeKzgProof(entry: string, commitment: unknown, z: unknown, y: unknown, proof: unknown): KzgProofInput {
  return { commitment: bytesOf(commitment, G1_BYTES, entry, 'the commitment'), z: bytesOf(z, 32, entry, 'z'), y: bytesOf(y, 32, entry, 'y'), proof: bytesOf(proof, G1_BYTES, entry, 'the proof') };
}

export function takeBlobProof(entry: string, blob: unknown, commitment: unknown, proof: unknown): BlobProofsInput {
  return { blobs: [bytesOf(blob, BLOB_BYTES, entry, 'a blob')], commitments: [bytesOf(commitment, G1_BYTES, entry, 'the commitment')], proofs: [bytesOf(proof, G1_BYTES, entry, 'the proof')] };
}

/** c-kzg's order: three arrays of one length, then per index the blob, commitment and proof sizes. */
export function takeBlobProofs(entry: string, blobs: unknown, commitments: unknown, proofs: unknown): BlobProofsInput {
  const [b, c, p] = [arrayOf(blobs, entry, 'blobs'), arrayOf(commitments, entry, 'commitments'), arrayOf(proofs, entry, 'proofs')];
  if (c.length !== b.length || p.length !== b.length) throw new LengthMismatchError(`${entry}: ${b.length} blobs, ${c.length} commitments and ${p.length} proofs (one of each per blob)`);
  const out: BlobProofsInput = { blobs: [], commitments: [], proofs: [] };
  for (let i = 0; i < b.length; i++) {
    out.blobs.push(bytesOf(b[i], BLOB_BYTES, entry, `blob ${i}`, i));
    out.commitments.push(bytesOf(c[i], G1_BYTES, entry, `commitment ${i}`, i));
    out.proofs.push(bytesOf(p[i], G1_BYTES, entry, `proof ${i}`, i));
  }
  return out;
}

/** c-kzg's order: four arrays of one length, then per cell its commitment, index, cell and proof; then the indices' range. */
export function takeCellProofs(entry: string, commitments: unknown, cellIndices: unknown, cells: unknown, proofs: unknown): CellProofsInput {
  const [c, k, x, p] = [arrayOf(commitments, entry, 'commitments'), arrayOf(cellIndices, entry, 'cellIndices'), arrayOf(cells, entry, 'cells'), arrayOf(proofs, entry, 'proofs')];
  const n = x.length;
  if (c.length !== n || k.length !== n || p.length !== n) throw new LengthMismatchError(`${entry}: ${c.length} commitments, ${k.length} cell indices, ${n} cells and ${p.length} proofs (one of each per cell)`);
  const out: CellProofsInput = { commitments: [], cellIndices: [], cells: [], proofs: [] };
  for (let i = 0; i < n; i++) {
    out.commitments.push(bytesOf(c[i], G1_BYTES, entry, `commitment ${i}`, i));
    const index = k[i];
    if (typeof index !== 'number' || !Number.isInteger(index)) throw new CellIndexError(`${entry}: cell index ${i} is not an integer: ${describeValue(index)}`, i);
    out.cellIndices.push(index);
    out.cells.push(bytesOf(x[i], CELL_BYTES, entry, `cell ${i}`, i));
    out.proofs.push(bytesOf(p[i], G1_BYTES, entry, `proof ${i}`, i));
  }
  out.cellIndices.forEach((index, i) => {
    if (index < 0 || index >= CELLS) throw new CellIndexError(`${entry}: cell index ${i} is ${index}, not below ${CELLS}`, i);
  });
  return out;
}

// ------------------------------------------------------------------ the verifier of one Kzg

type G1In = { x: bigint; y: bigint } | null;

/** The F_r tables of the Kzg (its twiddles, and the blob's evaluation points at `roots`). */
export type VerifyFrTables = Twiddles & { roots: number };

const { G1 } = bls12_381Curve.params;
const P = bls12_381Curve.params.p;
/** 1/4096 in F_r. */
const INV_BLOB_SIZE = fr.inv(BigInt(FIELD_ELEMENTS_PER_BLOB));
const u64 = (out: Uint8Array, at: number, v: number) => new DataView(out.buffer, out.byteOffset).setBigUint64(at, BigInt(v));
const ascii = (s: string) => new TextEncoder().encode(s);
const neg = (Q: G1In): G1In => (Q === null ? null : { x: Q.x, y: Q.y === 0n ? 0n : P - Q.y });
const affine = (Q: G1Affine): G1In => (Q.infinity ? null : { x: Q.x, y: Q.y });
const frBytes = (v: bigint) => fr.toBytesBE(v);

/** The scalar of a SHA-256 digest: the 32 bytes read big-endian, reduced mod r (c-kzg's hash_to_bls_field). */
const digestToField = (digest: Uint8Array): bigint => fr.fromBytesBE(digest) % fr.R;
const hashToField = (bytes: Uint8Array): bigint => digestToField(sha256(bytes));

/** r⁰, r¹, …, r^(n−1). */
function powers(r: bigint, n: number): bigint[] {
  const out = new Array<bigint>(n);
  let acc = 1n;
  for (let i = 0; i < n; i++) {
    out[i] = acc;
    acc = fr.mul(acc, r);
  }
  return out;
}

/** EIP-4844's challenge input of (blob, commitment): FSBLOBVERIFY_V1_ ‖ 4096 as 16 bytes BE ‖ blob ‖ commitment. */
function blobChallengeInput(blob: Uint8Array, commitment: Uint8Array): Uint8Array {
  const input = new Uint8Array(32 + BLOB_BYTES + G1_BYTES);
  input.set(ascii('FSBLOBVERIFY_V1_'));
  u64(input, 24, FIELD_ELEMENTS_PER_BLOB);
  input.set(blob, 32);
  input.set(commitment, 32 + BLOB_BYTES);
  return input;
}

/** EIP-4844's challenge of (blob, commitment): the SHA-256 of its input, mod r. */
export function blobChallenge(blob: Uint8Array, commitment: Uint8Array): bigint {
  return hashToField(blobChallengeInput(blob, commitment));
}

/**
 * c-kzg's transcript of a cell batch — RCKZGCBATCH__V1_ ‖ 64 ‖ #commitments ‖ #cells (8 bytes BE
 * each) ‖ the distinct commitments ‖ per cell its row ‖ index ‖ cell ‖ proof — with the distinct
 * commitments (by bytes, first-seen order) and each cell's row among them.
 */
function cellTranscript({ commitments, cellIndices, cells, proofs }: CellProofsInput): { t: Uint8Array; unique: Uint8Array[]; rows: number[] } {
  const rowOf = new Map<string, number>();
  const unique: Uint8Array[] = [];
  const rows = commitments.map((c) => {
    const key = String.fromCharCode(...c);
    let row = rowOf.get(key);
    if (row === undefined) {
      row = unique.length;
      rowOf.set(key, row);
      unique.push(c);
    }
    return row;
  });
  const n = cells.length;
  const m = unique.length;
  const per = 16 + CELL_BYTES + G1_BYTES;
  const t = new Uint8Array(40 + m * G1_BYTES + n * per);
  t.set(ascii('RCKZGCBATCH__V1_'));
  u64(t, 16, CELL_ELEMENTS);
  u64(t, 24, m);
  u64(t, 32, n);
  unique.forEach((c, i) => t.set(c, 40 + i * G1_BYTES));
  for (let k = 0, at = 40 + m * G1_BYTES; k < n; k++, at += per) {
    u64(t, at, rows[k]);
    u64(t, at + 8, cellIndices[k]);
    t.set(cells[k], at + 16);
    t.set(proofs[k], at + 16 + CELL_BYTES);
  }
  return { t, unique, rows };
}

/**
 * The SHA-256 inputs of a verification that depend on its arguments alone, in the order its
 * `digests` parameter takes their digests (the async methods hash them first where SHA-256 is not
 * native: sha256All). Blob proofs: each blob's challenge input; cells: the transcript (none for no cells).
 */
export const blobDigestInputs = ({ blobs, commitments }: BlobProofsInput): Uint8Array[] => blobs.map((b, i) => blobChallengeInput(b, commitments[i]));
export const cellDigestInputs = (args: CellProofsInput): Uint8Array[] => (args.cells.length ? [cellTranscript(args).t] : []);

export class KzgVerifier {
  private readonly pairing: Pairing;
  private readonly g2One: PreparedG2;
  private readonly g2Tau: PreparedG2;
  private readonly g2Tau64: PreparedG2;
  /** the first 64 monomial points τ^i·G (the interpolant's commitment), 96-byte zcash encodings */
  private readonly monomial = new Uint8Array(CELL_ELEMENTS * ZCASH_BYTES);

  constructor(
    private readonly ctx: GroupContext<G1AffineValue>,
    private readonly frTables: VerifyFrTables,
    setup: VerifySetup,
  ) {
    this.pairing = new Pairing(ctx, bls12_381G2.pairing!);
    const g2 = (bytes: Uint8Array) => {
      const Q = bls12_381.g2.msmSync(bytes, [1n], { pointFormat: 'zcash-compressed', validate: 'full' });
      return this.pairing.prepareG2(Q.infinity ? null : { x: Q.x, y: Q.y });
    };
    this.g2One = this.pairing.prepareG2(bls12_381G2.G2);
    this.g2Tau = g2(setup.g2Tau);
    this.g2Tau64 = g2(setup.g2Tau64);
    this.withMemory(() => {
      const batch = new AffineBatch(ctx, bls12_381Curve.params);
      const pts = batch.points(CELL_ELEMENTS);
      batch.decode(setup.g1Monomial64, CELL_ELEMENTS, FORMAT_COMPRESSED, CHECK.onCurve, pts, 'setup: G1 monomial point');
      this.encodeZcash(pts, CELL_ELEMENTS, this.monomial, 0);
    });
  }

  private withMemory<T>(f: () => T): T {
    const { arena } = this.ctx.inst;
    const mark = arena.mark();
    try {
      return f();
    } finally {
      arena.release(mark);
    }
  }

  /** count compressed points (c-kzg's rule: on the curve and in G1, or infinity) as affine bigints; typed errors name `what` and the index. */
  private decode(bytes: Uint8Array, count: number, what: string, check: number = CHECK.subgroup): G1In[] {
    const batch = new AffineBatch(this.ctx, bls12_381Curve.params);
    const pts = batch.points(count);
    batch.decode(bytes, count, FORMAT_COMPRESSED, check, pts, what);
    const fp = this.ctx.inst.fields.fp;
    const out: G1In[] = [];
    for (let i = 0; i < count; i++) out.push(pts.inf[i] ? null : { x: fp.read(pts.base + i * pts.stride), y: fp.read(pts.base + i * pts.stride + this.ctx.EB) });
    return out;
  }

  /**
   * The points of `list` (compressed, c-kzg's rule as decode) re-encoded uncompressed (96-byte zcash,
   * the MSM's cheapest input: no square root, no bigints) into `out` from byte `at`: decoded with the
   * curve check, then the subgroup check of msm's 'full' validation (src/msm/convert.ts: the exact
   * test in batches of points — g1_subgroup_check_batch from 40 points, ≈ 4% less than one test a
   * point — or the batched random check from the tuning's subgroupBatchFrom; the lowest bad index
   * wins, whatever its error).
   */
  private decodeInto(list: readonly Uint8Array[], what: string, out: Uint8Array, at: number): void {
    const n = list.length;
    const all = new Uint8Array(n * G1_BYTES);
    list.forEach((b, i) => all.set(b, i * G1_BYTES));
    const { inst, EB } = this.ctx;
    const regions = { points: inst.arena.alloc(Math.max(16, 2 * EB * n), 16), inf: inst.arena.alloc(Math.max(16, n), 16), scalars: 0 };
    try {
      runSync(inst, convertProgram(this.ctx, { kind: 'bytes', bytes: all, format: COMPRESSED }, n, regions, 1, 0, 'full'));
    } catch (e) {
      // the same error, named as decode names it: "point i …" → "`what` i …"
      if (!(e instanceof PippinError) || e.index < 0 || !e.message.startsWith('point ')) throw e;
      throw new (e.constructor as typeof PippinError)(`${what} ${e.message.slice(6)}`, e.index);
    }
    this.encodeZcash({ base: regions.points, stride: 2 * EB, inf: new Uint8Array(inst.memory.buffer, regions.inf, n).slice() }, n, out, at);
  }

  /** Points 0…n−1 of `pts` as 96-byte zcash encodings into `out` from byte `at` (g1_encode). */
  private encodeZcash(pts: Points, n: number, out: Uint8Array, at: number): void {
    const { inst } = this.ctx;
    const dst = inst.arena.alloc(ZCASH_BYTES * n + 16, 16);
    const scratch = inst.arena.alloc(Math.max(16, this.ctx.scratch.encode), 16);
    for (let i = 0; i < n; i++) inst.k.g1_encode(dst + ZCASH_BYTES * i, pts.base + i * pts.stride, pts.inf[i], FORMAT_ZCASH, scratch);
    out.set(new Uint8Array(inst.memory.buffer, dst, ZCASH_BYTES * n), at);
  }

  /** Σ sᵢ·Pᵢ over 96-byte zcash encodings and 32-byte big-endian scalars (pippin's MSM on the calling thread; the points already validated). */
  private msmZcash(points: Uint8Array, scalars: Uint8Array): G1In {
    return affine(bls12_381.g1.msmSync(points, scalars, { pointFormat: 'zcash', validate: 'none', scalarEndian: 'be' }));
  }

  /** Σ sᵢ·Pᵢ (pippin's MSM on the calling thread; the points already validated). */
  private msm(points: readonly G1In[], scalars: readonly bigint[]): G1In {
    return affine(bls12_381.g1.msmSync(points, scalars, { validate: 'none' }));
  }

  /** e(A, [1]₂)·e(−B, Q) = 1. */
  private check(A: G1In, B: G1In, Q: PreparedG2): boolean {
    return this.pairing.pairingCheck([
      [A, this.g2One],
      [neg(B), Q],
    ]);
  }

  /** verify_kzg_proof: the commitment, z, y and the proof as c-kzg reads them (in that order), then one check. */
  kzgProof(entry: string, { commitment, z, y, proof }: KzgProofInput): boolean {
    return this.withMemory(() => {
      const [C] = this.decode(commitment, 1, `${entry}: commitment`);
      const zv = fieldElement(z, entry, 'z');
      const yv = fieldElement(y, entry, 'y');
      const [pi] = this.decode(proof, 1, `${entry}: proof`);
      return this.check(this.msm([C, G1, pi], [1n, fr.sub(0n, yv), zv]), pi, this.g2Tau);
    });
  }

  /**
   * verify_blob_kzg_proof (n = 1) and verify_blob_kzg_proof_batch: per blob its commitment, field
   * elements and proof as c-kzg reads them. `digests`: the SHA-256 of blobDigestInputs(args), when
   * already computed.
   */
  blobProofs(entry: string, { blobs, commitments, proofs }: BlobProofsInput, digests?: readonly Uint8Array[]): boolean {
    const n = blobs.length;
    if (n === 0) return true;
    return this.withMemory(() => {
      const F = new FrWasm(arenaHost(this.ctx.inst), this.frTables);
      const Cs: G1In[] = [];
      const pis: G1In[] = [];
      const zs: bigint[] = [];
      const ys: bigint[] = [];
      for (let i = 0; i < n; i++) {
        const which = n === 1 ? '' : ` ${i}`;
        Cs.push(this.decode(commitments[i], 1, `${entry}: commitment${which}`)[0]);
        const poly = F.work('poly', FIELD_ELEMENTS_PER_BLOB);
        F.fromBytesBERaw(poly, blobs[i], FIELD_ELEMENTS_PER_BLOB, `${entry}: blob${which} field element`);
        pis.push(this.decode(proofs[i], 1, `${entry}: proof${which}`)[0]);
        zs.push(digests ? digestToField(digests[i]) : blobChallenge(blobs[i], commitments[i]));
        ys.push(this.evaluate(F, poly, zs[i]));
      }
      if (n === 1) return this.check(this.msm([Cs[0], G1, pis[0]], [1n, fr.sub(0n, ys[0]), zs[0]]), pis[0], this.g2Tau);
      // c-kzg's transcript: RCKZGBATCH___V1_ ‖ 4096 ‖ n (8 bytes BE each) ‖ per blob C ‖ z ‖ y ‖ π
      const t = new Uint8Array(32 + n * (2 * G1_BYTES + 64));
      t.set(ascii('RCKZGBATCH___V1_'));
      u64(t, 16, FIELD_ELEMENTS_PER_BLOB);
      u64(t, 24, n);
      for (let i = 0, at = 32; i < n; i++, at += 2 * G1_BYTES + 64) {
        t.set(commitments[i], at);
        t.set(frBytes(zs[i]), at + G1_BYTES);
        t.set(frBytes(ys[i]), at + G1_BYTES + 32);
        t.set(proofs[i], at + G1_BYTES + 64);
      }
      const rs = powers(hashToField(t), n);
      let ySum = 0n;
      for (let i = 0; i < n; i++) ySum = fr.add(ySum, fr.mul(rs[i], ys[i]));
      // Σ rⁱ(Cᵢ − yᵢ·G + zᵢ·πᵢ) and Σ rⁱ·πᵢ
      const lhs = this.msm([...Cs, G1, ...pis], [...rs, fr.sub(0n, ySum), ...rs.map((r, i) => fr.mul(r, zs[i]))]);
      return this.check(lhs, this.msm(pis, rs), this.g2Tau);
    });
  }

  /**
   * p(z) for the blob polynomial in evaluation form at `poly` (unconverted: F.fromBytesBERaw, so the
   * elements are pᵢ·R⁻¹ and every value below, linear in them, is R⁻¹ times its true value until the
   * one product by R at the end; overwritten), by folding (FRI's fold with z as the challenge): with
   * the values in natural order (one bit reversal), a_i at ω_M^i, i < M, the pairs at ±ω_M^i give the
   * M/2 values a'_i = (a_i + a_{i+M/2}) + Z·ω_M^−i·(a_i − a_{i+M/2}) of 2·(p_e + Z·p_o) at ω_{M/2}^i
   * (p(x) = p_e(x²) + x·p_o(x²)), Z ← Z², from Z = z and M = 4096 down to one value, 4096·p(z). No
   * inverse and no case for z in the domain. Products: 2 per pair (Z·ω_M^−i by fr_powers, then one
   * product), 8190 in all.
   */
  private evaluate(F: FrWasm, poly: number, z: bigint): bigint {
    const n = FIELD_ELEMENTS_PER_BLOB;
    const roots = fr.roots(); // ω^i, ω the 8192nd root
    F.bitReverse(poly, n);
    const t = F.work('fold twiddles', n / 2);
    const d = F.work('fold differences', n / 2);
    let Z = z;
    for (let M = n; M > 1; M >>= 1) {
      const h = M / 2;
      const hi = F.at(poly, h);
      F.powers(t, Z, roots[fr.EXT_DOMAIN - fr.EXT_DOMAIN / M], h); // Z·ω_M^−i
      F.sub(d, poly, hi, h);
      F.add(poly, poly, hi, h);
      F.mul(d, d, t, h);
      F.add(poly, poly, d, h);
      Z = fr.mul(Z, Z);
    }
    return fr.mul(F.get(poly), fr.mul(F.montgomeryR % fr.R, INV_BLOB_SIZE));
  }

  /**
   * verify_cell_kzg_proof_batch (the indices already checked at the call): proofs, then commitments,
   * then cells' field elements, as c-kzg reads them. `digests`: the SHA-256 of cellDigestInputs(args),
   * when already computed.
   */
  cellProofs(entry: string, args: CellProofsInput, digests?: readonly Uint8Array[]): boolean {
    const { cellIndices, cells, proofs } = args;
    const n = cells.length;
    if (n === 0) return true;
    return this.withMemory(() => {
      const { t, unique, rows } = cellTranscript(args);
      const m = unique.length;
      const r = digests ? digestToField(digests[0]) : hashToField(t);
      const rs = powers(r, n);
      // the sum's points, zcash-encoded: the distinct commitments, the 64 monomial points, the proofs
      const points = new Uint8Array((m + CELL_ELEMENTS + n) * ZCASH_BYTES);
      const at = (m + CELL_ELEMENTS) * ZCASH_BYTES;
      this.decodeInto(proofs, `${entry}: proof`, points, at);
      this.decodeInto(unique, `${entry}: commitment`, points, 0);
      points.set(this.monomial, m * ZCASH_BYTES);
      const weights = new Array<bigint>(m).fill(0n);
      rows.forEach((row, k) => (weights[row] = fr.add(weights[row], rs[k])));
      // the scalars as 32-byte big-endian encodings (no bigint conversion in the MSM): the rows'
      // weights, −I's coefficients, then r^k·h_k⁶⁴ made on the fr_* kernels, h_k⁶⁴ = ω^(64·rbl(k)) of a
      // table of the 128th roots
      const scalars = new Uint8Array((m + CELL_ELEMENTS + n) * 32);
      weights.forEach((w, i) => scalars.set(fr.toBytesBE(w), 32 * i));
      scalars.set(this.interpolant(entry, rs, cellIndices, cells), 32 * m);
      const F = new FrWasm(arenaHost(this.ctx.inst), this.frTables);
      const rv = F.work('r powers', n);
      F.powers(rv, 1n, r, n);
      const h64 = F.work('128th roots', CELLS);
      F.powers(h64, 1n, fr.roots()[CELL_ELEMENTS], CELLS);
      const pw = F.work('proof weights', n);
      const mem = F.mem;
      cellIndices.forEach((index, k) => {
        const from = F.at(h64, fr.reverseBits(index, 7));
        mem.copyWithin(F.at(pw, k), from, from + F.EB);
      });
      F.mul(pw, pw, rv, n);
      scalars.set(F.toBytesBE(pw, n), 32 * (m + CELL_ELEMENTS));
      const lhs = this.msmZcash(points, scalars);
      return this.check(lhs, this.msmZcash(points.subarray(at), F.toBytesBE(rv, n)), this.g2Tau64);
    });
  }

  /**
   * −I's 64 monomial coefficients (32-byte big-endian encodings), I = Σ_k r^k·I_k: the cells of each
   * column read unconverted (F.fromBytesBERaw: the elements v·R⁻¹) and, for a column of several cells, weighted and summed
   * (fr_* vector kernels); then per column used one inverse FFT of 64 (the column is in bit-reversed
   * order: decimation in time takes it as it is) and the shift by h⁻¹, with −1/64, R and the weight of
   * a column's only cell folded into the powers' first term, summed. Products per cell of a column of
   * one: 192 (FFT) + 64 (powers) + 64 (shift); + 64 per cell of a column of several.
   */
  private interpolant(entry: string, rs: readonly bigint[], cellIndices: readonly number[], cells: readonly Uint8Array[]): Uint8Array {
    const F = new FrWasm(arenaHost(this.ctx.inst), this.frTables);
    const cols = F.work('columns', CELLS * CELL_ELEMENTS);
    const cell = F.work('cell', CELL_ELEMENTS);
    // per column: undefined (unused), its only cell's weight r^k (the column holds the raw cell), or 1n (already weighted)
    const weight = new Array<bigint | undefined>(CELLS);
    cells.forEach((bytes, k) => {
      const i = cellIndices[k];
      const col = F.at(cols, CELL_ELEMENTS * i);
      const what = `${entry}: cell ${k} field element`;
      const w = weight[i];
      if (w === undefined) {
        F.fromBytesBERaw(col, bytes, CELL_ELEMENTS, what);
        weight[i] = rs[k];
        return;
      }
      if (w !== 1n) F.scale(col, col, w, CELL_ELEMENTS);
      F.fromBytesBERaw(cell, bytes, CELL_ELEMENTS, what);
      F.scale(cell, cell, rs[k], CELL_ELEMENTS);
      F.add(col, col, cell, CELL_ELEMENTS);
      weight[i] = 1n;
    });
    const sum = F.work('interpolant', CELL_ELEMENTS);
    let first = true;
    const roots = fr.roots();
    const minusRInv64 = fr.mul(F.montgomeryR % fr.R, fr.sub(0n, fr.inv(BigInt(CELL_ELEMENTS))));
    for (let i = 0; i < CELLS; i++) {
      const w = weight[i];
      if (w === undefined) continue;
      const col = F.at(cols, CELL_ELEMENTS * i);
      F.fft(col, CELL_ELEMENTS, { dif: false, inverse: true });
      // h_i = ω^rbl(i), h_i⁻¹ = ω^(8192 − rbl(i))
      F.shiftPowers(col, CELL_ELEMENTS, roots[fr.EXT_DOMAIN - fr.reverseBits(i, 7)], fr.mul(minusRInv64, w));
      if (first) F.mem.copyWithin(sum, col, col + CELL_ELEMENTS * F.EB);
      else F.add(sum, sum, col, CELL_ELEMENTS);
      first = false;
    }
    return F.toBytesBE(sum, CELL_ELEMENTS);
  }
}

function fieldElement(bytes: Uint8Array, entry: string, name: string): bigint {
  const v = fr.fromBytesBE(bytes);
  if (v >= fr.R) throw new ScalarEncodingError(`${entry}: ${name} is not below the scalar field's modulus r`);
  return v;
}
