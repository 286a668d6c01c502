/**
 * `pippin/kzg`: EIP-4844 and EIP-7594 (PeerDAS) — commitments, KZG proofs, blob
 * proofs, cells and cell proofs, their recovery from half the cells — byte for byte equal to
 * c-kzg-4844, on pippin's MSMs; and the verifiers (KzgVerify, on pippin's pairing) and ethereumjs's
 * KZG (toEthereumjsKzg). docs/kzg.md has the algorithms, memory and figures.
 *
 * @module pippin/kzg
 * @example
 * ```ts
 * import { loadKzg, BYTES_PER_BLOB } from 'pippin/kzg';
 * const kzg = await loadKzg(); // the official setup, decoded and validated once
 * const blob = new Uint8Array(BYTES_PER_BLOB); // 4096 field elements, 32 bytes big-endian each, < r
 * blob[31] = 1; // element 0 = 1
 * const commitment = await kzg.blobToKzgCommitment(blob);
 * const proof = await kzg.computeBlobKzgProof(blob, commitment);
 * console.log(commitment.length, proof.length); // → 48 48
 * kzg.dispose();
 * ```
 */
import { bls12_381, type PreparedBases } from '../index.js';
import { DisposedError, LengthMismatchError, NotInSubgroupError, NotOnCurveError, PointEncodingError, ScalarEncodingError } from '../errors.js';
import { groupContextOf } from '../api/group.js';
import { describeValue, optionBoolean, optionChoice, optionError, optionInteger, optionObject, optionThreads, optionValue, takeOptionBag } from '../api/option-kit.js';
import { enqueue, rejecting, runProgram, runSync, type PhaseProgram } from '../msm/call.js';
import { copyBytes } from '../msm/convert.js';
import { AffineBatch, CHECK, FORMAT_COMPRESSED, type Points } from '../msm/affine-batch.js';
import type { G1Twiddles } from '../msm/g1-fft.js';
import type { RowTable } from '../msm/fixed-base.js';
import type { G1AffineValue, GroupContext } from '../msm/group.js';
import type { Instance } from '../runtime/instance.js';
import { bls12_381Curve } from '../curves/bls12-381.js';
import * as fr from './fr.js';
import { sha256, sha256All, sha256IsNative } from './sha256.js';
import { BYTES_PER_G1, FIELD_ELEMENTS_PER_BLOB, TrustedSetupError, parseTrustedSetup, type SetupBytes } from './setup.js';
import { buildFk20Table, extDomainTwiddles, fk20TableBytes, proofsProgram, type ColumnSource } from './fk20.js';
import { FrWasm, arenaHost, twiddleBytes, type Twiddles } from './fr-wasm.js';
import { R_BYTES, checkCanonical } from './canonical.js';
import { recoverCoefficients, recoveredCells, takeCells, type TakenCells } from './recovery.js';
import { KzgVerifier, blobDigestInputs, cellDigestInputs, takeBlobProof, takeBlobProofs, takeCellProofs, takeKzgProof, verifySetupOf, type KzgVerify, type KzgVerifySync, type VerifySetup } from './verify.js';

export { TrustedSetupError } from './setup.js';
export { CellIndexError, type KzgVerify, type KzgVerifySync } from './verify.js';
export { toEthereumjsKzg, type EthereumjsKzg } from './ethereumjs.js';
export { FIELD_ELEMENTS_PER_BLOB } from './setup.js';
/**
 * Bytes of one field element of a blob or cell: 32, big-endian, below the BLS12-381 scalar field's r.
 *
 * @example
 * ```ts
 * import { BYTES_PER_FIELD_ELEMENT, FIELD_ELEMENTS_PER_BLOB } from 'pippin/kzg';
 * console.log(BYTES_PER_FIELD_ELEMENT * FIELD_ELEMENTS_PER_BLOB); // → 131072
 * ```
 */
export const BYTES_PER_FIELD_ELEMENT = 32;
/**
 * Bytes of a blob: 131072 (4096 field elements).
 *
 * @example
 * ```ts
 * import { BYTES_PER_BLOB } from 'pippin/kzg';
 * const blob = new Uint8Array(BYTES_PER_BLOB);
 * console.log(blob.length); // → 131072
 * ```
 */
export const BYTES_PER_BLOB = FIELD_ELEMENTS_PER_BLOB * BYTES_PER_FIELD_ELEMENT;
/**
 * Bytes of a commitment: 48 (a compressed G1 point).
 *
 * @example
 * ```ts
 * import { BYTES_PER_COMMITMENT } from 'pippin/kzg';
 * console.log(BYTES_PER_COMMITMENT); // → 48
 * ```
 */
export const BYTES_PER_COMMITMENT = 48;
/**
 * Bytes of a proof: 48 (a compressed G1 point).
 *
 * @example
 * ```ts
 * import { BYTES_PER_PROOF } from 'pippin/kzg';
 * console.log(BYTES_PER_PROOF); // → 48
 * ```
 */
export const BYTES_PER_PROOF = 48;
/**
 * Field elements per cell (EIP-7594): 64.
 *
 * @example
 * ```ts
 * import { FIELD_ELEMENTS_PER_CELL, CELLS_PER_EXT_BLOB, FIELD_ELEMENTS_PER_BLOB } from 'pippin/kzg';
 * console.log(FIELD_ELEMENTS_PER_CELL * CELLS_PER_EXT_BLOB === 2 * FIELD_ELEMENTS_PER_BLOB); // → true
 * ```
 */
export const FIELD_ELEMENTS_PER_CELL = 64;
/**
 * Bytes of a cell: 2048.
 *
 * @example
 * ```ts
 * import { BYTES_PER_CELL } from 'pippin/kzg';
 * console.log(BYTES_PER_CELL); // → 2048
 * ```
 */
