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
 * Twiddles ±1 are skipped; the others are batched GLV multiplications (G1Engine.mulBatch).
 */
import { decodeBase64 } from '../runtime/instance.js';
import type { WorkerPool } from '../runtime/pool.js';
import { runTask, type Op } from '../runtime/interpreter.js';
import { POINT_LAYOUT_TRIPLES } from '../abi/layout.js';
import { accumulationCaps, batchFor } from '../msm/plan.js';
import { allocWorkspace, tileTask, workspaceBytes, type AccumulateJob, type SegmentOut, type Workspace } from '../msm/tiles.js';
import type { GroupContext } from '../msm/group.js';
import * as fr from './fr.js';
import { FrWasm } from './fr-wasm.js';
import { CHECK, FORMAT_ZCASH, G1Engine, glvNaf, type AddOp, type GlvNaf, type Points } from './g1.js';

const ROWS = 128;
const COLS = 64;
const BASES = ROWS * COLS;
/** window bits of the FK20 MSMs (16 windows cover a GLV half < 2^128) */
const C = 8;
const WINDOWS = 16;
const BUCKETS = 1 << (C - 1);

/**
 * Step 1 on the engine's F_r kernels (src/kzg/fr-wasm.ts): the Toeplitz coefficients of the
 * monomial coefficients at `coeffs` (4096 Montgomery elements), t̂_l[r] for base r·64 + l written
 * at dst + (r·64 + l)·32 as 32-byte little-endian scalars (msm_split_scalars' input). p = coeffs/128
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
 * The FK20 columns of c-kzg (x_ext_fft_columns) from the monomial points, rows in bit-reversed
 * order: base r·64 + l = X[brp(r)][l]. 64 G1 FFTs of 128 points, batched together.
 */
export function buildColumns(engine: G1Engine, monomial: Points): Points {
  const out = engine.points(BASES);
  const fft = new G1Fft(engine, COLS);
  const { base, stride } = fft.a;
  for (let l = 0; l < COLS; l++) {
    for (let m = 0; m < ROWS; m++) {
      const slot = l * ROWS + m;
      if (m < COLS - 1) {
        const j = 4096 - COLS - 1 - l - COLS * m;
        fft.a.inf[slot] = monomial.inf[j];
        engine.mem.copyWithin(base + slot * stride, monomial.base + j * monomial.stride, monomial.base + j * monomial.stride + engine.PB);
      } else fft.a.inf[slot] = 1;
    }
  }
  const res = fft.dif(false);
  for (let l = 0; l < COLS; l++) {
    for (let r = 0; r < ROWS; r++) {
      const from = l * ROWS + r;
      const to = r * COLS + l;
      out.inf[to] = res.inf[from];
      engine.mem.copyWithin(out.base + to * out.stride, res.base + from * res.stride, res.base + (from + 1) * res.stride);
    }
  }
  return out;
}

/** Several G1 FFTs of 128 points at once, in two ping-pong point arrays (transform t at t·128). */
export class G1Fft {
  a: Points;
  b: Points;
  private static twiddles = new Map<number, GlvNaf>();

  constructor(
    private readonly engine: G1Engine,
    readonly count: number,
  ) {
    this.a = engine.points(count * ROWS);
    this.b = engine.points(count * ROWS);
  }

  private static twiddle(exp: number): GlvNaf {
    let g = G1Fft.twiddles.get(exp);
    if (!g) {
      g = glvNaf(fr.roots()[exp]);
      G1Fft.twiddles.set(exp, g);
    }
    return g;
  }

  private swap(): Points {
    [this.a, this.b] = [this.b, this.a];
    return this.a;
  }

  /** Butterflies of one layer: out[i] = u + v, out[i + half] = u − v. */
  private butterflies(half: number, len: number): void {
    const ops: AddOp[] = [];
    for (let t = 0; t < this.count; t++) {
      for (let i0 = t * ROWS; i0 < (t + 1) * ROWS; i0 += len) {
        for (let j = 0; j < half; j++) {
          const u: [Points, number] = [this.a, i0 + j];
          const v: [Points, number] = [this.a, i0 + j + half];
          ops.push({ dst: [this.b, i0 + j], a: u, b: v, neg: false });
          ops.push({ dst: [this.b, i0 + j + half], a: u, b: v, neg: true });
        }
      }
    }
    this.engine.addRound(ops);
    this.swap();
  }

