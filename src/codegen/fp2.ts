/**
 * Generator of the quadratic extension kernels `fp2_*` over a base field emitted by a FieldGen:
 * F_p² = F_p[i]/(i² + 1) for p ≡ 3 (mod 4) (BLS12-381, BN254), the coordinate field of G2.
 *
 * Layout: an element is c0 at +0 and c1 at +EB (EB = the base field's element bytes), each a base
 * field element in Montgomery form in the redundant range [0, 2p); 2·EB bytes in all. Every kernel
 * keeps that range and accepts out aliasing its inputs.
 *
 * The products work on limbs held in locals (the base field's Karatsuba column product and
 * separated Montgomery reduction, src/codegen/field.ts), so fp2_mul and fp2_sqr make no calls and
 * need no scratch; the sums that feed them are brought back below 2p first (one conditional
 * subtraction), which is what the Montgomery reduction's "< 2p in, < 2p out" bound needs.
 * Each kernel's bigint twin is in src/reference/fp2.ts. Costs in base-field products M (S = a square).
 *
 * The generator offers the interface the curve and MSM generators need of a coordinate field
 * (`CoordinateField`): its kernel prefix, element bytes, constants as limbs and their stores.
 */
import { FieldGen } from './field.js';
import { toLimbs } from './field-layout.js';
import { FuncBuilder, I32, Local, ModuleBuilder, emitDoubleAndAdd, i32, i64 } from './wat.js';

/** What the curve and MSM generators use of the field their coordinates live in. */
export interface CoordinateField {
  /** kernel prefix: ops are `${f}_mul`, `${f}_add`, … */
  readonly f: string;
  readonly L: { readonly p: bigint; readonly elementBytes: number };
  /** Montgomery limbs of a base-field constant embedded in this field (c1 = 0 for F_p²) */
  montLimbs(v: bigint): bigint[];
  storeConst(fb: FuncBuilder, ptr: I32, limbs: bigint[]): void;
}

type Limbs = Local<'i64'>[];

export class Fp2Gen implements CoordinateField {
  readonly f: string;
  readonly L: { readonly p: bigint; readonly elementBytes: number };
  /** bytes of one base-field element (offset of c1) */
  readonly EB: number;
  /** scratch elements (F_p², 2·EB bytes each) of fp2_sqrt */
  readonly sqrtScratchElements = 7;

  constructor(
    readonly mb: ModuleBuilder,
    readonly fp: FieldGen,
    prefix = 'fp2',
  ) {
    if (fp.L.p % 4n !== 3n) throw new Error('Fp2Gen: p must be 3 mod 4 (i² = −1 a non-residue)');
    this.f = prefix;
    this.EB = fp.L.elementBytes;
    this.L = { p: fp.L.p, elementBytes: 2 * this.EB };
  }

  montLimbs(v: bigint): bigint[] {
    return [...this.fp.montLimbs(v), ...new Array<bigint>(this.fp.L.n).fill(0n)];
  }
  /** Montgomery limbs of c0 + c1·i. */
  montLimbs2(c: readonly [bigint, bigint]): bigint[] {
    return [...this.fp.montLimbs(c[0]), ...this.fp.montLimbs(c[1])];
  }
  storeConst(fb: FuncBuilder, ptr: I32, limbs: bigint[]): void {
    const n = this.fp.L.n;
    this.fp.storeConst(fb, ptr, limbs.slice(0, n));
    this.fp.storeConst(fb, i32.add(ptr, i32.const(this.EB)), limbs.slice(n, 2 * n));
  }

  describe(): string[] {
    return [`field ${this.f} = ${this.fp.f}[i]/(i² + 1): element = c0 ‖ c1, ${this.L.elementBytes} bytes`];
  }

