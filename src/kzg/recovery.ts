/**
 * EIP-7594 cell recovery (recover_cells_and_kzg_proofs): the polynomial of an extended blob from any
 * 64 or more of its 128 cells, on the F_r kernels (src/kzg/fr-wasm.ts). Written from the
 * consensus-specs' description, the same linear map as c-kzg 4.1.0's recover_cells (so the results
 * are c-kzg's also for cells that are no blob's).
 *
 * With E the received evaluations (0 where a cell is missing) and Z the vanishing polynomial of the
 * missing cells' cosets, (E·Z) agrees with (P·Z) on the domain of 8192; P = (E·Z)/Z is divided on
 * the coset 7·⟨ω⟩, where Z has no root. Z(x) = Π_m (x^64 − w_m) with w_m = ω₁₂₈^brp(m), so Z takes
 * one value per cell on the domain (cell c: Π_m (w_c − w_m)) and one per cell-sized block of the
 * coset's bit-reversed evaluations (Π_m (7^64·w_c − w_m)): 128-element products, never the
 * coefficients of Z. Four FFTs of 8192, no permutation: the cells are in bit-reversed order, which is
 * the inverse transform's input (decimation in time) and the forward one's output (decimation in
 * frequency). fr.recoverReference is the bigint reference.
 */
import { LengthMismatchError, ScalarEncodingError } from '../errors.js';
import { CellIndexError } from './verify.js';
import { describeValue } from '../api/option-kit.js';
import * as fr from './fr.js';
import type { FrWasm } from './fr-wasm.js';
import { R_BYTES, checkCanonical } from './canonical.js';

const CELLS = 128;
const CELL_ELEMENTS = 64;
const CELL_BYTES = 32 * CELL_ELEMENTS;
const N = CELLS * CELL_ELEMENTS;
/** c-kzg's coset shift of the division (RECOVERY_SHIFT_FACTOR). */
export const RECOVERY_SHIFT = 7n;

/** Cells taken at the call: their bytes at their index (missing cells zero), and which are present. */
export interface TakenCells {
  /** 128 × 2048 bytes, cell i at i·2048 */
  bytes: Uint8Array;
  /** 1 where the cell was given */
  present: Uint8Array;
  count: number;
}

/**
 * recoverCellsAndKzgProofs' inputs checked where c-kzg 4.1.0 refuses them, in its order, and copied:
 * arrays of equal length; per position k a number index (CellIndexError, index k) and a
 * Uint8Array of 2048 bytes (LengthMismatchError, index k); 64…128 cells (LengthMismatchError);
 * every index, truncated as c-kzg casts it, in 0…127 (CellIndexError, the first such k); then
 * per position k: its index not given before (CellIndexError), its 64 field elements below r (ScalarEncodingError, k).
 */
export function takeCells(cellIndices: unknown, cells: unknown, entry: string): TakenCells {
  if (!Array.isArray(cellIndices)) throw new CellIndexError(`${entry}: cellIndices must be an array of cell indices, got ${describeValue(cellIndices)}`);
  if (!Array.isArray(cells)) throw new LengthMismatchError(`${entry}: cells must be an array of ${CELL_BYTES}-byte cells, got ${describeValue(cells)}`);
  const n = cells.length;
  if (cellIndices.length !== n) throw new LengthMismatchError(`${entry}: ${cellIndices.length} cell indices but ${n} cells`);
  const indices = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const i: unknown = cellIndices[k];
    if (typeof i !== 'number') throw new CellIndexError(`${entry}: cellIndices[${k}] is not a number (got ${describeValue(i)})`, k);
    const cell: unknown = cells[k];
    if (!(cell instanceof Uint8Array) || cell.length !== CELL_BYTES) {
      throw new LengthMismatchError(`${entry}: cells[${k}] must be ${CELL_BYTES} bytes, got ${cell instanceof Uint8Array ? `${cell.length} bytes` : describeValue(cell)}`, k);
    }
    // c-kzg casts the number to an integer (toward zero); out of 0…127 (NaN too) it refuses
    indices[k] = i > -1 && i < CELLS ? Math.trunc(i) : -1;
  }
  if (n > CELLS) throw new LengthMismatchError(`${entry}: at most ${CELLS} cells (one extended blob), got ${n}`);
  if (n < CELLS / 2) throw new LengthMismatchError(`${entry}: recovery needs at least ${CELLS / 2} of the ${CELLS} cells, got ${n}`);
  const bad = indices.indexOf(-1);
  if (bad >= 0) throw new CellIndexError(`${entry}: cellIndices[${bad}] = ${describeValue(cellIndices[bad])} is not a cell index (0…${CELLS - 1})`, bad);
  const bytes = new Uint8Array(CELLS * CELL_BYTES);
  const present = new Uint8Array(CELLS);
  const first = new Int32Array(CELLS).fill(-1);
  for (let k = 0; k < n; k++) {
    const i = indices[k];
    if (present[i]) throw new CellIndexError(`${entry}: cellIndices[${k}] = ${i} repeats cellIndices[${first[i]}]`, k);
    const cell = cells[k] as Uint8Array;
    for (let j = 0; j < CELL_ELEMENTS; j++) if (cell[32 * j] >= R_BYTES[0]) checkCanonical(cell, 32 * j, `${entry}: cells[${k}] (cell ${i}) field element ${j}`, k);
    present[i] = 1;
    first[i] = k;
    bytes.set(cell, i * CELL_BYTES);
  }
  return { bytes, present, count: n };
}