  /** Multiplies point i0 + j + half of every group by the layer's twiddle j (j > 0). */
  private twiddleLayer(half: number, len: number, inverse: boolean): void {
    const idx: number[] = [];
    const glv: GlvNaf[] = [];
    const step = fr.EXT_DOMAIN / len;
    for (let t = 0; t < this.count; t++) {
      for (let i0 = t * ROWS; i0 < (t + 1) * ROWS; i0 += len) {
        for (let j = 1; j < half; j++) {
          idx.push(i0 + j + half);
          glv.push(G1Fft.twiddle(inverse ? fr.EXT_DOMAIN - j * step : j * step));
        }
      }
    }
    this.engine.mulBatch(this.a, idx, glv);
  }

  /** Decimation in time on `a` (bit-reversed in, natural out), inverse: ω⁻¹ twiddles, no 1/n. Returns the result array. */
  dit(inverse: boolean): Points {
    for (let len = 2; len <= ROWS; len <<= 1) {
      const half = len >> 1;
      this.twiddleLayer(half, len, inverse);
      this.butterflies(half, len);
    }
    return this.a;
  }

  /** Decimation in frequency on `a` (natural in, bit-reversed out). Returns the result array. */
  dif(inverse: boolean): Points {
    for (let len = ROWS; len >= 2; len >>= 1) {
      const half = len >> 1;
      this.butterflies(half, len);
      this.twiddleLayer(half, len, inverse);
    }
    return this.a;
  }
}

/** Items (GLV halves × windows) per base, and their 16-byte digit words. */
const ITEMS_PER_BASE = 2 * WINDOWS;
/** msm_accumulate's window: one signed digit of 15 bits names one of 2^14 buckets (128 rows × 128 digits). */
const BUCKET_BITS = 15;

/** The row MSMs of one thread slot: its workspace, where its segment sums go, its rows. */
interface Part {
  lo: number;
  hi: number;
  ws: Workspace;
  out: SegmentOut;
}

export class Fk20 {
  /** triples (βx, x, y) of 2^(8k)·X_g: base g, window k at table + (16g + k)·3EB */
  private readonly table: number;
  private readonly baseInf: Uint8Array;
  private readonly scalars: number;
  private readonly halves: number;
  /** per item (2·(16g + k) + h): msm_accumulate's 16-byte half, its digit naming the item's bucket */
  private readonly items: number;
  private readonly ctx: GroupContext;
  private readonly parts: Part[] = [];
  private readonly fft: G1Fft;
  private tableBytes: number;

  /** From the FK20 columns (8192 points, base r·64 + l): builds the window tables (8·15 doublings per point). */
  constructor(
    private readonly engine: G1Engine,
    columns: Points,
  ) {
    const { EB, PB } = engine;
    const T = 3 * EB;
    this.ctx = engine.groupContext();
    this.table = engine.alloc(BASES * WINDOWS * T);
    this.baseInf = columns.inf.slice();
    this.scalars = engine.alloc(BASES * 32);
    this.halves = engine.alloc(BASES * 32);
    this.items = engine.alloc(BASES * ITEMS_PER_BASE * 16);
    engine.mem.fill(0, this.items, this.items + BASES * ITEMS_PER_BASE * 16);
    this.fft = new G1Fft(engine, 1);
    this.tableBytes = BASES * WINDOWS * T + 2 * BASES * 32 + BASES * ITEMS_PER_BASE * 16 + 4 * ROWS * PB;
    const entry = (g: number, k: number) => this.table + (g * WINDOWS + k) * T;
    const live: number[] = [];
    for (let g = 0; g < BASES; g++) if (!this.baseInf[g]) live.push(g);
    for (const g of live) engine.copyPoint(entry(g, 0) + EB, columns.base + g * columns.stride);
    for (let k = 1; k < WINDOWS; k++) {
      for (const g of live) engine.mem.copyWithin(entry(g, k) + EB, entry(g, k - 1) + EB, entry(g, k - 1) + EB + PB);
      for (let d = 0; d < C; d++) {
        engine.begin(live.length);
        for (const g of live) engine.push(entry(g, k) + EB, entry(g, k) + EB, entry(g, k) + EB);
        engine.run();
      }
    }
    for (const g of live) for (let k = 0; k < WINDOWS; k++) engine.fillBeta(entry(g, k));
  }

