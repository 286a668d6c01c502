/**
 * `pippin/kzg`: the prover side of EIP-4844 and EIP-7594 (PeerDAS) — commitments, KZG proofs, blob
 * proofs, cells and cell proofs — byte for byte equal to c-kzg-4844, on pippin's MSMs.
 * Verification (pairings) is not here: verifiers use c-kzg or @noble/curves. docs/kzg.md has the
 * algorithms, memory and figures.
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
import { DisposedError, InvalidOptionError, LengthMismatchError, ScalarEncodingError } from '../errors.js';
import * as fr from './fr.js';
import { sha256 } from './sha256.js';
import { BYTES_PER_G1, FIELD_ELEMENTS_PER_BLOB, TrustedSetupError, parseTrustedSetup, type SetupBytes } from './setup.js';
import { CHECK, FORMAT_COMPRESSED, G1Engine, type Points } from './g1.js';
import { Fk20, buildColumns } from './fk20.js';
import { FrWasm } from './fr-wasm.js';
import { poolForMsm } from '../runtime/pool.js';

export { TrustedSetupError } from './setup.js';
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
 * A loaded setup's operations (`await loadKzg()`), as c-kzg names them. Every method rejects with
 * LengthMismatchError for a blob (or commitment, z) of the wrong length, ScalarEncodingError (its
 * index) for a field element ≥ r, DisposedError after `dispose()`.
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
export interface Kzg {
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
  /** Wasm memory held (prepared Lagrange points, their table, FK20 tables once built, F_r work arrays once used), bytes. */
  readonly bytes: {
    /** the prepared Lagrange points */
    lagrange: number;
    /** their fixed-base table (`tables`), 0 without one */
    lagrangeTable: number;
    /** FK20's tables, 0 until built */
    fk20: number;
    /** F_r on the Wasm kernels: work arrays, twiddle tables and scratch, taken at first use (≈ 2 MiB once every call was made) */
    fr: number;
  };
  /** Releases the prepared points; later calls throw DisposedError. */
  dispose(): void;
}

const DEFAULT_TABLE_BYTES = 64 * 2 ** 20;
const OPTION_NAMES = ['setup', 'threads', 'tables', 'fk20'];

