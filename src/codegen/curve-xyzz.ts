/**
 * XYZZ point arithmetic for a short Weierstrass curve y² = x³ + b (a = 0) over any coordinate field
 * (the base field for G1, F_p² for G2): the generator both groups' generators extend (CurveGen,
 * ./curve.ts; G2CurveGen, ./curve-g2.ts). Formulas: the EFD's g1p/shortw/xyzz (Bernstein–Lange),
 * every exceptional case handled.
 *
 * Conventions (those of ./curve.ts): i32 byte pointers, output first; elements of EB bytes in
 * Montgomery form in [0, 2p) per component; affine point x at +0, y at +EB; XYZZ point (x = X/ZZ,
 * y = Y/ZZZ, ZZ³ = ZZZ² for every point these kernels produce) X, Y, ZZ, ZZZ at +0 … +3·EB,
 * infinity ⟺ ZZ ≡ 0; `scratch` is caller memory of the stated size, overlapping no other argument.
 * Costs in products M and squarings S of the coordinate field. Nothing here is constant-time.
 */
import type { FieldGen } from './field.js';
import type { CoordinateField } from './fp2.js';
import { FuncBuilder, I32, Local, ModuleBuilder, i32, emitDoubleAndAdd } from './wat.js';

const ADD_SCRATCH = 10;
/** Scratch sizes in elements (EB bytes each) of the XYZZ kernels (mul_small: a copy of the base + add's). */
export const XYZZ_SCRATCH = Object.freeze({ double: 6, doubleAffine: 6, add: ADD_SCRATCH, addAffine: ADD_SCRATCH, toAffine: 4, eq: 2, mulSmall: 4 + ADD_SCRATCH });
export type XyzzKernel = keyof typeof XYZZ_SCRATCH;

/** The non-adjacent form of c ≥ 1: digits in {−1, 0, 1}, least significant first, no two adjacent nonzero. */
export function nonAdjacentForm(c: bigint): number[] {
  const digits: number[] = [];
  for (let v = c; v > 0n; v >>= 1n) {
    let d = 0;
    if (v & 1n) {
      d = (v & 3n) === 3n ? -1 : 1;
      v -= BigInt(d);
    }
    digits.push(d);
  }
  return digits;
}

export class XyzzGen {
  /** bytes per coordinate element */
  readonly EB: number;
  /** prefix of the coordinate field's kernels (`fp`, `fp2`) */
  readonly F: string;
  readonly xyzzScratch = XYZZ_SCRATCH;

  constructor(
    readonly mb: ModuleBuilder,
    /** the base field's generator (its limb primitives; the coordinates' field when `coordinates` is absent) */
    readonly fp: FieldGen,
    /** kernel prefix: `g1`, `g2` */
    readonly prefix: string,
    coordinates?: CoordinateField,
  ) {
    this.EB = coordinates?.L.elementBytes ?? fp.L.elementBytes;
    this.F = coordinates?.f ?? fp.f;
  }

  /** Bytes of scratch of an XYZZ kernel. */
  xyzzBytes(kernel: XyzzKernel): number {
    return this.xyzzScratch[kernel] * this.EB;
  }

  // ---------------------------------------------------------------- emit helpers
  el(ptr: I32, k: number): I32 {
    return k === 0 ? ptr : i32.add(ptr, i32.const(k * this.EB));
  }
  fcall(fb: FuncBuilder, op: string, ...args: I32[]): void {
    fb.call(`${this.F}_${op}`, ...args);
  }
  fexpr(fb: FuncBuilder, op: string, ...args: I32[]): I32 {
    return fb.callExpr('i32', `${this.F}_${op}`, ...args);
  }
  copyElems(fb: FuncBuilder, dst: I32, src: I32, count: number): void {
    for (let k = 0; k < count; k++) this.fcall(fb, 'copy', this.el(dst, k), this.el(src, k));
  }
  /** i32 expression: 1 if the bytes [base, base + len) are all zero after clearing `clearMask`
   * bits of byte `flagByte` (relative to base). */
  /**
   * acc ← [c]·acc for a constant c ≥ 1, where acc already holds the base (the top bit of c):
   * left-to-right double-and-add, runs of doublings emitted as counted loops. `add` adds the base.
   */
  mulConst(fb: FuncBuilder, acc: I32, c: bigint, opScratch: I32, add: () => void, counter: Local<'i32'>): void {
    emitDoubleAndAdd(fb, c, counter, () => fb.call(`${this.prefix}_xyzz_double`, acc, opScratch), add, (run) => `${run} doubling${run > 1 ? 's' : ''}`);
  }