  // ------------------------------------------------------------ limb-level helpers (locals)
  private c1(ptr: I32): I32 {
    return i32.add(ptr, i32.const(this.EB));
  }
  /**
   * x·y·R⁻¹ (normalized limbs < 2p for x·y < 16p²) by a call of `<f>_prod`: a product per function, so that
   * V8 allocates registers per product (products inlined into one kernel body spill: fp2_mul took ≈ 2×
   * as long that way, measured by CPU time against the call form).
   */
  private product(fb: FuncBuilder, x: Limbs, y: Limbs, prefix: string): Limbs {
    const { n } = this.fp.L;
    fb.line(`(call $${this.f}_prod ${[...x, ...y].map((v) => v.get.text).join(' ')})`);
    const out = fb.locals64(prefix, n);
    for (let j = n - 1; j >= 0; j--) fb.line(`(local.set $${out[j].name})`);
    return out;
  }
  private square(fb: FuncBuilder, x: Limbs, prefix: string): Limbs {
    const T = this.fp.squareProduct(fb, x, 'sp');
    this.fp.normalizeColumns(fb, T);
    return this.keep(fb, this.fp.montReduceWide(fb, T, 'kr'), prefix);
  }
  /** Limbwise sum of values < 2p (no reduction: < 4p, still within n normalized limbs as 4p < R). */
  private sum(fb: FuncBuilder, x: Limbs, y: Limbs, prefix: string): Limbs {
    const z = fb.locals64(prefix, x.length);
    z.forEach((v, j) => v.set(i64.add(x[j].get, y[j].get)));
    this.fp.carryAll(fb, z);
    return z;
  }
  private keep(fb: FuncBuilder, S: Limbs, prefix: string): Limbs {
    const out = fb.locals64(prefix, S.length);
    out.forEach((v, j) => v.set(S[j].get));
    return out;
  }
  /**
   * Σ plus − Σ minus + k·p for limbs < 2p each, with k = 2·|minus| (so the value is positive), reduced
   * into [0, 2p) by conditional subtractions of 2^j·2p (the value is below 2p·(|plus| + |minus|)).
   */
  private combine(fb: FuncBuilder, plus: Limbs[], minus: Limbs[], prefix: string): Limbs {
    const { w, n, mask, p } = this.fp.L;
    const bias = toLimbs(2n * BigInt(minus.length) * p, w, n);
    const z = fb.locals64(prefix, n);
    for (let j = 0; j < n; j++) {
      let e = plus.length ? plus.map((v) => v[j].get).reduce((a, b) => i64.add(a, b)) : i64.const(0n);
      if (minus.length) e = i64.add(e, i64.const(bias[j]));
      for (const m of minus) e = i64.sub(e, m[j].get);
      z[j].set(e);
    }
    // signed carries (limbs may be negative before this; the total is positive)
    for (let j = 0; j + 1 < n; j++) {
      z[j + 1].set(i64.add(z[j + 1].get, i64.shr_s(z[j].get, w)));
      z[j].set(i64.and(z[j].get, i64.const(mask)));
    }
    let terms = plus.length + minus.length;
    if (2n * p * BigInt(terms) >= 1n << BigInt(n * w)) throw new Error(`${this.f}: ${terms} terms overflow the limbs`);
    // below 2p·terms (≤ 2p when terms = 1: 2p − 0 must still come down)
    const subs: bigint[] = [1n];
    for (let m = 2n; terms > 2; terms = Math.ceil(terms / 2), m *= 2n) subs.unshift(m);
    for (const m of subs) this.fp.condSubConst(fb, z, 2n * p * m);
    return z;
  }