/**
 * Loads a trusted setup: parsed, every G1 point decompressed and checked (Lagrange points on the
 * curve and in G1; monomial points and the G2 points on their curves, as c-kzg checks them), the
 * Lagrange points prepared in bit-reversed order for the commitments, FK20's tables built.
 * Rejects with InvalidOptionError for bad options, TrustedSetupError for a malformed setup or a bad
 * point in it (its index).
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
export async function loadKzg(options: LoadKzgOptions = {}): Promise<Kzg> {
  if (typeof options !== 'object' || options === null) throw new InvalidOptionError('loadKzg: options must be an object', 'options', options);
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) throw new InvalidOptionError(`loadKzg: unknown option ${JSON.stringify(key)} (known: ${OPTION_NAMES.join(', ')})`, key, (options as Record<string, unknown>)[key]);
  }
  const { threads } = options;
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 256)) {
    throw new InvalidOptionError(`loadKzg: option threads must be an integer in 1…256, got ${String(threads)}`, 'threads', threads);
  }
  const tables = options.tables ?? false;
  const when = options.fk20 ?? 'first-use';
  if (when !== 'first-use' && when !== 'load') throw new InvalidOptionError(`loadKzg: option fk20 must be 'first-use' or 'load', got ${String(when)}`, 'fk20', when);
  const precompute = tables === true ? { maxBytes: DEFAULT_TABLE_BYTES } : tables;
  const text = options.setup ?? (await import('./trusted-setup.js')).TRUSTED_SETUP_TEXT;
  const setup = parseTrustedSetup(text);
  await bls12_381.init();
  // on a shared memory unless one thread is asked for: then FK20's rows can go to the worker pool
  const engine = await G1Engine.create(bls12_381.info().backend, threads !== 1);
  // c-kzg's checks: every point decompresses onto its curve; the Lagrange points, which every
  // commitment and proof is made of, are also checked to be in G1 (by prepare, below)
  const monomialPoints = engine.points(FIELD_ELEMENTS_PER_BLOB);
  engine.decode(setup.g1Monomial, FIELD_ELEMENTS_PER_BLOB, FORMAT_COMPRESSED, CHECK.onCurve, monomialPoints, 'trusted setup: G1 monomial point');
  await checkG2(setup);
  let bases: PreparedBases;
  try {
    bases = await bls12_381.g1.prepare(bitReversed(setup.g1Lagrange, BYTES_PER_G1), { pointFormat: 'zcash-compressed', validate: 'full', threads, precompute });
  } catch (e) {
    if (e instanceof Error && 'index' in e) {
      const i = fr.reverseBits((e as { index: number }).index, 12);
      throw new TrustedSetupError(`trusted setup: G1 Lagrange point ${i}: ${e.message}`, i);
    }
    throw e;
  }
  const custom = options.setup !== undefined;
  const makeFk20 = () => (custom ? Promise.resolve(new Fk20(engine, buildColumns(engine, monomialPoints))) : Fk20.fromShipped(engine));
  const kzg = new KzgImpl(bases, engine, makeFk20, threads);
  if (when === 'load') await kzg.fk20();
  return kzg;
}

async function checkG2(setup: SetupBytes): Promise<void> {
  const n = setup.g2Monomial.length / 96;
  try {
    await bls12_381.g2.msm(setup.g2Monomial, new Array<bigint>(n).fill(0n), { pointFormat: 'zcash-compressed', validate: 'on-curve' });
  } catch (e) {
    const i = e instanceof Error && 'index' in e ? (e as { index: number }).index : -1;
    throw new TrustedSetupError(`trusted setup: G2 point ${i}: ${e instanceof Error ? e.message : String(e)}`, i);
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

/** r's 32 big-endian bytes, for the canonical check of blob elements. */
const R_BYTES = fr.toBytesBE(fr.R);

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
    throw new LengthMismatchError(`${entry}: a blob is ${BYTES_PER_BLOB} bytes, got ${blob instanceof Uint8Array ? `${blob.length} bytes` : typeof blob}`);
  }
}

/** The blob's length, and every element below r (only elements whose first byte is ≥ r's are compared in full). */
function checkBlob(blob: Uint8Array, entry: string): void {
  checkBlobLength(blob, entry);
  for (let i = 0; i < FIELD_ELEMENTS_PER_BLOB; i++) if (blob[i * 32] >= R_BYTES[0]) checkCanonical(blob, i * 32, `${entry}: blob field element ${i}`, i);
}

function checkCanonical(bytes: Uint8Array, at: number, what: string, index: number): void {
  for (let b = 0; b < 32; b++) {
    const v = bytes[at + b];
    if (v < R_BYTES[b]) return;
    if (v > R_BYTES[b]) break;
    if (b === 31) break;
  }
  throw new ScalarEncodingError(`${what} is not below the scalar field's modulus r`, index);
}

function fieldElement(bytes: Uint8Array, entry: string, name: string): bigint {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) throw new LengthMismatchError(`${entry}: ${name} is 32 bytes, got ${bytes instanceof Uint8Array ? bytes.length : typeof bytes}`);
  checkCanonical(bytes, 0, `${entry}: ${name}`, -1);
  return fr.fromBytesBE(bytes);
}

class KzgImpl implements Kzg {
  private disposed = false;
  private readonly commitmentSlot: Points;
  private brpRoots: bigint[];
  /** F_r on the engine's kernels (src/kzg/fr-wasm.ts) */
  private readonly F: FrWasm;
  /** brpRoots in Montgomery form on the engine (made at the first proof) */
  private rootsAt?: number;

