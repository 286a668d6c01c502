/**
 * Generator of the pairing kernels of a BLS12 (M-type twist) or BN (D-type) curve (`fp12_*`, `pairing_*`):
 * the tower F_p⁶ = F_p²[v]/(v³ − ξ), F_p¹² = F_p⁶[w]/(w² − v) over the module's F_p² kernels, the
 * optimal ate Miller loop over prepared lines and the final exponentiation. Every routine is the
 * one of the bigint twin, src/reference/pairing.ts, which states the formulas and their sources.
 *
 * Layout (EB = bytes of a base-field element, components in Montgomery form in [0, 2p) as every
 * kernel of the module keeps them): F_p² = c0 ‖ c1 (2·EB); F_p⁶ = a0 ‖ a1 ‖ a2 (6·EB); F_p¹² =
 * c0 ‖ c1 (12·EB), so the F_p² coefficient of w^k sits at (k mod 2)·6·EB + ⌊k/2⌋·2·EB. A G1 point
 * is x ‖ y (2·EB), a G2 point x ‖ y (4·EB), both affine and finite. A line is (l0, l1, l4), 3 F_p²
 * (6·EB); a prepared G2 point is its LINES lines in schedule order (`lineTableBytes`).
 *
 * The tower only calls `fp2_*`: on the 26…30-bit limbs these are Fp2Gen's kernels (src/codegen/fp2.ts,
 * no scratch); on 64-bit limbs (wide64) the internal by-calls F_p² of emitFp2ByCalls, whose mul,
 * sqr and inv take a scratch (passed here from the caller's scratch). Where the limbs have the headroom
 * (`lazy`: Fp2Gen's limbs and p·R above the largest biased sum), the F_p⁶ products and F_p⁴ squarings
 * keep their F_p² products unreduced and reduce each output coefficient once (emitLazy, reduceSum).
 * Every function takes a
 * scratch, uses its first bytes for its own temporaries and hands the rest to its callees; the
 * generator sums the sizes (`need`), and each kernel states the total. Nothing here is
 * constant-time. Costs in F_p² products M2 (3 base products), squarings S2 (2).
 */
import type { FieldGen } from './field.js';
import { toLimbs } from './field-layout.js';
import { fp2CallScratchBytes } from './fp2.js';
import { Expr, FuncBuilder, type I32, type ModuleBuilder, i32, i64 } from './wat.js';
import type { Fp2Pair, G2Params, PairingParams } from '../curves/g2.js';
import { RefPairing } from '../reference/pairing.js';

type Ptr = I32;
interface Frame {
  /** the function's temporaries, by name */
  t: Record<string, Ptr>;
  /** scratch left to callees */
  rest: Ptr;
}

const at = (p: Ptr, off: number): Ptr => (off === 0 ? p : i32.add(p, i32.const(off)));

export class PairingGen {
  readonly EB: number;
  readonly E2: number;
  readonly E6: number;
  readonly E12: number;
  readonly ref: RefPairing;
  /** the lines of one prepared G2 point (the Miller loop's schedule) */
  readonly lines: number;
  /** bytes of scratch the fp2_* products take (0: Fp2Gen's kernels take none) */
  readonly fp2Scratch: number;
  /** scratch bytes each function needs (its temporaries + its callees') */
  private readonly need = new Map<string, number>();
  /** whether the F_p⁶ products reduce lazily (fp2_mulw / fp2_redw: Fp2Gen's limbs, not the by-calls F_p²) */
  readonly lazy: boolean;
  /** bytes of an unreduced F_p² product: 2 components of 2n signed 32-bit limbs */
  readonly EW: number;
  /** the fp2_redw functions emitted so far, by their terms */
  private readonly redw = new Map<string, string>();

  constructor(
    readonly mb: ModuleBuilder,
    readonly fp: FieldGen,
    readonly g2: G2Params,
    readonly params: PairingParams,
    /** whether fp2_mul, fp2_sqr and fp2_inv take a scratch (the by-calls F_p² of the wide64 module) */
    fp2ByCalls: boolean,
  ) {
    this.EB = fp.L.elementBytes;
    this.E2 = 2 * this.EB;
    this.E6 = 6 * this.EB;
    this.E12 = 12 * this.EB;
    this.ref = new RefPairing(g2, params);
    this.lines = this.ref.schedule.length;
    this.fp2Scratch = fp2ByCalls ? fp2CallScratchBytes(this.EB) : 0;
    this.EW = 2 * 2 * fp.L.n * 4;
    this.lazy = !fp2ByCalls && this.lazyFits();
  }

  /** bytes of one prepared G2 point: LINES lines of 3 F_p² */
  get lineTableBytes(): number {
    return this.lines * 3 * this.E2;
  }

  describe(): string[] {
    const { u, family, twist } = this.params;
    return [
      `pairing ${this.g2.name}: optimal ate (${family}), u = ${u < 0n ? '-' : ''}0x${(u < 0n ? -u : u).toString(16)}, ξ = ${this.params.xi[0]} + ${this.params.xi[1]}·i, ${twist}-type twist;`,
      `  ${this.lines} lines per G2 point (${this.lineTableBytes} bytes), F_p¹² = ${this.E12} bytes`,
    ];
  }

  // ------------------------------------------------------------------ emitting helpers
  /**
   * Declares function `name` with its i32 params and a trailing scratch: `temps` (bytes each) at the
   * start of the scratch, callees' scratch after them. `doc` undefined: internal. The body runs twice,
   * once to learn what its callees need (so an exported kernel can state its scratch in its header).
   */
  private def(name: string, params: readonly string[], temps: Record<string, number>, doc: string[] | undefined, body: (fb: FuncBuilder, a: Ptr[], fr: Frame) => void, result?: 'i32'): void {
    const own = Object.values(temps).reduce((s, b) => s + b, 0);
    const ps = Object.fromEntries([...params, 'scratch'].map((n) => [n, 'i32' as const]));
    let callees = 0;
    const run = (fb: FuncBuilder, track: boolean) => {
      const s = fb.param('scratch', 'i32').get;
      const t: Record<string, Ptr> = {};
      let off = 0;
      for (const [k, b] of Object.entries(temps)) {
        t[k] = at(s, off);
        off += b;
      }
      this.tracking = track ? (n) => (callees = Math.max(callees, n)) : undefined;
      body(fb, params.map((n) => fb.param(n, 'i32').get), { t, rest: at(s, own) });
      this.tracking = undefined;
    };
    run(new FuncBuilder(name, ps, result, []), true);
    const total = own + callees;
    this.need.set(name, total);
    const lines = doc ? [...doc, `Elements in Montgomery form, components in [0, 2p) in and out. scratch: ${total} bytes, not overlapping the other arguments.`] : [name];
    this.mb.func(name, ps, result, lines, (fb) => run(fb, false), doc ? { scratch: total } : { export: false });
  }
  private tracking: ((n: number) => void) | undefined;

  /** a call of a function of this generator: scratch = the frame's rest */
  private call(fb: FuncBuilder, fr: Frame, name: string, ...args: Ptr[]): void {
    const n = this.need.get(name);
    if (n === undefined) throw new Error(`pairing: ${name} used before it is defined`);
    this.tracking?.(n);
    fb.call(name, ...args, fr.rest);
  }
  /** fp2_<op> without scratch */
  private f2(fb: FuncBuilder, op: string, ...args: Ptr[]): void {
    fb.call(`fp2_${op}`, ...args);
  }
  /** fp2_mul, fp2_sqr, fp2_inv: + the scratch where F_p² is by calls */
  private f2s(fb: FuncBuilder, fr: Frame, op: 'mul' | 'sqr' | 'inv', ...args: Ptr[]): void {
    if (this.fp2Scratch === 0) return fb.call(`fp2_${op}`, ...args);
    this.tracking?.(this.fp2Scratch);
    fb.call(`fp2_${op}`, ...args, fr.rest);
  }
  /** fp2 constant (Montgomery limbs) stored at dst */
  private f2const(fb: FuncBuilder, dst: Ptr, c: readonly [bigint, bigint]): void {
    this.fp.storeConst(fb, dst, this.fp.montLimbs(c[0]));
    this.fp.storeConst(fb, at(dst, this.EB), this.fp.montLimbs(c[1]));
  }
  private c6(x: Ptr, k: number): Ptr {
    return at(x, k * this.E2);
  }
  private h12(x: Ptr, h: number): Ptr {
    return at(x, h * this.E6);
  }
  /** F_p² coefficient of v^j·w^h of an F_p¹² element */
  private c12(x: Ptr, h: number, j: number): Ptr {
    return at(x, h * this.E6 + j * this.E2);
  }
  private each6(fb: FuncBuilder, op: string, ...args: Ptr[]): void {
    for (let k = 0; k < 3; k++) this.f2(fb, op, ...args.map((a) => this.c6(a, k)));
  }

  /** 3·t − 2·z or 3·t + 2·z into out (out ≠ t; out may be z: it is read first) */
  private threeTwo(fb: FuncBuilder, out: Ptr, t: Ptr, z: Ptr, sign: 'add' | 'sub'): void {
    this.f2(fb, sign, out, t, z);
    this.f2(fb, 'double', out, out);
    this.f2(fb, 'add', out, out, t);
  }

  // ------------------------------------------------------------------ kernels
  emitAll(): void {
    if (this.lazy) this.emitLazy();
    this.emitFp6();
    this.emitFp12();
    this.emitFinalExp();
    this.emitMillerLoop();
  }