export const BYTES_PER_CELL = FIELD_ELEMENTS_PER_CELL * BYTES_PER_FIELD_ELEMENT;
/**
 * Cells of an extended blob (EIP-7594): 128.
 *
 * @example
 * ```ts
 * import { CELLS_PER_EXT_BLOB } from 'pippin/kzg';
 * console.log(CELLS_PER_EXT_BLOB); // → 128
 * ```
 */
export const CELLS_PER_EXT_BLOB = 128;

/**
 * Options of `loadKzg`; every field is optional. Unknown names, wrong types and values out of range
 * reject with InvalidOptionError.
 *
 * @example
 * ```ts
 * import { loadKzg, type LoadKzgOptions } from 'pippin/kzg';
 * const options: LoadKzgOptions = { threads: 1, tables: { maxBytes: 16 * 2 ** 20 } };
 * const kzg = await loadKzg(options);
 * console.log(kzg.bytes.lagrangeTable > 0, kzg.bytes.fk20); // → true 0
 * kzg.dispose();
 * ```
 */
export interface LoadKzgOptions {
  /** c-kzg's trusted_setup.txt text (default: the official Ethereum setup shipped with pippin). */
  setup?: string;
  /**
   * At most this many threads (default: every worker of pippin's pool, see startThreads): the
   * commitment and proof MSMs, and FK20's row MSMs (the calling thread takes a share).
   */
  threads?: number;
  /**
   * Fixed-base table of the Lagrange points (commitments, KZG proofs; pippin's `prepare`
   * precompute): `false` (default) = none, `true` = up to 64 MiB (8.1 MiB: c = 13), `{ maxBytes }`
   * = that budget. It makes the load slower (its build) and commitments faster.
   */
  tables?:
    | boolean
    | {
        /** the most bytes the table may take */
        maxBytes: number;
      };
  /**
   * When FK20's tables (21.7 MiB; computeCellsAndKzgProofs) are built: `'first-use'` (default) at the
   * first computeCellsAndKzgProofs, so EIP-4844-only use never pays for them; `'load'` in loadKzg.
   */
  fk20?: 'first-use' | 'load';
}

/**
 * `kzg.sync`: the operations of a Kzg on the calling thread, returning bytes (not promises). Errors
 * are thrown as the async methods reject.
 *
 * @example
 * ```ts
 * import { loadKzg, BYTES_PER_BLOB } from 'pippin/kzg';
 * const kzg = await loadKzg();
 * const blob = new Uint8Array(BYTES_PER_BLOB);
 * blob[31] = 7;
 * const { blobToKzgCommitment, computeBlobKzgProof } = kzg.sync; // bound: viem's defineKzg takes them so
 * const commitment = blobToKzgCommitment(blob);
 * const proof = computeBlobKzgProof(blob, commitment);
 * const same = (await kzg.computeBlobKzgProof(blob, commitment)).every((b, i) => b === proof[i]);
 * console.log(commitment.length, same); // → 48 true
 * kzg.dispose();
 * ```
 */
export interface KzgSync extends KzgVerifySync {
  /** blob_to_kzg_commitment */
  blobToKzgCommitment(blob: Uint8Array): Uint8Array;
  /** compute_kzg_proof: [proof, y] */
  computeKzgProof(blob: Uint8Array, z: Uint8Array): [Uint8Array, Uint8Array];
  /** compute_blob_kzg_proof */
  computeBlobKzgProof(blob: Uint8Array, commitment: Uint8Array): Uint8Array;
  /** compute_cells */
  computeCells(blob: Uint8Array): Uint8Array[];
  /**
   * compute_cells_and_kzg_proofs. Builds FK20's tables first if no call did (≈ 1 s, once; while an
   * asynchronous call of the curve is in flight they are built for this call only).
   */
  computeCellsAndKzgProofs(blob: Uint8Array): [Uint8Array[], Uint8Array[]];
  /** recover_cells_and_kzg_proofs (builds FK20's tables first if no call did, as computeCellsAndKzgProofs). */
  recoverCellsAndKzgProofs(cellIndices: readonly number[], cells: readonly Uint8Array[]): [Uint8Array[], Uint8Array[]];
}

/**
 * A loaded setup's operations (`await loadKzg()`), as c-kzg names them. Every method rejects with
 * LengthMismatchError for a blob (or commitment, z) of the wrong length, ScalarEncodingError (its
 * index) for a field element ≥ r, DisposedError after `dispose()`. Every input is read before the
 * method returns its promise (the caller may reuse its buffers at once); every result is a new
 * array. Calls may run at the same time, on one Kzg or several.
 *
 * @example
 * ```ts
 * import { loadKzg, BYTES_PER_BLOB, CELLS_PER_EXT_BLOB, type Kzg } from 'pippin/kzg';
 * const kzg: Kzg = await loadKzg();
 * const blob = new Uint8Array(BYTES_PER_BLOB); // the zero polynomial
 * const commitment = await kzg.blobToKzgCommitment(blob);
 * console.log(commitment[0].toString(16), commitment.slice(1).every((b) => b === 0)); // → c0 true
 * const z = new Uint8Array(32);
 * z[31] = 5;
 * const [proof, y] = await kzg.computeKzgProof(blob, z);
 * console.log(proof.length, y.every((b) => b === 0)); // → 48 true
 * const [cells, proofs] = await kzg.computeCellsAndKzgProofs(blob);
 * console.log(cells.length === CELLS_PER_EXT_BLOB, proofs.length); // → true 128
 * kzg.dispose();
 * ```
 */