  emitAll(): void {
    const { mb, f, fp } = this;
    const F = fp.f;
    const ptr3 = { out: 'i32', x: 'i32', y: 'i32' } as const;
    const ptr2 = { out: 'i32', x: 'i32' } as const;
    emitFp2Componentwise(mb, F, f, this.EB, true);

    // Montgomery reduction of a product of sums (< 16p²) lands below 2p when 16p < R
    const { n } = fp.L;
    const R = 1n << BigInt(n * fp.L.w);
    if (!(16n * fp.L.p < R)) throw new Error(`${f}: no headroom for products of unreduced sums (16p ≥ R)`);
    const limbParams = (name: string) => Array.from({ length: n }, (_, j) => [`${name}${j}`, 'i64'] as const);
    mb.func(`${f}_prod`, Object.fromEntries([...limbParams('x'), ...limbParams('y')]), undefined, [
      `${f}_prod(x0…, y0…) → n limbs of x·y·R⁻¹, < 2p for x·y < 16p² (internal): one ${F} product on locals`,
      `(the base field's product form), the unit every ${f} product calls.`,
    ], (fb) => {
      const xs = limbParams('x').map(([name]) => fb.param(name, 'i64'));
      const ys = limbParams('y').map(([name]) => fb.param(name, 'i64'));
      for (const v of fp.productOfLocals(fb, xs, ys, 'kp', 'kr')) fb.line(v.get.text);
    }, { export: false, results: Array.from({ length: n }, () => 'i64' as const) });
    mb.func(`${f}_mul`, ptr3, undefined, [
      `${f}_mul(out, x, y): out = x·y, components < 2p in and out; out may alias x, y. Karatsuba over ${F}:`,
      `v0 = x0·y0, v1 = x1·y1, v2 = (x0 + x1)(y0 + y1) (sums unreduced, < 4p), out0 = v0 − v1, out1 = v2 − v0 − v1,`,
      `each product a call of ${f}_prod (an earlier form with three double-width products in one body and 2`,
      `reductions instead of 3 ran ≈ 4× slower in V8: register spills). Cost: 3M + 6 base add/sub.`,
    ], (fb) => {
      const x = fb.param('x', 'i32').get;
      const y = fb.param('y', 'i32').get;
      const out = fb.param('out', 'i32').get;
      const x0 = fp.load(fb, x, 'xa'), x1 = fp.load(fb, this.c1(x), 'xb');
      const y0 = fp.load(fb, y, 'ya'), y1 = fp.load(fb, this.c1(y), 'yb');
      const v0 = this.product(fb, x0, y0, 'v0');
      const v1 = this.product(fb, x1, y1, 'v1');
      const v2 = this.product(fb, this.sum(fb, x0, x1, 'sx'), this.sum(fb, y0, y1, 'sy'), 'v2');
      const o1 = this.combine(fb, [v2], [v0, v1], 'o1');
      const o0 = this.combine(fb, [v0], [v1], 'o0');
      fp.store(fb, out, o0.map((v) => v.get));
      fp.store(fb, this.c1(out), o1.map((v) => v.get));
    });

    mb.func(`${f}_sqr`, ptr2, undefined, [
      `${f}_sqr(out, x): out = x². Complex method: out0 = (x0 + x1)(x0 − x1), out1 = (2·x0)·x1; locals only, out may alias x.`,
      `Cost: 2M + 3 base additions/subtractions.`,
    ], (fb) => {
      const x = fb.param('x', 'i32').get;
      const out = fb.param('out', 'i32').get;
      const x0 = fp.load(fb, x, 'xa'), x1 = fp.load(fb, this.c1(x), 'xb');
      const s = this.combine(fb, [x0, x1], [], 's');
      const d = this.combine(fb, [x0], [x1], 'd');
      const t = this.combine(fb, [x0, x0], [], 't');
      const o0 = this.product(fb, s, d, 'p0');
      const o1 = this.product(fb, t, x1, 'p1');
      fp.store(fb, out, o0.map((v) => v.get));
      fp.store(fb, this.c1(out), o1.map((v) => v.get));
    });

    mb.func(`${f}_mul_fp`, ptr3, undefined, [
      `${f}_mul_fp(out, x, y): out = x·y for a base-field element y (at y, EB bytes). out may alias x. Cost: 2M.`,
    ], (fb) => {
      const x = fb.param('x', 'i32').get;
      const y = fb.param('y', 'i32').get;
      const out = fb.param('out', 'i32').get;
      fb.call(`${F}_mul`, out, x, y);
      fb.call(`${F}_mul`, this.c1(out), this.c1(x), y);
    });

    mb.func(`${f}_inv`, ptr2, undefined, [
      `${f}_inv(out, x): out = 1/x = conj(x)/N(x) with the norm N(x) = x0² + x1² ∈ ${F} (inv(0) = 0, as ${F}_inv).`,
      `out may alias x (x is read into locals first; the norm's inverse passes through out's c0). Cost: 1I + 2S + 2M.`,
    ], (fb) => {
      const x = fb.param('x', 'i32').get;
      const out = fb.param('out', 'i32').get;
      const x0 = fp.load(fb, x, 'xa'), x1 = fp.load(fb, this.c1(x), 'xb');
      const n0 = this.square(fb, x0, 'q0');
      const n1 = this.square(fb, x1, 'q1');
      const nrm = this.combine(fb, [n0, n1], [], 'nm');
      fp.store(fb, out, nrm.map((v) => v.get));
      fb.call(`${F}_inv`, out, out);
      const t = fp.load(fb, out, 'ti');
      const o0 = this.product(fb, x0, t, 'p0');
      const m1 = this.product(fb, x1, t, 'p1');
      const o1 = this.combine(fb, [], [m1], 'o1');
      fp.store(fb, out, o0.map((v) => v.get));
      fp.store(fb, this.c1(out), o1.map((v) => v.get));
    });

    this.emitSqrt();
  }