  // ------------------------------------------------------------------ lazy reduction (Fp2Gen's limbs only)
  /**
   * The unreduced F_p² product and its reduction, for products whose output coefficients are sums of
   * F_p² products (fp6_mul, fp6_mul_01): one Montgomery reduction per output component instead of one
   * per base product.
   *
   * fp2_prodw(x0…, y0…) → 2n limbs of x·y (no reduction): the base field's Karatsuba columns
   * (FieldGen.productColumns), normalized (limbs < 2^w). fp2_mulw(out, x, y): out = the unreduced Karatsuba F_p² product of x, y
   * (components < 2p) as c0 = x0y0 − x1y1, c1 = (x0 + x1)(y0 + y1) − x0y0 − x1y1, each 2n signed
   * 32-bit limbs (limbwise differences of normalized products, unnormalized); |c0| < 4p², 0 ≤ c1 < 8p².
   * Cost: 3 base products without reduction (134 i64.mul each for n = 13 at one Karatsuba level, 93 at
   * three), no calls but fp2_prodw.
   */
  private emitLazy(): void {
    const { fp, mb } = this;
    const { n } = fp.L;
    const limbParams = (name: string) => Array.from({ length: n }, (_, j) => [`${name}${j}`, 'i64'] as const);
    mb.func('fp2_prodw', Object.fromEntries([...limbParams('x'), ...limbParams('y')]), undefined, [
      'fp2_prodw(x0…, y0…) → 2n limbs of x·y, unreduced, normalized (internal): the base field\'s Karatsuba columns.',
    ], (fb) => {
      const xs = limbParams('x').map(([name]) => fb.param(name, 'i64'));
      const ys = limbParams('y').map(([name]) => fb.param(name, 'i64'));
      const T = fp.productColumns(fb, xs, ys, 'k');
      fp.normalizeColumns(fb, T);
      for (const v of T) fb.line(v.get.text);
    }, { export: false, results: Array.from({ length: 2 * n }, () => 'i64' as const) });
    mb.func('fp2_mulw', { out: 'i32', x: 'i32', y: 'i32' }, undefined, [
      'fp2_mulw(out, x, y): out = x·y unreduced (see PairingGen.emitLazy); x, y components < 2p; out overlaps neither.',
    ], (fb) => {
      const x = fb.param('x', 'i32').get;
      const y = fb.param('y', 'i32').get;
      const out = fb.param('out', 'i32').get;
      const prod = (a: Expr<'i64'>[], b: Expr<'i64'>[], prefix: string) => this.prodw(fb, a, b, prefix);
      const x0 = fp.load(fb, x, 'xa'), x1 = fp.load(fb, at(x, this.EB), 'xb');
      const y0 = fp.load(fb, y, 'ya'), y1 = fp.load(fb, at(y, this.EB), 'yb');
      // sums < 4p, normalized (the Karatsuba columns need limbs < 2^w to stay below 2^64)
      const sum = (a: typeof x0, b: typeof x0, prefix: string) => {
        const z = fb.locals64(prefix, n);
        z.forEach((v, j) => v.set(i64.add(a[j].get, b[j].get)));
        fp.carryAll(fb, z);
        return z.map((v) => v.get);
      };
      const T2 = prod(sum(x0, x1, 'sx'), sum(y0, y1, 'sy'), 's');
      const T0 = prod(x0.map((v) => v.get), y0.map((v) => v.get), 'p');
      const T1 = prod(x1.map((v) => v.get), y1.map((v) => v.get), 'q');
      for (let k = 0; k < 2 * n; k++) {
        fb.i64Store32(out, 4 * k, i64.sub(T0[k]!, T1[k]!));
        fb.i64Store32(out, 4 * (2 * n + k), i64.sub(i64.sub(T2[k]!, T0[k]!), T1[k]!));
      }
    }, { export: false });
    mb.func('fp2_sqrw', { out: 'i32', x: 'i32' }, undefined, [
      'fp2_sqrw(out, x): out = x² unreduced in fp2_mulw\'s form, complex method: c0 = (x0 + x1)(x0 − x1 + 2p) ∈ [0, 16p²),',
      'c1 = (2·x0)·x1 < 8p² (normalized limbs); x components < 2p; out does not overlap x. Cost: 2 base products without reduction.',
    ], (fb) => {
      const x = fb.param('x', 'i32').get;
      const out = fb.param('out', 'i32').get;
      const { w, mask, p } = fp.L;
      const twoP = toLimbs(2n * p, w, n);
      const x0 = fp.load(fb, x, 'xa'), x1 = fp.load(fb, at(x, this.EB), 'xb');
      const lin = (prefix: string, e: (j: number) => Expr<'i64'>) => {
        const z = fb.locals64(prefix, n);
        for (let j = 0; j < n; j++) {
          z[j].set(j === 0 ? e(j) : i64.add(e(j), i64.shr_s(z[j - 1].get, w)));
          if (j > 0) z[j - 1].set(i64.and(z[j - 1].get, i64.const(mask)));
        }
        return z.map((v) => v.get);
      };
      const sx = lin('s', (j) => i64.add(x0[j].get, x1[j].get));
      const dx = lin('d', (j) => i64.sub(i64.add(x0[j].get, i64.const(twoP[j])), x1[j].get));
      const tx = lin('t', (j) => i64.add(x0[j].get, x0[j].get));
      const prod = (a: Expr<'i64'>[], b: Expr<'i64'>[], prefix: string) => this.prodw(fb, a, b, prefix);
      const C0 = prod(sx, dx, 'p');
      for (let k = 0; k < 2 * n; k++) fb.i64Store32(out, 4 * k, C0[k]!);
      const C1 = prod(tx, x1.map((v) => v.get), 'q');
      for (let k = 0; k < 2 * n; k++) fb.i64Store32(out, 4 * (2 * n + k), C1[k]!);
    }, { export: false });
  }

  /** the 2n normalized limbs of a·b (unreduced) by a call of fp2_prodw, into fresh locals */
  private prodw(fb: FuncBuilder, a: Expr<'i64'>[], b: Expr<'i64'>[], prefix: string): Expr<'i64'>[] {
    fb.line(`(call $fp2_prodw ${[...a, ...b].map((v) => v.text).join(' ')})`);
    const T = fb.locals64(prefix, 2 * this.fp.L.n);
    for (let j = T.length - 1; j >= 0; j--) fb.line(`(local.set $${T[j].name})`);
    return T.map((v) => v.get);
  }

  /**
   * Name of `fp2_redw<k>(out, w)`: out = Σ c_t·W_t·R⁻¹ (components < 2p) for unreduced F_p² products W_t at
   * w + slot_t·EW (fp2_mulw's form) and small Gaussian-integer coefficients c_t: per component the limbwise
   * combination plus a multiple of p (S·8p², S = Σ|coefficient|) that makes it positive, one signed carry
   * chain and one Montgomery reduction (< 2p as the total stays below p·R, checked here).
   * Cost: 2 reductions (n² + n i64.mul each) and 2n·(terms) loads.
   */
  private reduceSum(terms: readonly (readonly [slot: number, c: readonly [bigint, bigint]])[]): string {
    const key = terms.map(([s, [a, b]]) => `${s}:${a},${b}`).join(' ');
    const known = this.redw.get(key);
    if (known) return known;
    const name = `fp2_redw${this.redw.size}`;
    this.redw.set(key, name);
    const { fp } = this;
    const { n, w, mask, p } = fp.L;
    const R = 1n << BigInt(n * w);
    this.mb.func(name, { out: 'i32', w: 'i32' }, undefined, [`${name}(out, w): out = ${key} (slot:coefficient, see PairingGen.reduceSum)`], (fb) => {
      const out = fb.param('out', 'i32').get;
      const wp = fb.param('w', 'i32').get;
      for (const comp of [0, 1]) {
        // component comp of (a + b·i)(W.c0 + W.c1·i): c0 → a·W.c0 − b·W.c1, c1 → b·W.c0 + a·W.c1
        const lin: [off: number, k: bigint][] = [];
        for (const [slot, [a, b]] of terms) {
          const base = slot * this.EW;
          const [k0, k1] = comp === 0 ? [a, -b] : [b, a];
          if (k0 !== 0n) lin.push([base, k0]);
          if (k1 !== 0n) lin.push([base + 8 * n, k1]);
        }
        const { bias, top } = this.sumRange(lin);
        if (top >= p * R) throw new Error(`pairing: ${name} has no headroom`);
        const bl = toLimbs(bias, w, 2 * n);
        const z = fb.locals64(`z${comp}_`, 2 * n);
        for (let k = 0; k < 2 * n; k++) {
          let e: Expr<'i64'> = i64.const(bl[k]);
          for (const [off, c] of lin) {
            const v = new Expr('i64', `(i64.load32_s offset=${off + 4 * k} ${wp.text})`);
            e = c === 1n ? i64.add(e, v) : c === -1n ? i64.sub(e, v) : i64.add(e, i64.mul(v, i64.const(c)));
          }
          z[k].set(k === 0 ? e : i64.add(e, i64.shr_s(z[k - 1].get, w)));
          if (k > 0) z[k - 1].set(i64.and(z[k - 1].get, i64.const(mask)));
        }
        const r = fp.montReduceWide(fb, z, `r${comp}`);
        fp.store(fb, at(out, comp * this.EB), r.map((v) => v.get));
      }
    }, { export: false });
    return name;
  }

