/**
 * Generator of prime-field kernels (Montgomery form, w-bit limbs in u32 slots), generic over p and w.
 *
 * Conventions for every exported kernel `<f>_<op>`:
 * - arguments are byte pointers to elements of `layout.elementBytes` bytes (output first);
 * - inputs are in the redundant range [0, 2p) with limbs < 2^w, outputs too unless stated;
 * - output may alias any input unless stated;
 * - nothing here is constant-time: variable-time algorithms (inverse, sqrt) say so.
 */
import { Expr, FuncBuilder, I32, I64, Local, ModuleBuilder, i32, i64 } from './wat.js';
import { FieldLayout, fieldLayout, modPow, toLimbs } from './field-layout.js';
import { countedScratch } from './scratch.js';
import { batchInverseScratchBytes } from '../abi/layout.js';

import { MUL_STRATEGIES, WIDE_MULS, type MulStrategy, type WideMul } from '../curves/types.js';
export { MUL_STRATEGIES, WIDE_MULS, type MulStrategy, type WideMul };

export interface FieldSpec {
  /** prefix of the exported kernels, e.g. 'fp' */
  name: string;
  p: bigint;
  w: number;
  /** Montgomery product variant; see docs/field.md for the measurements behind the default. */
  mul?: MulStrategy;
  /** w = 64 only: the product variant of ./field64.ts (benchmarks compare them). */
  wideMul?: WideMul;
}

const TWO64 = 1n << 64n;

/** montFips computes product columns this many columns ahead of the reduction (measured: 0 → 6 took
 * Node 24's BLS12-381 Fp mul from 61.8 to 54.9 ns; Node 20 unchanged; docs/performance.md). */
const FIPS_LOOKAHEAD = 6;

/** Karatsuba levels of the column-scanned variants' products and squares (FieldGen.fipsLevels). */
const FIPS_LEVELS: Partial<Record<MulStrategy, { mul: number; sqr: number }>> = {
  'comba-fips': { mul: 0, sqr: 0 },
  'karatsuba-fips': { mul: 1, sqr: 0 },
  'karatsuba2-fips': { mul: 2, sqr: 2 },
  'karatsuba3-fips': { mul: 3, sqr: 3 },
};

/** The i64 locals of one batch of divsteps (FieldGen.divstepBatch): state, low words, matrix, scratch. */
export interface DivstepLocals {
  eta: Local<'i64'>;
  fl: Local<'i64'>;
  gl: Local<'i64'>;
  u: Local<'i64'>;
  v: Local<'i64'>;
  q: Local<'i64'>;
  r: Local<'i64'>;
  tmp: Local<'i64'>;
  zeros: Local<'i64'>;
  left: Local<'i64'>;
}

/** Largest carry period k (carry at inner step j when j % k == 0) for which the CIOS loop provably
 * never exceeds 64 bits: simulated on worst-case limb values for all n outer iterations. */
export function ciosCarryPeriod(L: FieldLayout): number {
  const { n, w, mask: M } = L;
  const pl = toLimbs(L.p, w, n);
  const fits = (k: number) => {
    let S = new Array<bigint>(n).fill(0n);
    for (let iter = 0; iter < n; iter++) {
      let t = S[0] + M * M + M * pl[0];
      if (t >= TWO64) return false;
      let c = t >> BigInt(w);
      let pending = true;
      const next = new Array<bigint>(n).fill(0n);
      for (let j = 1; j < n; j++) {
        t = S[j] + M * M + M * pl[j] + (pending ? c : 0n);
        if (t >= TWO64) return false;
        if (j % k === 0) {
          next[j - 1] = M;
          c = t >> BigInt(w);
          pending = true;
        } else {
          next[j - 1] = t;
          pending = false;
        }
      }
      next[n - 1] = pending ? c : 0n;
      S = next;
    }
    let c = 0n;
    for (let j = 0; j < n; j++) {
      if (S[j] + c >= TWO64) return false;
      c = (S[j] + c) >> BigInt(w);
    }
    return true;
  };
  for (let k = n; k >= 1; k--) if (fits(k)) return k;
  throw new Error('no safe carry period');
}

export class FieldGen {
  readonly L: FieldLayout;
  readonly f: string;
  readonly pLimbs: bigint[];
  readonly mulStrategy: MulStrategy;
  readonly carryPeriod: number;

  /** `layout`: a layout other than the w-bit-limbs-in-u32-slots one (the 64-bit-limb subclass, ./field64.ts). */
  constructor(
    readonly mb: ModuleBuilder,
    spec: FieldSpec,
    layout?: FieldLayout,
  ) {
    this.L = layout ?? fieldLayout(spec.p, spec.w);
    this.f = spec.name;
    this.pLimbs = toLimbs(spec.p, this.L.w, this.L.n);
    this.mulStrategy = spec.mul ?? 'cios-loop';
    this.carryPeriod = layout ? 0 : ciosCarryPeriod(this.L);
  }

  /** Montgomery form of a constant, as limbs. */
  montLimbs(v: bigint): bigint[] {
    const { p, R, w, n } = this.L;
    return toLimbs((((v % p) + p) % p * R) % p, w, n);
  }

  describe(): string[] {
    const L = this.L;
    return [
      `field ${this.f}: p = 0x${L.p.toString(16)} (${L.bits} bits)`,
      `  limb width w = ${L.w}, limb count n = ${L.n}, R = 2^${L.n * L.w}, element = ${L.elementBytes} bytes`,
      `  mu0 = -p^-1 mod 2^w = 0x${L.mu0.toString(16)}, CIOS carry period = ${this.carryPeriod}, mul = ${this.mulStrategy}`,
    ];
  }

  // ---------------------------------------------------------------- small emit helpers
  k(v: bigint): I64 {
    return i64.const(v);
  }
  load(fb: FuncBuilder, ptr: I32, prefix: string): Local<'i64'>[] {
    const xs = fb.locals64(prefix, this.L.n);
    xs.forEach((x, j) => x.set(i64.load32_u(ptr, 4 * j)));
    return xs;
  }
  store(fb: FuncBuilder, ptr: I32, limbs: Expr<'i64'>[]): void {
    limbs.forEach((v, j) => fb.i64Store32(ptr, 4 * j, v));
  }
  storeConst(fb: FuncBuilder, ptr: I32, limbs: bigint[]): void {
    limbs.forEach((v, j) => fb.i32Store(ptr, 4 * j, i32.const(Number(v) | 0)));
  }
  /** Propagates carries so that limbs 0..n-2 are < 2^w (limbs must be non-negative). */
  carryAll(fb: FuncBuilder, s: Local<'i64'>[]): void {
    const { w, mask } = this.L;
    for (let j = 0; j + 1 < s.length; j++) {
      s[j + 1].set(i64.add(s[j + 1].get, i64.shr_u(s[j].get, w)));
      s[j].set(i64.and(s[j].get, this.k(mask)));
    }
  }
  /** s ← s + c (constant limbs), normalized; the caller ensures the sum fits R. */
  addConst(fb: FuncBuilder, s: Local<'i64'>[], c: bigint[]): void {
    s.forEach((v, j) => v.set(i64.add(v.get, i64.const(c[j]))));
    this.carryAll(fb, s);
  }
  /**
   * x − y_1 − … − y_k by one signed borrow chain, then + 2p while negative, at most `corrections`
   * times (enough when every input is in [0, 2p): k of them need k corrections): normalized limbs of
   * a value in [0, 2p). Variable-time (branches). fp_sub and fp_neg use one subtrahend; fp_sub_sum
   * (src/codegen/msm.ts) two.
   */
  subCorrected(fb: FuncBuilder, xs: (j: number) => I64, ys: ((j: number) => I64)[], corrections = ys.length): Local<'i64'>[] {
    const { w, n, mask } = this.L;
    const twoPl = toLimbs(2n * this.L.p, w, n);
    const z = fb.locals64('z', n);
    const t = fb.local('t', 'i64');
    for (let j = 0; j < n; j++) {
      const diff = ys.reduce((acc, y) => i64.sub(acc, y(j)), xs(j));
      t.set(j === 0 ? diff : i64.add(diff, i64.shr_s(t.get, w)));
      z[j].set(i64.and(t.get, this.k(mask)));
    }
    // e: the multiple of 2^(nw) the masked limbs lack (−1 while negative); + 2p's carry out adds to it
    const e = corrections > 1 ? fb.local('e', 'i64') : undefined;
    e?.set(i64.shr_s(t.get, w));
    const addTwoP = () => {
      for (let j = 0; j < n; j++) {
        const sum = i64.add(z[j].get, this.k(twoPl[j]));
        t.set(j === 0 ? sum : i64.add(sum, i64.shr_u(t.get, w)));
        z[j].set(i64.and(t.get, this.k(mask)));
      }
      e?.set(i64.add(e.get, i64.shr_u(t.get, w)));
    };
    const correct = (left: number): void => {
      if (left === 0) return;
      // one correction: the final carry of + 2p cancels the borrow and is dropped
      fb.if(e ? i64.ne(e.get, this.k(0n)) : i64.lt_s(t.get, this.k(0n)), () => {
        addTwoP();
        correct(left - 1);
      });
    };
    correct(corrections);
    return z;
  }
  /** s ← s − c if s ≥ c, for normalized limbs s and a constant c < 2^(nw). Variable-time (branch). */
  condSubConst(fb: FuncBuilder, s: Local<'i64'>[], c: bigint): void {
    const { w, n, mask } = this.L;
    const cl = toLimbs(c, w, n);
    const d = fb.locals64('cs_d', n);
    const t = fb.local('cs_t', 'i64');
    for (let j = 0; j < n; j++) {
      const prev = j === 0 ? null : i64.shr_s(t.get, w);
      const diff = i64.sub(s[j].get, this.k(cl[j]));
      t.set(prev ? i64.add(diff, prev) : diff);
      d[j].set(i64.and(t.get, this.k(mask)));
    }
    // t >> w is the final borrow (0 or -1): no borrow means s ≥ c
    fb.if(i64.ge_s(t.get, this.k(0n)), () => {
      for (let j = 0; j < n; j++) s[j].set(d[j].get);
    });
  }
  /** i32 expression: 1 if normalized limbs s < c (constant), else 0. Emits the borrow chain. */
  lessThanConst(fb: FuncBuilder, s: Local<'i64'>[], c: bigint): I32 {
    const { w, n } = this.L;
    const cl = toLimbs(c, w, n);
    const t = fb.local('lt_t', 'i64');
    for (let j = 0; j < n; j++) {
      const diff = i64.sub(s[j].get, this.k(cl[j]));
      t.set(j === 0 ? diff : i64.add(diff, i64.shr_s(t.get, w)));
    }
    return i64.lt_s(t.get, this.k(0n));
  }