export interface Kzg extends KzgVerify {
  /** blob_to_kzg_commitment: the 48-byte compressed commitment. */
  blobToKzgCommitment(blob: Uint8Array): Promise<Uint8Array>;
  /** compute_kzg_proof: [proof (48 bytes), y = p(z) (32 bytes big-endian)] for the 32-byte big-endian z < r. */
  computeKzgProof(blob: Uint8Array, z: Uint8Array): Promise<[Uint8Array, Uint8Array]>;
  /** compute_blob_kzg_proof: the proof at the EIP-4844 Fiat–Shamir challenge of (blob, commitment). */
  computeBlobKzgProof(blob: Uint8Array, commitment: Uint8Array): Promise<Uint8Array>;
  /** compute_cells: the 128 cells (2048 bytes each) of the extended blob, in c-kzg's order. */
  computeCells(blob: Uint8Array): Promise<Uint8Array[]>;
  /** compute_cells_and_kzg_proofs: the cells and their 128 proofs (FK20). */
  computeCellsAndKzgProofs(blob: Uint8Array): Promise<[Uint8Array[], Uint8Array[]]>;
  /**
   * recover_cells_and_kzg_proofs: all 128 cells, in index order, and their proofs from any 64 or
   * more cells of one extended blob (`cells[k]` is cell `cellIndices[k]`; any order). The indices
   * are numbers in 0…127 (truncated to integers, as c-kzg casts them), none twice; every cell 2048
   * bytes of field elements below r. Rejects as c-kzg 4.1.0 throws: LengthMismatchError (arrays of
   * different lengths, fewer than 64 or more than 128 cells, a cell of another size: its position),
   * ScalarEncodingError (an index that is not a number or not in 0…127, a repeated index, a field
   * element ≥ r: the position k in the arrays). With all 128 cells they are returned as given.
   *
   * @example
   * ```ts
   * import { loadKzg, BYTES_PER_BLOB } from 'pippin/kzg';
   * const kzg = await loadKzg();
   * const blob = new Uint8Array(BYTES_PER_BLOB);
   * blob[31] = 1;
   * const [cells, proofs] = await kzg.computeCellsAndKzgProofs(blob);
   * const odd = cells.map((_, i) => i).filter((i) => i % 2 === 1); // 64 of the 128 cells
   * const [all, allProofs] = await kzg.recoverCellsAndKzgProofs(odd, odd.map((i) => cells[i]));
   * console.log(all[0].every((b, j) => b === cells[0][j]), allProofs[0].every((b, j) => b === proofs[0][j])); // → true true
   * kzg.dispose();
   * ```
   */
  recoverCellsAndKzgProofs(cellIndices: readonly number[], cells: readonly Uint8Array[]): Promise<[Uint8Array[], Uint8Array[]]>;
  /**
   * The same operations on the calling thread, synchronously: c-kzg's names, results byte for byte
   * equal to the async ones. For libraries that call KZG synchronously: viem (`defineKzg(kzg.sync)`)
   * and ethers (`tx.kzg = kzg.sync`). The methods are bound (they may be passed alone). They block
   * the thread while they run (docs/kzg.md: their cost).
   */
  readonly sync: KzgSync;
  /** Wasm memory held (prepared Lagrange points, their table, FK20 tables once built, F_r tables), bytes. */
  readonly bytes: {
    /** the prepared Lagrange points */
    lagrange: number;
    /** their fixed-base table (`tables`), 0 without one */
    lagrangeTable: number;
    /** FK20's tables, 0 until built */
    fk20: number;
    /** F_r's twiddle and evaluation-point tables (each call's work arrays are taken and released within the call) */
    fr: number;
  };
  /** Releases the Wasm memory (after the calls already made); later calls throw DisposedError. Idempotent. */
  dispose(): void;
}


const DEFAULT_TABLE_BYTES = 64 * 2 ** 20;
const OPTION_NAMES = Object.freeze(['setup', 'threads', 'tables', 'fk20'] as const);
const FK20_WHEN = Object.freeze(['first-use', 'load'] as const);

interface ParsedOptions {
  setup: string | undefined;
  threads: number | undefined;
  /** the Lagrange table's budget, 0: none */
  tableBytes: number;
  fk20: (typeof FK20_WHEN)[number];
}

/** loadKzg's options through the toolkit (src/api/option-kit.ts): own keys only, null a wrong value, each of its type and range. */
function parseOptions(options: unknown): ParsedOptions {
  const bag = takeOptionBag(options, 'loadKzg', OPTION_NAMES);
  const setup = optionValue(bag, 'setup');
  if (setup !== undefined && typeof setup !== 'string') throw optionError(bag, 'setup', setup, "the text of c-kzg's trusted_setup.txt (a string)");
  const tablesAllowed = 'true, false or { maxBytes } with a non-negative integer';
  const tables = typeof optionValue(bag, 'tables') === 'boolean' ? optionBoolean(bag, 'tables') : optionObject(bag, 'tables', ['maxBytes'] as const, (inner) => optionInteger(inner, 'maxBytes', 0, Number.MAX_SAFE_INTEGER), tablesAllowed);
  if (tables === undefined && optionValue(bag, 'tables') !== undefined) throw optionError(bag, 'tables', optionValue(bag, 'tables'), tablesAllowed);
  return {
    setup,
    threads: optionThreads(bag, 'threads'),
    tableBytes: tables === true ? DEFAULT_TABLE_BYTES : typeof tables === 'number' ? tables : 0,
    fk20: optionChoice(bag, 'fk20', FK20_WHEN) ?? 'first-use',
  };
}

/** A point error of the setup (PointEncodingError, NotOnCurveError, NotInSubgroupError) as a TrustedSetupError naming the point. */
function setupPointError(e: unknown, what: string, index: (i: number) => number = (i) => i): unknown {
  if (!(e instanceof PointEncodingError || e instanceof NotOnCurveError || e instanceof NotInSubgroupError)) return e;
  const i = e.index >= 0 ? index(e.index) : -1;
  return new TrustedSetupError(`trusted setup: ${what} ${i}: ${e.message}`, i);
}