  /**
   * The bias of a combination (offset in W, coefficient) of unreduced components — the least multiple of p
   * above its most negative value, c0 ∈ (−4p², 16p²) (fp2_mulw's or fp2_sqrw's), c1 ∈ [0, 8p²) — and the bound of the biased value.
   */
  private sumRange(lin: readonly (readonly [off: number, k: bigint])[]): { bias: bigint; top: bigint } {
    const p = this.fp.L.p, p2 = p * p, half = 8 * this.fp.L.n;
    let neg = 0n, pos = 0n;
    for (const [off, k] of lin) {
      const [lo, hi] = off % this.EW < half ? [-4n * p2, 16n * p2] : [0n, 8n * p2];
      const [a, b] = k > 0n ? [k * lo, k * hi] : [k * hi, k * lo];
      neg += a;
      pos += b;
    }
    const bias = ((-neg + p - 1n) / p) * p;
    return { bias, top: bias + pos };
  }
  /** whether F_p⁶ products with ξ-multiplied terms fit reduceSum's headroom (3 terms times ξ plus one) */
  private lazyFits(): boolean {
    const [a, b] = this.params.xi;
    const EW = this.EW, half = 8 * this.fp.L.n;
    const lin: [number, bigint][] = [[0, 1n]];
    for (let t = 1; t <= 3; t++) lin.push([t * EW, a], [t * EW + half, -b]);
    const { top } = this.sumRange(lin);
    return top < this.fp.L.p * (1n << BigInt(this.fp.L.n * this.fp.L.w));
  }

  /** out ← Σ c_t·W_t as an F_p² element by a reduceSum function (scratch-free) */
  private redSum(fb: FuncBuilder, out: Ptr, w: Ptr, terms: readonly (readonly [number, readonly [bigint, bigint]])[]): void {
    fb.call(this.reduceSum(terms), out, w);
  }

  private emitFp6(): void {
    const { E2 } = this;
    const [xi0, xi1] = this.params.xi;
    // out = ξ·x: for ξ = 1 + i, (x0 − x1) + (x0 + x1)·i; else a product by the constant
    this.def('fp2_mul_xi', ['out', 'x'], { t: E2 }, undefined, (fb, [out, x], fr) => {
      if (xi0 === 1n && xi1 === 1n) {
        fb.call(`${this.fp.f}_sub`, fr.t.t, x, at(x, this.EB));
        fb.call(`${this.fp.f}_add`, at(out, this.EB), x, at(x, this.EB));
        fb.call(`${this.fp.f}_copy`, out, fr.t.t);
      } else {
        this.f2const(fb, fr.t.t, this.params.xi);
        this.f2s(fb, fr, 'mul', out, x, fr.t.t);
      }
    });
    for (const op of ['add', 'sub'] as const) this.def(`fp6_${op}`, ['out', 'x', 'y'], {}, undefined, (fb, [out, x, y]) => this.each6(fb, op, out, x, y));
    this.def('fp6_neg', ['out', 'x'], {}, undefined, (fb, [out, x]) => this.each6(fb, 'neg', out, x));
    // out = x·v = (ξ·x2, x0, x1)
    this.def('fp6_mul_v', ['out', 'x'], { t: E2 }, undefined, (fb, [out, x], fr) => {
      this.call(fb, fr, 'fp2_mul_xi', fr.t.t, this.c6(x, 2));
      this.f2(fb, 'copy', this.c6(out, 2), this.c6(x, 1));
      this.f2(fb, 'copy', this.c6(out, 1), x);
      this.f2(fb, 'copy', out, fr.t.t);
    });
    if (this.lazy) this.emitFp6Lazy();
    else this.emitFp6Products();
    // x·(b1·v) = (ξ·x2·b1, x0·b1, x1·b1): 3M2
    this.def('fp6_mul_1', ['out', 'x', 'b1'], { c0: E2 }, undefined, (fb, [out, x, b1], fr) => {
      this.f2s(fb, fr, 'mul', fr.t.c0, this.c6(x, 2), b1);
      this.call(fb, fr, 'fp2_mul_xi', fr.t.c0, fr.t.c0);
      this.f2s(fb, fr, 'mul', this.c6(out, 2), this.c6(x, 1), b1);
      this.f2s(fb, fr, 'mul', this.c6(out, 1), x, b1);
      this.f2(fb, 'copy', out, fr.t.c0);
    });
    // x·b for b in F_p²: 3M2; out may alias x (not b)
    this.def('fp6_mul_fp2', ['out', 'x', 'b'], {}, undefined, (fb, [out, x, b], fr) => {
      for (let k = 0; k < 3; k++) this.f2s(fb, fr, 'mul', this.c6(out, k), this.c6(x, k), b);
    });
    // 1/x by the adjugate (reference inv6): 9M2 + 3S2 + 1 F_p² inverse
    this.def('fp6_inv', ['out', 'x'], { c0: E2, c1: E2, c2: E2, t: E2, a: E2 }, undefined, (fb, [out, x], fr) => {
      const { c0, c1, c2, t, a } = fr.t;
      const X = (k: number) => this.c6(x, k);
      this.f2s(fb, fr, 'sqr', c0, X(0));
      this.f2s(fb, fr, 'mul', a, X(1), X(2));
      this.call(fb, fr, 'fp2_mul_xi', a, a);
      this.f2(fb, 'sub', c0, c0, a);
      this.f2s(fb, fr, 'sqr', c1, X(2));
      this.call(fb, fr, 'fp2_mul_xi', c1, c1);
      this.f2s(fb, fr, 'mul', a, X(0), X(1));
      this.f2(fb, 'sub', c1, c1, a);
      this.f2s(fb, fr, 'sqr', c2, X(1));
      this.f2s(fb, fr, 'mul', a, X(0), X(2));
      this.f2(fb, 'sub', c2, c2, a);
      this.f2s(fb, fr, 'mul', t, X(2), c1);
      this.f2s(fb, fr, 'mul', a, X(1), c2);
      this.f2(fb, 'add', t, t, a);
      this.call(fb, fr, 'fp2_mul_xi', t, t);
      this.f2s(fb, fr, 'mul', a, X(0), c0);
      this.f2(fb, 'add', t, t, a);
      this.f2s(fb, fr, 'inv', t, t);
      this.f2s(fb, fr, 'mul', out, c0, t);
      this.f2s(fb, fr, 'mul', this.c6(out, 1), c1, t);
      this.f2s(fb, fr, 'mul', this.c6(out, 2), c2, t);
    });
  }

  /** fp6_mul and fp6_mul_01 over fp2_mul (the by-calls F_p² of the wide64 module) */
  private emitFp6Products(): void {
    const { E2 } = this;
    // Karatsuba over F_p²: 6M2 (reference mul6); out may alias x, y
    this.def('fp6_mul', ['out', 'x', 'y'], { t0: E2, t1: E2, t2: E2, a: E2, b: E2, c0: E2, c1: E2 }, undefined, (fb, [out, x, y], fr) => {
      const { t0, t1, t2, a, b, c0, c1 } = fr.t;
      const X = (k: number) => this.c6(x, k), Y = (k: number) => this.c6(y, k);
      this.f2s(fb, fr, 'mul', t0, X(0), Y(0));
      this.f2s(fb, fr, 'mul', t1, X(1), Y(1));
      this.f2s(fb, fr, 'mul', t2, X(2), Y(2));
      this.f2(fb, 'add', a, X(1), X(2));
      this.f2(fb, 'add', b, Y(1), Y(2));
      this.f2s(fb, fr, 'mul', a, a, b);
      this.f2(fb, 'sub', a, a, t1);
      this.f2(fb, 'sub', a, a, t2);
      this.call(fb, fr, 'fp2_mul_xi', a, a);
      this.f2(fb, 'add', c0, t0, a);
      this.f2(fb, 'add', a, X(0), X(1));
      this.f2(fb, 'add', b, Y(0), Y(1));
      this.f2s(fb, fr, 'mul', a, a, b);
      this.f2(fb, 'sub', a, a, t0);
      this.f2(fb, 'sub', a, a, t1);
      this.call(fb, fr, 'fp2_mul_xi', c1, t2);
      this.f2(fb, 'add', c1, c1, a);
      this.f2(fb, 'add', a, X(0), X(2));
      this.f2(fb, 'add', b, Y(0), Y(2));
      this.f2s(fb, fr, 'mul', a, a, b);
      this.f2(fb, 'sub', a, a, t0);
      this.f2(fb, 'sub', a, a, t2);
      this.f2(fb, 'add', this.c6(out, 2), a, t1);
      this.f2(fb, 'copy', out, c0);
      this.f2(fb, 'copy', this.c6(out, 1), c1);
    });
    // x·(b0 + b1·v): 5M2; out may alias x (not b0, b1)
    this.def('fp6_mul_01', ['out', 'x', 'b0', 'b1'], { t0: E2, t1: E2, a: E2, b: E2, c0: E2 }, undefined, (fb, [out, x, b0, b1], fr) => {
      const { t0, t1, a, b, c0 } = fr.t;
      const X = (k: number) => this.c6(x, k);
      this.f2s(fb, fr, 'mul', t0, X(0), b0);
      this.f2s(fb, fr, 'mul', t1, X(1), b1);
      this.f2s(fb, fr, 'mul', c0, X(2), b1);
      this.call(fb, fr, 'fp2_mul_xi', c0, c0);
      this.f2(fb, 'add', c0, c0, t0);
      this.f2(fb, 'add', a, X(0), X(1));
      this.f2(fb, 'add', b, b0, b1);
      this.f2s(fb, fr, 'mul', a, a, b);
      this.f2(fb, 'sub', a, a, t0);
      this.f2(fb, 'sub', a, a, t1);
      this.f2s(fb, fr, 'mul', b, X(2), b0);
      this.f2(fb, 'add', this.c6(out, 2), b, t1);
      this.f2(fb, 'copy', this.c6(out, 1), a);
      this.f2(fb, 'copy', out, c0);
    });
  }