  // ---------------------------------------------------------------- Montgomery product
  /**
   * CIOS Montgomery product with carry elision, outer loop over x's limbs as a Wasm loop (measured
   * faster than unrolling in V8, as the montgomery write-up reports), inner loop unrolled.
   * y limbs come from `y` (locals or constants); result normalized in the returned locals.
   * Algorithm: for i: t = S + x_i·y; q = t·mu0 mod 2^w; S = (t + q·p) / 2^w. A carry is taken only
   * at inner steps j ≡ 0 (mod carryPeriod), the period proven safe by ciosCarryPeriod().
   * Cost: 2n² + n i64.mul; result < 2p for x, y < 2p (4p < R).
   */
  montMulCios(fb: FuncBuilder, x: I32, y: I64[], prefix = 'm'): Local<'i64'>[] {
    const { n, w, mask, mu0 } = this.L;
    const pl = this.pLimbs;
    const S = fb.locals64(`${prefix}_s`, n);
    const xi = fb.local(`${prefix}_xi`, 'i64');
    const q = fb.local(`${prefix}_q`, 'i64');
    const t = fb.local(`${prefix}_t`, 'i64');
    const c = fb.local(`${prefix}_c`, 'i64');
    const i = fb.local(`${prefix}_i`, 'i32');
    const K = this.carryPeriod;
    for (const s of S) s.set(this.k(0n));
    i.set(i32.const(0));
    fb.loop((again) => {
      xi.set(i64.load32_u(i32.add(x, i.get)));
      t.set(i64.add(S[0].get, i64.mul(xi.get, y[0])));
      q.set(i64.and(i64.mul(t.get, this.k(mu0)), this.k(mask)));
      c.set(i64.shr_u(i64.add(t.get, i64.mul(q.get, this.k(pl[0]))), w));
      let pending = true;
      for (let j = 1; j < n; j++) {
        let e = i64.add(i64.add(S[j].get, i64.mul(xi.get, y[j])), i64.mul(q.get, this.k(pl[j])));
        if (pending) e = i64.add(e, c.get);
        if (j % K === 0) {
          t.set(e);
          S[j - 1].set(i64.and(t.get, this.k(mask)));
          c.set(i64.shr_u(t.get, w));
          pending = true;
        } else {
          S[j - 1].set(e);
          pending = false;
        }
      }
      S[n - 1].set(pending ? c.get : this.k(0n));
      fb.brIf(again, i32.lt_u(i.tee(i32.add(i.get, i32.const(4))), i32.const(4 * n)));
    });
    this.carryAll(fb, S);
    return S;
  }

  /**
   * Montgomery reduction of a double-width product T (2n limbs, T_k < 2^w except that limbs may
   * carry up to 2^(64-w)), separated operand scanning: for i: q = T_i·mu0; T += q·p·2^(iw).
   * Cost: n² + n i64.mul. Returns the n result limbs (normalized), < 2p when T < 4p².
   */
  montReduceWide(fb: FuncBuilder, T: Local<'i64'>[], prefix: string): Local<'i64'>[] {
    const { n, w, mask, mu0 } = this.L;
    const pl = this.pLimbs;
    const q = fb.local(`${prefix}_q`, 'i64');
    // bound: each T_k receives ≤ n products q·p_j < 2^(2w) plus its limb and a carry
    const bound = BigInt(n) * mask * mask + (1n << BigInt(w)) + (1n << BigInt(64 - w));
    if (bound >= TWO64) throw new Error('montReduceWide: limb overflow possible');
    for (let i = 0; i < n; i++) {
      q.set(i64.and(i64.mul(T[i].get, this.k(mu0)), this.k(mask)));
      // low limb becomes 0 mod 2^w: only its carry survives
      const low = i64.shr_u(i64.add(T[i].get, i64.mul(q.get, this.k(pl[0]))), w);
      T[i + 1].set(i64.add(i64.add(T[i + 1].get, i64.mul(q.get, this.k(pl[1]))), low));
      for (let j = 2; j < n; j++) {
        if (pl[j] === 0n) continue;
        T[i + j].set(i64.add(T[i + j].get, i64.mul(q.get, this.k(pl[j]))));
      }
      // keep the next low limb's carry small for the next round
      if (i + 1 < n) {
        T[i + 2].set(i64.add(T[i + 2].get, i64.shr_u(T[i + 1].get, w)));
        T[i + 1].set(i64.and(T[i + 1].get, this.k(mask)));
      }
    }
    const S = T.slice(n, 2 * n);
    this.carryAll(fb, S);
    return S;
  }

  /** Normalizes product columns (non-negative, < 2^64) to w-bit limbs, top limb keeps the rest. */
  normalizeColumns(fb: FuncBuilder, T: Local<'i64'>[]): void {
    this.carryAll(fb, T);
  }