/**
 * Loads a trusted setup: parsed, every point decompressed and checked (Lagrange points on the
 * curve and in G1; monomial points and the G2 points on their curves, as c-kzg checks them), the
 * Lagrange points prepared in bit-reversed order for the commitments, F_r's tables made, FK20's
 * tables built (`fk20: 'load'`). Rejects with InvalidOptionError for bad options, TrustedSetupError
 * for a malformed setup or a bad point in it (its index).
 *
 * @example
 * ```ts
 * import { loadKzg, BYTES_PER_BLOB } from 'pippin/kzg';
 * const kzg = await loadKzg(); // or loadKzg({ setup: text }) with c-kzg's trusted_setup.txt
 * const cells = await kzg.computeCells(new Uint8Array(BYTES_PER_BLOB));
 * console.log(cells.length, cells[0].length); // → 128 2048
 * kzg.dispose();
 * ```
 */
export async function loadKzg(options?: LoadKzgOptions): Promise<Kzg> {
  const opts = parseOptions(options);
  const custom = opts.setup !== undefined;
  const setup = parseTrustedSetup(opts.setup ?? (await import('./trusted-setup.js')).TRUSTED_SETUP_TEXT);
  // the official setup's FK20 columns ship with pippin (loaded here, decoded when the tables are built)
  const columns: ColumnSource = custom ? { kind: 'monomial', bytes: setup.g1Monomial.slice() } : { kind: 'shipped', base64: (await import('./fk20-columns.js')).FK20_COLUMNS_BASE64 };
  await bls12_381.init();
  const ctx = groupContextOf<G1AffineValue>(bls12_381.g1);
  const { inst } = ctx;
  checkMonomial(ctx, setup.g1Monomial);
  await checkG2(setup);
  let bases: PreparedBases;
  try {
    bases = await bls12_381.g1.prepare(bitReversed(setup.g1Lagrange, BYTES_PER_G1), { pointFormat: 'zcash-compressed', validate: 'full', threads: opts.threads, precompute: { maxBytes: opts.tableBytes } });
  } catch (e) {
    throw setupPointError(e, 'G1 Lagrange point', (i) => fr.reverseBits(i, 12));
  }
  try {
    const kzg = await enqueue(inst, async () => new KzgImpl(ctx, inst, bases, makeFrTables(inst), columns, opts.threads));
    kzg.verifySetup = verifySetupOf(setup);
    if (opts.fk20 === 'load') await kzg.fk20Table('loadKzg');
    return kzg;
  } catch (e) {
    bases.dispose();
    throw e;
  }
}

/** c-kzg's check of the monomial points: each decompresses onto the curve (arena memory, released). */
function checkMonomial(ctx: GroupContext<G1AffineValue>, bytes: Uint8Array): void {
  const { arena } = ctx.inst;
  const mark = arena.mark();
  try {
    const batch = new AffineBatch(ctx, bls12_381Curve.params);
    batch.decode(bytes, FIELD_ELEMENTS_PER_BLOB, FORMAT_COMPRESSED, CHECK.onCurve, batch.points(FIELD_ELEMENTS_PER_BLOB), 'point');
  } catch (e) {
    throw setupPointError(e, 'G1 monomial point');
  } finally {
    arena.release(mark);
  }
}

/** F_r's tables of a Kzg, pinned: the twiddles ω^±i and the blob's evaluation points ω₄₀₉₆^brp(i). */
interface FrTables extends Twiddles {
  block: number;
  bytes: number;
  /** the evaluation points (c-kzg's brp_roots_of_unity[i], i < 4096), Montgomery form */
  roots: number;
}

/** Makes F_r's tables in a pinned block (the caller holds the instance's turn). */
function makeFrTables(inst: Instance): FrTables {
  const EB = inst.fields.fr.info.elementBytes;
  const bytes = twiddleBytes(EB) + FIELD_ELEMENTS_PER_BLOB * EB;
  const block = inst.arena.allocPinned(bytes);
  const mark = inst.arena.mark();
  try {
    const F = new FrWasm(arenaHost(inst));
    const twiddles = F.makeTwiddles(block);
    const roots = block + twiddleBytes(EB);
    const rs = fr.roots();
    // ω₄₀₉₆^brp(i) = ω^(2·brp(i))
    F.setAll(roots, Array.from({ length: FIELD_ELEMENTS_PER_BLOB }, (_, i) => rs[2 * fr.reverseBits(i, 12)]));
    return { ...twiddles, block, bytes, roots };
  } finally {
    inst.arena.release(mark);
  }
}

async function checkG2(setup: SetupBytes): Promise<void> {
  const n = setup.g2Monomial.length / 96;
  try {
    await bls12_381.g2.msm(setup.g2Monomial, new Array<bigint>(n).fill(0n), { pointFormat: 'zcash-compressed', validate: 'on-curve' });
  } catch (e) {
    throw setupPointError(e, 'G2 point');
  }
}

/** Records of `size` bytes in bit-reversed order. */
function bitReversed(bytes: Uint8Array, size: number): Uint8Array {
  const count = bytes.length / size;
  const bits = Math.log2(count);
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < count; i++) {
    const j = fr.reverseBits(i, bits);
    out.set(bytes.subarray(j * size, (j + 1) * size), i * size);
  }
  return out;
}

/**
 * A blob's field elements (bit-reversed evaluation order) in Montgomery form in F's work array
 * 'poly' (fr_from_bytes_be_batch); ScalarEncodingError with the index of the first element ≥ r.
 */
function blobToFr(F: FrWasm, blob: Uint8Array, entry: string): number {
  checkBlobLength(blob, entry);
  const poly = F.work('poly', FIELD_ELEMENTS_PER_BLOB);
  F.fromBytesBE(poly, blob, FIELD_ELEMENTS_PER_BLOB, `${entry}: blob field element`);
  return poly;
}

function checkBlobLength(blob: Uint8Array, entry: string): void {
  if (!(blob instanceof Uint8Array) || blob.length !== BYTES_PER_BLOB) {
    throw new LengthMismatchError(`${entry}: a blob is ${BYTES_PER_BLOB} bytes, got ${blob instanceof Uint8Array ? `${blob.length} bytes` : describeValue(blob)}`);
  }
}

