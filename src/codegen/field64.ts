/**
 * Generator of prime-field kernels on 64-bit limbs with the Wasm wide-arithmetic instructions
 * (i64.mul_wide_u, i64.add128, i64.sub128; see ./wide-arith.ts for how they are assembled and for
 * the polyfill the Node tests run). Same kernel names, signatures and contracts as ./field.ts
 * (`<f>_mul`, `<f>_add`, … `<f>_batch_inv`), so everything generated over the field interface
 * (calls `${f}_${op}`) is unchanged; the element is n = ⌈bits/64⌉ little-endian u64 limbs
 * (6 limbs, 48 bytes for 377/381-bit primes; 4 limbs, 32 bytes for 254/255-bit ones).
 *
 * Range: elements are kept in [0, 2p), the redundant range of the 30-bit kernels, which needs
 * 3p < R = 2^(64n). When also 4p < R (BLS12-381, BLS12-377, BN254) the CIOS output is < 2p as is;
 * otherwise (Pallas, Vesta: p > 2^254, 4p > 2^256) it is < 3p and one conditional subtraction of p
 * brings it below 2p, and add keeps the carry out of the top limb.
 * Nothing here is constant-time (the inverse is an exponentiation by the public p − 2).
 */
import { FieldGen, FieldSpec } from './field.js';
import { FieldLayout, bitLength, modInv, toLimbs } from './field-layout.js';
import { FuncBuilder, I32, I64, Local, ModuleBuilder, i32, i64 } from './wat.js';
import { add128, emitWideHelpers, mulWide, setPair, sub128 } from './wide-arith.js';

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

export class Wide64FieldGen extends FieldGen {
  readonly bound: bigint;
  /** 4p ≥ R: the product needs a final conditional − p, the sum x + y can carry out of R */
  readonly tight: boolean;

  constructor(mb: ModuleBuilder, spec: FieldSpec) {
    super(mb, spec, wideFieldLayout(spec.p));
    this.bound = wideBound(this.L);
    this.tight = 4n * this.L.p >= this.L.R;
  }

