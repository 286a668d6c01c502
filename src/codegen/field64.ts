/**
 * Generator of prime-field kernels on 64-bit limbs with the Wasm wide-arithmetic instructions
 * (i64.mul_wide_u, i64.add128, i64.sub128; see ./wide-arith.ts for how they are assembled and for
 * the polyfill the Node tests run). The kernel list is FieldGen's (./field.ts: `<f>_mul`, `<f>_add`,
 * … `<f>_batch_inv`, the same names, signatures and contracts), written over primitives this class
 * overrides: the limb helpers (load, store, constants, compare, conditional subtraction), the
 * Montgomery product and square, the modular add/double/sub chains, bytes → limbs, and the inverse
 * (divsteps on 62-bit signed limbs, its own algorithm). So everything generated over the field
 * interface (calls `${f}_${op}`) is unchanged; the element is n = ⌈bits/64⌉ little-endian u64 limbs
 * (6 limbs, 48 bytes for 377/381-bit primes; 4 limbs, 32 bytes for 254/255-bit ones).
 *
 * Range: elements are kept in [0, 2p), the redundant range of the 30-bit kernels, which needs
 * 3p < R = 2^(64n). When also 4p < R (BLS12-381, BLS12-377, BN254) the CIOS output is < 2p as is;
 * otherwise (Pallas, Vesta: p > 2^254, 4p > 2^256) it is < 3p and one conditional subtraction of p
 * brings it below 2p, and add keeps the carry out of the top limb.
 * Nothing here is constant-time (the inverse is variable-time divsteps).
 */
import { FieldGen, FieldSpec, WideMul } from './field.js';
import { FieldLayout, bitLength, modInv, toLimbs } from './field-layout.js';
import { FuncBuilder, I32, I64, Local, ModuleBuilder, i32, i64 } from './wat.js';
import { add128, emitWideHelpers, mulWide, mulWideS, setPair, sub128 } from './wide-arith.js';

/** The 64-bit-limb layout of p: n u64 limbs, R = 2^(64n), n the least with 3p < R. */
export function wideFieldLayout(p: bigint): FieldLayout {
  if (p % 2n === 0n) throw new Error('p must be odd');
  const bits = bitLength(p);
  // the least n with 3p < 2^(64n): ⌈bits/64⌉ for every base field here; one limb more for e.g. BLS12-381's r (3r > 2^256)
  let n = Math.ceil(bits / 64);
  if (!(3n * p < 1n << BigInt(64 * n))) n++;
  const R = 1n << BigInt(64 * n);
  const W = 1n << 64n;
  const mu0 = (W - modInv(p, W)) % W;
  return { p, w: 64, n, bits, mask: W - 1n, R, mu0, elementBytes: 8 * n, byteLength: Math.ceil(bits / 8) };
}

/** Upper bound B (exclusive) of every kernel's inputs and outputs: 2p, as for the 30-bit kernels. */
export const wideBound = (L: FieldLayout): bigint => 2n * L.p;


/** The inverse's signed-limb radix: 62 bits per limb (2 bits of headroom in an i64 for the matrix products' carries). */
const LIMB62_BITS = 62;
const LIMB62_MASK = (1n << 62n) - 1n;
export class Wide64FieldGen extends FieldGen {
  readonly bound: bigint;
  /** 4p ≥ R: the product needs a final conditional − p, the sum x + y can carry out of R */
  readonly tight: boolean;
  readonly wideMul: WideMul;

  constructor(mb: ModuleBuilder, spec: FieldSpec) {
    super(mb, spec, wideFieldLayout(spec.p));
    // the helpers the kernels call (a no-op when the module has them; they must be its first functions)
    emitWideHelpers(mb);
    this.wideMul = spec.wideMul ?? 'fios';
    this.bound = wideBound(this.L);
    this.tight = 4n * this.L.p >= this.L.R;
  }