/** The blob's length, and every element below r (only elements whose first byte is ≥ r's are compared in full). */
function checkBlob(blob: Uint8Array, entry: string): void {
  checkBlobLength(blob, entry);
  for (let i = 0; i < FIELD_ELEMENTS_PER_BLOB; i++) if (blob[i * 32] >= R_BYTES[0]) checkCanonical(blob, i * 32, `${entry}: blob field element ${i}`, i);
}

function fieldElement(bytes: Uint8Array, entry: string, name: string): bigint {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) throw new LengthMismatchError(`${entry}: ${name} is 32 bytes, got ${bytes instanceof Uint8Array ? bytes.length : describeValue(bytes)}`);
  checkCanonical(bytes, 0, `${entry}: ${name}`, -1);
  return fr.fromBytesBE(bytes);
}

const FK20_TWIDDLES = extDomainTwiddles(bls12_381Curve.params);

/** FK20's row table in a pinned block of the instance. */
interface Fk20Table {
  block: number;
  bytes: number;
  table: RowTable;
}

/**
 * A Kzg on the curve's instance. Per-call state lives in the arena from the call's start to its end
 * (synchronous work at the call, or an enqueued program); the object holds only what every call
 * reads: the prepared Lagrange points, F_r's tables and FK20's table (pinned blocks, freed when the
 * last call made before dispose() ends).
 */
class KzgImpl implements Kzg {
  private disposed = false;
  /** calls made and not ended (and a table build): the pinned blocks are freed when the last one ends after dispose() */
  private pending = 0;
  private fk20?: Fk20Table;
  private fk20Building?: Promise<Fk20Table>;
  readonly sync: KzgSync;

  constructor(
    private readonly ctx: GroupContext<G1AffineValue>,
    private readonly inst: Instance,
    private readonly bases: PreparedBases,
    private readonly frTables: FrTables,
    private readonly columns: ColumnSource,
    private readonly threads: number | undefined,
  ) {
    this.sync = Object.freeze({
      blobToKzgCommitment: (blob: Uint8Array) => this.work('blobToKzgCommitment', () => this.commitSync(this.takeBlob(blob, 'blobToKzgCommitment'))),
      computeKzgProof: (blob: Uint8Array, z: Uint8Array): [Uint8Array, Uint8Array] => {
        const [scalars, y] = this.kzgProofScalars(blob, z);
        return [this.work('computeKzgProof', () => this.commitSync(scalars)), y];
      },
      computeBlobKzgProof: (blob: Uint8Array, commitment: Uint8Array) => {
        const scalars = this.blobProofScalars(blob, commitment);
        return this.work('computeBlobKzgProof', () => this.commitSync(scalars));
      },
      computeCells: (blob: Uint8Array) => this.cellsOnly(blob),
      computeCellsAndKzgProofs: (blob: Uint8Array): [Uint8Array[], Uint8Array[]] => {
        const entry = 'computeCellsAndKzgProofs';
        this.live(entry);
        checkBlob(blob, entry);
        return this.withTableSync(entry, (rows) => this.cellsProgram(blob, rows, 1));
      },
      recoverCellsAndKzgProofs: (cellIndices: readonly number[], cells: readonly Uint8Array[]): [Uint8Array[], Uint8Array[]] => {
        const entry = 'recoverCellsAndKzgProofs';
        this.live(entry);
        const taken = takeCells(cellIndices, cells, entry);
        return this.withTableSync(entry, (rows) => this.recoverProgram(taken, rows, 1));
      },
      ...this.verifySync(),
    });
  }

  /** A synchronous call needing FK20's table: the pinned one, or one built for this call (in its arena memory). */
  private withTableSync<T>(entry: string, program: (rows: RowTable) => PhaseProgram<T>): T {
    return this.work(entry, () => {
      const table = this.fk20TableNow();
      const { arena } = this.inst;
      const mark = arena.mark();
      try {
        const rows = table ?? this.buildTable(arena.alloc(fk20TableBytes(this.ctx.EB)));
        return runSync(this.inst, program(rows));
      } finally {
        arena.release(mark);
      }
    });
  }

  get bytes(): Kzg['bytes'] {
    const gone = this.disposed || this.inst.released;
    const table = this.bases.precomputed?.bytes ?? 0;
    return { lagrange: gone ? 0 : this.bases.bytes - table, lagrangeTable: gone ? 0 : table, fk20: gone ? 0 : this.fk20?.bytes ?? 0, fr: gone ? 0 : this.frTables.bytes };
  }

  /** DisposedError after dispose() or the curve's release(). */
  private live(entry: string): void {
    if (this.disposed) throw new DisposedError(`kzg.${entry}: this Kzg was disposed`);
    this.present(entry);
  }

  /** DisposedError after the curve's release() (calls made before dispose() still run). */
  private present(entry: string): void {
    if (this.inst.released || this.ctx.inst !== this.inst) throw new DisposedError(`kzg.${entry}: the curve was released (bls12_381.release()), which disposed this Kzg; load it again`);
  }

  /** Runs f as one call: counted in `pending` while it runs (its result settles it when a promise). */
  private work<T>(entry: string, f: () => T): T {
    this.live(entry);
    this.pending++;
    let result: T;
    try {
      result = f();
    } catch (e) {
      this.settle();
      throw e;
    }
    if (result instanceof Promise) return result.finally(() => this.settle()) as T;
    this.settle();
    return result;
  }

  private settle(): void {
    this.pending--;
    if (this.disposed && this.pending === 0) this.free();
  }

  /** Synchronous F_r work of one call in the arena (released before returning). */
  private withFr<T>(entry: string, f: (F: FrWasm) => T): T {
    return this.work(entry, () => {
      const { arena } = this.inst;
      const mark = arena.mark();
      try {
        return f(new FrWasm(arenaHost(this.inst), this.frTables));
      } finally {
        arena.release(mark);
      }
    });
  }

  private takeBlob(blob: Uint8Array, entry: string): Uint8Array {
    this.live(entry);
    checkBlob(blob, entry);
    return copyBytes(blob);
  }