/**
 * The monomial coefficients (8192, natural order, in F's work array 'rec.q') of the extended blob's
 * polynomial recovered from `taken`; `roots` holds ω₁₂₈^brp(c) at element c < 128 (Montgomery form).
 * With all 128 cells: one inverse FFT (c-kzg's poly_lagrange_to_monomial). Cost: 4 FFTs of 8192
 * (≈ 213 000 products), 2·8192 for the coset factors and ≤ 2·64·128 for Z.
 */
export function recoverCoefficients(F: FrWasm, taken: TakenCells, roots: number): number {
  const q = F.work('rec.q', N);
  F.fromBytesBE(q, taken.bytes, N, 'cell field element');
  const invN = fr.inv(BigInt(N));
  if (taken.count === CELLS) {
    F.fft(q, N, { dif: false, inverse: true });
    F.scale(q, q, invN, N);
    return q;
  }
  // Z per cell on the domain (z) and per block on the coset (zc); 1 to start
  const z = F.work('rec.z', CELLS);
  const zc = F.work('rec.zc', CELLS);
  const shifted = F.work('rec.w', CELLS);
  const t = F.work('rec.t', CELLS);
  F.powers(z, 1n, 1n, CELLS);
  F.powers(zc, 1n, 1n, CELLS);
  F.scale(shifted, roots, fr.pow(RECOVERY_SHIFT, BigInt(CELL_ELEMENTS)), CELLS);
  for (let m = 0; m < CELLS; m++) {
    if (taken.present[m]) continue;
    const wm = F.at(roots, m);
    F.k.fr_vec_sub_scalar(t, roots, wm, CELLS);
    F.mul(z, z, t, CELLS);
    F.k.fr_vec_sub_scalar(t, shifted, wm, CELLS);
    F.mul(zc, zc, t, CELLS);
  }
  // E·Z on the domain (missing cells are zero already), bit-reversed
  for (let c = 0; c < CELLS; c++) if (taken.present[c]) F.k.fr_vec_scale(F.at(q, c * CELL_ELEMENTS), F.at(q, c * CELL_ELEMENTS), F.at(z, c), CELL_ELEMENTS);
  // its coefficients, times 7^k/8192: the coset's coefficients; their evaluations, bit-reversed
  F.fft(q, N, { dif: false, inverse: true });
  F.shiftPowers(q, N, RECOVERY_SHIFT, invN);
  F.fft(q, N, { dif: true });
  // ÷ Z on the coset: block c of the bit-reversed evaluations is at points x with x^64 = 7^64·w_c
  F.batchInv(zc, zc, CELLS);
  for (let c = 0; c < CELLS; c++) F.k.fr_vec_scale(F.at(q, c * CELL_ELEMENTS), F.at(q, c * CELL_ELEMENTS), F.at(zc, c), CELL_ELEMENTS);
  // back to coefficients: the inverse FFT, 1/8192, 7^−k
  F.fft(q, N, { dif: false, inverse: true });
  F.shiftPowers(q, N, fr.inv(RECOVERY_SHIFT), invN);
  return q;
}

/**
 * The 128 cells of the polynomial with coefficients q (8192): its evaluations on the extended
 * domain in bit-reversed order (one FFT by decimation in frequency, c-kzg's fr_fft then
 * bit-reversal), 2048 bytes each. With all 128 cells given they are copies of the input.
 */
export function recoveredCells(F: FrWasm, taken: TakenCells, q: number): Uint8Array[] {
  let bytes = taken.bytes;
  if (taken.count < CELLS) {
    const e = F.work('rec.cells', N);
    F.mem.copyWithin(e, q, F.at(q, N));
    F.fft(e, N, { dif: true });
    bytes = F.toBytesBE(e, N);
  }
  return Array.from({ length: CELLS }, (_, c) => bytes.slice(c * CELL_BYTES, (c + 1) * CELL_BYTES));
}