  /**
   * Montgomery product fed by product columns, the reduction finely integrated into the column scan
   * (FIPS: Koç, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication algorithms", IEEE
   * Micro 1996). `column(k)` returns the exact product column P_k (0 ≤ P_k < 2^64, k < 2n−1); it is
   * called once per k in increasing order, so a column generator may emit its work there.
   * Contract: x, y < 2p with 4p < R → result normalized (limbs < 2^w), < 2p.
   * Algorithm: P_k is split at once into P_k mod 2^w (column k) and ⌊P_k/2^w⌋ (column k+1), a
   * one-step normalization with no carry chain; column k < n sums those, the carry and q_j·p_(k−j)
   * (j < k), sets q_k = acc·mu0 mod 2^w and carries (acc + q_k·p_0)/2^w; column k ≥ n yields
   * output limb k−n. The Wasm is emitted in data-flow order, product columns FIPS_LOOKAHEAD columns
   * ahead of the q chain: V8's Turboshaft (Node 22+, Chromium) keeps program order where TurboFan
   * (Node 20) rescheduled, so the order in the module is the order the CPU's window sees.
   * Cost: n² + n i64.mul besides the columns; the one serial path is the q chain (per column two
   * muls, two adds, a shift).
   */
  montFips(fb: FuncBuilder, column: (k: number) => I64, prefix: string): Local<'i64'>[] {
    const { n, w, mask, mu0 } = this.L;
    const pl = this.pLimbs;
    const pMax = pl.reduce((a, b) => (a > b ? a : b));
    const bound = mask + 2n * (1n << BigInt(64 - w)) + BigInt(n) * mask * pMax;
    if (bound >= TWO64 || BigInt(n) * mask * mask >= TWO64) throw new Error('montFips: column overflow possible');
    const q = fb.locals64(`${prefix}_q`, n);
    const out = fb.locals64(`${prefix}_o`, n);
    const ahead = Math.min(FIPS_LOOKAHEAD, 2 * n - 1);
    const Ps = fb.locals64(`${prefix}_p`, ahead + 1);
    const Pk = (k: number) => Ps[k % (ahead + 1)];
    const hi = fb.local(`${prefix}_h`, 'i64');
    const acc = fb.local(`${prefix}_a`, 'i64');
    const c = fb.local(`${prefix}_c`, 'i64');
    for (let k = 0; k < ahead && k < 2 * n - 1; k++) Pk(k).set(column(k));
    for (let k = 0; k < 2 * n; k++) {
      // independent terms first, the ones on the q chain (latest q, carry) last
      const terms: I64[] = [];
      const P = Pk(k);
      if (k + ahead < 2 * n - 1) Pk(k + ahead).set(column(k + ahead));
      if (k < 2 * n - 1) terms.push(i64.and(P.get, this.k(mask)));
      if (k > 0) terms.push(hi.get);
      for (let j = Math.max(0, k - n + 1); j < Math.min(k, n); j++) if (pl[k - j] !== 0n) terms.push(i64.mul(q[j].get, this.k(pl[k - j])));
      if (k > 0) terms.push(c.get);
      acc.set(terms.reduce((s, t) => i64.add(s, t)));
      if (k < 2 * n - 1) hi.set(i64.shr_u(P.get, w));
      if (k < n) {
        q[k].set(i64.and(i64.mul(acc.get, this.k(mu0)), this.k(mask)));
        c.set(i64.shr_u(i64.add(acc.get, i64.mul(q[k].get, this.k(pl[0]))), w));
      } else if (k < 2 * n - 1) {
        out[k - n].set(i64.and(acc.get, this.k(mask)));
        c.set(i64.shr_u(acc.get, w));
      } else {
        out[n - 1].set(acc.get);
      }
    }
    return out;
  }

  /**
   * Product columns of x·y for montFips by `depth` levels of subtractive Karatsuba (the identity of
   * x·y = L + X^h·(L + H + (x_lo − x_hi)(y_hi − y_lo)) + X^(2h)·H, applied again to each of the three
   * half products, down to halves of fewer than 4 limbs; depth 0 is schoolbook), every column of every sub-product computed once, where first needed, into a local.
   * Exact: Karatsuba is a ring identity, so wrapping i64 arithmetic (intermediates of either sign,
   * differences of differences up to 2^(w+depth)) yields each true column (< n·2^(2w) < 2^64).
   * Cost for n = 13: 134 i64.mul at depth 1, 109 at depth 2, 93 at depth 3, for ≈ 3 extra adds per
   * saved multiplication (the multiplier, not the adders, bounds the product: docs/field.md).
   */
  karatsubaTreeColumns(fb: FuncBuilder, x: (j: number) => I64, y: (j: number) => I64, m: number, depth: number, prefix: string): (k: number) => I64 {
    if (depth === 0 || m < 4) {
      return this.memoColumns(fb, m, prefix, (k) => {
        const terms: I64[] = [];
        for (let i = Math.max(0, k - m + 1); i <= Math.min(k, m - 1); i++) terms.push(i64.mul(x(i), y(k - i)));
        return terms.reduce((s, t) => i64.add(s, t));
      });
    }
    const h = Math.ceil(m / 2);
    const mh = m - h;
    const L = this.karatsubaTreeColumns(fb, x, y, h, depth - 1, `${prefix}l`);
    const H = this.karatsubaTreeColumns(fb, (j) => x(h + j), (j) => y(h + j), mh, depth - 1, `${prefix}h`);
    // D = (x_lo − x_hi)(y_hi − y_lo)
    const [dx, dy] = this.halfDifferences(fb, [x, y], [1, -1], h, mh, prefix);
    const D = this.karatsubaTreeColumns(fb, dx, dy, h, depth - 1, `${prefix}d`);
    return this.karatsubaNode(fb, m, h, L, H, D, 1, prefix);
  }

  /**
   * Square columns of x for montFips by `depth` levels of Karatsuba squaring,
   * x² = L + X^h·(L + H − (x_lo − x_hi)²) + X^(2h)·H with L = x_lo², H = x_hi², down to halves of
   * fewer than 4 limbs squared by symmetry (doubled limbs); every column computed once, into a local.
   * Exact for the reason given at karatsubaTreeColumns. Cost for n = 13: 77 i64.mul at depth 1, 70 at
   * depth 2, 66 at depth 3 (91 by symmetry alone).
   */
  squareTreeColumns(fb: FuncBuilder, x: (j: number) => I64, m: number, depth: number, prefix: string): (k: number) => I64 {
    if (depth === 0 || m < 4) {
      const d = fb.locals64(`${prefix}_2x`, m);
      let doubled = 1;
      return this.memoColumns(fb, m, prefix, (k) => {
        for (; doubled < Math.min(k + 1, m); doubled++) d[doubled].set(i64.shl(x(doubled), 1));
        const terms: I64[] = [];
        for (let i = Math.max(0, k - m + 1); 2 * i < k; i++) terms.push(i64.mul(x(i), d[k - i].get));
        if (k % 2 === 0) terms.push(i64.mul(x(k / 2), x(k / 2)));
        return terms.reduce((s, t) => i64.add(s, t));
      });
    }
    const h = Math.ceil(m / 2);
    const mh = m - h;
    const L = this.squareTreeColumns(fb, x, h, depth - 1, `${prefix}l`);
    const H = this.squareTreeColumns(fb, (j) => x(h + j), mh, depth - 1, `${prefix}h`);
    const [dx] = this.halfDifferences(fb, [x], [1], h, mh, prefix);
    const D = this.squareTreeColumns(fb, dx, h, depth - 1, `${prefix}d`);
    return this.karatsubaNode(fb, m, h, L, H, D, -1, prefix);
  }

  /** The 2m − 1 columns of a product of m-limb polynomials, each `column(k)` stored in a local at its first request. */
  private memoColumns(fb: FuncBuilder, m: number, prefix: string, column: (k: number) => I64): (k: number) => I64 {
    const cols = fb.locals64(`${prefix}_c`, 2 * m - 1);
    const made: boolean[] = [];
    return (k) => {
      if (!made[k]) {
        cols[k].set(column(k));
        made[k] = true;
      }
      return cols[k].get;
    };
  }

  /**
   * Getters of the h limbs of (lo − hi)·sign for each polynomial (hi has mh ≤ h limbs, zero above):
   * sign 1 gives x_lo − x_hi, −1 gives x_hi − x_lo. All are set into locals at the first read.
   */
  private halfDifferences(fb: FuncBuilder, polys: ((j: number) => I64)[], signs: (1 | -1)[], h: number, mh: number, prefix: string): ((j: number) => I64)[] {
    const locals = polys.map((_, i) => fb.locals64(`${prefix}_d${'xy'[i]}`, h));
    let set = false;
    const ensure = () => {
      if (set) return;
      set = true;
      polys.forEach((p, i) => {
        for (let j = 0; j < h; j++) {
          const [a, b] = signs[i] > 0 ? [p(j), j < mh ? p(h + j) : undefined] : [j < mh ? p(h + j) : this.k(0n), p(j)];
          locals[i][j].set(b === undefined ? a : i64.sub(a, b));
        }
      });
    };
    return locals.map((l) => (j: number) => {
      ensure();
      return l[j].get;
    });
  }