  private commit(scalars: Uint8Array): Promise<Uint8Array> {
    return this.bases.msm(scalars, { scalarEndian: 'be', threads: this.threads }).then((point) => bls12_381.g1.toBytes(point, 'zcash-compressed'));
  }

  private commitSync(scalars: Uint8Array): Uint8Array {
    return bls12_381.g1.toBytes(this.bases.msmSync(scalars, { scalarEndian: 'be' }), 'zcash-compressed');
  }

  /** compute_kzg_proof without its MSM: the quotient's scalars and y, from the inputs as they are now. */
  private kzgProofScalars(blob: Uint8Array, z: Uint8Array): [Uint8Array, Uint8Array] {
    const entry = 'computeKzgProof';
    return this.withFr(entry, (F) => {
      const poly = blobToFr(F, blob, entry);
      const [scalars, y] = this.quotient(F, poly, fieldElement(z, entry, 'z'));
      return [scalars, fr.toBytesBE(y)];
    });
  }

  /** compute_blob_kzg_proof without its MSM: the commitment checked, the quotient's scalars at the challenge. */
  private blobProofScalars(blob: Uint8Array, commitment: Uint8Array): Uint8Array {
    const entry = 'computeBlobKzgProof';
    return this.withFr(entry, (F) => {
      if (!(commitment instanceof Uint8Array) || commitment.length !== BYTES_PER_COMMITMENT) {
        throw new LengthMismatchError(`${entry}: a commitment is ${BYTES_PER_COMMITMENT} bytes, got ${commitment instanceof Uint8Array ? commitment.length : describeValue(commitment)}`);
      }
      // as c-kzg: the commitment must be a G1 point (or infinity), checked before the blob
      const batch = new AffineBatch(this.ctx, bls12_381Curve.params);
      batch.decode(commitment, 1, FORMAT_COMPRESSED, CHECK.subgroup, batch.points(1), `${entry}: commitment`);
      const poly = blobToFr(F, blob, entry);
      // EIP-4844's challenge: SHA-256(FSBLOBVERIFY_V1_ ‖ 16-byte big-endian 4096 ‖ blob ‖ commitment) mod r
      const input = new Uint8Array(16 + 16 + BYTES_PER_BLOB + BYTES_PER_COMMITMENT);
      input.set(new TextEncoder().encode('FSBLOBVERIFY_V1_'));
      new DataView(input.buffer).setUint32(28, FIELD_ELEMENTS_PER_BLOB);
      input.set(blob, 32);
      input.set(commitment, 32 + BYTES_PER_BLOB);
      const z = fr.fromBytesBE(sha256(input)) % fr.R;
      return this.quotient(F, poly, z)[0];
    });
  }

  blobToKzgCommitment(blob: Uint8Array): Promise<Uint8Array> {
    return rejecting(() => this.work('blobToKzgCommitment', () => this.commit(this.takeBlob(blob, 'blobToKzgCommitment'))));
  }

  computeKzgProof(blob: Uint8Array, z: Uint8Array): Promise<[Uint8Array, Uint8Array]> {
    return rejecting(() => {
      const [scalars, y] = this.kzgProofScalars(blob, z);
      return this.work('computeKzgProof', () => this.commit(scalars).then((proof): [Uint8Array, Uint8Array] => [proof, y]));
    });
  }

  computeBlobKzgProof(blob: Uint8Array, commitment: Uint8Array): Promise<Uint8Array> {
    return rejecting(() => {
      const scalars = this.blobProofScalars(blob, commitment);
      return this.work('computeBlobKzgProof', () => this.commit(scalars));
    });
  }

  computeCells(blob: Uint8Array): Promise<Uint8Array[]> {
    return rejecting(() => Promise.resolve(this.cellsOnly(blob)));
  }

  computeCellsAndKzgProofs(blob: Uint8Array): Promise<[Uint8Array[], Uint8Array[]]> {
    const entry = 'computeCellsAndKzgProofs';
    return rejecting(() => {
      // the blob's errors before FK20's tables are built; the blob copied at the call
      const copy = this.takeBlob(blob, entry);
      return this.withTable(entry, (table, threads) => this.cellsProgram(copy, table, threads));
    });
  }

  recoverCellsAndKzgProofs(cellIndices: readonly number[], cells: readonly Uint8Array[]): Promise<[Uint8Array[], Uint8Array[]]> {
    const entry = 'recoverCellsAndKzgProofs';
    return rejecting(() => {
      this.live(entry);
      // the inputs' errors before FK20's tables are built; the cells copied at the call
      const taken = takeCells(cellIndices, cells, entry);
      return this.withTable(entry, (table, threads) => this.recoverProgram(taken, table, threads));
    });
  }

  /** An asynchronous call needing FK20's table: its program in a turn of the instance's queue, once the table is built. */
  private withTable<T>(entry: string, program: (table: RowTable, threads: number) => PhaseProgram<T>): Promise<T> {
    return this.work(entry, async () => {
      const { table } = await this.fk20Table(entry);
      this.present(entry);
      return enqueue(this.inst, () => runProgram(this.inst, (threads) => program(table, threads), FIELD_ELEMENTS_PER_BLOB * 2, this.threads, undefined));
    });
  }

