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
 *    128 buckets per row serves all 16 windows; all rows' buckets are filled together in rounds
 *    of independent affine additions (one g1_batch_add call each).
 * 3. A 128-point inverse G1 FFT of H (decimation in time: bit-reversed in, natural out), the upper
 *    64 outputs replaced by infinity, a 128-point G1 FFT (decimation in frequency: natural in,
 *    bit-reversed out) — whose outputs are the proofs in c-kzg's cell order.
 * Twiddles ±1 are skipped; the others are batched GLV multiplications (G1Engine.mulBatch).
 */
import { decodeBase64 } from '../runtime/instance.js';
import type { WorkerPool } from '../runtime/pool.js';
import type { Op } from '../runtime/interpreter.js';
import { batchAddScratchBytes } from '../abi/layout.js';
import * as fr from './fr.js';
import { CHECK, FORMAT_ZCASH, G1Engine, glv16, type AddOp, type Glv16, type Points } from './g1.js';

const ROWS = 128;
const COLS = 64;
const BASES = ROWS * COLS;
/** window bits of the FK20 MSMs (16 windows cover a GLV half < 2^128) */
const C = 8;
const WINDOWS = 16;
const BUCKETS = 1 << (C - 1);

/** The blob's polynomial in monomial form (natural order) from its evaluations (bit-reversed order). */
export function monomial(poly: readonly bigint[]): bigint[] {
  const a = fr.fftDit(poly.slice(), true);
  const invN = fr.inv(BigInt(a.length));
  for (let i = 0; i < a.length; i++) a[i] = (a[i] * invN) % fr.R;
  return a;
}

/** The evaluations at the odd powers of ω (the coset ω·H₄₀₉₆), bit-reversed: cells 64…127. */
export function cosetEvaluations(coeffs: readonly bigint[]): bigint[] {
  const rs = fr.roots();
  const a = coeffs.map((c, k) => (c * rs[k]) % fr.R);
  return fr.fftDif(a);
}

/**
 * The FK20 columns of c-kzg (x_ext_fft_columns) from the monomial points, rows in bit-reversed
 * order: base r·64 + l = X[brp(r)][l]. 64 G1 FFTs of 128 points, batched together.
 */