  constructor(
    private readonly bases: PreparedBases,
    private readonly engine: G1Engine,
    private readonly makeFk20: () => Promise<Fk20>,
    private readonly threads: number | undefined,
  ) {
    this.commitmentSlot = engine.points(1);
    const rs = fr.roots();
    // the blob's evaluation points: ω₄₀₉₆^brp(i) = ω^(2·brp(i)) (c-kzg's brp_roots_of_unity[i], i < 4096)
    this.brpRoots = Array.from({ length: FIELD_ELEMENTS_PER_BLOB }, (_, i) => rs[2 * fr.reverseBits(i, 12)]);
    this.F = FrWasm.of(engine);
  }

  private fk20Built?: Fk20;
  private fk20Building?: Promise<Fk20>;

  /** FK20's tables, built once (at the first cells proof, or in loadKzg with fk20: 'load'). */
  async fk20(): Promise<Fk20> {
    if (this.fk20Built) return this.fk20Built;
    this.fk20Building ??= this.makeFk20().then(
      (f) => (this.fk20Built = f),
      (e: unknown) => {
        this.fk20Building = undefined;
        throw e;
      },
    );
    return this.fk20Building;
  }

  get bytes() {
    return { lagrange: this.disposed ? 0 : this.bases.bytes - (this.bases.precomputed?.bytes ?? 0), lagrangeTable: this.disposed ? 0 : this.bases.precomputed?.bytes ?? 0, fk20: this.disposed ? 0 : this.fk20Built?.bytes ?? 0, fr: this.disposed ? 0 : this.F.bytes };
  }

  private live(entry: string): void {
    if (this.disposed) throw new DisposedError(`kzg.${entry}: this Kzg was disposed`);
  }

  private async commit(scalars: bigint[] | Uint8Array): Promise<Uint8Array> {
    const point = await this.bases.msm(scalars, { scalarEndian: 'be', threads: this.threads });
    return bls12_381.g1.toBytes(point, 'zcash-compressed');
  }

  async blobToKzgCommitment(blob: Uint8Array): Promise<Uint8Array> {
    this.live('blobToKzgCommitment');
    checkBlob(blob, 'blobToKzgCommitment');
    return this.commit(blob);
  }

  async computeKzgProof(blob: Uint8Array, z: Uint8Array): Promise<[Uint8Array, Uint8Array]> {
    this.live('computeKzgProof');
    const poly = blobToFr(this.F, blob, 'computeKzgProof');
    const zf = fieldElement(z, 'computeKzgProof', 'z');
    const [scalars, y] = this.quotient(poly, zf);
    return [await this.commit(scalars), fr.toBytesBE(y)];
  }

  async computeBlobKzgProof(blob: Uint8Array, commitment: Uint8Array): Promise<Uint8Array> {
    this.live('computeBlobKzgProof');
    if (!(commitment instanceof Uint8Array) || commitment.length !== BYTES_PER_COMMITMENT) {
      throw new LengthMismatchError(`computeBlobKzgProof: a commitment is ${BYTES_PER_COMMITMENT} bytes, got ${commitment instanceof Uint8Array ? commitment.length : typeof commitment}`);
    }
    // as c-kzg: the commitment must be a G1 point (or infinity), checked before the blob
    this.engine.decode(commitment, 1, FORMAT_COMPRESSED, CHECK.subgroup, this.commitmentSlot, 'computeBlobKzgProof: commitment');
    const poly = blobToFr(this.F, blob, 'computeBlobKzgProof');
    // EIP-4844's challenge: SHA-256(FSBLOBVERIFY_V1_ ‖ 16-byte big-endian 4096 ‖ blob ‖ commitment) mod r
    const input = new Uint8Array(16 + 16 + BYTES_PER_BLOB + BYTES_PER_COMMITMENT);
    input.set(new TextEncoder().encode('FSBLOBVERIFY_V1_'));
    new DataView(input.buffer).setUint32(28, FIELD_ELEMENTS_PER_BLOB);
    input.set(blob, 32);
    input.set(commitment, 32 + BYTES_PER_BLOB);
    const z = fr.fromBytesBE(sha256(input)) % fr.R;
    return this.commit(this.quotient(poly, z)[0]);
  }