  /**
   * fp6_mul and fp6_mul_01 with lazy reduction: the F_p² products unreduced (fp2_mulw) and each output
   * F_p² coefficient reduced once (reduceSum), so 2 base reductions per output coefficient.
   */
  private emitFp6Lazy(): void {
    const { E2, EW } = this;
    const xi = this.params.xi;
    const one = [1n, 0n] as const, minus = [-1n, 0n] as const, mxi = [-xi[0], -xi[1]] as const;
    const W = (w: Ptr, k: number) => at(w, k * EW);
    // Karatsuba over F_p² (reference mul6): 6 unreduced M2, 6 F_p² reductions; out may alias x, y
    this.def('fp6_mul', ['out', 'x', 'y'], { w: 6 * EW, a: E2, b: E2 }, undefined, (fb, [out, x, y], fr) => {
      const { w, a, b } = fr.t;
      const X = (k: number) => this.c6(x, k), Y = (k: number) => this.c6(y, k);
      fb.call('fp2_mulw', W(w, 0), X(0), Y(0));
      fb.call('fp2_mulw', W(w, 1), X(1), Y(1));
      fb.call('fp2_mulw', W(w, 2), X(2), Y(2));
      this.f2(fb, 'add', a, X(1), X(2));
      this.f2(fb, 'add', b, Y(1), Y(2));
      fb.call('fp2_mulw', W(w, 3), a, b);
      this.f2(fb, 'add', a, X(0), X(1));
      this.f2(fb, 'add', b, Y(0), Y(1));
      fb.call('fp2_mulw', W(w, 4), a, b);
      this.f2(fb, 'add', a, X(0), X(2));
      this.f2(fb, 'add', b, Y(0), Y(2));
      fb.call('fp2_mulw', W(w, 5), a, b);
      // c0 = t0 + ξ(a12 − t1 − t2), c1 = a01 − t0 − t1 + ξ·t2, c2 = a02 − t0 − t2 + t1
      this.redSum(fb, out, w, [[0, one], [3, xi], [1, mxi], [2, mxi]]);
      this.redSum(fb, this.c6(out, 1), w, [[4, one], [0, minus], [1, minus], [2, xi]]);
      this.redSum(fb, this.c6(out, 2), w, [[5, one], [0, minus], [2, minus], [1, one]]);
    });
    // x·(b0 + b1·v): 5 unreduced M2, 3 F_p² reductions; out may alias x (not b0, b1)
    this.def('fp6_mul_01', ['out', 'x', 'b0', 'b1'], { w: 5 * EW, a: E2, b: E2 }, undefined, (fb, [out, x, b0, b1], fr) => {
      const { w, a, b } = fr.t;
      const X = (k: number) => this.c6(x, k);
      fb.call('fp2_mulw', W(w, 0), X(0), b0);
      fb.call('fp2_mulw', W(w, 1), X(1), b1);
      fb.call('fp2_mulw', W(w, 2), X(2), b1);
      fb.call('fp2_mulw', W(w, 3), X(2), b0);
      this.f2(fb, 'add', a, X(0), X(1));
      this.f2(fb, 'add', b, b0, b1);
      fb.call('fp2_mulw', W(w, 4), a, b);
      // c0 = t0 + ξ·x2b1, c1 = (x0 + x1)(b0 + b1) − t0 − t1, c2 = x2b0 + t1
      this.redSum(fb, out, w, [[0, one], [2, xi]]);
      this.redSum(fb, this.c6(out, 1), w, [[4, one], [0, minus], [1, minus]]);
      this.redSum(fb, this.c6(out, 2), w, [[3, one], [1, one]]);
    });
  }