  override describe(): string[] {
    const L = this.L;
    return [
      `field ${this.f}: p = 0x${L.p.toString(16)} (${L.bits} bits)`,
      `  64-bit limbs on Wasm wide arithmetic: n = ${L.n}, R = 2^${64 * L.n}, element = ${L.elementBytes} bytes, range [0, 2p)${this.tight ? ', 4p ≥ R: products end with a conditional − p' : ''}`,
      `  mu0 = -p^-1 mod 2^64 = 0x${L.mu0.toString(16)}, mul = CIOS in ${this.wideMul === 'fios' ? 'FIOS order' : 'row order'} (n² + n wide products + n i64.mul)`,
    ];
  }

  // ---------------------------------------------------------------- limb-level helpers (locals)
  override load(fb: FuncBuilder, ptr: I32, prefix: string): Local<'i64'>[] {
    const xs = fb.locals64(prefix, this.L.n);
    xs.forEach((x, j) => x.set(i64.load(ptr, 8 * j)));
    return xs;
  }
  override store(fb: FuncBuilder, ptr: I32, limbs: I64[]): void {
    limbs.forEach((v, j) => fb.i64Store(ptr, 8 * j, v));
  }
  override storeConst(fb: FuncBuilder, ptr: I32, limbs: bigint[]): void {
    limbs.forEach((v, j) => fb.i64Store(ptr, 8 * j, this.k(BigInt.asIntN(64, v))));
  }
  override k(v: bigint): I64 {
    return i64.const(BigInt.asIntN(64, v));
  }
  /** 64-bit limbs are always normalized: nothing to carry. */
  override carryAll(): void {}

  /** s ← s + c (constant limbs), add128 carry chain; the caller ensures the sum fits R. */
  override addConst(fb: FuncBuilder, s: Local<'i64'>[], c: bigint[]): void {
    const carry = fb.local('ac_c', 'i64');
    s.forEach((v, j) => {
      const e = add128([v.get, this.k(0n)], this.k(c[j]));
      setPair(fb, j === 0 ? e : add128(e, carry.get), v, carry);
    });
  }

  /**
   * d ← s − c as an n-limb borrow chain (c: constant limbs or expressions); returns the final
   * borrow local (0, or −1 when s < c). Per limb: one sub128, and one add128 folding the borrow in.
   */
  private subChain(fb: FuncBuilder, s: (j: number) => I64, c: (j: number) => I64, d: Local<'i64'>[], prefix: string): Local<'i64'> {
    const bw = fb.local(`${prefix}_bw`, 'i64');
    for (let j = 0; j < this.L.n; j++) {
      const diff = sub128([s(j), this.k(0n)], c(j));
      setPair(fb, j === 0 ? diff : add128(diff, bw.get, bw.get), d[j], bw);
    }
    return bw;
  }
  /** s ← s − c if s ≥ c (branch-free select per limb), for a constant c < R. */
  override condSubConst(fb: FuncBuilder, s: Local<'i64'>[], c: bigint): void {
    const cl = toLimbs(c, 64, this.L.n);
    const d = fb.locals64('cs_d', this.L.n);
    const bw = this.subChain(fb, (j) => s[j].get, (j) => this.k(cl[j]), d, 'cs');
    const keep = i64.eqz(bw.get);
    s.forEach((v, j) => v.set(i64.select(d[j].get, v.get, keep)));
  }
  /** i32 expression: 1 if s < c (constant), else 0. */
  override lessThanConst(fb: FuncBuilder, s: Local<'i64'>[], c: bigint): I32 {
    const cl = toLimbs(c, 64, this.L.n);
    const bw = this.subChain(fb, (j) => s[j].get, (j) => this.k(cl[j]), fb.locals64('lt_d', this.L.n), 'lt');
    return i64.ne(bw.get, this.k(0n));
  }