  /**
   * compute_kzg_proof_impl without its MSM: y = p(z) by the barycentric formula over the blob's
   * domain, and the quotient q(X) = (p(X) − y)/(X − z) in evaluation form (at a domain point
   * z = ω_m: q_m from the other quotients, as c-kzg), as 32-byte big-endian scalars for the
   * Lagrange points. On the engine's F_r kernels (poly: Montgomery elements there), synchronous:
   * two passes of vec_sub_scalar, a batch inversion, three of vec_mul, one dot (≈ 6·4096 products;
   * at a domain point a second batch inversion and dot).
   */
  private quotient(poly: number, z: bigint): [Uint8Array, bigint] {
    const { F } = this;
    const n = FIELD_ELEMENTS_PER_BLOB;
    const w = this.roots();
    const m = this.brpRoots.indexOf(z);
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

  /** The blob's evaluation points ω_i (brpRoots) on the engine, made once. */
  private roots(): number {
    if (this.rootsAt === undefined) {
      this.rootsAt = this.F.alloc(FIELD_ELEMENTS_PER_BLOB);
      this.F.setAll(this.rootsAt, this.brpRoots);
    }
    return this.rootsAt;
  }

  async computeCells(blob: Uint8Array): Promise<Uint8Array[]> {
    this.live('computeCells');
    const poly = blobToFr(this.F, blob, 'computeCells');
    const coeffs = this.F.work('coeffs', FIELD_ELEMENTS_PER_BLOB);
    this.F.monomial(coeffs, poly);
    return this.cells(blob, coeffs);
  }

  async computeCellsAndKzgProofs(blob: Uint8Array): Promise<[Uint8Array[], Uint8Array[]]> {
    this.live('computeCellsAndKzgProofs');
    // the blob's errors before FK20's tables are built (the same check fr_from_bytes_be_batch makes)
    checkBlob(blob, 'computeCellsAndKzgProofs');
    const fk20 = await this.fk20();
    this.live('computeCellsAndKzgProofs');
    const pool = this.threads === 1 || !this.engine.inst.shared ? undefined : await poolForMsm();
    const workers = pool ? Math.min(pool.size, (this.threads ?? pool.size + 1) - 1) : 0;
    // from here to fk20.proofs' first await nothing yields: the F_r work arrays are this call's
    const poly = blobToFr(this.F, blob, 'computeCellsAndKzgProofs');
    const coeffs = this.F.work('coeffs', FIELD_ELEMENTS_PER_BLOB);
    this.F.monomial(coeffs, poly);
    const cells = this.cells(blob, coeffs);
    return [cells, await fk20.proofs(coeffs, pool, workers)];
  }

  /** The extended blob: the blob itself (cells 0…63), then the odd evaluations (the coset ω·H, from the coefficients on the engine). */
  private cells(blob: Uint8Array, coeffs: number): Uint8Array[] {
    const n = FIELD_ELEMENTS_PER_BLOB;
    const odd = this.F.work('coset', n);
    this.F.coset(odd, coeffs);
    const bytes = this.F.toBytesBE(odd, n);
    const out: Uint8Array[] = [];
    for (let c = 0; c < CELLS_PER_EXT_BLOB / 2; c++) out.push(blob.slice(c * BYTES_PER_CELL, (c + 1) * BYTES_PER_CELL));
    for (let c = 0; c < CELLS_PER_EXT_BLOB / 2; c++) out.push(bytes.slice(c * BYTES_PER_CELL, (c + 1) * BYTES_PER_CELL));
    return out;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.bases.dispose();
    // FK20's module stays loaded in the pool's workers (with its memory) until the pool stops:
    // evictFromWorkers here keeps a Node process alive after its work (reported, not used)
  }
}