  /**
   * compute_kzg_proof_impl without its MSM: y = p(z) by the barycentric formula over the blob's
   * domain, and the quotient q(X) = (p(X) − y)/(X − z) in evaluation form (at a domain point
   * z = ω_m: q_m from the other quotients, as c-kzg), as 32-byte big-endian scalars for the
   * Lagrange points. On F_r's kernels (poly: Montgomery elements), synchronous: two passes of
   * vec_sub_scalar, a batch inversion, three of vec_mul, one dot (≈ 6·4096 products; at a domain
   * point a second batch inversion and dot).
   */
  private quotient(F: FrWasm, poly: number, z: bigint): [Uint8Array, bigint] {
    const n = FIELD_ELEMENTS_PER_BLOB;
    const w = this.frTables.roots;
    const m = domainIndex(z);
    const den = F.work('den', n);
    const q = F.work('quot', n);
    const s = F.work('values', 3);
    const [zAt, yAt, tmp] = [s, F.at(s, 1), F.at(s, 2)];
    F.set(zAt, z);
    F.k.fr_vec_sub_scalar(den, w, zAt, n); // ω_i − z
    let y: bigint;
    if (m < 0) {
      F.batchInv(den, den, n);
      // p(z) = (z^n − 1)/n · Σ p_i·ω_i/(z − ω_i)
      F.k.fr_vec_mul(q, w, den, n);
      F.dot(tmp, poly, q, n);
      const sum = F.get(tmp);
      y = fr.mul(fr.mul(fr.sub(0n, sum), fr.inv(BigInt(n))), fr.sub(fr.pow(z, BigInt(n)), 1n));
    } else {
      y = F.get(F.at(poly, m));
      F.k.fr_set_one(F.at(den, m));
      F.batchInv(den, den, n);
    }
    F.set(yAt, y);
    F.k.fr_vec_sub_scalar(q, poly, yAt, n); // p_i − y (0 at i = m)
    if (m >= 0) {
      // q_m = Σ_{i≠m} (p_i − y)·ω_i / (z·(z − ω_i)); the term i = m is 0 since p_m = y
      const den2 = F.work('den2', n);
      const num = F.work('num', n);
      F.k.fr_vec_sub_scalar(den2, w, zAt, n);
      F.set(tmp, fr.sub(0n, z));
      F.k.fr_vec_scale(den2, den2, tmp, n); // (ω_i − z)·(−z)
      F.k.fr_set_one(F.at(den2, m));
      F.batchInv(den2, den2, n);
      F.k.fr_vec_mul(num, q, w, n);
      F.dot(tmp, num, den2, n);
    }
    F.k.fr_vec_mul(q, q, den, n); // (p_i − y)/(ω_i − z)
    if (m >= 0) F.k.fr_copy(F.at(q, m), tmp);
    return [F.toBytesBE(q, n), y];
  }

  /** compute_cells, synchronously (also the async method's work: ≈ 10 ms of F_r kernels). */
  private cellsOnly(blob: Uint8Array): Uint8Array[] {
    const entry = 'computeCells';
    return this.withFr(entry, (F) => {
      const poly = blobToFr(F, blob, entry);
      const coeffs = F.work('coeffs', FIELD_ELEMENTS_PER_BLOB);
      F.monomial(coeffs, poly);
      return cellsOf(F, blob, coeffs);
    });
  }

  /** compute_cells_and_kzg_proofs as a program (F_r work before its first yield, then FK20's proofs); in the arena, released at its end. */
  private *cellsProgram(blob: Uint8Array, table: RowTable, threads: number): PhaseProgram<[Uint8Array[], Uint8Array[]]> {
    const { arena } = this.inst;
    const mark = arena.mark();
    try {
      const F = new FrWasm(arenaHost(this.inst), this.frTables);
      const poly = blobToFr(F, blob, 'computeCellsAndKzgProofs');
      const coeffs = F.work('coeffs', FIELD_ELEMENTS_PER_BLOB);
      F.monomial(coeffs, poly);
      const cells = cellsOf(F, blob, coeffs);
      const proofs = yield* proofsProgram(this.ctx, bls12_381Curve.params, FK20_TWIDDLES, table, F, coeffs, threads);
      return [cells, proofs];
    } finally {
      arena.release(mark);
    }
  }

  /** recover_cells_and_kzg_proofs as a program: the coefficients and cells (F_r), then FK20's proofs of the first 4096 coefficients (c-kzg's). */
  private *recoverProgram(taken: TakenCells, table: RowTable, threads: number): PhaseProgram<[Uint8Array[], Uint8Array[]]> {
    const { arena } = this.inst;
    const mark = arena.mark();
    try {
      const F = new FrWasm(arenaHost(this.inst), this.frTables);
      // the first 128 evaluation points are ω₁₂₈^brp(c), c < 128
      const coeffs = recoverCoefficients(F, taken, this.frTables.roots);
      const cells = recoveredCells(F, taken, coeffs);
      const proofs = yield* proofsProgram(this.ctx, bls12_381Curve.params, FK20_TWIDDLES, table, F, coeffs, threads);
      return [cells, proofs];
    } finally {
      arena.release(mark);
    }
  }

  /** Builds FK20's row table at ptr (the caller holds the memory: pinned, or arena for one call). */
  private buildTable(ptr: number): RowTable {
    const { arena } = this.inst;
    const mark = arena.mark();
    try {
      return buildFk20Table(this.ctx, bls12_381Curve.params, FK20_TWIDDLES, this.columns, ptr);
    } catch (e) {
      throw this.columns.kind === 'monomial' ? setupPointError(e, 'G1 monomial point') : e;
    } finally {
      arena.release(mark);
    }
  }

  /** Builds and pins FK20's table (the caller holds the instance's turn, or no call is in flight). */
  private pinTable(): Fk20Table {
    const bytes = fk20TableBytes(this.ctx.EB);
    const block = this.inst.arena.allocPinned(bytes);
    try {
      this.fk20 = { block, bytes, table: this.buildTable(block) };
      return this.fk20;
    } catch (e) {
      this.inst.arena.freePinned(block);
      throw e;
    }
  }

  /** FK20's table now for a synchronous call: the pinned one (built here when the arena allows), else undefined. */
  private fk20TableNow(): RowTable | undefined {
    if (this.fk20) return this.fk20.table;
    if (!this.inst.arena.canPin(fk20TableBytes(this.ctx.EB))) return undefined;
    return this.pinTable().table;
  }