  /**
   * CIOS Montgomery product on 64-bit limbs (Koç–Acar–Kaliski 1996), fully unrolled, following the
   * x86 MULX/ADX schedule of ../shared/reference/x86-montgomery-mul-assembly.txt: for each limb x_i,
   * t += x_i·y (row of n wide products, the carry chained through add128), m = t_0·mu0 mod 2^64,
   * t = (t + m·p) / 2^64 (row of n wide products, shifting down by one limb).
   * t has n + 1 words (t_n the overflow): by induction t < y + p after every iteration, since
   * (t + x_i·y + m·p)/2^64 < (y + p)(1 + (2^64 − 1))/2^64; so before the division t < 2^64·3p
   * < 2^64·R (3p < R by the layout) and no (n+2)-th word is ever needed, whatever x (to_mont feeds
   * any x < R). x, y < 2p ⇒ result < 4p²/R + p, which is < 2p when 4p < R, else < 3p and one
   * conditional subtraction of p makes it < 2p. x_i are loaded from `x` on the fly; y are
   * expressions (locals or constants). Cost: n² + n mul_wide_u, n i64.mul, ≈ 4n² add128.
   */
  /**
   * Montgomery product on 64-bit limbs, CIOS (Koç–Acar–Kaliski 1996), fully unrolled: for each limb
   * x_i, t += x_i·y (a row of n wide products, the carry chained through add128), m = t_0·mu0 mod
   * 2^64, t = (t + m·p)/2^64 (a row of n wide products, shifting down by one limb). x_i are loaded
   * from `x` on the fly; y are expressions (locals or constants); the result is fresh locals.
   *
   * Bounds: by induction t < y + p after every iteration, since (t + x_i·y + m·p)/2^64 <
   * (y + p)(1 + (2^64 − 1))/2^64; so t < 3p < R (the layout's condition) fits n words after each
   * division, and before it t + x_i·y + m·p < 2^64·R: its word n is the sum of the two rows' final
   * carries, a plain i64.add, and no overflow word is carried between iterations (the "no-carry"
   * observation of gnark-crypto, which there needs a spare top bit; here 3p < R is enough because
   * the top word is rebuilt every iteration). Any x < R works (to_mont feeds plain limbs).
   * x, y < 2p ⇒ result < 4p²/R + p: < 2p when 4p < R, else < 3p and one conditional − p.
   *
   * Order ('fios', the default): the two rows interleaved word by word (FIOS order: mul step j,
   * then reduction step j, which reads the t_j just written), so the two carry chains C and D are
   * independent neighbours in program order; V8's Turboshaft keeps Wasm order, and this measured
   * 2–5% faster than row after row ('cios') in Chromium 156 (docs/backends.md).
   * Cost: n² + n mul_wide_u, n i64.mul, 4n² − 3n add128 (126 for n = 6), n i64.add.
   */
  override montMulCios(fb: FuncBuilder, x: I32, y: I64[], prefix = 'm'): Local<'i64'>[] {
    const { n, mu0 } = this.L;
    const pl = this.pLimbs;
    const interleave = this.wideMul === 'fios';
    const t = fb.locals64(`${prefix}_t`, n);
    const C = fb.local(`${prefix}_c`, 'i64');
    const D = fb.local(`${prefix}_d`, 'i64');
    const m = fb.local(`${prefix}_q`, 'i64');
    const xi = fb.local(`${prefix}_xi`, 'i64');
    const mulStep = (j: number, first: boolean) => {
      let e = mulWide(xi.get, y[j]);
      if (!first) e = add128(e, t[j].get);
      if (j > 0) e = add128(e, C.get);
      setPair(fb, e, t[j], C);
    };
    const redStep = (j: number) => {
      if (j === 0) setPair(fb, add128(mulWide(m.get, this.k(pl[0])), t[0].get), t[0], D); // low word is 0
      else setPair(fb, add128(add128(mulWide(m.get, this.k(pl[j])), t[j].get), D.get), t[j - 1], D);
    };
    for (let i = 0; i < n; i++) {
      xi.set(i64.load(x, 8 * i));
      mulStep(0, i === 0);
      if (!interleave) for (let j = 1; j < n; j++) mulStep(j, i === 0);
      m.set(i64.mul(t[0].get, this.k(mu0)));
      redStep(0);
      for (let j = 1; j < n; j++) {
        if (interleave) mulStep(j, i === 0);
        redStep(j);
      }
      t[n - 1].set(i64.add(C.get, D.get)); // word n of t + x_i·y + m·p (the sum < 2^64·R)
    }
    if (this.tight) this.condSubConst(fb, t, this.L.p);
    return t;
  }