  /** out ← base^e for a constant e ≥ 1 (left to right; runs of squarings as counted loops). out ≠ base. */
  private powConst(fb: FuncBuilder, out: I32, base: I32, e: bigint, counter: Local<'i32'>): void {
    const f = this.f;
    fb.call(`${f}_copy`, out, base);
    emitDoubleAndAdd(fb, e, counter, () => fb.call(`${f}_sqr`, out, out), () => fb.call(`${f}_mul`, out, out, base));
  }

  private emitSqrt(): void {
    const { mb, f, fp } = this;
    const F = fp.f;
    const p = fp.L.p;
    const E2 = this.L.elementBytes;
    const e1 = (p - 3n) / 4n;
    const e2 = (p - 1n) / 2n;
    const cost = (e: bigint) => `${e.toString(2).length - 1}S + ${e.toString(2).replace(/0/g, '').length - 1}M`;
    mb.func(`${f}_sqrt`, { out: 'i32', x: 'i32', scratch: 'i32' }, 'i32', [
      `${f}_sqrt(out, x, scratch) → 1 and out = a square root of x (either sign: callers choose), or 0 if x is not a square.`,
      `Algorithm 9 of Adj and Rodríguez-Henríquez, "Square root computation over even extension fields" (eprint 2012/685),`,
      `p ≡ 3 mod 4: a1 = x^((p−3)/4), α = a1²·x, x0 = a1·x; α^p·α = −1 → no root; α = −1 → i·x0; else (1 + α)^((p−1)/2)·x0.`,
      `out may alias x; scratch: ${this.sqrtScratchElements} ${f} elements (${this.sqrtScratchElements * E2} bytes), not overlapping out or x.`,
      `Cost: two fixed exponentiations (${f} ${cost(e1)}, ${cost(e2)}) + 4 ${f} products; ${f} S = 2M, M = 3M. Variable-time.`,
    ], (fb) => {
      const out = fb.param('out', 'i32').get;
      const x = fb.param('x', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const el = (k: number) => i32.add(s, i32.const(k * E2));
      const [X, A1, ALPHA, A0, X0, B, T] = [0, 1, 2, 3, 4, 5, 6].map(el);
      const counter = fb.local('c', 'i32');
      fb.call(`${f}_copy`, X, x);
      fb.if(fb.callExpr('i32', `${f}_is_zero`, X), () => {
        fb.call(`${f}_set_zero`, out);
        fb.ret(i32.const(1));
      });
      this.powConst(fb, A1, X, e1, counter);
      fb.call(`${f}_sqr`, ALPHA, A1);
      fb.call(`${f}_mul`, ALPHA, ALPHA, X);
      fb.call(`${f}_conj`, A0, ALPHA);
      fb.call(`${f}_mul`, A0, A0, ALPHA);
      fb.comment('α^(p+1) = −1 ⟺ x is not a square');
      fb.call(`${f}_set_one`, T);
      fb.call(`${f}_add`, T, T, A0);
      fb.if(fb.callExpr('i32', `${f}_is_zero`, T), () => fb.ret(i32.const(0)));
      fb.call(`${f}_mul`, X0, A1, X);
      fb.call(`${f}_set_one`, T);
      fb.call(`${f}_add`, T, T, ALPHA);
      fb.if(fb.callExpr('i32', `${f}_is_zero`, T), () => {
        fb.comment('α = −1: root i·x0 = −x0.c1 + x0.c0·i');
        fb.call(`${F}_neg`, out, this.c1(X0));
        fb.call(`${F}_copy`, this.c1(out), X0);
        fb.ret(i32.const(1));
      });
      this.powConst(fb, B, T, e2, counter);
      fb.call(`${f}_mul`, out, B, X0);
      fb.ret(i32.const(1));
    }, { scratch: this.sqrtScratchElements * E2 });
  }
}

/**
 * The componentwise F_p² ops (add, sub, double, neg, reduce, copy, conj, set_zero, set_one, eq,
 * is_zero, is_one), two calls of the base field's kernel each; `exported` false keeps them internal
 * (the wide64 module's F_p² of the pairing, emitFp2ByCalls).
 */
export function emitFp2Componentwise(mb: ModuleBuilder, F: string, f: string, EB: number, exported: boolean): void {
  const c1 = (ptr: I32) => i32.add(ptr, i32.const(EB));
  const opts = { export: exported };
  const ptr3 = { out: 'i32', x: 'i32', y: 'i32' } as const;
  const ptr2 = { out: 'i32', x: 'i32' } as const;
  const perComponent = (name: string, op: string, params: typeof ptr3 | typeof ptr2, doc: string) =>
    mb.func(`${f}_${name}`, params, undefined, [doc], (fb) => {
      const args = Object.keys(params).map((k) => fb.param(k, 'i32').get);
      fb.call(`${F}_${op}`, ...args);
      fb.call(`${F}_${op}`, ...args.map((a) => c1(a)));
    }, opts);
  perComponent('add', 'add', ptr3, `${f}_add(out, x, y): x + y componentwise (${F}_add twice). Cost: 2 base additions.`);
  perComponent('sub', 'sub', ptr3, `${f}_sub(out, x, y): x − y componentwise. Cost: 2 base subtractions.`);
  perComponent('double', 'double', ptr2, `${f}_double(out, x): 2x componentwise.`);
  perComponent('neg', 'neg', ptr2, `${f}_neg(out, x): −x componentwise (0 stays 0).`);
  perComponent('reduce', 'reduce', ptr2, `${f}_reduce(out, x): canonical components in [0, p).`);
  perComponent('copy', 'copy', ptr2, `${f}_copy(out, x)`);
  mb.func(`${f}_conj`, ptr2, undefined, [`${f}_conj(out, x): c0 − c1·i (the Frobenius x^p).`], (fb) => {
    const out = fb.param('out', 'i32').get;
    const x = fb.param('x', 'i32').get;
    fb.call(`${F}_copy`, out, x);
    fb.call(`${F}_neg`, c1(out), c1(x));
  }, opts);
  mb.func(`${f}_set_zero`, { out: 'i32' }, undefined, [`${f}_set_zero(out)`], (fb) => {
    const out = fb.param('out', 'i32').get;
    fb.call(`${F}_set_zero`, out);
    fb.call(`${F}_set_zero`, c1(out));
  }, opts);
  mb.func(`${f}_set_one`, { out: 'i32' }, undefined, [`${f}_set_one(out): 1 + 0·i in Montgomery form.`], (fb) => {
    const out = fb.param('out', 'i32').get;
    fb.call(`${F}_set_one`, out);
    fb.call(`${F}_set_zero`, c1(out));
  }, opts);
  mb.func(`${f}_eq`, { x: 'i32', y: 'i32' }, 'i32', [`${f}_eq(x, y) → 1 if x ≡ y (both components mod p), else 0.`], (fb) => {
    const x = fb.param('x', 'i32').get;
    const y = fb.param('y', 'i32').get;
    fb.ret(i32.and(fb.callExpr('i32', `${F}_eq`, x, y), fb.callExpr('i32', `${F}_eq`, c1(x), c1(y))));
  }, opts);
  mb.func(`${f}_is_zero`, { x: 'i32' }, 'i32', [`${f}_is_zero(x) → 1 if both components ≡ 0, else 0.`], (fb) => {
    const x = fb.param('x', 'i32').get;
    fb.ret(i32.and(fb.callExpr('i32', `${F}_is_zero`, x), fb.callExpr('i32', `${F}_is_zero`, c1(x))));
  }, opts);
  mb.func(`${f}_is_one`, { x: 'i32' }, 'i32', [`${f}_is_one(x) → 1 if x ≡ 1 + 0·i, else 0.`], (fb) => {
    const x = fb.param('x', 'i32').get;
    fb.ret(i32.and(fb.callExpr('i32', `${F}_is_one`, x), fb.callExpr('i32', `${F}_is_zero`, c1(x))));
  }, opts);
}

/**
 * F_p² on kernel calls only, for base fields whose limb layout has no room for Fp2Gen's lazy
 * reductions (the 64-bit limbs of the wide64 module): internal functions `${f}_*` with the
 * componentwise ops above and mul, sqr, inv taking a scratch of `fp2CallScratchBytes(EB)` bytes
 * (3 base elements), for the pairing's tower (src/codegen/pairing.ts). Products: Karatsuba 3M
 * (mul), complex 2M (sqr), conj/norm 1I + 2S + 2M (inv), as Fp2Gen's; out may alias the inputs.
 */
export const fp2CallScratchBytes = (EB: number): number => 3 * EB;
export function emitFp2ByCalls(mb: ModuleBuilder, fp: FieldGen, f = 'fp2'): void {
  const F = fp.f;
  const EB = fp.L.elementBytes;
  emitFp2Componentwise(mb, F, f, EB, false);
  const at = (p: I32, k: number) => (k === 0 ? p : i32.add(p, i32.const(k * EB)));
  const internal = { export: false } as const;
  mb.func(`${f}_mul_fp`, { out: 'i32', x: 'i32', y: 'i32' }, undefined, [`${f}_mul_fp(out, x, y): x·y for y in ${F}. Cost: 2M.`], (fb) => {
    const [out, x, y] = ['out', 'x', 'y'].map((n) => fb.param(n, 'i32').get);
    fb.call(`${F}_mul`, out, x, y);
    fb.call(`${F}_mul`, at(out, 1), at(x, 1), y);
  }, internal);
  mb.func(`${f}_mul`, { out: 'i32', x: 'i32', y: 'i32', scratch: 'i32' }, undefined, [`${f}_mul(out, x, y, scratch): Karatsuba by ${F} calls, 3M.`], (fb) => {
    const [out, x, y, s] = ['out', 'x', 'y', 'scratch'].map((n) => fb.param(n, 'i32').get);
    const [t0, t1, t2] = [0, 1, 2].map((k) => at(s, k));
    fb.call(`${F}_add`, t0, x, at(x, 1));
    fb.call(`${F}_add`, t1, y, at(y, 1));
    fb.call(`${F}_mul`, t2, t0, t1);
    fb.call(`${F}_mul`, t0, x, y);
    fb.call(`${F}_mul`, t1, at(x, 1), at(y, 1));
    fb.call(`${F}_sub`, t2, t2, t0);
    fb.call(`${F}_sub`, at(out, 1), t2, t1);
    fb.call(`${F}_sub`, out, t0, t1);
  }, internal);
  mb.func(`${f}_sqr`, { out: 'i32', x: 'i32', scratch: 'i32' }, undefined, [`${f}_sqr(out, x, scratch): (x0 + x1)(x0 − x1) + 2x0x1·i by ${F} calls, 2M.`], (fb) => {
    const [out, x, s] = ['out', 'x', 'scratch'].map((n) => fb.param(n, 'i32').get);
    const [t0, t1, t2] = [0, 1, 2].map((k) => at(s, k));
    fb.call(`${F}_add`, t0, x, at(x, 1));
    fb.call(`${F}_sub`, t1, x, at(x, 1));
    fb.call(`${F}_double`, t2, x);
    fb.call(`${F}_mul`, out, t0, t1);
    fb.call(`${F}_mul`, at(out, 1), t2, at(x, 1));
  }, internal);
  mb.func(`${f}_inv`, { out: 'i32', x: 'i32', scratch: 'i32' }, undefined, [`${f}_inv(out, x, scratch): conj(x)/(x0² + x1²) by ${F} calls (0 → 0), 1I + 2S + 2M.`], (fb) => {
    const [out, x, s] = ['out', 'x', 'scratch'].map((n) => fb.param(n, 'i32').get);
    const [t0, t1] = [0, 1].map((k) => at(s, k));
    fb.call(`${F}_sqr`, t0, x);
    fb.call(`${F}_sqr`, t1, at(x, 1));
    fb.call(`${F}_add`, t0, t0, t1);
    fb.call(`${F}_inv`, t0, t0);
    fb.call(`${F}_mul`, out, x, t0);
    fb.call(`${F}_mul`, at(out, 1), at(x, 1), t0);
    fb.call(`${F}_neg`, at(out, 1), at(out, 1));
  }, internal);
}