export function buildColumns(engine: G1Engine, monomial: Points): Points {
  const out = engine.points(BASES);
  const fft = new G1Fft(engine, COLS);
  const { base, stride } = fft.a;
  const mem = engine.mem;
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
  void mem;
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
  private static twiddles = new Map<number, Glv16>();

  constructor(
    private readonly engine: G1Engine,
    readonly count: number,
  ) {
    this.a = engine.points(count * ROWS);
    this.b = engine.points(count * ROWS);
  }

  private static twiddle(exp: number): Glv16 {
    let g = G1Fft.twiddles.get(exp);
    if (!g) {
      g = glv16(fr.roots()[exp]);
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
    const glv: Glv16[] = [];
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

export class Fk20 {
  /** triples (βx, x, y) of 2^(8k)·X_g: base g, window k at table + (16g + k)·3EB */
  private readonly table: number;
  private readonly baseInf: Uint8Array;
  private readonly scalars: number;
  private readonly halves: number;
  private readonly buckets: Points;
  private readonly sums: Points;
  private readonly totals: Points;
  private readonly fft: G1Fft;
  private readonly tableBytes: number;

  /** From the FK20 columns (8192 points, base r·64 + l): builds the window tables (8·15 doublings per point). */
  constructor(
    private readonly engine: G1Engine,
    columns: Points,
  ) {
    const { EB, PB } = engine;
    const T = 3 * EB;
    this.table = engine.alloc(BASES * WINDOWS * T);
    this.baseInf = columns.inf.slice();
    this.scalars = engine.alloc(BASES * 32);
    this.halves = engine.alloc(BASES * 32);
    this.buckets = engine.points(ROWS * BUCKETS);
    this.sums = engine.points(ROWS);
    this.totals = engine.points(ROWS);
    this.fft = new G1Fft(engine, 1);
    this.tableBytes = BASES * WINDOWS * T + 2 * BASES * 32 + (ROWS * BUCKETS + 2 * ROWS + 4 * ROWS) * PB;
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

  /**
   * The 128 cell proofs (48 bytes each) of the polynomial with monomial coefficients `coeffs`. With
   * a pool (the engine on a shared memory), `workers` workers take a share of the rows' MSMs each.
   */
  async proofs(coeffs: readonly bigint[], pool?: WorkerPool, workers = 0): Promise<Uint8Array[]> {
    const { engine } = this;
    // 1. Toeplitz coefficients (p/128), row r of the FFT of t_l is the scalar of base r·64 + l
    const inv128 = fr.inv(128n);
    const p = coeffs.map((c) => (c * inv128) % fr.R);
    const dv = new DataView(engine.mem.buffer);
    const M = 0xffffffffffffffffn;
    for (let l = 0; l < COLS; l++) {
      const t = new Array<bigint>(ROWS).fill(0n);
      t[0] = p[4095 - l];
      for (let i = 0; i < ROWS - COLS - 2; i++) t[COLS + 2 + i] = p[ROWS - 1 - l + COLS * i];
      fr.fftDif(t);
      for (let r = 0; r < ROWS; r++) {
        const at = this.scalars + (r * COLS + l) * 32;
        const s = t[r];
        dv.setBigUint64(at, s & M, true);
        dv.setBigUint64(at + 8, (s >> 64n) & M, true);
        dv.setBigUint64(at + 16, (s >> 128n) & M, true);
        dv.setBigUint64(at + 24, s >> 192n, true);
      }
    }
    engine.k.msm_split_scalars(this.halves, this.scalars, BASES, 0);
    // 2. the 128 MSMs
    const H = pool && workers > 0 && this.engine.inst.shared ? await this.msmsOnPool(pool, workers) : this.msms();
    // 3. inverse FFT, upper half cleared, FFT
    const f = this.fft;
    f.a.inf.set(H.inf);
    engine.mem.copyWithin(f.a.base, H.base, H.base + ROWS * H.stride);
    const h = f.dit(true);
    h.inf.fill(1, COLS, ROWS);
    const out = f.dif(false);
    return Array.from({ length: ROWS }, (_, i) => engine.encodeCompressed(out, i));
  }

  // per-call work arrays, kept (one blob at a time per Fk20)
  private readonly itemBucket = new Int32Array(BASES * 2 * WINDOWS);
  private readonly itemPoint = new Int32Array(BASES * 2 * WINDOWS);
  private readonly sorted = new Int32Array(BASES * 2 * WINDOWS);
  private readonly counts = new Int32Array(ROWS * BUCKETS);
  private readonly start = new Int32Array(ROWS * BUCKETS + 1);
  private readonly active = new Int32Array(ROWS * BUCKETS);
  private readonly rowIndex = Int32Array.from({ length: ROWS }, (_, r) => r);

  private readonly fillPos = new Int32Array(ROWS * BUCKETS);

  /** H[r] = Σ_l s_{r,l}·X[r][l] for the split scalars at `halves`, on the calling thread; returns `totals`. */
  private msms(): Points {
    this.sortItems(0, ROWS);
    this.accumulateLocal(0, ROWS);
    this.reduceLocal(0, ROWS);
    return this.totals;
  }

  /**
   * The same with rows [0, R/(w+1)) on the calling thread and the others split among w workers of
   * `pool`. A worker's part is a precomputed task — the kernel calls of every round, its pair lists
   * written beforehand — valid when no bucket or running sum meets P + (−P); the kernel flags such a
   * sum, and a part with one is computed again on the calling thread.
   */
  private async msmsOnPool(pool: WorkerPool, workers: number): Promise<Points> {
    const parts = workers + 1;
    const bounds = Array.from({ length: parts + 1 }, (_, p) => Math.round((p * ROWS) / parts));
    const tasks: { lo: number; hi: number; ops: Op[]; list: number; pairs: number }[] = [];
    for (let p = 1; p < parts; p++) {
      this.sortItems(bounds[p], bounds[p + 1]);
      tasks.push({ lo: bounds[p], hi: bounds[p + 1], ...this.buildTask(bounds[p], bounds[p + 1], p - 1) });
    }
    const job = pool.run(this.engine.inst, tasks.map((t) => () => t.ops), workers, () => {});
    // let the messages go out before the calling thread takes its own rows
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.sortItems(0, bounds[1]);
    this.accumulateLocal(0, bounds[1]);
    this.reduceLocal(0, bounds[1]);
    await job;
    for (const t of tasks) {
      if (!this.engine.anyInfinity(t.list, t.pairs)) continue;
      this.sortItems(t.lo, t.hi);
      this.accumulateLocal(t.lo, t.hi);
      this.reduceLocal(t.lo, t.hi);
    }
    return this.totals;
  }

  /** Per worker part: its pair lists and batch scratch (permanent, made on first use). */
  private readonly regions: { list: number; scratch: number }[] = [];
  private regionBytes = 0;

  /** Wasm memory held: tables, scalars, buckets, transforms, and the worker parts' pair lists. */
  get bytes(): number {
    return this.tableBytes + this.regionBytes;
  }

  /**
   * A worker's rows [lo, hi) as kernel calls: the first item of each bucket copied here, then per
   * round one g1_batch_add over a pair list written now; the running sums likewise, their copies
   * as fp_copy calls. Infinity is predicted from the bucket counts (a bucket with items is finite).
   */
  private buildTask(lo: number, hi: number, part: number): { ops: Op[]; list: number; pairs: number } {
    const { engine, sorted, counts, start } = this;
    const { EB } = engine;
    const maxPairs = (hi - lo) * (COLS * 2 * WINDOWS + 2 * BUCKETS);
    if (!this.regions[part] || this.regions[part].list < 0) {
      const listBytes = 16 * (ROWS / 2) * (COLS * 2 * WINDOWS + 2 * BUCKETS);
      const scratchBytes = batchAddScratchBytes((ROWS / 2) * BUCKETS, EB);
      this.regions[part] = { list: engine.alloc(listBytes), scratch: engine.alloc(scratchBytes) };
      this.regionBytes += listBytes + scratchBytes;
    }
    if (maxPairs > (ROWS / 2) * (COLS * 2 * WINDOWS + 2 * BUCKETS)) throw new Error('fk20: a worker part larger than half the rows');
    const { list, scratch } = this.regions[part];
    const ops: Op[] = [];
    let k = 0;
    const B = this.buckets;
    const bLo = lo * BUCKETS;
    const bHi = hi * BUCKETS;
    let maxCount = 0;
    for (let b = bLo; b < bHi; b++) {
      if (counts[b] === 0) continue;
      engine.copyPoint(B.base + b * B.stride, sorted[start[b]]);
      B.inf[b] = 0;
      if (counts[b] > maxCount) maxCount = counts[b];
    }
    for (let t = 1; t < maxCount; t++) {
      const first = k;
      for (let b = bLo; b < bHi; b++) {
        if (counts[b] <= t) continue;
        const dst = B.base + b * B.stride;
        engine.writePair(list, k++, dst, dst, sorted[start[b] + t]);
      }
      ops.push(['g1_batch_add', list + 16 * first, k - first, scratch]);
    }
    const S = this.sums;
    const T = this.totals;
    const point = (P: Points, i: number) => P.base + i * P.stride;
    const copy = (to: number, from: number) => ops.push(['fp_copy', to, from], ['fp_copy', to + EB, from + EB]);
    S.inf.fill(1, lo, hi);
    T.inf.fill(1, lo, hi);
    for (let d = BUCKETS - 1; d >= 0; d--) {
      let first = k;
      for (let r = lo; r < hi; r++) {
        const b = r * BUCKETS + d;
        if (counts[b] === 0) continue;
        if (S.inf[r]) {
          copy(point(S, r), point(B, b));
          S.inf[r] = 0;
        } else engine.writePair(list, k++, point(S, r), point(S, r), point(B, b));
      }
      if (k > first) ops.push(['g1_batch_add', list + 16 * first, k - first, scratch]);
      first = k;
      for (let r = lo; r < hi; r++) {
        if (S.inf[r]) continue;
        if (T.inf[r]) {
          copy(point(T, r), point(S, r));
          T.inf[r] = 0;
        } else engine.writePair(list, k++, point(T, r), point(T, r), point(S, r));
      }
      if (k > first) ops.push(['g1_batch_add', list + 16 * first, k - first, scratch]);
    }
    return { ops, list, pairs: k };
  }

  /** Items (bucket, tagged table point) of rows [lo, hi), sorted by bucket into `sorted` from `start[b]`. */
  private sortItems(lo: number, hi: number): void {
    const { engine, itemBucket, itemPoint, sorted, counts, start, fillPos } = this;
    const { EB } = engine;
    const T = 3 * EB;
    const mem = engine.mem;
    counts.fill(0, lo * BUCKETS, hi * BUCKETS);
    // items: (bucket, tagged table point) for every non-zero signed 8-bit digit of every GLV half
    let n = 0;
    for (let g = lo * COLS; g < hi * COLS; g++) {
      if (this.baseInf[g]) continue;
      const rowBucket = ((g / COLS) | 0) * BUCKETS - 1;
      const entries = this.table + g * WINDOWS * T;
      for (let h = 0; h < 2; h++) {
        const at = this.halves + g * 32 + h * 16;
        const negHalf = mem[at + 15] >> 7;
        let carry = 0;
        for (let k = 0; k < WINDOWS; k++) {
          let d = (k === WINDOWS - 1 ? mem[at + k] & 0x7f : mem[at + k]) + carry;
          carry = d > BUCKETS ? 1 : 0;
          if (carry) d -= 2 * BUCKETS;
          if (d === 0) continue;
          const e = entries + k * T;
          const b = rowBucket + (d < 0 ? -d : d);
          itemBucket[n] = b;
          itemPoint[n] = (h === 0 ? e + EB : e | 2) | ((d < 0 ? 1 : 0) ^ negHalf);
          counts[b]++;
          n++;
        }
      }
    }
    // counting sort by bucket, at the part's own offset of `sorted`
    let acc = lo * COLS * 2 * WINDOWS;
    for (let b = lo * BUCKETS; b < hi * BUCKETS; b++) {
      start[b] = acc;
      fillPos[b] = acc;
      acc += counts[b];
    }
    for (let i = 0; i < n; i++) sorted[fillPos[itemBucket[i]]++] = itemPoint[i];
  }

  /** Bucket accumulation of rows [lo, hi) on the calling thread: the t-th item of every bucket in round t. */
  private accumulateLocal(lo: number, hi: number): void {
    const { engine, sorted, counts, start, active } = this;
    const B = this.buckets;
    B.inf.fill(1, lo * BUCKETS, hi * BUCKETS);
    let live = 0;
    for (let b = lo * BUCKETS; b < hi * BUCKETS; b++) if (counts[b] > 0) active[live++] = b;
    for (let b = 0; b < live; b++) {
      const bucket = active[b];
      engine.copyPoint(B.base + bucket * B.stride, sorted[start[bucket]]);
      B.inf[bucket] = 0;
    }
    for (let t = 1; live > 0; t++) {
      let next = 0;
      for (let b = 0; b < live; b++) if (counts[active[b]] > t) active[next++] = active[b];
      live = next;
      if (live === 0) break;
      engine.begin(live);
      const who: number[] = [];
      for (let b = 0; b < live; b++) {
        const bucket = active[b];
        const item = sorted[start[bucket] + t];
        const dst = B.base + bucket * B.stride;
        if (B.inf[bucket]) {
          engine.copyPoint(dst, item);
          B.inf[bucket] = 0;
        } else {
          engine.push(dst, dst, item);
          who.push(bucket);
        }
      }
      const m = engine.run();
      for (let j = 0; j < m; j++) if (engine.wasInfinity(j)) B.inf[who[j]] = 1;
    }
  }

  /** Σ d·B_d of rows [lo, hi) into `totals` by running sums (S += B_d, T += S from d = 128 down), all rows per round. */
  private reduceLocal(lo: number, hi: number): void {
    const { engine } = this;
    const B = this.buckets;
    const S = this.sums;
    const Tot = this.totals;
    S.inf.fill(1, lo, hi);
    Tot.inf.fill(1, lo, hi);
    const rows = this.rowIndex.subarray(lo, hi);
    const bucketIndex = new Int32Array(hi - lo);
    for (let d = BUCKETS - 1; d >= 0; d--) {
      for (let r = lo; r < hi; r++) bucketIndex[r - lo] = r * BUCKETS + d;
      engine.accumulate(S, rows, B, bucketIndex, hi - lo);
      engine.accumulate(Tot, rows, S, rows, hi - lo);
    }
  }
}