  override describe(): string[] {
    const L = this.L;
    return [
      `field ${this.f}: p = 0x${L.p.toString(16)} (${L.bits} bits)`,
      `  64-bit limbs on Wasm wide arithmetic: n = ${L.n}, R = 2^${64 * L.n}, element = ${L.elementBytes} bytes, range [0, 2p)${this.tight ? ', 4p ≥ R: products end with a conditional − p' : ''}`,
      `  mu0 = -p^-1 mod 2^64 = 0x${L.mu0.toString(16)}, mul = CIOS (n² + n wide products + n i64.mul)`,
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
  override montMulCios(fb: FuncBuilder, x: I32, y: I64[], prefix = 'm'): Local<'i64'>[] {
    const { n, mu0 } = this.L;
    const pl = this.pLimbs;
    const t = fb.locals64(`${prefix}_t`, n);
    const tn = fb.local(`${prefix}_tn`, 'i64');
    const C = fb.local(`${prefix}_c`, 'i64');
    const m = fb.local(`${prefix}_q`, 'i64');
    const xi = fb.local(`${prefix}_xi`, 'i64');
    const zero = this.k(0n);
    for (let i = 0; i < n; i++) {
      xi.set(i64.load(x, 8 * i));
      // t += x_i · y
      for (let j = 0; j < n; j++) {
        let e = mulWide(xi.get, y[j]);
        if (i > 0) e = add128(e, t[j].get);
        if (j > 0) e = add128(e, C.get);
        setPair(fb, e, t[j], C);
      }
      tn.set(i === 0 ? C.get : i64.add(tn.get, C.get)); // < 2^64: t < 2^64·R (see above)
      // t = (t + m·p) / 2^64
      m.set(i64.mul(t[0].get, this.k(mu0)));
      setPair(fb, add128(mulWide(m.get, this.k(pl[0])), t[0].get), t[0], C); // low word is 0
      for (let j = 1; j < n; j++) setPair(fb, add128(add128(mulWide(m.get, this.k(pl[j])), t[j].get), C.get), t[j - 1], C);
      setPair(fb, add128([tn.get, zero], C.get), t[n - 1], tn);
    }
    if (this.tight) this.condSubConst(fb, t, this.L.p);
    return t;
  }

  // ---------------------------------------------------------------- kernels
  override emitAll(): void {
    emitWideHelpers(this.mb);
    const { mb, f } = this;
    const { n, p } = this.L;
    const B = this.bound;
    const range = '[0, 2p)';
    const ptr = { out: 'i32', x: 'i32', y: 'i32' } as const;
    const zero = this.k(0n);

    mb.func(`${f}_mul`, ptr, undefined, [
      `${f}_mul(out, x, y): out = x·y·R⁻¹ mod p. x, y in ${range} → out in ${range}; out may alias x or y.`,
      `CIOS on ${n} 64-bit limbs with wide arithmetic (see montMulCios): ${n * n + n} mul_wide_u + ${n} i64.mul.`,
    ], (fb) => {
      const ys = this.load(fb, fb.param('y', 'i32').get, 'y');
      const S = this.montMulCios(fb, fb.param('x', 'i32').get, ys.map((v) => v.get));
      this.store(fb, fb.param('out', 'i32').get, S.map((s) => s.get));
    });
    mb.func(`${f}_sqr`, { out: 'i32', x: 'i32' }, undefined, [
      `${f}_sqr(out, x): out = x²·R⁻¹ mod p, x in ${range} → ${range}; may alias. The CIOS product with y = x.`,
    ], (fb) => {
      const x = fb.param('x', 'i32');
      const xs = this.load(fb, x.get, 'x');
      const S = this.montMulCios(fb, x.get, xs.map((v) => v.get));
      this.store(fb, fb.param('out', 'i32').get, S.map((s) => s.get));
    });

    /** s = x + y < 4p, then − 2p if ≥ 2p; when 4p ≥ R the carry c out of the top limb counts too. */
    const addInto = (fb: FuncBuilder, xs: Local<'i64'>[], ys: (j: number) => I64) => {
      const s = fb.locals64('s', n);
      const c = fb.local('c', 'i64');
      for (let j = 0; j < n; j++) {
        const e = add128([xs[j].get, zero], ys(j));
        setPair(fb, j === 0 ? e : add128(e, c.get), s[j], c);
      }
      const Bl = toLimbs(B, 64, n);
      const d = fb.locals64('cs_d', n);
      const bw = this.subChain(fb, (j) => s[j].get, (j) => this.k(Bl[j]), d, 'cs');
      // take s − 2p unless it borrowed without a carry out (then s < 2p)
      const take = this.tight ? i32.or(i64.eqz(bw.get), i32.wrap_i64(c.get)) : i64.eqz(bw.get);
      s.forEach((v, j) => v.set(i64.select(d[j].get, v.get, take)));
      return s;
    };
    mb.func(`${f}_add`, ptr, undefined, [`${f}_add(out, x, y): x + y in ${range}. add128 carry chain, then one conditional − 2p (select).`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      const ys = this.load(fb, fb.param('y', 'i32').get, 'y');
      const s = addInto(fb, xs, (j) => ys[j].get);
      this.store(fb, fb.param('out', 'i32').get, s.map((v) => v.get));
    });
    mb.func(`${f}_double`, { out: 'i32', x: 'i32' }, undefined, [`${f}_double(out, x): 2x in ${range}.`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      const s = addInto(fb, xs, (j) => xs[j].get);
      this.store(fb, fb.param('out', 'i32').get, s.map((v) => v.get));
    });
    /** z = x − y, + B when negative: B's limbs masked by the borrow (0 or all ones), branch-free. */
    const subInto = (fb: FuncBuilder, xs: (j: number) => I64, ys: (j: number) => I64) => {
      const z = fb.locals64('z', n);
      const bw = this.subChain(fb, xs, ys, z, 'sb');
      const Bl = toLimbs(B, 64, n);
      const c = fb.local('c', 'i64');
      for (let j = 0; j < n; j++) {
        const e = add128([z[j].get, zero], i64.and(this.k(Bl[j]), bw.get));
        setPair(fb, j === 0 ? e : add128(e, c.get), z[j], c);
      }
      return z;
    };
    mb.func(`${f}_sub`, ptr, undefined, [`${f}_sub(out, x, y): x − y in ${range}: sub128 borrow chain, + 2p masked by the borrow.`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      const ys = this.load(fb, fb.param('y', 'i32').get, 'y');
      const z = subInto(fb, (j) => xs[j].get, (j) => ys[j].get);
      this.store(fb, fb.param('out', 'i32').get, z.map((v) => v.get));
    });
    mb.func(`${f}_neg`, { out: 'i32', x: 'i32' }, undefined, [`${f}_neg(out, x): −x in ${range} (0 stays 0).`], (fb) => {
      const xs = this.load(fb, fb.param('x', 'i32').get, 'x');
      const z = subInto(fb, () => zero, (j) => xs[j].get);
      this.store(fb, fb.param('out', 'i32').get, z.map((v) => v.get));
    });
    this.emitPredicatesAndConstants();

    const constMul = (name: string, c: bigint[], doc: string, canonical: boolean) =>
      mb.func(name, { out: 'i32', x: 'i32' }, undefined, [doc], (fb) => {
        const S = this.montMulCios(fb, fb.param('x', 'i32').get, c.map((v) => this.k(v)));
        if (canonical) this.condSubConst(fb, S, p);
        this.store(fb, fb.param('out', 'i32').get, S.map((s) => s.get));
      });
    constMul(`${f}_to_mont`, toLimbs((this.L.R * this.L.R) % p, 64, n), `${f}_to_mont(out, x): x·R mod p for plain limbs x < R (any value that fits) → ${range}.`, false);
    constMul(`${f}_from_mont`, toLimbs(1n, 64, n), `${f}_from_mont(out, x): x·R⁻¹ mod p, canonical [0, p): plain limbs out.`, true);

    this.emitBytes();
    this.emitPow();
    this.emitSqrt();
    this.emitInverse();
    this.emitBatchInverse();
  }

  /** Byte codecs: canonical encodings of byteLength bytes, little- or big-endian. */
  protected override emitBytes(): void {
    const { mb, f } = this;
    const { n, p, byteLength: BL } = this.L;
    for (const endian of ['le', 'be'] as const) {
      const byteAt = (k: number) => (endian === 'le' ? k : BL - 1 - k);
      mb.func(`${f}_from_bytes_${endian}`, { out: 'i32', src: 'i32' }, 'i32', [
        `${f}_from_bytes_${endian}(out, src) → 1 if the ${BL}-byte ${endian.toUpperCase()} integer at src is < p, else 0.`,
        `out = that integer in Montgomery form (converted even when ≥ p; the caller decides). src may alias out.`,
      ], (fb) => {
        const src = fb.param('src', 'i32');
        const out = fb.param('out', 'i32');
        const s = fb.locals64('s', n);
        for (let j = 0; j < n; j++) {
          if (endian === 'le' && 8 * j + 8 <= BL) {
            s[j].set(i64.load(src.get, 8 * j));
            continue;
          }
          const parts: I64[] = [];
          for (let k = 8 * j; k < Math.min(8 * j + 8, BL); k++) parts.push(i64.shl(i64.extend_i32_u(i32.load8_u(src.get, byteAt(k))), 8 * (k - 8 * j)));
          s[j].set(parts.length ? parts.reduce((a, b) => i64.or(a, b)) : this.k(0n));
        }
        const ok = fb.local('ok', 'i32');
        ok.set(this.lessThanConst(fb, s, p));
        this.store(fb, out.get, s.map((v) => v.get));
        fb.call(`${f}_to_mont`, out.get, out.get);
        fb.ret(ok.get);
      });
      mb.func(`${f}_to_bytes_${endian}`, { dst: 'i32', x: 'i32' }, undefined, [
        `${f}_to_bytes_${endian}(dst, x): canonical ${BL}-byte ${endian.toUpperCase()} encoding of x (Montgomery form in).`,
      ], (fb) => {
        const S = this.montMulCios(fb, fb.param('x', 'i32').get, toLimbs(1n, 64, n).map((v) => this.k(v)));
        this.condSubConst(fb, S, p);
        const dst = fb.param('dst', 'i32');
        for (let k = 0; k < BL; k++) fb.i32Store8(dst.get, byteAt(k), i32.wrap_i64(i64.shr_u(S[k >> 3].get, 8 * (k & 7))));
      });
    }
  }

  /**
   * Inverse by Fermat: x^(p−2), left-to-right square-and-multiply over the bits of p − 2 with both
   * products inlined on locals (no scratch; one CIOS body for the square, one for the multiply).
   * Cost ≈ 64n squarings + popcount(p − 2) products; 0 → 0. Variable-time only in the public
   * exponent. (Divsteps on 62-bit batches would be ≈ 3× faster; the MSM calls batch_inv, which
   * calls this once per batch.)
   */
  protected override emitInverse(): void {
    const { mb, f } = this;
    const { n, p } = this.L;
    const e = toLimbs(p - 2n, 64, n);
    mb.func(`${f}_inv`, { out: 'i32', x: 'i32' }, undefined, [
      `${f}_inv(out, x): out = x⁻¹ (Montgomery form in and out), 0 → 0; may alias. x^(p−2), square-and-multiply on locals.`,
    ], (fb) => {
      const x = fb.param('x', 'i32');
      const out = fb.param('out', 'i32');
      // the CIOS reads x_i from memory: the running value lives in out (x is read once into locals first)
      const base = this.load(fb, x.get, 'b');
      const acc = out.get;
      this.storeConst(fb, acc, this.montLimbs(1n));
      const k = fb.local('k', 'i32');
      const bit = fb.local('bit', 'i64');
      const limb = fb.local('limb', 'i64');
      k.set(i32.const(n - 1));
      fb.loop((limbs) => {
        let pick: I64 = this.k(e[0]);
        for (let j = 1; j < n; j++) pick = i64.select(this.k(e[j]), pick, i32.eq(k.get, i32.const(j)));
        limb.set(pick);
        bit.set(this.k(63n));
        fb.loop((bits) => {
          const sq = this.load(fb, acc, 'a');
          const S = this.montMulCios(fb, acc, sq.map((v) => v.get), 's');
          this.store(fb, acc, S.map((v) => v.get));
          fb.if(i32.wrap_i64(i64.and(i64.shr_u(limb.get, bit.get), this.k(1n))), () => {
            const M = this.montMulCios(fb, acc, base.map((v) => v.get), 'p');
            this.store(fb, acc, M.map((v) => v.get));
          });
          bit.set(i64.sub(bit.get, this.k(1n)));
          fb.brIf(bits, i64.ge_s(bit.get, this.k(0n)));
        });
        k.set(i32.sub(k.get, i32.const(1)));
        fb.brIf(limbs, i32.ge_s(k.get, i32.const(0)));
      });
    });
  }
}
