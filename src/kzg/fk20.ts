/**
 * EIP-7594 cells and cell proofs: the extension of a blob to 8192 evaluations and the 128 KZG
 * multi-proofs of its cells by FK20 (Feist–Khovratovich, "Fast amortized KZG proofs", 2020; the
 * Toeplitz/circulant form of c-kzg's src/eip7594/fk20.c). Written here from the algorithm.
 *
 * Layout of the proofs (c-kzg's, rows in bit-reversed order throughout so nothing is permuted):
 * 1. Toeplitz coefficients: for each offset l < 64 a vector t_l of length 128 built from the
 *    monomial coefficients p (t_l[0] = p[4095 − l], t_l[66 + i] = p[127 − l + 64i] for i < 62, the
 *    rest 0), transformed by a 128-point FFT (decimation in frequency: row r holds the evaluation
 *    at ω₁₂₈^brp(r)). p is scaled by 1/128 first, which is the inverse FFT's 1/n (step 3).
 * 2. 128 fixed-base MSMs of 64 points: H[r] = Σ_l t̂_l[r]·X[r][l], X the setup's FK20 columns
 *    (X[·][l] = the 128-point G1 FFT of the monomial points τ^(4095−64−l−64m)·G, m < 63, padded
 *    with infinity): per point and GLV half a table of 2^(8k)·P, k < 16, so one bucket set of
 *    128 buckets per row serves all 16 windows; the 128 rows' buckets are one set of 2^14 that
 *    pippin's msm_accumulate fills from one digit item per (half, window) and msm_reduce_segments
 *    reduces with a segment per row (src/msm/tiles.ts, the MSMs' own tile driver).
 * 3. A 128-point inverse G1 FFT of H (decimation in time: bit-reversed in, natural out), the upper
 *    64 outputs replaced by infinity, a 128-point G1 FFT (decimation in frequency: natural in,
 *    bit-reversed out) — whose outputs are the proofs in c-kzg's cell order.
 * The G1 FFTs are src/msm/g1-fft.ts, the row MSMs src/msm/fixed-base.ts rowMsmProgram over the
 * columns' row table (pinned memory of the curve's instance, built once per Kzg).
 */
import { decodeBase64 } from '../runtime/instance.js';
import { buildRowTable, rowMsmProgram, rowTableBytes, type RowTable } from '../msm/fixed-base.js';
import { AffineBatch, CHECK, FORMAT_COMPRESSED, FORMAT_ZCASH, type Points } from '../msm/affine-batch.js';
import { G1Fft, G1Twiddles } from '../msm/g1-fft.js';
import type { G1AffineValue, GroupContext } from '../msm/group.js';
import type { PhaseProgram } from '../msm/call.js';
import type { CurveParams } from '../curves/types.js';
import * as fr from './fr.js';
import type { FrWasm } from './fr-wasm.js';

const ROWS = 128;
const COLS = 64;
const BASES = ROWS * COLS;

/** The twiddles of the extended domain (ω: c-kzg's primitive 8192nd root) for BLS12-381's G1 FFTs. */
export function extDomainTwiddles(params: Pick<CurveParams, 'r' | 'lambda'>): G1Twiddles {
  const roots = fr.roots();
  return new G1Twiddles(fr.EXT_DOMAIN, (e) => roots[e], params);
}

/**
 * Step 1 on the F_r kernels (src/kzg/fr-wasm.ts): the Toeplitz coefficients of the monomial
 * coefficients at `coeffs` (4096 Montgomery elements), t̂_l[r] for base r·64 + l written at
 * dst + (r·64 + l)·32 as 32-byte little-endian scalars (msm_split_scalars' input). p = coeffs/128
 * (fr_vec_scale), t_l gathered from p (fr_gather), 64 FFTs of 128 points by decimation in
 * frequency (fr_fft), each written out with a stride of 64 scalars (fr_to_bytes_le_batch).
 * fr.toeplitzCoefficients is its bigint reference. Cost: 4096 + 64·(64·7 − 127) products.
 */