  /** Columns of L + X^h·(L + H + sign·D) + X^(2h)·H for half products L, D (h limbs) and H (m − h). */
  private karatsubaNode(fb: FuncBuilder, m: number, h: number, L: (k: number) => I64, H: (k: number) => I64, D: (k: number) => I64, sign: 1 | -1, prefix: string): (k: number) => I64 {
    const mh = m - h;
    return this.memoColumns(fb, m, prefix, (k) => {
      const terms: I64[] = [];
      if (k < 2 * h - 1) terms.push(L(k));
      const j = k - h;
      let d: I64 | undefined;
      if (j >= 0 && j < 2 * h - 1) {
        terms.push(L(j));
        if (j < 2 * mh - 1) terms.push(H(j));
        d = D(j);
      }
      if (k - 2 * h >= 0 && k - 2 * h < 2 * mh - 1) terms.push(H(k - 2 * h));
      const sum = terms.reduce((s, t) => i64.add(s, t));
      return d === undefined ? sum : sign > 0 ? i64.add(sum, d) : i64.sub(sum, d);
    });
  }

  /**
   * Karatsuba levels of the product and square columns of the column-scanned (fips) variants:
   * comba-fips schoolbook (0, 0), karatsuba-fips one level with symmetric squares (1, 0), the
   * multi-level ones (d, d); undefined for the variants with a separate reduction.
   */
  fipsLevels(): { mul: number; sqr: number } | undefined {
    return FIPS_LEVELS[this.mulStrategy];
  }

  /**
   * The 2n columns of x·y without reduction (column 2n − 1 zero), each exact (< n·2^(2w)): at the
   * variant's Karatsuba levels, one level for the variants with a separate reduction.
   */
  productColumns(fb: FuncBuilder, xs: Local<'i64'>[], ys: Local<'i64'>[], prefix: string): Local<'i64'>[] {
    const depth = this.fipsLevels()?.mul ?? 1;
    return this.columnLocals(fb, this.karatsubaTreeColumns(fb, (j) => xs[j].get, (j) => ys[j].get, this.L.n, depth, prefix), prefix);
  }

  /** The 2n columns of x² without reduction (column 2n − 1 zero), by symmetry: n(n+1)/2 i64.mul. */
  squareProduct(fb: FuncBuilder, x: Local<'i64'>[], prefix: string): Local<'i64'>[] {
    return this.columnLocals(fb, this.squareTreeColumns(fb, (j) => x[j].get, this.L.n, 0, prefix), prefix);
  }

  /** Columns 0 … 2n − 2 of a product into 2n fresh locals, the last one zero (checked to fit 64 bits). */
  private columnLocals(fb: FuncBuilder, column: (k: number) => I64, prefix: string): Local<'i64'>[] {
    const { n, mask } = this.L;
    if (BigInt(n) * mask * mask >= TWO64) throw new Error(`${this.f}: product columns can overflow 64 bits`);
    const T = fb.locals64(`${prefix}_T`, 2 * n);
    for (let k = 0; k < 2 * n - 1; k++) T[k].set(column(k));
    T[2 * n - 1].set(this.k(0n));
    return T;
  }

  /**
   * x·y·R⁻¹ of limbs held in locals (normalized limbs < 2p for x·y < 16p²): the product form of the
   * variant — columns scanned with the reduction integrated (fips variants), else one level of
   * Karatsuba then the separated reduction (also for 'cios-loop', whose CIOS reads x from memory).
   * `prefix` names the work locals; the separated forms return some of them (the upper columns), so
   * products whose inputs or results are live at once need different prefixes.
   */
  productOfLocals(fb: FuncBuilder, xs: Local<'i64'>[], ys: Local<'i64'>[], prefix: string, reducePrefix: string): Local<'i64'>[] {
    const levels = this.fipsLevels();
    if (levels) return this.montFips(fb, this.karatsubaTreeColumns(fb, (j) => xs[j].get, (j) => ys[j].get, this.L.n, levels.mul, prefix), reducePrefix);
    const T = this.productColumns(fb, xs, ys, prefix);
    this.normalizeColumns(fb, T);
    return this.montReduceWide(fb, T, reducePrefix);
  }

  // ---------------------------------------------------------------- kernel primitives
  // The kernels below are written over these (and the limb helpers above); the 64-bit-limb
  // generator (./field64.ts) overrides them, not the kernel list.

  /** x·y·R⁻¹ for the elements at x and y (< 2p), into fresh locals (< 2p): the configured product. */
  protected montMul(fb: FuncBuilder, x: I32, y: I32): Local<'i64'>[] {
    if (this.mulStrategy !== 'cios-loop') return this.productOfLocals(fb, this.load(fb, x, 'x'), this.load(fb, y, 'y'), 'k', 'r');
    const ys = this.load(fb, y, 'y');
    return this.montMulCios(fb, x, ys.map((v) => v.get));
  }
  /** x²·R⁻¹ for the element at x (< 2p), into fresh locals (< 2p). */
  protected montSqr(fb: FuncBuilder, x: I32): Local<'i64'>[] {
    return this.squareOfLocals(fb, this.load(fb, x, 'x'), 'sq', 'r');
  }
  /** x²·R⁻¹ of limbs held in locals (normalized, x < 2p) into fresh locals (< 2p): the variant's square form. */
  squareOfLocals(fb: FuncBuilder, xs: Local<'i64'>[], prefix: string, reducePrefix: string): Local<'i64'>[] {
    const levels = this.fipsLevels();
    if (levels) return this.montFips(fb, this.squareTreeColumns(fb, (j) => xs[j].get, this.L.n, levels.sqr, prefix), reducePrefix);
    const T = this.squareProduct(fb, xs, prefix);
    this.normalizeColumns(fb, T);
    return this.montReduceWide(fb, T, reducePrefix);
  }
  /** xs + ys in [0, 2p) for xs, ys in [0, 2p) (may reuse xs). */
  protected addMod(fb: FuncBuilder, xs: Local<'i64'>[], ys: (j: number) => I64): Local<'i64'>[] {
    xs.forEach((x, j) => x.set(i64.add(x.get, ys(j))));
    this.carryAll(fb, xs);
    this.condSubConst(fb, xs, 2n * this.L.p);
    return xs;
  }
  /** 2·xs in [0, 2p) for xs in [0, 2p) (may reuse xs). */
  protected doubleMod(fb: FuncBuilder, xs: Local<'i64'>[]): Local<'i64'>[] {
    xs.forEach((x) => x.set(i64.shl(x.get, 1)));
    this.carryAll(fb, xs);
    this.condSubConst(fb, xs, 2n * this.L.p);
    return xs;
  }
  /** xs − ys in [0, 2p) for xs, ys in [0, 2p), into fresh locals. */
  protected subMod(fb: FuncBuilder, xs: (j: number) => I64, ys: (j: number) => I64): Local<'i64'>[] {
    return this.subCorrected(fb, xs, [ys]);
  }
  /** How the arithmetic kernels compute (their headers' second part). */
  protected arithmeticNotes(): Record<'mul' | 'sqr' | 'add' | 'sub', string> {
    const levels = this.fipsLevels();
    return {
      mul: {
        'karatsuba': 'Karatsuba product (one level) + separated Montgomery reduction; see productColumns.',
        'karatsuba-fips': 'Karatsuba product columns (one level) scanned with the reduction finely integrated; see karatsubaTreeColumns, montFips.',
        'karatsuba2-fips': 'Karatsuba product columns (two levels) scanned with the reduction finely integrated; see karatsubaTreeColumns, montFips.',
        'karatsuba3-fips': 'Karatsuba product columns (three levels) scanned with the reduction finely integrated; see karatsubaTreeColumns, montFips.',
        'comba-fips': 'Schoolbook product columns scanned with the reduction finely integrated; see karatsubaTreeColumns, montFips.',
        'cios-loop': `CIOS Montgomery, outer loop in Wasm, carry every ${this.carryPeriod} inner steps (bound-simulated).`,
      }[this.mulStrategy],
      sqr: levels?.sqr
        ? `Karatsuba squaring columns (${levels.sqr} levels, symmetric at the leaves) scanned with the reduction finely integrated (n² + n muls); see squareTreeColumns, montFips.`
        : levels
        ? 'Symmetric product columns (n(n+1)/2 muls) scanned with the reduction finely integrated (n² + n muls); see montFips.'
        : 'Symmetric product (n(n+1)/2 muls) + separated Montgomery reduction (n² + n muls).',
      add: 'Cost: 2n adds + carry + one 2p subtraction.',
      sub: 'Adds 2p when negative.',
    };
  }
  /** Memory offset of value byte k of a byteLength-byte integer stored little- or big-endian. */
  protected byteAt(k: number, endian: 'le' | 'be'): number {
    return endian === 'le' ? k : this.L.byteLength - 1 - k;
  }
  /** Limb j (a w-bit value) of the byteLength-byte integer at src. */
  protected limbFromBytes(src: I32, j: number, endian: 'le' | 'be'): I64 {
    const { w, mask, byteLength: B } = this.L;
    const byteAt = (k: number) => this.byteAt(k, endian);
    const lo = j * w;
    const hi = lo + w; // exclusive
    const parts: I64[] = [];
    for (let k = Math.floor(lo / 8); k < B && 8 * k < hi; k++) {
      const b = i64.extend_i32_u(i32.load8_u(src, byteAt(k)));
      const shift = 8 * k - lo;
      parts.push(shift >= 0 ? i64.shl(b, shift) : i64.shr_u(b, -shift));
    }
    return parts.length ? i64.and(parts.reduce((a, b2) => i64.or(a, b2)), this.k(mask)) : this.k(0n);
  }
  /** Value byte k (low 8 bits of the i32) of the integer held in limbs S. */
  protected byteOfLimbs(S: Local<'i64'>[], k: number): I32 {
    const { n, w } = this.L;
    const j = Math.floor((8 * k) / w);
    const o = 8 * k - j * w;
    let e: I64 = i64.shr_u(S[j].get, o);
    if (o + 8 > w && j + 1 < n) e = i64.or(e, i64.shl(S[j + 1].get, w - o));
    return i32.wrap_i64(e);
  }