  /**
   * acc ← [c]·acc in Jacobian coordinates (acc holds the affine point `base` on entry), with the
   * `<prefix>_jac_*` kernels: left to right over c's bits, or, when `negBase` (scratch for −base, 2
   * elements) is given and c's non-adjacent form has fewer nonzero digits, over its NAF.
   */
  mulConstJac(fb: FuncBuilder, acc: I32, c: bigint, base: I32, opScratch: I32, counter: Local<'i32'>, negBase?: I32): void {
    const g = this.prefix;
    const double = () => fb.call(`${g}_jac_double`, acc, opScratch);
    const naf = nonAdjacentForm(c);
    if (!negBase || naf.filter((d) => d !== 0).length >= c.toString(2).replace(/0/g, '').length) {
      emitDoubleAndAdd(fb, c, counter, double, () => fb.call(`${g}_jac_add_affine`, acc, base, opScratch), (run) => `${run} doubling${run > 1 ? 's' : ''}`);
      return;
    }
    this.copyElems(fb, negBase, base, 1);
    this.fcall(fb, 'neg', this.el(negBase, 1), this.el(base, 1));
    // most significant digit first; the leading digit is 1 (acc = base)
    fb.comment(`NAF of 0x${c.toString(16)}: ${naf.filter((d) => d !== 0).length} nonzero digits (binary: ${c.toString(2).replace(/0/g, '').length})`);
    let run = 0;
    const flush = () => {
      if (run <= 2) for (let k = 0; k < run; k++) double();
      else {
        counter.set(i32.const(run));
        fb.loop((again) => {
          double();
          fb.brIf(again, i32.ne(counter.tee(i32.sub(counter.get, i32.const(1))), i32.const(0)));
        });
      }
      run = 0;
    };
    for (let j = naf.length - 2; j >= 0; j--) {
      run++;
      if (naf[j] === 0) continue;
      flush();
      fb.call(`${g}_jac_add_affine`, acc, naf[j] > 0 ? base : negBase, opScratch);
    }
    flush();
  }

  /** i32 expression: 1 if the Jacobian point J (finite or not) equals the finite affine point (x, y) (y negated when `negY`): X = x·Z², Y = ±y·Z³. Uses two scratch elements T, U. */
  jacEqAffine(fb: FuncBuilder, J: I32, x: I32, y: I32, negY: boolean, [T, U]: [I32, I32]): I32 {
    const f = (op: string, ...a: I32[]) => this.fcall(fb, op, ...a);
    const res = fb.local('jeq', 'i32');
    res.set(i32.const(0));
    fb.if(i32.eqz(this.fexpr(fb, 'is_zero', this.el(J, 2))), () => {
      f('sqr', T, this.el(J, 2));
      f('mul', U, x, T);
      fb.if(this.fexpr(fb, 'eq', this.el(J, 0), U), () => {
        f('mul', T, T, this.el(J, 2));
        f('mul', U, y, T);
        if (negY) f('neg', U, U);
        res.set(this.fexpr(fb, 'eq', this.el(J, 1), U));
      });
    });
    return res.get;
  }

  /** The XYZZ kernels: set_inf, from_affine, neg, double, double_affine, add_affine, add, to_affine, eq, mul_small; and the two Jacobian ones. */
  emitXyzz(): void {
    this.emitXyzzBasics();
    this.emitXyzzDouble();
    this.emitXyzzAdd();
    this.emitXyzzToAffine();
    this.emitXyzzEq();
    this.emitXyzzMulSmall();
    this.emitJacobian();
  }