  // ---------------------------------------------------------------- kernel primitives (FieldGen's kernel list uses these)
  /** x·y·R⁻¹: the CIOS product (montMulCios), whatever `mul` says (it names the 30-bit variants). */
  protected override montMul(fb: FuncBuilder, x: I32, y: I32): Local<'i64'>[] {
    const ys = this.load(fb, y, 'y');
    return this.montMulCios(fb, x, ys.map((v) => v.get));
  }
  /** x²·R⁻¹: the CIOS product with y = x. */
  protected override montSqr(fb: FuncBuilder, x: I32): Local<'i64'>[] {
    const xs = this.load(fb, x, 'x');
    return this.montMulCios(fb, x, xs.map((v) => v.get));
  }
  /** s = x + y < 4p (add128 chain), then − 2p if ≥ 2p; when 4p ≥ R the carry c out of the top limb counts too. */
  protected override addMod(fb: FuncBuilder, xs: Local<'i64'>[], ys: (j: number) => I64): Local<'i64'>[] {
    const { n } = this.L;
    const zero = this.k(0n);
    const s = fb.locals64('s', n);
    const c = fb.local('c', 'i64');
    for (let j = 0; j < n; j++) {
      const e = add128([xs[j].get, zero], ys(j));
      setPair(fb, j === 0 ? e : add128(e, c.get), s[j], c);
    }
    const Bl = toLimbs(this.bound, 64, n);
    const d = fb.locals64('cs_d', n);
    const bw = this.subChain(fb, (j) => s[j].get, (j) => this.k(Bl[j]), d, 'cs');
    // take s − 2p unless it borrowed without a carry out (then s < 2p)
    const take = this.tight ? i32.or(i64.eqz(bw.get), i32.wrap_i64(c.get)) : i64.eqz(bw.get);
    s.forEach((v, j) => v.set(i64.select(d[j].get, v.get, take)));
    return s;
  }
  protected override doubleMod(fb: FuncBuilder, xs: Local<'i64'>[]): Local<'i64'>[] {
    return this.addMod(fb, xs, (j) => xs[j].get);
  }
  /** z = x − y (sub128 chain), + 2p when negative: 2p's limbs masked by the borrow (0 or all ones), branch-free. */
  protected override subMod(fb: FuncBuilder, xs: (j: number) => I64, ys: (j: number) => I64): Local<'i64'>[] {
    const { n } = this.L;
    const z = fb.locals64('z', n);
    const bw = this.subChain(fb, xs, ys, z, 'sb');
    const Bl = toLimbs(this.bound, 64, n);
    const c = fb.local('c', 'i64');
    for (let j = 0; j < n; j++) {
      const e = add128([z[j].get, this.k(0n)], i64.and(this.k(Bl[j]), bw.get));
      setPair(fb, j === 0 ? e : add128(e, c.get), z[j], c);
    }
    return z;
  }
  protected override arithmeticNotes(): Record<'mul' | 'sqr' | 'add' | 'sub', string> {
    const { n } = this.L;
    return {
      mul: `CIOS on ${n} 64-bit limbs with wide arithmetic, ${this.wideMul === 'fios' ? 'the two rows interleaved (FIOS order)' : 'row after row'} (see montMulCios): ${n * n + n} mul_wide_u + ${n} i64.mul + ${4 * n * n - 3 * n} add128.`,
      sqr: 'The CIOS product with y = x.',
      add: 'add128 carry chain, then one conditional − 2p (select).',
      sub: 'sub128 borrow chain, + 2p masked by the borrow.',
    };
  }
  /** Limb j: one i64 load where all 8 little-endian bytes are in range, else the bytes shifted into place. */
  protected override limbFromBytes(src: I32, j: number, endian: 'le' | 'be'): I64 {
    const BL = this.L.byteLength;
    if (endian === 'le' && 8 * j + 8 <= BL) return i64.load(src, 8 * j);
    const parts: I64[] = [];
    for (let k = 8 * j; k < Math.min(8 * j + 8, BL); k++) parts.push(i64.shl(i64.extend_i32_u(i32.load8_u(src, this.byteAt(k, endian))), 8 * (k - 8 * j)));
    return parts.length ? parts.reduce((a, b) => i64.or(a, b)) : this.k(0n);
  }