  private emitFp12(): void {
    const { E2, E6, E12 } = this;
    const H = (x: Ptr, h: number) => this.h12(x, h);
    this.def('fp12_mul', ['out', 'x', 'y'], { t0: E6, t1: E6, a: E6, b: E6 }, [
      'fp12_mul(out, x, y, scratch): out = x·y in F_p¹² (Karatsuba over F_p⁶: 3 F_p⁶ products, 18M2 = 54 base products);',
      'out may alias x and y.',
    ], (fb, [out, x, y], fr) => {
      const { t0, t1, a, b } = fr.t;
      this.call(fb, fr, 'fp6_mul', t0, H(x, 0), H(y, 0));
      this.call(fb, fr, 'fp6_mul', t1, H(x, 1), H(y, 1));
      this.call(fb, fr, 'fp6_add', a, H(x, 0), H(x, 1));
      this.call(fb, fr, 'fp6_add', b, H(y, 0), H(y, 1));
      this.call(fb, fr, 'fp6_mul', a, a, b);
      this.call(fb, fr, 'fp6_sub', a, a, t0);
      this.call(fb, fr, 'fp6_sub', H(out, 1), a, t1);
      this.call(fb, fr, 'fp6_mul_v', t1, t1);
      this.call(fb, fr, 'fp6_add', out, t0, t1);
    });
    this.def('fp12_sqr', ['out', 'x'], { t: E6, a: E6, b: E6 }, [
      'fp12_sqr(out, x, scratch): out = x² (complex method over F_p⁶: 2 F_p⁶ products, 12M2); out may alias x.',
    ], (fb, [out, x], fr) => {
      const { t, a, b } = fr.t;
      this.call(fb, fr, 'fp6_mul', t, H(x, 0), H(x, 1));
      this.call(fb, fr, 'fp6_add', a, H(x, 0), H(x, 1));
      this.call(fb, fr, 'fp6_mul_v', b, H(x, 1));
      this.call(fb, fr, 'fp6_add', b, b, H(x, 0));
      this.call(fb, fr, 'fp6_mul', a, a, b);
      this.call(fb, fr, 'fp6_sub', a, a, t);
      this.call(fb, fr, 'fp6_mul_v', b, t);
      this.call(fb, fr, 'fp6_sub', out, a, b);
      this.call(fb, fr, 'fp6_add', H(out, 1), t, t);
    });
    const dType = this.params.twist === 'D';
    this.def('fp12_mul_line', ['out', 'f', 'line'], { t0: E6, t1: E6, a: E6, s: E2 }, [
      'fp12_mul_line(out, f, line, scratch): out = f·ℓ for the evaluated line (c, sx, ty) at line (3 F_p²): the sparse product of the',
      dType ? 'D-type twist, ℓ = ty + (sx + c·v)·w (shape 034): 13M2. out may alias f (not line).' : 'M-type twist, ℓ = (c + sx·v) + (ty·v)·w (shape 014): 13M2. out may alias f (not line).',
    ], (fb, [out, f, line], fr) => {
      const { t0, t1, a, s } = fr.t;
      const [c, sx, ty] = [0, 1, 2].map((k) => at(line, k * E2));
      if (dType) {
        this.call(fb, fr, 'fp6_mul_fp2', t0, H(f, 0), ty);
        this.call(fb, fr, 'fp6_mul_01', t1, H(f, 1), sx, c);
        this.f2(fb, 'add', s, ty, sx);
        this.call(fb, fr, 'fp6_add', a, H(f, 0), H(f, 1));
        this.call(fb, fr, 'fp6_mul_01', a, a, s, c);
      } else {
        this.call(fb, fr, 'fp6_mul_01', t0, H(f, 0), c, sx);
        this.call(fb, fr, 'fp6_mul_1', t1, H(f, 1), ty);
        this.f2(fb, 'add', s, sx, ty);
        this.call(fb, fr, 'fp6_add', a, H(f, 0), H(f, 1));
        this.call(fb, fr, 'fp6_mul_01', a, a, c, s);
      }
      this.call(fb, fr, 'fp6_sub', a, a, t0);
      this.call(fb, fr, 'fp6_sub', H(out, 1), a, t1);
      this.call(fb, fr, 'fp6_mul_v', t1, t1);
      this.call(fb, fr, 'fp6_add', out, t0, t1);
    });
    // f·ℓ for a normalized line evaluated as ev = (a, b) (reference mulLineNormalized): 10M2; out may alias f (not ab).
    // M-type ℓ = (a + b·v) + v·w: (f0·L0 + v²·f1) + (f1·L0 + v·f0)·w, L0 = a + b·v; D-type ℓ = 1 + (b + a·v)·w: (f0 + v·f1·L1) + (f1 + f0·L1)·w
    this.def('fp12_mul_line_n', ['out', 'f', 'ab'], { t0: E6, t1: E6, a: E6, b: E6 }, undefined, (fb, [out, f, ab], fr) => {
      const { t0, t1, a, b } = fr.t;
      const [e0, e1] = dType ? [at(ab, E2), ab] : [ab, at(ab, E2)];
      this.call(fb, fr, 'fp6_mul_01', t0, H(f, 0), e0, e1);
      this.call(fb, fr, 'fp6_mul_01', t1, H(f, 1), e0, e1);
      if (dType) {
        this.call(fb, fr, 'fp6_mul_v', t1, t1);
        this.call(fb, fr, 'fp6_add', H(out, 1), H(f, 1), t0);
        this.call(fb, fr, 'fp6_add', H(out, 0), H(f, 0), t1);
        return;
      }
      this.call(fb, fr, 'fp6_mul_v', a, H(f, 0));
      this.call(fb, fr, 'fp6_mul_v', b, H(f, 1));
      this.call(fb, fr, 'fp6_mul_v', b, b);
      this.call(fb, fr, 'fp6_add', H(out, 0), t0, b);
      this.call(fb, fr, 'fp6_add', H(out, 1), t1, a);
    });
    this.def('fp12_copy', ['out', 'x'], {}, undefined, (fb, [out, x]) => {
      this.each6(fb, 'copy', out, x);
      this.each6(fb, 'copy', H(out, 1), H(x, 1));
    });
    this.def('fp12_conj', ['out', 'x'], {}, [
      'fp12_conj(out, x, scratch): out = x0 − x1·w = x^(p⁶) (the inverse on the cyclotomic subgroup); out may alias x.',
    ], (fb, [out, x]) => {
      this.each6(fb, 'copy', out, x);
      this.each6(fb, 'neg', H(out, 1), H(x, 1));
    });
    // x^(pⁿ): coefficient of w^k → (conjⁿ c)·γ_{n,k} (γ in F_p when its c1 = 0: 2 base products)
    for (const n of [1, 2, 3] as const) {
      const gamma = this.ref.frob[n - 1]!;
      this.def(`fp12_frobenius${n}`, ['out', 'x'], { g: E2 }, undefined, (fb, [out, x], fr) => {
        for (let k = 0; k < 6; k++) {
          const h = k % 2, j = k >> 1;
          const src = this.c12(x, h, j), dst = this.c12(out, h, j);
          this.f2(fb, n % 2 === 1 ? 'conj' : 'copy', dst, src);
          const [g0, g1] = gamma[k]!;
          if (g0 === 1n && g1 === 0n) continue;
          if (g1 === 0n) {
            this.fp.storeConst(fb, fr.t.g, this.fp.montLimbs(g0));
            this.f2(fb, 'mul_fp', dst, dst, fr.t.g);
          } else {
            this.f2const(fb, fr.t.g, gamma[k]!);
            this.f2s(fb, fr, 'mul', dst, dst, fr.t.g);
          }
        }
      });
    }
    this.def('fp12_frobenius', ['out', 'x', 'n'], {}, [
      'fp12_frobenius(out, x, n, scratch): out = x^(pⁿ) for n = 1, 2, 3 (other n: out = x): each coefficient of w^k conjugated',
      'n times and multiplied by γ = ξ^(k(pⁿ − 1)/6), constants computed at build time. ≤ 5M2. out may alias x.',
    ], (fb, [out, x, n], fr) => {
      for (const m of [1, 2, 3]) fb.if(i32.eq(n, i32.const(m)), () => {
        this.call(fb, fr, `fp12_frobenius${m}`, out, x);
        fb.ret();
      });
      this.call(fb, fr, 'fp12_copy', out, x);
    });
    this.def('fp12_inv', ['out', 'x'], { t: E6, a: E6 }, [
      'fp12_inv(out, x, scratch): out = 1/x = conj(x)/(x0² − v·x1²) (0 → 0); out may alias x. Cost: 1 F_p⁶ inverse + 4 F_p⁶ products.',
    ], (fb, [out, x], fr) => {
      const { t, a } = fr.t;
      this.call(fb, fr, 'fp6_mul', t, H(x, 0), H(x, 0));
      this.call(fb, fr, 'fp6_mul', a, H(x, 1), H(x, 1));
      this.call(fb, fr, 'fp6_mul_v', a, a);
      this.call(fb, fr, 'fp6_sub', t, t, a);
      this.call(fb, fr, 'fp6_inv', t, t);
      this.call(fb, fr, 'fp6_mul', out, H(x, 0), t);
      this.call(fb, fr, 'fp6_mul', H(out, 1), H(x, 1), t);
      this.call(fb, fr, 'fp6_neg', H(out, 1), H(out, 1));
    });
    // F_p⁴ squaring of (x + y·s), s² = ξ: (x² + ξy², (x + y)² − x² − y²): 3S2
    if (this.lazy) this.def('fp4_sqr', ['o0', 'o1', 'x', 'y'], { w: 3 * this.EW, s: E2 }, undefined, (fb, [o0, o1, x, y], fr) => {
      // (x + y·t)² for t² = ξ: o0 = x² + ξ·y², o1 = (x + y)² − x² − y², squares unreduced, 2 F_p² reductions
      const { w, s } = fr.t;
      const W = (k: number) => at(w, k * this.EW);
      fb.call('fp2_sqrw', W(0), x);
      fb.call('fp2_sqrw', W(1), y);
      this.f2(fb, 'add', s, x, y);
      fb.call('fp2_sqrw', W(2), s);
      this.redSum(fb, o0, w, [[0, [1n, 0n]], [1, this.params.xi]]);
      this.redSum(fb, o1, w, [[2, [1n, 0n]], [0, [-1n, 0n]], [1, [-1n, 0n]]]);
    });
    else this.def('fp4_sqr', ['o0', 'o1', 'x', 'y'], { a: E2, b: E2 }, undefined, (fb, [o0, o1, x, y], fr) => {
      const { a, b } = fr.t;
      this.f2s(fb, fr, 'sqr', a, x);
      this.f2s(fb, fr, 'sqr', b, y);
      this.f2(fb, 'add', o1, x, y);
      this.f2s(fb, fr, 'sqr', o1, o1);
      this.f2(fb, 'sub', o1, o1, a);
      this.f2(fb, 'sub', o1, o1, b);
      this.call(fb, fr, 'fp2_mul_xi', b, b);
      this.f2(fb, 'add', o0, a, b);
    });
    const threeTwo = this.threeTwo.bind(this);
    this.def('fp12_cyclotomic_sqr', ['out', 'x'], { A0: E2, A1: E2, B0: E2, B1: E2, C0: E2, C1: E2 }, [
      'fp12_cyclotomic_sqr(out, x, scratch): out = x² for x in the cyclotomic subgroup (x^(p⁶ + 1) = 1, e.g. after the easy part of',
      'the final exponentiation); other x: not x². Granger–Scott (PKC 2010) over F_p⁴ = F_p²[w³]: 9S2. out may alias x.',
    ], (fb, [out, x], fr) => {
      const { A0, A1, B0, B1, C0, C1 } = fr.t;
      const X = (h: number, j: number) => this.c12(x, h, j), O = (h: number, j: number) => this.c12(out, h, j);
      this.call(fb, fr, 'fp4_sqr', A0, A1, X(0, 0), X(1, 1));
      this.call(fb, fr, 'fp4_sqr', B0, B1, X(1, 0), X(0, 2));
      this.call(fb, fr, 'fp4_sqr', C0, C1, X(0, 1), X(1, 2));
      this.call(fb, fr, 'fp2_mul_xi', C1, C1);
      // 3t ∓ 2z = 2(t ∓ z) + t, each coefficient reads only its own input
      threeTwo(fb, O(0, 0), A0, X(0, 0), 'sub');
      threeTwo(fb, O(1, 1), A1, X(1, 1), 'add');
      threeTwo(fb, O(1, 0), C1, X(1, 0), 'add');
      threeTwo(fb, O(0, 2), C0, X(0, 2), 'sub');
      threeTwo(fb, O(0, 1), B0, X(0, 1), 'sub');
      threeTwo(fb, O(1, 2), B1, X(1, 2), 'add');
    });
    this.def('fp12_is_one', ['x'], {}, [
      'fp12_is_one(x, scratch) → 1 if x ≡ 1, else 0.',
    ], (fb, [x]) => {
      let e = fb.callExpr('i32', 'fp2_is_one', x);
      for (let k = 1; k < 6; k++) e = i32.and(e, fb.callExpr('i32', 'fp2_is_zero', this.c12(x, k % 2, k >> 1)));
      fb.ret(e);
    }, 'i32');
    this.def('fp12_set_one', ['out'], {}, ['fp12_set_one(out, scratch): out = 1.'], (fb, [out]) => {
      this.f2(fb, 'set_one', out);
      for (let k = 1; k < 6; k++) this.f2(fb, 'set_zero', this.c12(out, k % 2, k >> 1));
    });
    // out = x^u (x cyclotomic, so x⁻¹ = conj(x); out ≠ x): over the width-w NAF of |u| (w = 1: plain binary) with the
    // cheapest count of products (54 base products) and cyclotomic squarings (18), conjugated for u < 0
    const u = this.params.u;
    const { w, digits } = expChain(u < 0n ? -u : u);
    const odd = w >= 3 ? 1 << (w - 2) : 1;
    const tableTemps: Record<string, number> = w >= 3 ? { X2: E12, N: E12, ...Object.fromEntries(Array.from({ length: odd - 1 }, (_, j) => [`T${2 * j + 3}`, E12])) } : { N: E12 };
    const karabina = w === 1 && digits.filter((d) => d !== 0).length <= KARABINA_MAX_WEIGHT;
    this.def(karabina ? 'fp12_exp_u_gs' : 'fp12_exp_u', ['out', 'x'], tableTemps, undefined, (fb, [out, x], fr) => {
      const T = (d: number): Ptr => (d === 1 ? x : fr.t[`T${d}`]!);
      if (w >= 3) {
        fb.comment(`odd powers x^3 … x^${2 * odd - 1} (width-${w} NAF of |u|: ${digits.filter((d) => d !== 0).length} non-zero digits)`);
        this.call(fb, fr, 'fp12_cyclotomic_sqr', fr.t.X2!, x);
        for (let d = 3; d < 2 * odd; d += 2) this.call(fb, fr, 'fp12_mul', T(d), T(d - 2), fr.t.X2!);
      }
      const counter = fb.local('c', 'i32');
      this.call(fb, fr, 'fp12_copy', out, T(digits[0]!));
      let run = 0;
      const flush = () => {
        if (run > 2) {
          counter.set(i32.const(run));
          fb.loop((again) => {
            this.call(fb, fr, 'fp12_cyclotomic_sqr', out, out);
            fb.brIf(again, i32.ne(counter.tee(i32.sub(counter.get, i32.const(1))), i32.const(0)));
          });
        } else for (let k = 0; k < run; k++) this.call(fb, fr, 'fp12_cyclotomic_sqr', out, out);
        run = 0;
      };
      for (const d of digits.slice(1)) {
        run++;
        if (d === 0) continue;
        flush();
        if (d > 0) this.call(fb, fr, 'fp12_mul', out, out, T(d));
        else {
          this.call(fb, fr, 'fp12_conj', fr.t.N!, T(-d));
          this.call(fb, fr, 'fp12_mul', out, out, fr.t.N!);
        }
      }
      flush();
      if (u < 0n) this.call(fb, fr, 'fp12_conj', out, out);
    });
    if (karabina) this.emitExpUCompressed(digits);
  }