  // ---------------------------------------------------------------- kernels
  /** Every kernel of the field, in module order (one list for both limb layouts). */
  emitAll(): void {
    const { mb, f } = this;
    const { n, p } = this.L;
    const ptr = { out: 'i32', x: 'i32', y: 'i32' } as const;
    const notes = this.arithmeticNotes();
    const range = '[0, 2p)';

    mb.func(`${f}_mul`, ptr, undefined, [
      `${f}_mul(out, x, y): out = x·y·R⁻¹ mod p. x, y in ${range} → out in ${range}; out may alias x or y.`,
      notes.mul,
    ], (fb) => {
      const S = this.montMul(fb, fb.param('x', 'i32').get, fb.param('y', 'i32').get);
      this.store(fb, fb.param('out', 'i32').get, S.map((s) => s.get));
    });
    mb.func(`${f}_sqr`, { out: 'i32', x: 'i32' }, undefined, [
      `${f}_sqr(out, x): out = x²·R⁻¹ mod p, x in ${range} → ${range}; may alias.`,
      notes.sqr,
    ], (fb) => {
      const S = this.montSqr(fb, fb.param('x', 'i32').get);
      this.store(fb, fb.param('out', 'i32').get, S.map((s) => s.get));
    });

    // add/sub/neg/double: the redundant range [0, 2p), one correction by 2p
    mb.func(`${f}_add`, ptr, undefined, [`${f}_add(out, x, y): x + y, inputs and output in ${range}. ${notes.add}`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      const ys = this.load(fb, fb.param('y', 'i32').get, 'y');
      const s = this.addMod(fb, xs, (j) => ys[j].get);
      this.store(fb, fb.param('out', 'i32').get, s.map((v) => v.get));
    });
    mb.func(`${f}_double`, { out: 'i32', x: 'i32' }, undefined, [`${f}_double(out, x): 2x, in ${range}.`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      const s = this.doubleMod(fb, xs);
      this.store(fb, fb.param('out', 'i32').get, s.map((v) => v.get));
    });
    mb.func(`${f}_sub`, ptr, undefined, [`${f}_sub(out, x, y): x − y, inputs and output in ${range}. ${notes.sub}`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      const ys = this.load(fb, fb.param('y', 'i32').get, 'y');
      const z = this.subMod(fb, (j) => xs[j].get, (j) => ys[j].get);
      this.store(fb, fb.param('out', 'i32').get, z.map((v) => v.get));
    });
    mb.func(`${f}_neg`, { out: 'i32', x: 'i32' }, undefined, [`${f}_neg(out, x): −x in ${range} (0 stays 0).`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      const z = this.subMod(fb, () => this.k(0n), (j) => xs[j].get);
      this.store(fb, fb.param('out', 'i32').get, z.map((v) => v.get));
    });

    this.emitPredicatesAndConstants();

    // conversions: Montgomery product with a constant second operand
    const constMul = (name: string, c: bigint[], doc: string, canonical: boolean) =>
      mb.func(name, { out: 'i32', x: 'i32' }, undefined, [doc], (fb) => {
        const S = this.montMulCios(fb, fb.param('x', 'i32').get, c.map((v) => this.k(v)));
        if (canonical) this.condSubConst(fb, S, p);
        this.store(fb, fb.param('out', 'i32').get, S.map((s) => s.get));
      });
    const { w } = this.L;
    constMul(`${f}_to_mont`, toLimbs((this.L.R * this.L.R) % p, w, n), `${f}_to_mont(out, x): x·R mod p for plain limbs x < R (any value that fits) → ${range}.`, false);
    constMul(`${f}_from_mont`, toLimbs(1n, w, n), `${f}_from_mont(out, x): x·R⁻¹ mod p, canonical [0, p): plain limbs out.`, true);

    this.emitBytes();
    this.emitPow();
    this.emitSqrt();
    this.emitInverse();
    this.emitBatchInverse();
  }

  /**
   * reduce, eq, is_zero, is_one, copy, set_zero, set_one: written over the limb primitives (load,
   * store, condSubConst, storeConst), so the 64-bit-limb subclass emits them unchanged.
   */
  protected emitPredicatesAndConstants(): void {
    const { mb, f } = this;
    const { n, p } = this.L;
    mb.func(`${f}_reduce`, { out: 'i32', x: 'i32' }, undefined, [`${f}_reduce(out, x): canonical representative in [0, p) of x in [0, 2p).`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      this.condSubConst(fb, xs, p);
      this.store(fb, fb.param('out', 'i32').get, xs.map((x) => x.get));
    });
    mb.func(`${f}_eq`, { x: 'i32', y: 'i32' }, 'i32', [`${f}_eq(x, y) → 1 if x ≡ y (mod p), else 0. Inputs in [0, 2p).`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      const ys = this.load(fb, fb.param('y', 'i32').get, 'y');
      this.condSubConst(fb, xs, p);
      this.condSubConst(fb, ys, p);
      fb.ret(xs.map((x, j) => i64.eq(x.get, ys[j].get)).reduce((a, b) => i32.and(a, b)));
    });
    mb.func(`${f}_is_zero`, { x: 'i32' }, 'i32', [`${f}_is_zero(x) → 1 if x ≡ 0 (mod p) (x = 0 or x = p), else 0.`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      const isZero = xs.map((x) => x.get).reduce((a, b) => i64.or(a, b));
      const isP = xs.map((x, j) => i64.xor(x.get, this.k(this.pLimbs[j]))).reduce((a, b) => i64.or(a, b));
      fb.ret(i32.or(i64.eqz(isZero), i64.eqz(isP)));
    });
    const oneLimbs = this.montLimbs(1n);
    mb.func(`${f}_is_one`, { x: 'i32' }, 'i32', [`${f}_is_one(x) → 1 if x ≡ 1 (Montgomery form R mod p, or R mod p + p).`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      this.condSubConst(fb, xs, p);
      fb.ret(xs.map((x, j) => i64.eq(x.get, this.k(oneLimbs[j]))).reduce((a, b) => i32.and(a, b)));
    });
    mb.func(`${f}_copy`, { out: 'i32', x: 'i32' }, undefined, [`${f}_copy(out, x)`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      this.store(fb, fb.param('out', 'i32').get, xs.map((x) => x.get));
    });
    mb.func(`${f}_set_zero`, { out: 'i32' }, undefined, [`${f}_set_zero(out)`], (fb) => {
      this.storeConst(fb, fb.param('out', 'i32').get, new Array(n).fill(0n));
    });
    mb.func(`${f}_set_one`, { out: 'i32' }, undefined, [`${f}_set_one(out): 1 in Montgomery form.`], (fb) => {
      this.storeConst(fb, fb.param('out', 'i32').get, oneLimbs);
    });
  }