  /**
   * Jacobian coordinates (x = X/Z², y = Y/Z³, infinity ⟺ Z ≡ 0; 3 elements): the cheapest doubling for
   * a = 0 (2M + 5S against XYZZ's 6M + 3S), for single-point chains such as the subgroup tests.
   */
  private emitJacobian(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_jac_double`, { acc: 'i32', scratch: 'i32' }, undefined, [
      `${g}_jac_double(acc, scratch): acc = 2·acc in Jacobian coordinates (X, Y, Z at +0, +EB, +2·EB; infinity ⟺ Z ≡ 0 stays`,
      `infinity, y = 0 gives Z = 0). scratch: ${this.jacScratch.double} elements (${this.jacBytes('double')} bytes).`,
      `EFD g1p/shortw/jacobian-0 dbl-2009-l: A = X², B = Y², C = B², D = 2((X + B)² − A − C), E = 3A, F = E²,`,
      `X3 = F − 2D, Y3 = E(D − X3) − 8C, Z3 = 2YZ. Cost: 2M + 5S.`,
    ], (fb) => {
      const acc = fb.param('acc', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const [X, Y, Z] = [0, 1, 2].map((k) => this.el(acc, k));
      const [A, B, C, D, E, T] = [0, 1, 2, 3, 4, 5].map((k) => this.el(s, k));
      const f = (op: string, ...a: I32[]) => this.fcall(fb, op, ...a);
      f('mul', Z, Y, Z);
      f('double', Z, Z);
      f('sqr', A, X);
      f('sqr', B, Y);
      f('sqr', C, B);
      f('add', T, X, B);
      f('sqr', T, T);
      f('sub', T, T, A);
      f('sub', T, T, C);
      f('double', D, T);
      f('double', E, A);
      f('add', E, E, A);
      f('sqr', T, E);
      f('sub', X, T, D);
      f('sub', X, X, D);
      f('sub', T, D, X);
      f('mul', T, E, T);
      f('double', C, C);
      f('double', C, C);
      f('double', C, C);
      f('sub', Y, T, C);
    }, { scratch: this.jacBytes('double') });

    mb.func(`${g}_jac_add_affine`, { acc: 'i32', a: 'i32', scratch: 'i32' }, undefined, [
      `${g}_jac_add_affine(acc, a, scratch): acc = acc + a, Jacobian + finite affine (mixed). acc may be infinity (→ a);`,
      `acc = a → doubling (${g}_jac_double); acc = −a → infinity. acc must not overlap a. scratch: ${this.jacScratch.addAffine} elements`,
      `(${this.jacBytes('addAffine')} bytes). EFD g1p/shortw/jacobian-0 madd-2007-bl: Z1Z1 = Z1², U2 = x·Z1Z1, S2 = y·Z1·Z1Z1, H = U2 − X1,`,
      `HH = H², I = 4HH, J = H·I, r = 2(S2 − Y1), V = X1·I, X3 = r² − J − 2V, Y3 = r(V − X3) − 2·Y1·J,`,
      `Z3 = (Z1 + H)² − Z1Z1 − HH. Cost: 7M + 4S.`,
    ], (fb) => {
      const acc = fb.param('acc', 'i32').get;
      const a = fb.param('a', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const [X, Y, Z] = [0, 1, 2].map((k) => this.el(acc, k));
      const [x, y] = [this.el(a, 0), this.el(a, 1)];
      const [ZZ, U2, S2, H, R, HH, I, J, V, T] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => this.el(s, k));
      const f = (op: string, ...args: I32[]) => this.fcall(fb, op, ...args);
      fb.if(this.fexpr(fb, 'is_zero', Z), () => {
        this.copyElems(fb, acc, a, 2);
        f('set_one', Z);
        fb.ret();
      });
      f('sqr', ZZ, Z);
      f('mul', U2, x, ZZ);
      f('mul', T, Z, ZZ);
      f('mul', S2, y, T);
      f('sub', H, U2, X);
      f('sub', R, S2, Y);
      fb.if(this.fexpr(fb, 'is_zero', H), () => {
        fb.comment('same x: acc = a (double) or acc = −a (infinity)');
        fb.if(this.fexpr(fb, 'is_zero', R), () => fb.call(`${g}_jac_double`, acc, s), () => f('set_zero', Z));
        fb.ret();
      });
      f('sqr', HH, H);
      f('double', I, HH);
      f('double', I, I);
      f('mul', J, H, I);
      f('double', R, R);
      f('mul', V, X, I);
      f('add', T, Z, H);
      f('sqr', T, T);
      f('sub', T, T, ZZ);
      f('sub', Z, T, HH);
      f('sqr', T, R);
      f('sub', T, T, J);
      f('sub', T, T, V);
      f('sub', X, T, V);
      f('mul', J, Y, J);
      f('double', J, J);
      f('sub', T, V, X);
      f('mul', T, R, T);
      f('sub', Y, T, J);
    }, { scratch: this.jacBytes('addAffine') });
  }

  readonly jacScratch = Object.freeze({ double: 6, addAffine: 10 });
  jacBytes(kernel: 'double' | 'addAffine'): number {
    return this.jacScratch[kernel] * this.EB;
  }

  private emitXyzzBasics(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_xyzz_set_inf`, { dst: 'i32' }, undefined, [
      `${g}_xyzz_set_inf(dst): dst = infinity, written as (1, 1, 0, 0).`,
    ], (fb) => {
      const dst = fb.param('dst', 'i32').get;
      this.fcall(fb, 'set_one', this.el(dst, 0));
      this.fcall(fb, 'set_one', this.el(dst, 1));
      this.fcall(fb, 'set_zero', this.el(dst, 2));
      this.fcall(fb, 'set_zero', this.el(dst, 3));
    });
    mb.func(`${g}_xyzz_from_affine`, { dst: 'i32', a: 'i32' }, undefined, [
      `${g}_xyzz_from_affine(dst, a): dst = (x, y, 1, 1) for the affine (finite) point a. dst may equal a.`,
    ], (fb) => {
      const dst = fb.param('dst', 'i32').get;
      const a = fb.param('a', 'i32').get;
      this.copyElems(fb, dst, a, 2);
      this.fcall(fb, 'set_one', this.el(dst, 2));
      this.fcall(fb, 'set_one', this.el(dst, 3));
    });
    mb.func(`${g}_xyzz_neg`, { acc: 'i32' }, undefined, [
      `${g}_xyzz_neg(acc): acc = −acc, i.e. Y ← −Y (infinity stays infinity). Cost: one subtraction.`,
    ], (fb) => {
      const y = this.el(fb.param('acc', 'i32').get, 1);
      this.fcall(fb, 'neg', y, y);
    });
  }

  /**
   * The part dbl-2008-s-1 and mdbl-2008-s-1 (a = 0) share: from (x, y), U = 2y, V = U², W = U·V,
   * S = x·V, M = 3x², X3 = M² − 2S, Y3 = M(S − X3) − W·y into X3, Y3 (which may be x, y). Leaves V and
   * W in scratch for ZZ3 and ZZZ3. 3M + 3S.
   */
  private doublingCore(f: (op: string, ...a: I32[]) => void, x: I32, y: I32, X3: I32, Y3: I32, [U, V, W, S, M, T]: I32[]): void {
    f('double', U, y);
    f('sqr', V, U);
    f('mul', W, U, V);
    f('mul', S, x, V);
    f('sqr', M, x);
    f('add', T, M, M);
    f('add', M, T, M);
    f('sqr', X3, M);
    f('sub', X3, X3, S);
    f('sub', X3, X3, S);
    f('sub', T, S, X3);
    f('mul', T, M, T);
    f('mul', Y3, W, y);
    f('sub', Y3, T, Y3);
  }

  /**
   * The part add-2008-s and madd-2008-s share, from P = U2 − U1 and R = S2 − S1: PP = P², PPP = P·PP,
   * Q = U1·PP, X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − S1·PPP (X3 may be U1, Y3 may be S1; S1 is
   * overwritten). Leaves PP and PPP in scratch for ZZ3 and ZZZ3. 4M + 2S.
   */
  private additionCore(
    f: (op: string, ...a: I32[]) => void,
    { P, R, U1, S1, X3, Y3, PP, PPP, Q, T }: Record<'P' | 'R' | 'U1' | 'S1' | 'X3' | 'Y3' | 'PP' | 'PPP' | 'Q' | 'T', I32>,
  ): void {
    f('sqr', PP, P);
    f('mul', PPP, P, PP);
    f('mul', Q, U1, PP);
    f('sqr', X3, R);
    f('sub', X3, X3, PPP);
    f('sub', X3, X3, Q);
    f('sub', X3, X3, Q);
    f('sub', T, Q, X3);
    f('mul', T, R, T);
    f('mul', S1, S1, PPP);
    f('sub', Y3, T, S1);
  }

  private emitXyzzDouble(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_xyzz_double`, { acc: 'i32', scratch: 'i32' }, undefined, [
      `${g}_xyzz_double(acc, scratch): acc = 2·acc in XYZZ. Infinity (ZZ ≡ 0) stays infinity; a point with`,
      `y = 0 gives ZZ = 0 (infinity). scratch: ${this.xyzzScratch.double} elements (${this.xyzzBytes('double')} bytes).`,
      `EFD g1p/shortw/xyzz dbl-2008-s-1 with a = 0: U = 2Y, V = U², W = U·V, S = X·V, M = 3X²,`,
      `X3 = M² − 2S, Y3 = M(S − X3) − W·Y, ZZ3 = V·ZZ, ZZZ3 = W·ZZZ. Cost: 6M + 3S.`,
    ], (fb) => {
      const acc = fb.param('acc', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const [X, Y, ZZ, ZZZ] = [0, 1, 2, 3].map((k) => this.el(acc, k));
      const [U, V, W, S, M, T] = [0, 1, 2, 3, 4, 5].map((k) => this.el(s, k));
      const f = (op: string, ...a: I32[]) => this.fcall(fb, op, ...a);
      fb.if(this.fexpr(fb, 'is_zero', ZZ), () => fb.ret());
      this.doublingCore(f, X, Y, X, Y, [U, V, W, S, M, T]);
      f('mul', ZZ, V, ZZ);
      f('mul', ZZZ, W, ZZZ);
    }, { scratch: this.xyzzBytes('double') });

    mb.func(`${g}_xyzz_double_affine`, { dst: 'i32', a: 'i32', scratch: 'i32' }, undefined, [
      `${g}_xyzz_double_affine(dst, a, scratch): dst = 2·a in XYZZ for the finite affine point a.`,
      `dst must not overlap a. scratch: ${this.xyzzScratch.doubleAffine} elements (${this.xyzzBytes('doubleAffine')} bytes).`,
      `EFD g1p/shortw/xyzz mdbl-2008-s-1 with a = 0: U = 2y, V = U², W = U·V, S = x·V, M = 3x²,`,
      `X3 = M² − 2S, Y3 = M(S − X3) − W·y, ZZ3 = V, ZZZ3 = W. Cost: 4M + 3S.`,
    ], (fb) => {
      const dst = fb.param('dst', 'i32').get;
      const a = fb.param('a', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const [X, Y, ZZ, ZZZ] = [0, 1, 2, 3].map((k) => this.el(dst, k));
      const [x, y] = [this.el(a, 0), this.el(a, 1)];
      const [U, V, W, S, M, T] = [0, 1, 2, 3, 4, 5].map((k) => this.el(s, k));
      const f = (op: string, ...args: I32[]) => this.fcall(fb, op, ...args);
      this.doublingCore(f, x, y, X, Y, [U, V, W, S, M, T]);
      f('copy', ZZ, V);
      f('copy', ZZZ, W);
    }, { scratch: this.xyzzBytes('doubleAffine') });
  }

  private emitXyzzAdd(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_xyzz_add_affine`, { acc: 'i32', a: 'i32', scratch: 'i32' }, undefined, [
      `${g}_xyzz_add_affine(acc, a, scratch): acc = acc + a for the finite affine point a (mixed addition).`,
      `acc may be infinity (→ a); acc = a → doubling (mdbl-2008-s-1); acc = −a → infinity.`,
      `acc must not overlap a. scratch: ${this.xyzzScratch.addAffine} elements (${this.xyzzBytes('addAffine')} bytes).`,
      `EFD g1p/shortw/xyzz madd-2008-s: U2 = x·ZZ1, S2 = y·ZZZ1, P = U2 − X1, R = S2 − Y1, PP = P², PPP = P·PP,`,
      `Q = X1·PP, X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − Y1·PPP, ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP. Cost: 8M + 2S.`,
    ], (fb) => {
      const acc = fb.param('acc', 'i32').get;
      const a = fb.param('a', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const [X1, Y1, ZZ1, ZZZ1] = [0, 1, 2, 3].map((k) => this.el(acc, k));
      const [x, y] = [this.el(a, 0), this.el(a, 1)];
      const [U2, S2, P, R, PP, PPP, Q, T] = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => this.el(s, k));
      const f = (op: string, ...args: I32[]) => this.fcall(fb, op, ...args);
      fb.if(this.fexpr(fb, 'is_zero', ZZ1), () => {
        fb.call(`${g}_xyzz_from_affine`, acc, a);
        fb.ret();
      });
      f('mul', U2, x, ZZ1);
      f('mul', S2, y, ZZZ1);
      f('sub', P, U2, X1);
      f('sub', R, S2, Y1);
      fb.if(this.fexpr(fb, 'is_zero', P), () => {
        fb.comment('same x: acc = a (double) or acc = −a (infinity)');
        fb.if(this.fexpr(fb, 'is_zero', R),
          () => fb.call(`${g}_xyzz_double_affine`, acc, a, s),
          () => fb.call(`${g}_xyzz_set_inf`, acc));
        fb.ret();
      });
      this.additionCore(f, { P, R, U1: X1, S1: Y1, X3: X1, Y3: Y1, PP, PPP, Q, T });
      f('mul', ZZ1, ZZ1, PP);
      f('mul', ZZZ1, ZZZ1, PPP);
    }, { scratch: this.xyzzBytes('addAffine') });

    mb.func(`${g}_xyzz_add`, { acc: 'i32', b: 'i32', scratch: 'i32' }, undefined, [
      `${g}_xyzz_add(acc, b, scratch): acc = acc + b, both XYZZ. Either may be infinity; acc = b → doubling`,
      `(dbl-2008-s-1); acc = −b → infinity. acc may equal b exactly (then it doubles), no partial overlap.`,
      `scratch: ${this.xyzzScratch.add} elements (${this.xyzzBytes('add')} bytes).`,
      `EFD g1p/shortw/xyzz add-2008-s: U1 = X1·ZZ2, U2 = X2·ZZ1, S1 = Y1·ZZZ2, S2 = Y2·ZZZ1, P = U2 − U1,`,
      `R = S2 − S1, PP = P², PPP = P·PP, Q = U1·PP, X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − S1·PPP,`,
      `ZZ3 = ZZ1·ZZ2·PP, ZZZ3 = ZZZ1·ZZZ2·PPP. Cost: 12M + 2S.`,
    ], (fb) => {
      const acc = fb.param('acc', 'i32').get;
      const b = fb.param('b', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const [X1, Y1, ZZ1, ZZZ1] = [0, 1, 2, 3].map((k) => this.el(acc, k));
      const [X2, Y2, ZZ2, ZZZ2] = [0, 1, 2, 3].map((k) => this.el(b, k));
      const [U1, U2, S1, S2, P, R, PP, PPP, Q, T] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => this.el(s, k));
      const f = (op: string, ...args: I32[]) => this.fcall(fb, op, ...args);
      fb.if(this.fexpr(fb, 'is_zero', ZZ2), () => fb.ret());
      fb.if(this.fexpr(fb, 'is_zero', ZZ1), () => {
        this.copyElems(fb, acc, b, 4);
        fb.ret();
      });
      f('mul', U1, X1, ZZ2);
      f('mul', U2, X2, ZZ1);
      f('mul', S1, Y1, ZZZ2);
      f('mul', S2, Y2, ZZZ1);
      f('sub', P, U2, U1);
      f('sub', R, S2, S1);
      fb.if(this.fexpr(fb, 'is_zero', P), () => {
        fb.comment('same x: acc = b (double) or acc = −b (infinity)');
        fb.if(this.fexpr(fb, 'is_zero', R),
          () => fb.call(`${g}_xyzz_double`, acc, s),
          () => fb.call(`${g}_xyzz_set_inf`, acc));
        fb.ret();
      });
      this.additionCore(f, { P, R, U1, S1, X3: X1, Y3: Y1, PP, PPP, Q, T });
      f('mul', T, ZZ1, ZZ2);
      f('mul', ZZ1, T, PP);
      f('mul', T, ZZZ1, ZZZ2);
      f('mul', ZZZ1, T, PPP);
    }, { scratch: this.xyzzBytes('add') });
  }

  private emitXyzzToAffine(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_xyzz_to_affine`, { dst: 'i32', src: 'i32', scratch: 'i32' }, 'i32', [
      `${g}_xyzz_to_affine(dst, src, scratch) → 1 (dst untouched) if src is infinity, else 0 and dst = (X/ZZ, Y/ZZZ)`,
      `canonical ([0, p)). dst may equal src. scratch: ${this.xyzzScratch.toAffine} elements (${this.xyzzBytes('toAffine')} bytes).`,
      `One inversion of ZZ·ZZZ (no reliance on ZZ³ = ZZZ²): 1/ZZ = I·ZZZ, 1/ZZZ = I·ZZ. Cost: 1I + 5M.`,
    ], (fb) => {
      const dst = fb.param('dst', 'i32').get;
      const src = fb.param('src', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const [X, Y, ZZ, ZZZ] = [0, 1, 2, 3].map((k) => this.el(src, k));
      const [T, I, x, y] = [0, 1, 2, 3].map((k) => this.el(s, k));
      const f = (op: string, ...args: I32[]) => this.fcall(fb, op, ...args);
      fb.if(this.fexpr(fb, 'is_zero', ZZ), () => fb.ret(i32.const(1)));
      f('mul', T, ZZ, ZZZ);
      f('inv', I, T);
      f('mul', T, I, ZZZ);
      f('mul', x, X, T);
      f('mul', T, I, ZZ);
      f('mul', y, Y, T);
      f('reduce', this.el(dst, 0), x);
      f('reduce', this.el(dst, 1), y);
      fb.ret(i32.const(0));
    }, { scratch: this.xyzzBytes('toAffine') });
  }

  private emitXyzzEq(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_xyzz_eq`, { a: 'i32', b: 'i32', scratch: 'i32' }, 'i32', [
      `${g}_xyzz_eq(a, b, scratch) → 1 if the XYZZ points a and b are equal (both infinity counts), else 0.`,
      `Cross-multiplied: X_a·ZZ_b = X_b·ZZ_a and Y_a·ZZZ_b = Y_b·ZZZ_a. scratch: ${this.xyzzScratch.eq} elements (${this.xyzzBytes('eq')} bytes). Cost: ≤ 4M.`,
    ], (fb) => {
      const a = fb.param('a', 'i32').get;
      const b = fb.param('b', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const ia = fb.local('ia', 'i32');
      const ib = fb.local('ib', 'i32');
      const f = (op: string, ...args: I32[]) => this.fcall(fb, op, ...args);
      ia.set(this.fexpr(fb, 'is_zero', this.el(a, 2)));
      ib.set(this.fexpr(fb, 'is_zero', this.el(b, 2)));
      fb.if(i32.or(ia.get, ib.get), () => fb.ret(i32.and(ia.get, ib.get)));
      const [T0, T1] = [this.el(s, 0), this.el(s, 1)];
      f('mul', T0, this.el(a, 0), this.el(b, 2));
      f('mul', T1, this.el(b, 0), this.el(a, 2));
      fb.if(i32.eqz(this.fexpr(fb, 'eq', T0, T1)), () => fb.ret(i32.const(0)));
      f('mul', T0, this.el(a, 1), this.el(b, 3));
      f('mul', T1, this.el(b, 1), this.el(a, 3));
      fb.ret(this.fexpr(fb, 'eq', T0, T1));
    }, { scratch: this.xyzzBytes('eq') });
  }

  private emitXyzzMulSmall(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_xyzz_mul_small`, { acc: 'i32', k: 'i32', scratch: 'i32' }, undefined, [
      `${g}_xyzz_mul_small(acc, k, scratch): acc = k·acc for k read as an unsigned 32-bit integer (k = 0 → infinity).`,
      `Left-to-right double-and-add over the bits of k with ${g}_xyzz_double / ${g}_xyzz_add (all exceptional cases`,
      `handled there). scratch: ${this.xyzzScratch.mulSmall} elements (${this.xyzzBytes('mulSmall')} bytes): base copy + add scratch.`,
      `Cost: (bitlen(k) − 1)·(6M + 3S) + (weight(k) − 1)·(12M + 2S).`,
    ], (fb) => {
      const acc = fb.param('acc', 'i32').get;
      const k = fb.param('k', 'i32');
      const s = fb.param('scratch', 'i32').get;
      const i = fb.local('i', 'i32');
      const base = s;
      const ops = this.el(s, 4);
      fb.if(i32.eqz(k.get), () => {
        fb.call(`${g}_xyzz_set_inf`, acc);
        fb.ret();
      });
      this.copyElems(fb, base, acc, 4);
      i.set(i32.sub(i32.const(31), i32.clz(k.get)));
      fb.block((done) => {
        fb.loop((again) => {
          fb.brIf(done, i32.eqz(i.get));
          i.set(i32.sub(i.get, i32.const(1)));
          fb.call(`${g}_xyzz_double`, acc, ops);
          fb.if(i32.and(i32.shr_u(k.get, i.get), i32.const(1)), () => fb.call(`${g}_xyzz_add`, acc, base, ops));
          fb.br(again);
        });
      });
    }, { scratch: this.xyzzBytes('mulSmall') });
  }

}