  /** With c-kzg's official setup: the FK20 columns shipped with pippin (src/kzg/fk20-columns.ts, re-derived by test/kzg-cells.test.ts). */
  static async fromShipped(engine: G1Engine): Promise<Fk20> {
    const { FK20_COLUMNS_BASE64 } = await import('./fk20-columns.js');
    const bytes = decodeBase64(FK20_COLUMNS_BASE64);
    const columns = engine.points(BASES);
    engine.decode(bytes, BASES, FORMAT_ZCASH, CHECK.parse, columns, 'FK20 column point');
    return new Fk20(engine, columns);
  }

  /** Wasm memory held: tables, scalars, digit items, transforms and the thread slots' workspaces. */
  get bytes(): number {
    return this.tableBytes;
  }

  /**
   * The 128 cell proofs (48 bytes each) of the polynomial with monomial coefficients `coeffs` (4096
   * Montgomery elements on the engine's F_r kernels, read before the first await). With
   * a pool (the engine on a shared memory), `workers` workers take a share of the rows' MSMs each.
   */
  async proofs(coeffs: number, pool?: WorkerPool, workers = 0): Promise<Uint8Array[]> {
    const { engine } = this;
    // 1. Toeplitz coefficients (p/128), row r of the FFT of t_l is the scalar of base r·64 + l (read before any await)
    toeplitzScalars(FrWasm.of(engine), this.scalars, coeffs);
    engine.k.msm_split_scalars(this.halves, this.scalars, BASES, 0);
    // 2. the 128 MSMs, H[r] into the FFT's input
    await this.msms(pool && engine.inst.shared ? workers : 0, pool);
    // 3. inverse FFT, upper half cleared, FFT
    const f = this.fft;
    const h = f.dit(true);
    h.inf.fill(1, COLS, ROWS);
    const out = f.dif(false);
    return Array.from({ length: ROWS }, (_, i) => engine.encodeCompressed(out, i));
  }

  /** Thread slot p's part: rows [lo, hi), a workspace for (hi − lo)·128 buckets (made on first use). */
  private part(p: number, lo: number, hi: number): Part {
    const have = this.parts[p];
    if (have && have.lo === lo && have.hi === hi) return have;
    const rows = hi - lo;
    const L = rows * BUCKETS;
    const B = batchFor(rows * COLS * ITEMS_PER_BASE);
    const { tempCap, deferredCap } = accumulationCaps(B, L);
    const { EB } = this.engine;
    const PB = 2 * EB;
    // a workspace is permanent (like the tables): a part no larger than the slot's reuses it
    let part: Part;
    if (have && rows <= have.hi - have.lo) part = { lo, hi, ws: have.ws, out: have.out };
    else {
      const ws = allocWorkspace(this.ctx, L, B, tempCap, deferredCap, rows, rows * COLS * ITEMS_PER_BASE);
      const out = { R: this.engine.alloc(rows * PB), P: this.engine.alloc(rows * PB), flags: this.engine.alloc(rows) };
      this.tableBytes += workspaceBytes(EB, L, B, tempCap, deferredCap, rows) + rows * (2 * PB + 1);
      this.engine.refresh();
      part = { lo, hi, ws, out };
    }
    this.parts[p] = part;
    return part;
  }