  /**
   * fp12_exp_u(out, x) by compressed squarings (Karabina, Math. Comp. 2013; as in Aranha–Karabina–Longa–Gebotys–
   * López, Eurocrypt 2011, §5): x^|u| = ∏_k x^(2^k) over the bits k of |u|; one chain of compressed squarings
   * from x keeps x^(2^k) for each such k, the kept values are decompressed together (one F_p² inverse by
   * Montgomery's trick), then multiplied. A compressed value is an F_p¹² buffer whose coefficients a00 and
   * a11 are stale. Where a denominator 4·a10 is 0 (x = 1, x in F_p⁶, …) the Granger–Scott chain
   * (fp12_exp_u_gs) runs instead, so every cyclotomic x gets x^u.
   */
  private emitExpUCompressed(digits: number[]): void {
    const { E2, E12 } = this;
    const u = this.params.u;
    const bits = digits.length - 1; // x^(2^bits) is the top one
    const kept = digits.map((d, i) => (d !== 0 ? bits - i : -1)).filter((k) => k >= 0).sort((a, b) => a - b); // bit positions, ascending
    const n = kept.length;
    const x12 = (ptr: Ptr, h: number, j: number) => this.c12(ptr, h, j);
    // fp12_cyc_sqr_compressed(out, x): the four coefficients a01, a02, a10, a12 of x² from those of x (6S2)
    this.def('fp12_cyc_sqr_compressed', ['out', 'x'], { B0: E2, B1: E2, C0: E2, C1: E2 }, undefined, (fb, [out, x], fr) => {
      const { B0, B1, C0, C1 } = fr.t;
      const X = (h: number, j: number) => x12(x, h, j), O = (h: number, j: number) => x12(out, h, j);
      this.call(fb, fr, 'fp4_sqr', B0, B1, X(1, 0), X(0, 2));
      this.call(fb, fr, 'fp4_sqr', C0, C1, X(0, 1), X(1, 2));
      this.call(fb, fr, 'fp2_mul_xi', C1, C1);
      this.threeTwo(fb, O(1, 0), C1, X(1, 0), 'add');
      this.threeTwo(fb, O(0, 2), C0, X(0, 2), 'sub');
      this.threeTwo(fb, O(0, 1), B0, X(0, 1), 'sub');
      this.threeTwo(fb, O(1, 2), B1, X(1, 2), 'add');
    });
    const temps: Record<string, number> = { num: n * E2, pre: n * E2, inv: E2, t: E2, a: E2 };
    for (let j = 0; j < n; j++) temps[`S${j}`] = E12;
    this.def('fp12_exp_u', ['out', 'x'], temps, undefined, (fb, [out, x], fr) => {
      const S = (j: number): Ptr => fr.t[`S${j}`]!;
      const num = (j: number) => at(fr.t.num!, j * E2), pre = (j: number) => at(fr.t.pre!, j * E2);
      const { inv, t, a } = fr.t;
      fb.comment(`compressed squarings of x, keeping x^(2^k) for k = ${kept.join(', ')}`);
      this.call(fb, fr, 'fp12_copy', S(0), x);
      let k = 0;
      const counter = fb.local('c', 'i32');
      kept.forEach((target, j) => {
        if (j > 0) this.call(fb, fr, 'fp12_copy', S(j), S(j - 1));
        const run = target - k;
        if (run > 2) {
          counter.set(i32.const(run));
          fb.loop((again) => {
            this.call(fb, fr, 'fp12_cyc_sqr_compressed', S(j), S(j));
            fb.brIf(again, i32.ne(counter.tee(i32.sub(counter.get, i32.const(1))), i32.const(0)));
          });
        } else for (let m = 0; m < run; m++) this.call(fb, fr, 'fp12_cyc_sqr_compressed', S(j), S(j));
        k = target;
      });
      fb.comment('a11 = (ξ·a12² + 3·a01² − 2·a02)/(4·a10); denominators inverted together: pre_j = ∏_{i ≤ j} 4·a10(S_i)');
      for (let j = 0; j < n; j++) {
        const X = (h: number, i: number) => x12(S(j), h, i);
        this.f2s(fb, fr, 'sqr', t, X(1, 2));
        this.call(fb, fr, 'fp2_mul_xi', t, t);
        this.f2s(fb, fr, 'sqr', a, X(0, 1));
        this.threeTwo(fb, num(j), a, X(0, 2), 'sub'); // 3a01² − 2a02
        this.f2(fb, 'add', num(j), num(j), t);
        this.f2(fb, 'double', a, X(1, 0));
        this.f2(fb, 'double', a, a);
        if (j === 0) this.f2(fb, 'copy', pre(0), a);
        else this.f2s(fb, fr, 'mul', pre(j), pre(j - 1), a);
      }
      fb.if(fb.callExpr('i32', 'fp2_is_zero', pre(n - 1)), () => {
        this.call(fb, fr, 'fp12_exp_u_gs', out, x);
        fb.ret();
      });
      this.f2s(fb, fr, 'inv', inv, pre(n - 1));
      for (let j = n - 1; j >= 0; j--) {
        const X = (h: number, i: number) => x12(S(j), h, i);
        fb.comment(`S${j}: 1/(4·a10) = inv·pre_${j - 1}, then inv ← inv·4·a10; a00 = ξ·(2a11² − 3a01·a02 + a10·a12) + 1`);
        if (j > 0) {
          this.f2s(fb, fr, 'mul', t, inv, pre(j - 1));
          this.f2(fb, 'double', a, X(1, 0));
          this.f2(fb, 'double', a, a);
          this.f2s(fb, fr, 'mul', inv, inv, a);
          this.f2s(fb, fr, 'mul', X(1, 1), num(j), t);
        } else this.f2s(fb, fr, 'mul', X(1, 1), num(j), inv);
        this.f2s(fb, fr, 'sqr', t, X(1, 1));
        this.f2s(fb, fr, 'mul', a, X(0, 1), X(0, 2));
        this.threeTwo(fb, X(0, 0), t, a, 'sub'); // 3t − 2a, t = a11², a = a01·a02
        this.f2(fb, 'sub', X(0, 0), X(0, 0), t);
        this.f2(fb, 'sub', X(0, 0), X(0, 0), a); // 2a11² − 3a01·a02
        this.f2s(fb, fr, 'mul', a, X(1, 0), X(1, 2));
        this.f2(fb, 'add', X(0, 0), X(0, 0), a);
        this.call(fb, fr, 'fp2_mul_xi', X(0, 0), X(0, 0));
        this.f2(fb, 'set_one', t);
        this.f2(fb, 'add', X(0, 0), X(0, 0), t);
      }
      fb.comment(`the product of the ${n} decompressed powers`);
      this.call(fb, fr, 'fp12_mul', out, S(0), S(1));
      for (let j = 2; j < n; j++) this.call(fb, fr, 'fp12_mul', out, out, S(j));
      if (u < 0n) this.call(fb, fr, 'fp12_conj', out, out);
    });
  }