  /**
   * The byteLength-byte integer at src (little- or big-endian) into the limbs at out as it is (no
   * Montgomery conversion; src may alias out: every byte is read first); → a local, 1 if it is < p.
   */
  readBytes(fb: FuncBuilder, out: I32, src: I32, endian: 'le' | 'be'): Local<'i32'> {
    const { n, p } = this.L;
    const s = fb.locals64('s', n);
    for (let j = 0; j < n; j++) s[j].set(this.limbFromBytes(src, j, endian));
    const ok = fb.local('ok', 'i32');
    ok.set(this.lessThanConst(fb, s, p));
    this.store(fb, out, s.map((v) => v.get));
    return ok;
  }

  /** Byte codecs: canonical encodings of byteLength bytes, little- or big-endian. */
  protected emitBytes(): void {
    const { mb, f } = this;
    const { n, w, p, byteLength: B } = this.L;
    for (const endian of ['le', 'be'] as const) {
      mb.func(`${f}_from_bytes_${endian}`, { out: 'i32', src: 'i32' }, 'i32', [
        `${f}_from_bytes_${endian}(out, src) → 1 if the ${B}-byte ${endian.toUpperCase()} integer at src is < p, else 0.`,
        `out = that integer in Montgomery form (converted even when ≥ p; the caller decides). src may alias out.`,
      ], (fb) => {
        const out = fb.param('out', 'i32');
        const ok = this.readBytes(fb, out.get, fb.param('src', 'i32').get, endian);
        fb.call(`${f}_to_mont`, out.get, out.get);
        fb.ret(ok.get);
      });
      mb.func(`${f}_to_bytes_${endian}`, { dst: 'i32', x: 'i32' }, undefined, [
        `${f}_to_bytes_${endian}(dst, x): canonical ${B}-byte ${endian.toUpperCase()} encoding of x (Montgomery form in).`,
      ], (fb) => {
        const S = this.montMulCios(fb, fb.param('x', 'i32').get, toLimbs(1n, w, n).map((v) => this.k(v)));
        this.condSubConst(fb, S, p);
        const dst = fb.param('dst', 'i32');
        for (let k = 0; k < B; k++) fb.i32Store8(dst.get, this.byteAt(k, endian), this.byteOfLimbs(S, k));
      });
    }
  }

  /** Generic exponentiation by a little-endian byte string in memory (square-and-multiply). */
  protected emitPow(): void {
    const { mb, f } = this;
    const EB = this.L.elementBytes;
    mb.func(`${f}_pow`, { out: 'i32', x: 'i32', e: 'i32', eBytes: 'i32', scratch: 'i32' }, undefined, [
      `${f}_pow(out, x, e, eBytes, scratch): out = x^e, e an eBytes-byte little-endian integer at e.`,
      `scratch: 2 elements (${2 * EB} bytes). out may alias x. Variable-time in e. Cost ≈ log2(e)·(S + M/2).`,
    ], (fb) => {
      const out = fb.param('out', 'i32');
      const scratch = fb.param('scratch', 'i32');
      const e = fb.param('e', 'i32');
      const base = scratch.get;
      const acc = i32.add(scratch.get, i32.const(EB));
      const k = fb.local('k', 'i32');
      const bit = fb.local('bit', 'i32');
      const byte = fb.local('byte', 'i32');
      fb.call(`${f}_copy`, base, fb.param('x', 'i32').get);
      fb.call(`${f}_set_one`, acc);
      k.set(fb.param('eBytes', 'i32').get);
      fb.block((done) => {
        fb.loop((bytes) => {
          fb.brIf(done, i32.eqz(k.get));
          k.set(i32.sub(k.get, i32.const(1)));
          byte.set(i32.load8_u(i32.add(e.get, k.get)));
          bit.set(i32.const(7));
          fb.loop((bits) => {
            fb.call(`${f}_sqr`, acc, acc);
            fb.if(i32.and(i32.shr_u(byte.get, bit.get), i32.const(1)), () => fb.call(`${f}_mul`, acc, acc, base));
            fb.brIf(bits, i32.ge_s(bit.tee(i32.sub(bit.get, i32.const(1))), i32.const(0)));
          });
          fb.br(bytes);
        });
      });
      fb.call(`${f}_copy`, out.get, acc);
    }, { scratch: 2 * EB });
  }

  /** Unrolled fixed-exponent power with a 4-bit window table (table[k] = x^k at table + k·EB). */
  protected powConst(fb: FuncBuilder, out: I32, x: I32, e: bigint, table: I32): void {
    const { f } = this;
    const EB = this.L.elementBytes;
    if (e <= 0n) throw new Error('powConst: exponent must be positive');
    const at = (k: number) => i32.add(table, i32.const(k * EB));
    fb.comment(`x^0x${e.toString(16)} by 4-bit fixed windows`);
    fb.call(`${f}_copy`, at(1), x);
    for (let k = 2; k < 16; k++) fb.call(`${f}_mul`, at(k), at(k - 1), at(1));
    const nibbles: number[] = [];
    for (let v = e; v > 0n; v >>= 4n) nibbles.push(Number(v & 15n));
    nibbles.reverse();
    fb.call(`${f}_copy`, out, at(nibbles[0]));
    for (const nib of nibbles.slice(1)) {
      for (let s = 0; s < 4; s++) fb.call(`${f}_sqr`, out, out);
      if (nib) fb.call(`${f}_mul`, out, out, at(nib));
    }
  }

  /**
   * Square root by Tonelli–Shanks (p − 1 = 2^s·t, t odd), variable-time; for s = 1 it is the
   * single exponentiation x^((p+1)/4) plus one check. Returns 1 and out = a root if x is a square
   * (0 → 0), else returns 0 (out undefined). scratch: 21 elements.
   */
  protected emitSqrt(): void {
    const { mb, f } = this;
    const { p, elementBytes: EB } = this.L;
    let s = 0;
    let t = p - 1n;
    while (t % 2n === 0n) {
      t /= 2n;
      s++;
    }
    // a quadratic non-residue g: the least integer with Legendre symbol −1
    let g = 2n;
    while (modPow(g, (p - 1n) / 2n, p) !== p - 1n) g++;
    const z0 = modPow(g, t, p);
    mb.func(`${f}_sqrt`, { out: 'i32', x: 'i32', scratch: 'i32' }, 'i32', [
      `${f}_sqrt(out, x, scratch) → 1 and out = √x if x is a square, else 0. Tonelli–Shanks, s = ${s}, non-residue ${g}.`,
      `scratch: 21 elements (${21 * EB} bytes). out must not alias scratch. Variable-time.`,
    ], (fb) => {
      const out = fb.param('out', 'i32');
      const x = fb.param('x', 'i32');
      const scratch = fb.param('scratch', 'i32');
      const el = (k: number) => i32.add(scratch.get, i32.const(k * EB));
      const Y = el(16), C = el(17), Z = el(18), B = el(19), X = el(20);
      const m = fb.local('m', 'i32');
      const k = fb.local('k', 'i32');
      fb.if(fb.callExpr('i32', `${f}_is_zero`, x.get), () => {
        fb.call(`${f}_set_zero`, out.get);
        fb.ret(i32.const(1));
      });
      fb.call(`${f}_copy`, X, x.get);
      if (t === 1n) fb.call(`${f}_set_one`, B);
      else this.powConst(fb, B, X, (t - 1n) / 2n, el(0)); // b = x^((t−1)/2)
      fb.call(`${f}_mul`, Y, X, B); // y = x^((t+1)/2)
      fb.call(`${f}_mul`, C, Y, B); // c = x^t
      this.storeConst(fb, Z, this.montLimbs(z0));
      m.set(i32.const(s));
      fb.block((done) => {
        fb.loop((again) => {
          fb.brIf(done, fb.callExpr('i32', `${f}_is_one`, C));
          // least k ≥ 1 with c^(2^k) = 1; k = m means x is a non-residue
          fb.call(`${f}_copy`, B, C);
          k.set(i32.const(0));
          fb.loop((findK) => {
            fb.call(`${f}_sqr`, B, B);
            k.set(i32.add(k.get, i32.const(1)));
            fb.if(i32.ge_u(k.get, m.get), () => fb.ret(i32.const(0)));
            fb.brIf(findK, i32.eqz(fb.callExpr('i32', `${f}_is_one`, B)));
          });
          // b = z^(2^(m−k−1)); y = y·b; z = b²; c = c·z; m = k
          fb.call(`${f}_copy`, B, Z);
          m.set(i32.sub(i32.sub(m.get, k.get), i32.const(1)));
          fb.block((sqDone) => {
            fb.loop((sq) => {
              fb.brIf(sqDone, i32.eqz(m.get));
              fb.call(`${f}_sqr`, B, B);
              m.set(i32.sub(m.get, i32.const(1)));
              fb.br(sq);
            });
          });
          fb.call(`${f}_mul`, Y, Y, B);
          fb.call(`${f}_sqr`, Z, B);
          fb.call(`${f}_mul`, C, C, Z);
          m.set(k.get);
          fb.br(again);
        });
      });
      fb.call(`${f}_copy`, out.get, Y);
      fb.ret(i32.const(1));
    }, { scratch: 21 * EB });
  }