export function toeplitzScalars(F: FrWasm, dst: number, coeffs: number): void {
  const p = F.work('fk20.p', 4096);
  const t = F.work('fk20.t', ROWS);
  F.scale(p, coeffs, fr.inv(BigInt(ROWS)), 4096);
  for (let l = 0; l < COLS; l++) {
    // t_l[0] = p[4095 − l], t_l[1…65] = 0, t_l[66 + i] = p[127 − l + 64i] for i < 62
    F.mem.copyWithin(t, F.at(p, 4095 - l), F.at(p, 4096 - l));
    F.mem.fill(0, F.at(t, 1), F.at(t, COLS + 2));
    F.k.fr_gather(F.at(t, COLS + 2), F.at(p, ROWS - 1 - l), COLS, ROWS - COLS - 2);
    F.fft(t, ROWS, { dif: true });
    F.toBytesLE(dst + 32 * l, 32 * COLS, t, ROWS);
  }
}

/**
 * The FK20 columns of c-kzg (x_ext_fft_columns) from the 4096 monomial points, rows in bit-reversed
 * order: base r·64 + l = X[brp(r)][l]. 64 G1 FFTs of 128 points, batched together; in the batch's arena.
 */
export function buildColumns(batch: AffineBatch, twiddles: G1Twiddles, monomial: Points): Points {
  const out = batch.points(BASES);
  const fft = new G1Fft(batch, twiddles, COLS, ROWS);
  for (let l = 0; l < COLS; l++) {
    for (let m = 0; m < ROWS; m++) {
      const slot = l * ROWS + m;
      if (m < COLS - 1) batch.copy(fft.a, slot, monomial, 4096 - COLS - 1 - l - COLS * m);
      else fft.a.inf[slot] = 1;
    }
  }
  const res = fft.dif(false);
  for (let l = 0; l < COLS; l++) for (let r = 0; r < ROWS; r++) batch.copy(out, r * COLS + l, res, l * ROWS + r);
  return out;
}

/** Where FK20's columns come from: the shipped ones of the official setup (src/kzg/fk20-columns.ts), or a custom setup's monomial points (48-byte compressed). */
export type ColumnSource = { kind: 'shipped'; base64: string } | { kind: 'monomial'; bytes: Uint8Array };

/**
 * FK20's row table (8192 columns × 16 windows, 20–22 MiB) at `ptr` (fk20TableBytes), built on the
 * calling thread in the caller's arena mark: the columns decoded (shipped) or derived (monomial:
 * 64 G1 FFTs of 128 points), then 8·15 batched doublings per column.
 */
export function buildFk20Table(ctx: GroupContext<G1AffineValue>, params: CurveParams, twiddles: G1Twiddles, source: ColumnSource, ptr: number): RowTable {
  const batch = new AffineBatch(ctx, params);
  let columns: Points;
  if (source.kind === 'shipped') {
    columns = batch.points(BASES);
    batch.decode(decodeBase64(source.base64), BASES, FORMAT_ZCASH, CHECK.parse, columns, 'FK20 column point');
  } else {
    const monomial = batch.points(4096);
    batch.decode(source.bytes, 4096, FORMAT_COMPRESSED, CHECK.onCurve, monomial, 'point');
    columns = buildColumns(batch, twiddles, monomial);
  }
  return buildRowTable(batch, columns, ROWS, COLS, ptr);
}

/** Bytes of FK20's row table. */
export function fk20TableBytes(EB: number): number {
  return rowTableBytes(BASES, EB);
}

/**
 * The 128 cell proofs (48 bytes each, c-kzg's cell order) of the polynomial whose monomial
 * coefficients are at `coeffs` (4096 Montgomery elements of F), as a program: the Toeplitz
 * scalars (read from coeffs before the first yield), the row MSMs on up to `threads` threads,
 * then on the calling thread an inverse G1 FFT, the upper half cleared, and a G1 FFT.
 * Allocates from the arena; the caller releases.
 */
export function* proofsProgram(ctx: GroupContext<G1AffineValue>, params: CurveParams, twiddles: G1Twiddles, table: RowTable, F: FrWasm, coeffs: number, threads: number): PhaseProgram<Uint8Array[]> {
  const scalars = ctx.inst.arena.alloc(BASES * 32);
  toeplitzScalars(F, scalars, coeffs);
  const batch = new AffineBatch(ctx, params);
  const fft = new G1Fft(batch, twiddles, 1, ROWS);
  yield* rowMsmProgram(ctx, table, scalars, fft.a, threads);
  const h = fft.dit(true);
  h.inf.fill(1, COLS, ROWS);
  const out = fft.dif(false);
  return Array.from({ length: ROWS }, (_, i) => batch.encode(out, i, FORMAT_COMPRESSED));
}