  private emitFinalExp(): void {
    const { E12 } = this;
    const w = (au: bigint) => {
      const c = expChain(au);
      const weight = c.digits.filter((d) => d !== 0).length;
      if (c.w === 1 && weight <= KARABINA_MAX_WEIGHT) return `${c.digits.length - 1} compressed squarings (6S2), ${weight} decompressions with one F_p² inverse, ${weight - 1} products`;
      const table = c.w >= 3 ? 1 << (c.w - 2) : 0;
      return `${c.digits.length - 1 + (table ? 1 : 0)} cyclotomic squarings + ${weight - 1 + table} products, width-${c.w} NAF`;
    };
    const au = this.params.u < 0n ? -this.params.u : this.params.u;
    const bn = this.params.family === 'bn';
    const hard = bn
      ? [
          'then the BN multiple 2u(6u² + 3u + 1)·(p⁴ − p² + 1)/r of Fuentes-Castañeda–Knapp–Rodríguez-Henríquez (SAC 2011, §6; the power',
          `@noble/curves takes): t^(λ0 + λ1·p + λ2·p² + λ3·p³) by three exponentiations by u (each ${w(au)}) and 3 Frobenius maps. out may alias f.`,
        ]
      : [
          'then Hayashida–Hayasaka–Teruya (eprint 2020/875): 3(p⁴ − p² + 1)/r = (u − 1)²(u + p)(u² + p² − 1) + 3, the cube of the reduced',
          `pairing (as @noble/curves), by five exponentiations by u (each ${w(au)}) and 3 Frobenius maps. out may alias f.`,
        ];
    this.def('pairing_final_exp', ['out', 'f'], { t: E12, a: E12, b: E12, c: E12, d: E12 }, [
      'pairing_final_exp(out, f, scratch): out = f raised to a fixed multiple of (p¹² − 1)/r (coprime to r; formulas in src/reference/pairing.ts):',
      'the easy part t = f^((p⁶ − 1)(p² + 1)) (1 F_p¹² inverse),',
      ...hard,
    ], (fb, [out, f], fr) => {
      const { t, a, b, c, d } = fr.t;
      const c12 = (name: string, ...args: Ptr[]) => this.call(fb, fr, name, ...args);
      c12('fp12_inv', a, f);
      c12('fp12_conj', t, f);
      c12('fp12_mul', t, t, a);
      c12('fp12_frobenius2', a, t);
      c12('fp12_mul', t, t, a);
      if (bn) {
        fb.comment('b = t^(2u), c = t^(6u), d = t^(6u²), a = t^(12u³) → λ2, b → λ1, c → λ3^p³, d → λ0');
        c12('fp12_exp_u', b, t);
        c12('fp12_cyclotomic_sqr', b, b);
        c12('fp12_cyclotomic_sqr', c, b);
        c12('fp12_mul', c, c, b);
        c12('fp12_exp_u', d, c);
        c12('fp12_exp_u', a, d);
        c12('fp12_cyclotomic_sqr', a, a);
        c12('fp12_mul', a, a, d);
        c12('fp12_mul', a, a, c);
        c12('fp12_conj', b, b);
        c12('fp12_mul', b, a, b);
        c12('fp12_conj', c, t);
        c12('fp12_mul', c, b, c);
        c12('fp12_frobenius3', c, c);
        c12('fp12_mul', d, a, d);
        c12('fp12_mul', d, d, t);
        c12('fp12_frobenius2', t, a);
        c12('fp12_mul', d, d, t);
        c12('fp12_frobenius1', t, b);
        c12('fp12_mul', d, d, t);
        c12('fp12_mul', out, c, d);
        return;
      }
      fb.comment('a = t^(u − 1), b = a^(u − 1), c = b^(u + p), d = c^(u² + p² − 1)');
      c12('fp12_exp_u', a, t);
      c12('fp12_conj', b, t);
      c12('fp12_mul', a, a, b);
      c12('fp12_exp_u', b, a);
      c12('fp12_conj', a, a);
      c12('fp12_mul', b, b, a);
      c12('fp12_exp_u', c, b);
      c12('fp12_frobenius1', a, b);
      c12('fp12_mul', c, c, a);
      c12('fp12_exp_u', a, c);
      c12('fp12_exp_u', d, a);
      c12('fp12_frobenius2', a, c);
      c12('fp12_mul', d, d, a);
      c12('fp12_conj', a, c);
      c12('fp12_mul', d, d, a);
      fb.comment('· t³');
      c12('fp12_cyclotomic_sqr', a, t);
      c12('fp12_mul', a, a, t);
      c12('fp12_mul', out, d, a);
    });
  }