  /**
   * Each row's digit items: for base g of rows [lo, hi), GLV half h and window k, the signed 8-bit
   * digit d of the half as msm_accumulate's 16-byte half: |d| + 128·(row − lo) (bucket + 1) in its
   * low 15 bits, the sign (d's, flipped for a negative half) in bit 127; 0 for d = 0.
   */
  private writeItems(lo: number, hi: number): void {
    const mem = this.engine.mem;
    const words = new Int32Array(mem.buffer);
    for (let g = lo * COLS; g < hi * COLS; g++) {
      let w = (this.items >> 2) + g * ITEMS_PER_BASE * 4;
      if (this.baseInf[g]) {
        for (let j = 0; j < ITEMS_PER_BASE; j++, w += 4) words[w] = words[w + 3] = 0;
        continue;
      }
      const rowBucket = ((g / COLS) | 0) * BUCKETS - lo * BUCKETS;
      for (let h = 0; h < 2; h++) {
        const at = this.halves + g * 32 + h * 16;
        const negHalf = mem[at + 15] >> 7;
        let carry = 0;
        for (let k = 0; k < WINDOWS; k++) {
          // signed digit k of the half, with the carry of the windows below
          let d = (k === WINDOWS - 1 ? mem[at + k] & 0x7f : mem[at + k]) + carry;
          carry = d > BUCKETS ? 1 : 0;
          if (carry) d -= 2 * BUCKETS;
          const e = w + (2 * k + h) * 4;
          words[e] = d === 0 ? 0 : rowBucket + (d < 0 ? -d : d);
          words[e + 3] = d === 0 ? 0 : ((d < 0 ? 1 : 0) ^ negHalf) << 31;
        }
      }
    }
  }

  /** Part p's ops: accumulate its items into its buckets, reduce them into per-row sums Σ d·B_d. */
  private partOps(part: Part): Op[] {
    const { lo, hi, ws, out } = part;
    const T = 3 * this.engine.EB;
    const count = (hi - lo) * COLS * ITEMS_PER_BASE;
    const B = batchFor(count);
    const L = (hi - lo) * BUCKETS;
    const job: AccumulateJob = {
      points: this.table + lo * COLS * WINDOWS * T, layout: POINT_LAYOUT_TRIPLES, pointBytes: T,
      halves: this.items + lo * COLS * ITEMS_PER_BASE * 16, count, shift: 0, c: BUCKET_BITS, batch: B, ...accumulationCaps(B, L),
    };
    return tileTask(this.ctx, ws, { accumulate: [job], reduce: { set: ws, L, S: hi - lo, out, clear: true } }).ops;
  }

  /**
   * H[r] = Σ_l s_{r,l}·X[r][l] into the FFT's input: rows split between the calling thread and
   * `workers` workers of `pool`, each part one task of msm_accumulate over its digit items (every
   * row's 128 buckets in one bucket set) and msm_reduce_segments (a segment per row).
   */
  private async msms(workers: number, pool?: WorkerPool): Promise<void> {
    const { engine } = this;
    const parts = workers + 1;
    const bounds = Array.from({ length: parts + 1 }, (_, p) => Math.round((p * ROWS) / parts));
    const mine = this.part(0, bounds[0], bounds[1]);
    const theirs = Array.from({ length: workers }, (_, w) => this.part(w + 1, bounds[w + 1], bounds[w + 2]));
    for (const p of [mine, ...theirs]) this.writeItems(p.lo, p.hi);
    const job = pool && workers > 0 ? pool.run(engine.inst, theirs.map((p) => () => this.partOps(p)), workers, () => {}) : undefined;
    // let the messages go out before the calling thread takes its own rows
    if (job) await new Promise((resolve) => setTimeout(resolve, 0));
    runTask(engine.inst.exports, engine.inst.memory, this.partOps(mine));
    await job;
    engine.refresh();
    const H = this.fft.a;
    const flags = engine.mem;
    for (const { lo, hi, out } of [mine, ...theirs]) {
      for (let r = lo; r < hi; r++) {
        // segment flags: bit 1, the weighted sum P_j is finite
        H.inf[r] = flags[out.flags + r - lo] & 2 ? 0 : 1;
        engine.mem.copyWithin(H.base + r * H.stride, out.P + (r - lo) * 2 * engine.EB, out.P + (r - lo + 1) * 2 * engine.EB);
      }
    }
  }
}