  /** FK20's table, built once in a turn of the instance's queue (at the first cells proof, or in loadKzg with fk20: 'load'). */
  fk20Table(entry: string): Promise<Fk20Table> {
    if (this.fk20) return Promise.resolve(this.fk20);
    this.fk20Building ??= this.work(entry, () =>
      enqueue(this.inst, async () => {
        this.present(entry);
        return this.fk20 ?? this.pinTable();
      }),
    ).finally(() => (this.fk20Building = undefined));
    return this.fk20Building;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.bases.dispose();
    if (this.pending === 0) this.free();
  }

  private free(): void {
    if (this.inst.released) return; // the memory went with the instance
    const { arena } = this.inst;
    arena.freePinned(this.frTables.block);
    if (this.fk20) arena.freePinned(this.fk20.block);
    this.fk20 = undefined;
  }

  // ---------------------------------------------------------------- verification (src/kzg/verify.ts)
  /** the setup's parts the verifiers read (set by loadKzg); the verifier is made at the first verification */
  verifySetup?: VerifySetup;
  private verifierMade?: KzgVerifier;

  private get verifier(): KzgVerifier {
    return (this.verifierMade ??= new KzgVerifier(this.ctx, this.frTables, this.verifySetup!));
  }

  /**
   * One verification: inputs taken (checked, copied) now; the check synchronously, or in a turn of
   * the curve's queue — there, where SHA-256 is not native (browsers), after Web Crypto's digests of
   * the inputs `digestInputs` names (sha256All).
   */
  private verifyCall<A>(entry: string, take: () => A, run: (v: KzgVerifier, args: A, digests?: readonly Uint8Array[]) => boolean, async: boolean, digestInputs?: (args: A) => Uint8Array[]): boolean | Promise<boolean> {
    this.live(entry);
    const args = take();
    if (!async) return this.work(entry, () => run(this.verifier, args));
    return this.work(entry, async () => {
      const digests = digestInputs && !sha256IsNative ? await sha256All(digestInputs(args)) : undefined;
      return enqueue(this.inst, async () => {
        this.present(entry);
        return run(this.verifier, args, digests);
      });
    });
  }

  private verifySync(): KzgVerifySync {
    const e = ['verifyKzgProof', 'verifyBlobKzgProof', 'verifyBlobKzgProofBatch', 'verifyCellKzgProofBatch'] as const;
    const call = (async: boolean) => ({
      verifyKzgProof: (c: Uint8Array, z: Uint8Array, y: Uint8Array, p: Uint8Array) => this.verifyCall(e[0], () => takeKzgProof(e[0], c, z, y, p), (v, a) => v.kzgProof(e[0], a), async),
      verifyBlobKzgProof: (b: Uint8Array, c: Uint8Array, p: Uint8Array) => this.verifyCall(e[1], () => takeBlobProof(e[1], b, c, p), (v, a, d) => v.blobProofs(e[1], a, d), async, blobDigestInputs),
      verifyBlobKzgProofBatch: (b: Uint8Array[], c: Uint8Array[], p: Uint8Array[]) => this.verifyCall(e[2], () => takeBlobProofs(e[2], b, c, p), (v, a, d) => v.blobProofs(e[2], a, d), async, blobDigestInputs),
      verifyCellKzgProofBatch: (c: Uint8Array[], k: number[], x: Uint8Array[], p: Uint8Array[]) => this.verifyCall(e[3], () => takeCellProofs(e[3], c, k, x, p), (v, a, d) => v.cellProofs(e[3], a, d), async, cellDigestInputs),
    });
    this.verifyAsync = call(true) as unknown as KzgVerify;
    return call(false) as KzgVerifySync;
  }
  private verifyAsync!: KzgVerify;

  verifyKzgProof(commitment: Uint8Array, z: Uint8Array, y: Uint8Array, proof: Uint8Array): Promise<boolean> {
    return rejecting(() => this.verifyAsync.verifyKzgProof(commitment, z, y, proof));
  }

  verifyBlobKzgProof(blob: Uint8Array, commitment: Uint8Array, proof: Uint8Array): Promise<boolean> {
    return rejecting(() => this.verifyAsync.verifyBlobKzgProof(blob, commitment, proof));
  }

  verifyBlobKzgProofBatch(blobs: Uint8Array[], commitments: Uint8Array[], proofs: Uint8Array[]): Promise<boolean> {
    return rejecting(() => this.verifyAsync.verifyBlobKzgProofBatch(blobs, commitments, proofs));
  }

  verifyCellKzgProofBatch(commitments: Uint8Array[], cellIndices: number[], cells: Uint8Array[], proofs: Uint8Array[]): Promise<boolean> {
    return rejecting(() => this.verifyAsync.verifyCellKzgProofBatch(commitments, cellIndices, cells, proofs));
  }
}

/** The index of z among the blob's evaluation points, or −1. */
const domainIndex = (() => {
  let index: Map<bigint, number> | undefined;
  return (z: bigint): number => {
    if (!index) {
      const rs = fr.roots();
      index = new Map(Array.from({ length: FIELD_ELEMENTS_PER_BLOB }, (_, i) => [rs[2 * fr.reverseBits(i, 12)], i] as const));
    }
    return index.get(z) ?? -1;
  };
})();

/** The extended blob: copies of the blob (cells 0…63), then the odd evaluations (the coset ω·H, from the coefficients). */
function cellsOf(F: FrWasm, blob: Uint8Array, coeffs: number): Uint8Array[] {
  const n = FIELD_ELEMENTS_PER_BLOB;
  const odd = F.work('coset', n);
  F.coset(odd, coeffs);
  const bytes = F.toBytesBE(odd, n);
  const out: Uint8Array[] = [];
  for (let c = 0; c < CELLS_PER_EXT_BLOB / 2; c++) out.push(copyBytes(blob.subarray(c * BYTES_PER_CELL, (c + 1) * BYTES_PER_CELL)));
  for (let c = 0; c < CELLS_PER_EXT_BLOB / 2; c++) out.push(bytes.slice(c * BYTES_PER_CELL, (c + 1) * BYTES_PER_CELL));
  return out;
}