  /**
   * Inverse by batched variable-time divsteps (Bernstein & Yang 2019, "Fast constant-time gcd
   * computation and modular inversion"). Designs studied: the variable-time form of libsecp256k1's
   * modinv64 (Dettman & Wuille 2020, explained in its doc/safegcd_implementation.md: trailing zeros
   * skipped at once, several bits of g cleared per step, d and e kept in (−2p, p)) and Pornin 2020,
   * "Optimized Binary GCD for Modular Inversion" (inner steps on single words, the big values
   * updated once per batch); no code is taken from either. Same structure as the 30-bit kernel's
   * inverse (./field.ts), on batches of 62 divsteps with 128-bit products.
   *
   * Representation: f, g, d, e as m = ⌈(bits + 2)/62⌉ signed 62-bit limbs (limbs 0..m−2 in
   * [0, 2^62), the top limb a signed i64), so that dividing by 2^62 is dropping one limb.
   * Start: f = p, g = x̃ = x·R mod p (x reduced to [0, p); 0 → 0), d = 0, e = R² mod p. Invariant:
   * f ≡ d·x̃/R², g ≡ e·x̃/R² (mod p). At the end g = 0, f = ±gcd = ±1, so ±d = R²/x̃ = R/x: the
   * Montgomery form of x⁻¹, with no extra product.
   *
   * One batch:
   * 1. 62 divsteps on the low 64 bits of f and g (FieldGen.divstepBatch, the loop of the 30-bit
   *    inverse, here with several bits per step; eta = −delta carried across batches): strip the
   *    trailing zeros of g at once (ctz); when g is odd and eta < 0, swap (f, g) ← (g, −f); then clear
   *    up to min(eta + 1, left, 6) low bits of g at once, g += w·f with w = −g/f mod 2^k
   *    (f⁻¹ mod 2^6 = f·(2 − f²)). The transition matrix (u v; q r), scaled by 2^62, has |u| + |v|,
   *    |q| + |r| ≤ 2^62: i64 entries.
   * 2. f, g ← (u f + v g)/2^62, (q f + r g)/2^62 over all limbs: per limb and row 2 i64.mul_wide_s, a
   *    128-bit accumulator per row; the low 62 bits of the first limb are 0 by construction.
   * 3. d, e ← (u d + v e + md·p)/2^62 (and q, r, me): with d, e in (−2p, p), md starts at
   *    u·[d < 0] + v·[e < 0] (so the sum is u(d + p[d < 0]) + v(e + p[e < 0]) ∈ (−2^62·p, 2^62·p)),
   *    minus k ∈ [0, 2^62) with k ≡ (ud + ve)·p⁻¹ + md (mod 2^62), which makes the low limb 0;
   *    the quotient is again in (−2p, p), so d, e need no reduction between batches. |md| < 2^63, so
   *    the carries between limbs (< |u| + |v| + |md|) can pass 2^63: they stay 128-bit.
   * Loop while g ≠ 0. Then d·sign(f) ∈ (−2p, 2p), + 2p if negative, repacked into 64-bit limbs, −p if
   * ≥ p: canonical [0, p).
   *
   * Cost: ≈ 2.1·bits divsteps on random inputs, i.e. 13 batches for a 381-bit p and 9 for a 254-bit
   * one (averages of a bigint model of this loop), each with 10m − 2·(zero 62-bit limbs of p) mul_wide_s;
   * the divstep loop runs ≈ 0.54·bits iterations (almost every one swaps), a dependent chain of
   * three i64.mul and a ctz, and takes most of the time: the d, e update is ≈ 18% in Chromium.
   */
  protected override emitInverse(): void {
    const { mb, f } = this;
    const { n, p, R, bits } = this.L;
    const S = LIMB62_BITS;
    const M = LIMB62_MASK;
    const m = Math.ceil((bits + 2) / S);
    const P = toLimbs(p, S, m);
    const P2 = toLimbs(2n * p, S, m);
    const pInv = modInv(p, 1n << 64n); // p⁻¹ mod 2^64: its low 62 bits are p⁻¹ mod 2^62
    const R2 = toLimbs((R * R) % p, S, m);
    const zero = this.k(0n);
    mb.func(`${f}_inv`, { out: 'i32', x: 'i32' }, undefined, [
      `${f}_inv(out, x): out = x⁻¹ (Montgomery form in and out), x in [0, 2p) → out in [0, p); 0 → 0; may alias. Variable-time.`,
      `Bernstein–Yang 2019 divsteps, variable-time form as in libsecp256k1's modinv64 (studied): 62 per batch on the low 64 bits,`,
      `the matrix applied to f, g, d, e on ${m} signed 62-bit limbs with i64.mul_wide_s (${10 * m - 2 * P.filter((v) => v === 0n).length} per batch; ≈ ${Math.round((2.1 * bits) / 62)} batches on random inputs).`,
    ], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      this.condSubConst(fb, xs, p);
      const out = fb.param('out', 'i32');
      fb.if(i64.eqz(xs.map((v) => v.get).reduce((a, b) => i64.or(a, b))), () => {
        this.storeConst(fb, out.get, new Array(n).fill(0n));
        fb.ret();
      });
      const [F, G, D, E] = ['f', 'g', 'd', 'e'].map((name) => fb.locals64(name, m));
      P.forEach((v, j) => F[j].set(this.k(v)));
      // g: the 64-bit limbs regrouped into 62-bit ones
      regroupLimbs(xs, 64, S, m).forEach((e, j) => G[j].set(e ? i64.and(e, this.k(M)) : zero));
      D.forEach((v) => v.set(zero));
      R2.forEach((v, j) => E[j].set(this.k(v)));
      const [u, v, q, r] = ['u', 'v', 'q', 'r'].map((name) => fb.local(name, 'i64'));
      const [eta, fl, gl, tmp, zeros, left, w, lim] = ['eta', 'fl', 'gl', 'tmp', 'zeros', 'left', 'w', 'lim'].map((name) => fb.local(name, 'i64'));
      const [md, me] = [fb.local('md', 'i64'), fb.local('me', 'i64')];
      eta.set(this.k(-1n));
      fb.loop((outer) => {
        fb.comment('one batch: 62 divsteps on the low 64 bits of f and g into the matrix (u v; q r)');
        fl.set(i64.or(F[0].get, i64.shl(F[1].get, S)));
        gl.set(i64.or(G[0].get, i64.shl(G[1].get, S)));
        this.divstepBatch(fb, { eta, fl, gl, u, v, q, r, tmp, zeros, left }, S, { w, lim });
        // d, e: the multiples of p that make the low limb of the new d, e zero (see above)
        fb.comment('md, me: the multiples of p that make the low 62 bits of u·d + v·e + md·p, q·d + r·e + me·p zero');
        const sd = i64.shr_s(D[m - 1].get, 63);
        const se = i64.shr_s(E[m - 1].get, 63);
        const low = (a: Local<'i64'>, b: Local<'i64'>) => i64.add(i64.mul(a.get, D[0].get), i64.mul(b.get, E[0].get));
        md.set(i64.add(i64.and(u.get, sd), i64.and(v.get, se)));
        me.set(i64.add(i64.and(q.get, sd), i64.and(r.get, se)));
        md.set(i64.sub(md.get, i64.and(i64.add(i64.mul(low(u, v), this.k(pInv)), md.get), this.k(M))));
        me.set(i64.sub(me.get, i64.and(i64.add(i64.mul(low(q, r), this.k(pInv)), me.get), this.k(M))));
        fb.comment('f, g ← (u·f + v·g)/2^62, (q·f + r·g)/2^62; d, e ← (u·d + v·e + md·p)/2^62, (q·d + r·e + me·p)/2^62');
        this.divstepMatrix(fb, F, G, [u, v, q, r], 'fg');
        this.divstepMatrix(fb, D, E, [u, v, q, r], 'de', { P, md, me });
        fb.brIf(outer, i64.ne(G.map((x) => x.get).reduce((a, b) => i64.or(a, b)), zero));
      });
      // f = ±1 (sf = 0 or −1): d·f in (−2p, 2p), then + 2p if negative
      fb.comment('g = 0, f = ±1: out = d·f mod p, canonical');
      const sf = fb.local('sf', 'i64');
      sf.set(i64.shr_s(F[m - 1].get, 63));
      this.signed62Carry(fb, D, (j) => i64.sub(i64.xor(D[j].get, sf.get), sf.get));
      sf.set(i64.shr_s(D[m - 1].get, 63));
      this.signed62Carry(fb, D, (j) => i64.add(D[j].get, i64.and(this.k(P2[j]), sf.get)));
      // [0, 2p) on 62-bit limbs → n 64-bit limbs, then [0, p)
      const o = fb.locals64('o', n);
      regroupLimbs(D, S, 64, n).forEach((e, k) => o[k].set(e!));
      this.condSubConst(fb, o, p);
      this.store(fb, out.get, o.map((x) => x.get));
    });
  }

  /**
   * X, Y ← (a·X + b·Y + mx·p)/2^62, (c·X + d·Y + my·p)/2^62 on m signed 62-bit limbs (the mx, my
   * terms only with `mod`), exact: the caller guarantees that the low 62 bits of both sums are 0.
   * Both rows per limb before either is overwritten; 128-bit accumulators (mul_wide_s, add128), the
   * carry shifted right by 62 as a 128-bit value.
   */
  private divstepMatrix(fb: FuncBuilder, X: Local<'i64'>[], Y: Local<'i64'>[], [a, b, c, d]: Local<'i64'>[], prefix: string,
    mod?: { P: bigint[]; md: Local<'i64'>; me: Local<'i64'> }): void {
    const m = X.length;
    const rows = [
      { s: a, t: b, mm: mod?.md, out: X, lo: fb.local(`${prefix}_xl`, 'i64'), hi: fb.local(`${prefix}_xh`, 'i64') },
      { s: c, t: d, mm: mod?.me, out: Y, lo: fb.local(`${prefix}_yl`, 'i64'), hi: fb.local(`${prefix}_yh`, 'i64') },
    ];
    for (let j = 0; j < m; j++) {
      for (const row of rows) {
        let e = add128(mulWideS(row.s.get, X[j].get), mulWideS(row.t.get, Y[j].get));
        if (row.mm && mod!.P[j] !== 0n) e = add128(e, mulWideS(row.mm.get, this.k(mod!.P[j])));
        if (j > 0) e = add128(e, row.lo.get, row.hi.get); // the carry, 128-bit
        setPair(fb, e, row.lo, row.hi);
      }
      for (const row of rows) {
        if (j > 0) row.out[j - 1].set(i64.and(row.lo.get, this.k(LIMB62_MASK)));
        // (lo, hi) >> 62, arithmetic
        row.lo.set(i64.or(i64.shr_u(row.lo.get, 62), i64.shl(row.hi.get, 2)));
        row.hi.set(i64.shr_s(row.hi.get, 62));
      }
    }
    for (const row of rows) row.out[m - 1].set(row.lo.get);
  }

  /** X_j ← next(j) + carry for signed 62-bit limbs: limbs 0..m−2 to [0, 2^62), the top one signed. */
  private signed62Carry(fb: FuncBuilder, X: Local<'i64'>[], next: (j: number) => I64): void {
    const t = fb.local('s62_t', 'i64');
    const m = X.length;
    for (let j = 0; j < m; j++) {
      t.set(j === 0 ? next(j) : i64.add(next(j), i64.shr_s(t.get, 62)));
      X[j].set(j === m - 1 ? t.get : i64.and(t.get, this.k(LIMB62_MASK)));
    }
  }
}

/**
 * The value held in `src` (limbs of `from` bits, non-negative) as `count` limbs of `to` bits: each
 * an OR of shifted source limbs, unmasked (the caller masks where a source limb spills over), or
 * undefined where no source limb reaches.
 */
function regroupLimbs(src: Local<'i64'>[], from: number, to: number, count: number): (I64 | undefined)[] {
  return Array.from({ length: count }, (_, j) => {
    const parts: I64[] = [];
    for (let k = Math.floor((to * j) / from); k < src.length && from * k < to * (j + 1); k++) {
      const sh = from * k - to * j;
      parts.push(sh > 0 ? i64.shl(src[k].get, sh) : sh < 0 ? i64.shr_u(src[k].get, -sh) : src[k].get);
    }
    return parts.length ? parts.reduce((a, b) => i64.or(a, b)) : undefined;
  });
}