  /**
   * Inverse by batched variable-time divsteps (Bernstein–Yang "safegcd", the var-time form with
   * trailing-zero skipping as in Pornin/libsecp256k1): N = w divsteps at a time are computed on the
   * low 64 bits of f, g into a 2×2 matrix (entries ≤ 2^N, |u|+|v| ≤ 2^N), which is then applied to
   * the full signed f, g (exact division by 2^N) and to the Bézout coefficients d, e modulo p
   * (adding md·p to make the division exact, then one correction into [0, p)).
   * Start: f = p, g = x̃ (canonical), d = 0, e = R² mod p, so that at the end f = ±1 and
   * ±d = R²/x̃ = (x⁻¹)·R: the Montgomery-form inverse with no extra multiplication.
   * Inverse of 0 is defined as 0. Variable-time.
   */
  protected emitInverse(): void {
    const { mb, f } = this;
    const { n, w, mask, p, mu0, R } = this.L;
    const N = w;
    const pl = this.pLimbs;
    const R2 = toLimbs((R * R) % p, w, n);
    mb.func(`${f}_inv`, { out: 'i32', x: 'i32' }, undefined, [
      `${f}_inv(out, x): out = x⁻¹ (Montgomery form in and out), 0 → 0; may alias. Variable-time.`,
      `Bernstein–Yang divsteps, ${N} per batch on the low bits, matrix applied to f, g, d, e (4n muls each pair).`,
    ], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'g');
      this.condSubConst(fb, xs, p);
      const out = fb.param('out', 'i32');
      fb.if(i64.eqz(xs.map((v) => v.get).reduce((a, b) => i64.or(a, b))), () => {
        this.storeConst(fb, out.get, new Array(n).fill(0n));
        fb.ret();
      });
      // f, g signed: limbs 0..n-2 in [0, 2^w), top limb signed
      const F = fb.locals64('f', n);
      const G = xs;
      const D = fb.locals64('d', n);
      const E = fb.locals64('e', n);
      pl.forEach((v, j) => F[j].set(this.k(v)));
      D.forEach((d) => d.set(this.k(0n)));
      R2.forEach((v, j) => E[j].set(this.k(v)));
      const eta = fb.local('eta', 'i64');
      const fl = fb.local('fl', 'i64');
      const gl = fb.local('gl', 'i64');
      const u = fb.local('u', 'i64');
      const v = fb.local('v', 'i64');
      const q = fb.local('q', 'i64');
      const r = fb.local('r', 'i64');
      const tmp = fb.local('tmp', 'i64');
      const zeros = fb.local('zeros', 'i64');
      const left = fb.local('left', 'i64');
      const cf = fb.local('cf', 'i64');
      const cg = fb.local('cg', 'i64');
      const md = fb.local('md', 'i64');
      const me = fb.local('me', 'i64');
      eta.set(this.k(-1n));
      fb.loop((outer) => {
        // low 2w bits of f and g (≥ N + 1 valid bits)
        fl.set(i64.or(F[0].get, i64.shl(F[1].get, w)));
        gl.set(i64.or(G[0].get, i64.shl(G[1].get, w)));
        this.divstepBatch(fb, { eta, fl, gl, u, v, q, r, tmp, zeros, left }, N);
        // f, g ← (u f + v g) / 2^N, (q f + r g) / 2^N over all limbs (signed, arithmetic shifts)
        for (let j = 0; j < n; j++) {
          const a = i64.add(i64.mul(u.get, F[j].get), i64.mul(v.get, G[j].get));
          const b = i64.add(i64.mul(q.get, F[j].get), i64.mul(r.get, G[j].get));
          cf.set(j === 0 ? a : i64.add(a, cf.get));
          cg.set(j === 0 ? b : i64.add(b, cg.get));
          if (j > 0) {
            F[j - 1].set(i64.and(cf.get, this.k(mask)));
            G[j - 1].set(i64.and(cg.get, this.k(mask)));
          }
          cf.set(i64.shr_s(cf.get, w));
          cg.set(i64.shr_s(cg.get, w));
        }
        F[n - 1].set(cf.get);
        G[n - 1].set(cg.get);
        // d, e ← (u d + v e + md p) / 2^N with md = (u d + v e)·mu0 mod 2^N, then into [0, p)
        const de = (a: Local<'i64'>, b: Local<'i64'>, j: number) => i64.add(i64.mul(a.get, D[j].get), i64.mul(b.get, E[j].get));
        md.set(i64.and(i64.mul(de(u, v, 0), this.k(mu0)), this.k(mask)));
        me.set(i64.and(i64.mul(de(q, r, 0), this.k(mu0)), this.k(mask)));
        for (let j = 0; j < n; j++) {
          const a = i64.add(de(u, v, j), i64.mul(md.get, this.k(pl[j])));
          const b = i64.add(de(q, r, j), i64.mul(me.get, this.k(pl[j])));
          cf.set(j === 0 ? a : i64.add(a, cf.get));
          cg.set(j === 0 ? b : i64.add(b, cg.get));
          if (j > 0) {
            D[j - 1].set(i64.and(cf.get, this.k(mask)));
            E[j - 1].set(i64.and(cg.get, this.k(mask)));
          }
          cf.set(i64.shr_s(cf.get, w));
          cg.set(i64.shr_s(cg.get, w));
        }
        D[n - 1].set(cf.get);
        E[n - 1].set(cg.get);
        for (const X of [D, E]) this.normalizeSigned(fb, X);
        // loop while g ≠ 0
        fb.brIf(outer, i64.ne(G.map((x) => x.get).reduce((a, b) => i64.or(a, b)), this.k(0n)));
      });
      // f = ±1: the inverse is ±d
      fb.if(i64.lt_s(F[n - 1].get, this.k(0n)), () => {
        const z = fb.locals64('nz', n);
        const t = fb.local('nt', 'i64');
        for (let j = 0; j < n; j++) {
          const diff = i64.sub(this.k(pl[j]), D[j].get);
          t.set(j === 0 ? diff : i64.add(diff, i64.shr_s(t.get, w)));
          z[j].set(i64.and(t.get, this.k(mask)));
        }
        D.forEach((d, j) => d.set(z[j].get));
      });
      this.store(fb, out.get, D.map((d) => d.get));
    });
  }

  /**
   * One batch of N variable-time divsteps on the low bits fl, gl of f and g (N + 1 ≤ 64 of them
   * valid), shared by this inverse and the 64-bit-limb one (./field64.ts): starts the matrix
   * (u v; q r) at the identity, scaled by 2^N at the end (|u| + |v|, |q| + |r| ≤ 2^N); eta = −delta
   * carries over between batches. Per step: the trailing zeros of g stripped at once (ctz, u and v
   * doubled as often); if g is odd and eta < 0, (f, g, u, v, q, r) ← (g, −f, q, r, −u, −v) and
   * eta ← −eta; then g += w·f with w = −g/f mod 2^k, k = min(eta + 1, left, 6), which clears k low
   * bits of g without a swap in between (f⁻¹ mod 2^6 = f·(2 − f²)); or, without `clear`, g += f
   * (k = 1: no product).
   */
  protected divstepBatch(fb: FuncBuilder, s: DivstepLocals, N: number, clear?: { w: Local<'i64'>; lim: Local<'i64'> }): void {
    const { eta, fl, gl, u, v, q, r, tmp, zeros, left } = s;
    const zero = this.k(0n);
    u.set(this.k(1n)); v.set(zero); q.set(zero); r.set(this.k(1n));
    left.set(this.k(BigInt(N)));
    fb.loop((inner) => {
      zeros.set(i64.ctz(i64.or(gl.get, i64.shl(this.k(1n), left.get))));
      gl.set(i64.shr_s(gl.get, zeros.get));
      u.set(i64.shl(u.get, zeros.get));
      v.set(i64.shl(v.get, zeros.get));
      eta.set(i64.sub(eta.get, zeros.get));
      left.set(i64.sub(left.get, zeros.get));
      fb.if(i64.ne(left.get, zero), () => {
        // g odd. If eta < 0: (f, g, u, v, q, r) ← (g, −f, q, r, −u, −v), eta ← −eta
        fb.if(i64.lt_s(eta.get, zero), () => {
          eta.set(i64.sub(zero, eta.get));
          tmp.set(fl.get); fl.set(gl.get); gl.set(i64.sub(zero, tmp.get));
          tmp.set(u.get); u.set(q.get); q.set(i64.sub(zero, tmp.get));
          tmp.set(v.get); v.set(r.get); r.set(i64.sub(zero, tmp.get));
        });
        if (clear) {
          // k = min(eta + 1, left, 6) divsteps without a swap at once: g += w·f, w = −g/f mod 2^k
          const { w, lim } = clear;
          lim.set(i64.add(eta.get, this.k(1n)));
          lim.set(i64.select(lim.get, left.get, i64.lt_s(lim.get, left.get)));
          w.set(i64.mul(i64.mul(fl.get, gl.get), i64.sub(i64.mul(fl.get, fl.get), this.k(2n))));
          w.set(i64.and(w.get, i64.and(i64.shr_u(this.k(-1n), i64.sub(this.k(64n), lim.get)), this.k(63n))));
          gl.set(i64.add(gl.get, i64.mul(fl.get, w.get)));
          q.set(i64.add(q.get, i64.mul(u.get, w.get)));
          r.set(i64.add(r.get, i64.mul(v.get, w.get)));
        } else {
          gl.set(i64.add(gl.get, fl.get));
          q.set(i64.add(q.get, u.get));
          r.set(i64.add(r.get, v.get));
        }
        fb.br(inner);
      });
    });
  }

  /** X in (−p, 2p) with limbs 0..n−2 in [0, 2^w) and a signed top limb → [0, p). */
  private normalizeSigned(fb: FuncBuilder, X: Local<'i64'>[]): void {
    const { n, w, mask, p } = this.L;
    const pl = this.pLimbs;
    const t = fb.local('ns_t', 'i64');
    fb.if(i64.lt_s(X[n - 1].get, this.k(0n)), () => {
      for (let j = 0; j < n; j++) {
        const sum = i64.add(X[j].get, this.k(pl[j]));
        t.set(j === 0 ? sum : i64.add(sum, i64.shr_s(t.get, w)));
        X[j].set(j === n - 1 ? t.get : i64.and(t.get, this.k(mask)));
      }
    }, () => this.condSubConst(fb, X, p));
  }

  /**
   * Batch inverse by Montgomery's trick inside Wasm: 3(count−1) muls + one inverse.
   * out[k] = x[k]⁻¹ (0 → 0); out may equal x (in place) but must not partially overlap it.
   * scratch: prefix[count] | inverse | temporary (batchInverseScratchBytes).
   */
  protected emitBatchInverse(): void {
    const { mb, f } = this;
    const EB = this.L.elementBytes;
    const scratchRule = countedScratch(batchInverseScratchBytes, EB, (count) => (count + 2) * EB);
    mb.func(`${f}_batch_inv`, { out: 'i32', x: 'i32', count: 'i32', scratch: 'i32' }, undefined, [
      `${f}_batch_inv(out, x, count, scratch): out[k] = x[k]⁻¹ for k < count, zeros map to 0.`,
      `Montgomery's trick: 3 muls per element + 1 inverse. scratch: ${scratchRule.doc()} (count + 2 elements).`,
    ], (fb) => {
      const out = fb.param('out', 'i32');
      const x = fb.param('x', 'i32');
      const count = fb.param('count', 'i32');
      const scratch = fb.param('scratch', 'i32');
      const k = fb.local('k', 'i32');
      const xk = fb.local('xk', 'i32');
      const acc = fb.local('acc', 'i32'); // pointer to running product
      const inv = fb.local('inv', 'i32');
      const tmp = fb.local('tmp', 'i32');
      const last = fb.local('last', 'i32');
      const at = (base: I32, idx: I32) => i32.add(base, i32.mul(idx, i32.const(EB)));
      fb.if(i32.eqz(count.get), () => fb.ret());
      inv.set(at(scratch.get, count.get));
      tmp.set(i32.add(inv.get, i32.const(EB)));
      // prefix products of the non-zero elements: scratch[k] = Π_{j ≤ k, x_j ≠ 0} x_j (empty → 1)
      fb.call(`${f}_set_one`, tmp.get);
      last.set(tmp.get);
      fb.forRange(k, i32.const(0), count.get, 1, () => {
        xk.set(at(x.get, k.get));
        acc.set(at(scratch.get, k.get));
        fb.if(fb.callExpr('i32', `${f}_is_zero`, xk.get),
          () => fb.call(`${f}_copy`, acc.get, last.get),
          () => fb.call(`${f}_mul`, acc.get, last.get, xk.get));
        last.set(acc.get);
      });
      fb.call(`${f}_inv`, inv.get, last.get);
      // backwards: out[k] = inv · prefix[k−1]; inv ← inv · x[k]
      k.set(count.get);
      fb.loop((again) => {
        k.set(i32.sub(k.get, i32.const(1)));
        xk.set(at(x.get, k.get));
        fb.if(fb.callExpr('i32', `${f}_is_zero`, xk.get), () => {
          fb.call(`${f}_set_zero`, at(out.get, k.get));
        }, () => {
          fb.call(`${f}_mul`, tmp.get, inv.get, xk.get);
          fb.if(i32.eqz(k.get),
            () => fb.call(`${f}_copy`, at(out.get, k.get), inv.get),
            () => fb.call(`${f}_mul`, at(out.get, k.get), inv.get, at(scratch.get, i32.sub(k.get, i32.const(1)))));
          fb.call(`${f}_copy`, inv.get, tmp.get);
        });
        fb.brIf(again, i32.ne(k.get, i32.const(0)));
      });
    }, { scratch: scratchRule });
  }

  /** Benchmark loops: N dependent operations inside one Wasm call (dev builds only, not shipped). */
  emitBench(): void {
    const { mb, f } = this;
    const loop = (name: string, params: Record<string, 'i32'>, body: (fb: FuncBuilder) => void, doc: string) =>
      mb.func(name, { ...params, N: 'i32' }, undefined, [doc], (fb) => {
        const i = fb.local('i', 'i32');
        fb.forRange(i, i32.const(0), fb.param('N', 'i32').get, 1, () => body(fb));
      });
    loop(`${f}_bench_mul`, { x: 'i32', y: 'i32' }, (fb) => fb.call(`${f}_mul`, fb.param('x', 'i32').get, fb.param('x', 'i32').get, fb.param('y', 'i32').get), `${f}_bench_mul(x, y, N): x ← x·y, N times (dependent chain).`);
    loop(`${f}_bench_mul2`, { x: 'i32', z: 'i32', y: 'i32' }, (fb) => {
      fb.call(`${f}_mul`, fb.param('x', 'i32').get, fb.param('x', 'i32').get, fb.param('y', 'i32').get);
      fb.call(`${f}_mul`, fb.param('z', 'i32').get, fb.param('z', 'i32').get, fb.param('y', 'i32').get);
    }, `${f}_bench_mul2(x, z, y, N): x ← x·y, z ← z·y alternately, N times (two independent chains).`);
    loop(`${f}_bench_sqr`, { x: 'i32' }, (fb) => fb.call(`${f}_sqr`, fb.param('x', 'i32').get, fb.param('x', 'i32').get), `${f}_bench_sqr(x, N): x ← x², N times.`);
    loop(`${f}_bench_add`, { x: 'i32', y: 'i32' }, (fb) => fb.call(`${f}_add`, fb.param('x', 'i32').get, fb.param('x', 'i32').get, fb.param('y', 'i32').get), `${f}_bench_add(x, y, N): x ← x + y, N times.`);
    loop(`${f}_bench_inv`, { x: 'i32' }, (fb) => fb.call(`${f}_inv`, fb.param('x', 'i32').get, fb.param('x', 'i32').get), `${f}_bench_inv(x, N): x ← x⁻¹, N times.`);
  }
}