  private emitMillerLoop(): void {
    const { E2, EB } = this;
    const b3 = this.ref.b3;
    // T (X, Y, Z) ← 2T, line ← tangent (reference doubleStep)
    this.def('pairing_dbl_step', ['line', 'T'], { B: E2, C: E2, E: E2, F3: E2, H: E2, XY: E2, X2: E2, a: E2 }, undefined, (fb, [line, T], fr) => {
      const { B, C, E, F3, H, XY, X2, a } = fr.t;
      const [X, Y, Z] = [0, 1, 2].map((k) => at(T, k * E2));
      this.f2s(fb, fr, 'sqr', B, Y);
      this.f2s(fb, fr, 'sqr', C, Z);
      this.f2const(fb, a, b3);
      this.f2s(fb, fr, 'mul', E, a, C);
      this.f2(fb, 'double', F3, E);
      this.f2(fb, 'add', F3, F3, E);
      this.f2(fb, 'add', H, Y, Z);
      this.f2s(fb, fr, 'sqr', H, H);
      this.f2(fb, 'sub', H, H, B);
      this.f2(fb, 'sub', H, H, C);
      this.f2s(fb, fr, 'mul', XY, X, Y);
      this.f2(fb, 'double', XY, XY);
      this.f2s(fb, fr, 'sqr', X2, X);
      fb.comment('line (B − E, −3X², H)');
      this.f2(fb, 'sub', line, B, E);
      this.f2(fb, 'double', a, X2);
      this.f2(fb, 'add', a, a, X2);
      this.f2(fb, 'neg', at(line, E2), a);
      this.f2(fb, 'copy', at(line, 2 * E2), H);
      fb.comment('X3 = 2XY(B − F), Y3 = (B + F)² − 12E², Z3 = 4B·H');
      this.f2(fb, 'sub', a, B, F3);
      this.f2s(fb, fr, 'mul', X, XY, a);
      this.f2(fb, 'add', a, B, F3);
      this.f2s(fb, fr, 'sqr', a, a);
      this.f2s(fb, fr, 'sqr', E, E);
      this.f2(fb, 'double', C, E);
      this.f2(fb, 'add', C, C, E);
      this.f2(fb, 'double', C, C);
      this.f2(fb, 'double', C, C);
      this.f2(fb, 'sub', Y, a, C);
      this.f2(fb, 'double', B, B);
      this.f2(fb, 'double', B, B);
      this.f2s(fb, fr, 'mul', Z, B, H);
    });
    // T ← T + Q (Q affine), line ← chord (reference addStep)
    this.def('pairing_add_step', ['line', 'T', 'q'], { th: E2, la: E2, C: E2, D: E2, E: E2, G: E2, H: E2, a: E2 }, undefined, (fb, [line, T, q], fr) => {
      const { th, la, C, D, E, G, H, a } = fr.t;
      const [X, Y, Z] = [0, 1, 2].map((k) => at(T, k * E2));
      const [qx, qy] = [q, at(q, E2)];
      this.f2s(fb, fr, 'mul', a, Z, qy);
      this.f2(fb, 'sub', th, Y, a);
      this.f2s(fb, fr, 'mul', a, Z, qx);
      this.f2(fb, 'sub', la, X, a);
      this.f2s(fb, fr, 'sqr', C, th);
      this.f2s(fb, fr, 'sqr', D, la);
      this.f2s(fb, fr, 'mul', E, la, D);
      this.f2s(fb, fr, 'mul', C, Z, C);
      this.f2s(fb, fr, 'mul', G, X, D);
      this.f2(fb, 'add', H, E, C);
      this.f2(fb, 'sub', H, H, G);
      this.f2(fb, 'sub', H, H, G);
      fb.comment('line (θ·xQ − λ·yQ, −θ, λ)');
      this.f2s(fb, fr, 'mul', a, th, qx);
      this.f2s(fb, fr, 'mul', D, la, qy);
      this.f2(fb, 'sub', line, a, D);
      this.f2(fb, 'neg', at(line, E2), th);
      this.f2(fb, 'copy', at(line, 2 * E2), la);
      fb.comment('X3 = λH, Y3 = θ(G − H) − Y·E, Z3 = Z·E');
      this.f2s(fb, fr, 'mul', X, la, H);
      this.f2(fb, 'sub', G, G, H);
      this.f2s(fb, fr, 'mul', G, th, G);
      this.f2s(fb, fr, 'mul', a, Y, E);
      this.f2(fb, 'sub', Y, G, a);
      this.f2s(fb, fr, 'mul', Z, Z, E);
    });
    const lineBytes = 3 * E2;
    const schedule = this.ref.schedule;
    const doubles = schedule.filter((s) => s === 'dbl').length;
    const pi = this.ref.pi;
    const uses = (k: string) => schedule.includes(k as never);
    this.def('pairing_prepare_g2', ['lines', 'q'], { T: 3 * E2, N: 2 * E2, Q1: 2 * E2, Q2: 2 * E2, K: E2 }, [
      `pairing_prepare_g2(lines, q, scratch): the ${this.lines} lines (c, s, t) of the Miller loop of the affine q (finite, in G2) into`,
      `lines (${this.lineTableBytes} bytes), in schedule order: ${doubles} doublings and ${this.lines - doubles} additions of T in homogeneous`,
      `coordinates (Costello–Lange–Naehrig 2010, §5; formulas in src/reference/pairing.ts)${this.params.family === 'bn' ? ', the last two with π(q) and −π²(q)' : ''}.`,
      'Cost per doubling 3M2 + 6S2, per addition 10M2 + 2S2.',
    ], (fb, [lines, q], fr) => {
      const { T, N, Q1, Q2, K } = fr.t;
      const y = (P: Ptr) => at(P, E2);
      this.f2(fb, 'copy', T, q);
      this.f2(fb, 'copy', y(T), y(q));
      this.f2(fb, 'set_one', at(T, 2 * E2));
      if (uses('sub')) {
        this.f2(fb, 'copy', N, q);
        this.f2(fb, 'neg', y(N), y(q));
      }
      if (uses('frob1')) {
        fb.comment('Q1 = π(q) = (conj(x)·πx, conj(y)·πy), Q2 = −π²(q) = (x·π2x, −y·π2y)');
        const mulConst = (dst: Ptr, src: Ptr, k: Fp2Pair, conj: boolean) => {
          this.f2(fb, conj ? 'conj' : 'copy', dst, src);
          this.f2const(fb, K, k);
          this.f2s(fb, fr, 'mul', dst, dst, K);
        };
        mulConst(Q1, q, pi.x, true);
        mulConst(y(Q1), y(q), pi.y, true);
        mulConst(Q2, q, pi.x2, false);
        mulConst(y(Q2), y(q), pi.y2, false);
        this.f2(fb, 'neg', y(Q2), y(Q2));
      }
      const other = { add: q, sub: N, frob1: Q1, frob2: Q2 } as const;
      schedule.forEach((s, k) => {
        if (s === 'dbl') this.call(fb, fr, 'pairing_dbl_step', at(lines, k * lineBytes), T);
        else this.call(fb, fr, 'pairing_add_step', at(lines, k * lineBytes), T, other[s]);
      });
    });
    this.def('pairing_normalize_lines', ['lines'], { pre: this.lines * E2, inv: E2, ti: E2 }, [
      `pairing_normalize_lines(lines, scratch): the ${this.lines} lines (c, s, t) of a prepared G2 point (pairing_prepare_g2) made (c/t, s/t, 1) in place`,
      '(t ≠ 0 for q in G2: 2YZ at a doubling, X − Z·xQ at an addition; reference normalizeLines), the fixed-argument form',
      '(Costello–Stebila, Latincrypt 2010) that pairing_miller_loop evaluates at (x/y, 1/y) of P and multiplies in by 10M2 instead of 13M2',
      '(a factor t·yP ∈ F_p², which the final exponentiation removes). The t inverted together (Montgomery\'s trick: one F_p² inverse,',
      `3M2 per line), then 2M2 per line: worth it for a point used in more than about two Miller loops.`,
    ], (fb, [lines], fr) => {
      fb.comment('pre_k = t_0·…·t_k; inv = 1/pre_last; backwards: 1/t_k = inv·pre_(k−1), inv ← inv·t_k');
      const { pre, inv, ti } = fr.t;
      const k = fb.local('k', 'i32');
      const line = fb.local('line', 'i32');
      const tOf = (ln: Ptr) => at(ln, 2 * E2);
      this.f2(fb, 'copy', pre, tOf(lines));
      fb.forRange(k, i32.const(1), i32.const(this.lines), 1, () => {
        const here = i32.add(pre, i32.mul(k.get, i32.const(E2)));
        this.f2s(fb, fr, 'mul', here, i32.sub(here, i32.const(E2)), tOf(i32.add(lines, i32.mul(k.get, i32.const(lineBytes)))));
      });
      this.f2s(fb, fr, 'inv', inv, at(pre, (this.lines - 1) * E2));
      fb.forRangeDown(k, i32.const(this.lines), () => {
        line.set(i32.add(lines, i32.mul(k.get, i32.const(lineBytes))));
        fb.if(i32.eqz(k.get), () => this.f2(fb, 'copy', ti, inv), () => {
          this.f2s(fb, fr, 'mul', ti, inv, i32.add(pre, i32.mul(i32.sub(k.get, i32.const(1)), i32.const(E2))));
          this.f2s(fb, fr, 'mul', inv, inv, tOf(line.get));
        });
        this.f2s(fb, fr, 'mul', line.get, line.get, ti);
        this.f2s(fb, fr, 'mul', at(line.get, E2), at(line.get, E2), ti);
        this.f2(fb, 'set_one', tOf(line.get));
      });
    });
    // f ← f·ℓ_i(P_i) for the line at byte offset `off` of each pair's table
    this.def('pairing_lines_at', ['f', 'ps', 'lines', 'count', 'off'], { ev: lineBytes }, undefined, (fb, [f, ps, lines, count, off], fr) => {
      const i = fb.local('i', 'i32');
      const L = fb.local('l', 'i32');
      const P = fb.local('p', 'i32');
      const ev = fr.t.ev;
      fb.forRange(i, i32.const(0), count, 1, () => {
        L.set(i32.load(i32.add(lines, i32.shl(i.get, 2))));
        P.set(i32.add(ps, i32.mul(i.get, i32.const(2 * EB))));
        fb.if(i32.and(L.get, i32.const(1)), () => {
          // a normalized table (pointer + 1); P holds (xP/yP, 1/yP): ((c/t)/yP, (s/t)·xP/yP)
          L.set(i32.add(L.get, i32.sub(off, i32.const(1))));
          this.f2(fb, 'mul_fp', ev, L.get, at(P.get, EB));
          this.f2(fb, 'mul_fp', at(ev, E2), at(L.get, E2), P.get);
          this.call(fb, fr, 'fp12_mul_line_n', f, f, ev);
        }, () => {
          L.set(i32.add(L.get, off));
          this.f2(fb, 'copy', ev, L.get);
          this.f2(fb, 'mul_fp', at(ev, E2), at(L.get, E2), P.get);
          this.f2(fb, 'mul_fp', at(ev, 2 * E2), at(L.get, 2 * E2), at(P.get, EB));
          this.call(fb, fr, 'fp12_mul_line', f, f, ev);
        });
      });
    });
    this.def('pairing_miller_loop', ['out', 'ps', 'lines', 'count'], {}, [
      'pairing_miller_loop(out, ps, lines, count, scratch): out = ∏ f_{u,Q_i}(P_i) (conjugated for u < 0), i < count: ps = count affine',
      `G1 points (2·EB bytes each, finite), lines = count i32 pointers to prepared G2 points: a table of pairing_prepare_g2, or`,
      'one of pairing_normalize_lines as its address + 1 (bit 0 set; tables are 4-byte aligned), whose point P (in G1, so y ≠ 0) is',
      'replaced in ps by (x/y, 1/y) first (1 inverse). One F_p¹² squaring per doubling shared by all pairs',
      `(${doubles - 1} squarings: the first is of 1), ${this.lines} sparse products per pair, 13M2 (10M2 normalized) + 4 base products each.`,
      'count = 0: out = 1. out must not overlap ps, lines or the tables.',
    ], (fb, [out, ps, lines, count], fr) => {
      const i = fb.local('i', 'i32');
      const P = fb.local('p', 'i32');
      fb.forRange(i, i32.const(0), count, 1, () => {
        fb.if(i32.and(i32.load(i32.add(lines, i32.shl(i.get, 2))), i32.const(1)), () => {
          P.set(i32.add(ps, i32.mul(i.get, i32.const(2 * EB))));
          fb.call(`${this.fp.f}_inv`, at(P.get, EB), at(P.get, EB));
          fb.call(`${this.fp.f}_mul`, P.get, P.get, at(P.get, EB));
        });
      });
      this.call(fb, fr, 'fp12_set_one', out);
      schedule.forEach((s, k) => {
        if (s === 'dbl' && k > 0) this.call(fb, fr, 'fp12_sqr', out, out);
        this.call(fb, fr, 'pairing_lines_at', out, ps, lines, count, i32.const(k * lineBytes));
      });
      if (this.params.family === 'bls12' && this.params.u < 0n) this.call(fb, fr, 'fp12_conj', out, out);
    });
  }
}

/**
 * The digits (most significant first) of the exponentiation by e > 0 in the cyclotomic subgroup: the
 * width-w NAF (odd digits |d| < 2^(w−1); w = 1: the binary digits) for the w of least cost, counting a
 * product 3× a cyclotomic squaring (54 and 18 base products) and the table x^3 … x^(2^(w−1) − 1).
 */
/** the most bits set in |u| for which fp12_exp_u takes compressed squarings (each bit costs one decompression) */
const KARABINA_MAX_WEIGHT = 8;

export function expChain(e: bigint): { w: number; digits: number[] } {
  let best: { w: number; digits: number[]; cost: number } | undefined;
  for (let w = 1; w <= 5; w++) {
    const digits: number[] = [];
    const W = 1n << BigInt(w);
    for (let k = e; k > 0n; k >>= 1n) {
      let d = 0n;
      if (k & 1n) {
        d = w === 1 ? 1n : k % W;
        if (w > 1 && d >= W / 2n) d -= W;
        k -= d;
      }
      digits.unshift(Number(d));
    }
    const table = w >= 3 ? (1 << (w - 2)) : 0;
    const products = digits.filter((d) => d !== 0).length - 1 + table;
    const cost = 3 * products + digits.length - 1 + (table ? 1 : 0);
    if (!best || cost < best.cost) best = { w, digits, cost };
  }
  return { w: best!.w, digits: best!.digits };
}
