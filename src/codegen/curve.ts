/**
 * Generator of G1 curve kernels for a short Weierstrass curve y² = x³ + b (a = 0) over the field
 * emitted by a FieldGen: on-curve and subgroup checks, the GLV endomorphism, XYZZ point arithmetic
 * with every exceptional case handled, and the point codecs of the curve's ecosystem (see
 * `curveFormats`: ZCash/IETF, arkworks, EIP-196, Pasta). Generic over the base field: coordinates
 * take L = ⌈bits(p)/8⌉ bytes, elements the FieldGen layout's size.
 *
 * Conventions for every exported kernel `<prefix>_<op>`:
 * - arguments are i32 byte pointers (output first), except counts, flags and small scalars;
 * - coordinates are field elements of EB = `fp.L.elementBytes` bytes in Montgomery form, in the
 *   field kernels' redundant range [0, 2p);
 * - affine point: x at +0, y at +EB (2·EB bytes). The point at infinity has no affine encoding:
 *   it is tracked separately by the caller (e.g. the `inf` byte array of decode_batch);
 * - XYZZ point (x = X/ZZ, y = Y/ZZZ, with ZZ³ = ZZZ² for every point these kernels produce):
 *   X, Y, ZZ, ZZZ at +0, +EB, +2·EB, +3·EB (4·EB bytes). Infinity ⟺ ZZ ≡ 0; its other
 *   coordinates are irrelevant;
 * - `scratch` is caller-provided memory of the size stated by the kernel (see `scratchElements`),
 *   which must not overlap any other argument;
 * - nothing here is constant-time.
 * Costs are in field multiplications M, squarings S and inversions I.
 */
import { isqrt } from '../reference/arith.js';
import { FieldGen } from './field.js';
import type { CoordinateField } from './fp2.js';
import { bitLength, toLimbs } from './field-layout.js';
import { FuncBuilder, I32, I64, Local, ModuleBuilder, i32, i64, emitDoubleAndAdd } from './wat.js';
import type { CurveParams } from '../curves/types.js';
import { RefCurve } from '../reference/curve.js';
import { Check, POINT_FORMAT_NAMES, PointError, STATUS_SHIFT, PointFormat, type PointFormatName, type PointFormatSpec } from '../abi/codes.js';
import { SUBGROUP_BATCH_FIXED_ELEMENTS, subgroupBatchScratchBytes } from '../abi/layout.js';
import { countedScratch } from './scratch.js';

/** Encodings of curves that list none (generic test curves): arkworks' generic ones. */
const DEFAULT_FORMATS: readonly PointFormatName[] = ['arkworks', 'arkworks-compressed'];

/** One point encoding of a curve: its name, kernel format code and encoded size in bytes. */
export type CurveFormat = PointFormatSpec<PointFormatName>;

/**
 * The point encodings a curve's G1 kernels implement (`names`, from the curve's descriptor; the
 * first is its primary one), with their kernel codes and sizes. Throws if the ZCash flags (3 bits)
 * do not fit above the coordinate.
 */
export function curveFormats(params: CurveParams, names: readonly PointFormatName[] = DEFAULT_FORMATS): CurveFormat[] {
  const bits = bitLength(params.p);
  const L = Math.ceil(bits / 8);
  const La = Math.ceil((bits + 2) / 8);
  const list = names;
  if (list.length === 0 || new Set(list).size !== list.length) throw new Error(`curveFormats(${params.name}): empty or repeated format list`);
  return list.map((name) => {
    if (!POINT_FORMAT_NAMES.includes(name)) throw new Error(`curveFormats(${params.name}): unknown format ${String(name)}`);
    if ((name === 'zcash' || name === 'zcash-compressed') && 8 * L - bits < 3) {
      throw new Error(`curveFormats(${params.name}): no room for 3 flag bits (ZCash format)`);
    }
    const bytes = {
      zcash: 2 * L,
      'zcash-compressed': L,
      arkworks: L + La,
      'arkworks-compressed': La,
      eip196: 2 * L,
      pasta: 2 * L,
    }[name];
    return { name, code: PointFormat[name], bytes };
  });
}

export interface CurveGenOptions {
  /**
   * t with t² − 1 = lambda (as integers) for the endomorphism subgroup test. Default: derived from
   * params as the integer square root of lambda + 1 (exact for BLS12 curves, where t = ±z).
   * Unused when the cofactor is 1.
   */
  subgroupT?: bigint;
  /** Point encodings to implement (the curve descriptor's list; default: arkworks' generic ones). */
  formats?: readonly PointFormatName[];
  /**
   * The field of the coordinates when it is not the base field (G2: F_p², src/codegen/fp2.ts): the
   * XYZZ kernels call its ops and size elements by it; a subclass emits the group's own checks and codecs.
   */
  coordinates?: CoordinateField;
}

const gcd = (a: bigint, b: bigint): bigint => {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
};


export class CurveGen {
  /** bytes per field element */
  readonly EB: number;
  /** bytes of one canonical coordinate encoding: L = ⌈bits(p)/8⌉ */
  readonly B: number;
  /** bytes of arkworks' last (flag-carrying) coordinate: ⌈(bits(p) + 2)/8⌉, B or B + 1 */
  readonly BA: number;
  /**
   * |t| of the subgroup test [t]([t]P) = endo(P) + P; undefined when the cofactor is 1 (every
   * point of E(F_p) is then in G1 and `is_in_subgroup` returns 1).
   */
  readonly subgroupT: bigint | undefined;
  /** The point encodings implemented, in the order of `curveFormats` (first = the curve's primary one). */
  readonly formats: readonly CurveFormat[];
  /** Scratch sizes in field elements (EB bytes each) of the kernels that take `scratch`. */
  readonly scratchElements: {
    readonly double: number;
    readonly doubleAffine: number;
    readonly add: number;
    readonly addAffine: number;
    readonly toAffine: number;
    readonly eq: number;
    readonly mulSmall: number;
    readonly subgroup: number;
    readonly decode: number;
    readonly encode: number;
  };

  protected readonly F: string;
  private readonly bMont: bigint[];

  constructor(
    readonly mb: ModuleBuilder,
    readonly fp: FieldGen,
    readonly params: CurveParams,
    readonly prefix = 'g1',
    options: CurveGenOptions = {},
  ) {
    const { p, r, lambda } = params;
    if (params.a !== 0n) throw new Error(`CurveGen(${params.name}): only a = 0 curves are supported`);
    if (fp.L.p !== p) throw new Error(`CurveGen(${params.name}): field generator is not for the base field`);
    if (params.h1 < 1n) throw new Error(`CurveGen(${params.name}): cofactor must be ≥ 1`);
    this.EB = options.coordinates?.L.elementBytes ?? fp.L.elementBytes;
    this.B = fp.L.byteLength;
    this.BA = Math.ceil((fp.L.bits + 2) / 8);
    // ZCash flags need 3 free top bits in the big-endian coordinate (checked there); arkworks'
    // SWFlags take 2 bits, in an extra byte when the top byte lacks them
    this.formats = curveFormats(params, options.formats);
    this.F = options.coordinates?.f ?? fp.f;
    this.bMont = fp.montLimbs(params.b);

    if (params.h1 === 1n) {
      // E(F_p) has prime order r: every on-curve point is in G1, there is nothing to test
      this.subgroupT = undefined;
    } else {
      // Subgroup test data. ψ(x, y) = (beta·x, y) satisfies ψ² + ψ + 1 = 0 and acts as lambda on G1.
      // With m = t² − 1 (an integer), ψ − [m] is an isogeny of degree m² + m + 1 (the norm of m − ω
      // in Z[ω]); G1 lies in its kernel, and every point of the kernel inside E(F_p) has an order
      // dividing gcd(m² + m + 1, #E(F_p)). If that gcd is r, the kernel ∩ E(F_p) is exactly G1.
      let t = options.subgroupT;
      if (t === undefined) {
        t = isqrt(lambda + 1n);
        if (t * t !== lambda + 1n) {
          throw new Error(`CurveGen(${params.name}): lambda + 1 is not a square; pass options.subgroupT`);
        }
      }
      t = t < 0n ? -t : t;
      const m = t * t - 1n;
      if (((m - lambda) % r + r) % r !== 0n) throw new Error(`CurveGen(${params.name}): t² − 1 ≢ lambda (mod r)`);
      const deg = m * m + m + 1n;
      if (deg % p === 0n) throw new Error(`CurveGen(${params.name}): ψ − [t² − 1] is inseparable`);
      // r ∤ h1: the order-r points of E(F_p) are exactly G1 (no second copy of Z/r)
      if (params.h1 % r === 0n) throw new Error(`CurveGen(${params.name}): r divides the cofactor, G1 is not the only order-r subgroup`);
      if (gcd(deg, params.h1 * r) !== r) {
        throw new Error(`CurveGen(${params.name}): gcd(m² + m + 1, #E) ≠ r, the endomorphism test would be unsound`);
      }
      const ref = new RefCurve(params);
      const G = ref.G;
      if (!ref.eq(ref.mul(ref.mul(G, t), t), ref.add(ref.endo(G), G))) {
        throw new Error(`CurveGen(${params.name}): [t]([t]G) ≠ endo(G) + G`);
      }
      this.subgroupT = t;
    }

    const op = 10;
    const subgroup = this.subgroupT === undefined ? 0 : 14 + op;
    this.scratchElements = {
      double: 6,
      doubleAffine: 6,
      add: op,
      addAffine: op,
      toAffine: 4,
      eq: 2,
      mulSmall: 4 + op,
      subgroup,
      // [0] masked coordinate bytes, [1..3) decoded point, [3] curve rhs, [4] b; then max(sqrt, subgroup)
      decode: 5 + Math.max(21, subgroup),
      encode: 0,
    };
  }

  /** Bytes of scratch of a kernel (see scratchElements). */
  scratchBytes(kernel: keyof CurveGen['scratchElements']): number {
    return this.scratchElements[kernel] * this.EB;
  }

  describe(): string[] {
    const t = this.subgroupT;
    const head = `curve ${this.params.name} ${this.prefix}: y² = x³ + ${this.params.b}, `;
    return [
      t === undefined
        ? `${head}cofactor 1: every point of E(F_p) is in G1 (no subgroup test)`
        : `${head}subgroup test [t]([t]P) = ψ(P) + P with |t| = 0x${t.toString(16)} (${t.toString(2).length} bits, weight ${t.toString(2).replace(/0/g, '').length})`,
      `point formats (code name bytes): ${this.formats.map((f) => `${f.code} ${f.name} ${f.bytes}`).join(', ')}`,
    ];
  }

  /** One line per format for the codec headers: the exact byte layout and flag rules. */
  private formatDocs(): string[] {
    const { B, BA } = this;
    const extra = BA > B;
    const doc: Record<PointFormatName, string> = {
      zcash: `ZCash/IETF uncompressed: x ‖ y big-endian (${B} B each); byte 0 bits 7, 6, 5 = compressed (0), infinity, sort (0); infinity = 0x40 then zeros`,
      'zcash-compressed': `ZCash/IETF compressed: x big-endian; byte 0 bit 7 = compressed (1), bit 6 = infinity, bit 5 = y is the larger root; infinity = 0xc0 then zeros`,
      arkworks: extra
        ? `arkworks uncompressed: x LE (${B} B) ‖ y LE (${B} B) ‖ flag byte: bit 7 = y > (p − 1)/2, bit 6 = infinity (x = y = 0), bits 5..0 zero`
        : `arkworks uncompressed: x LE ‖ y LE (${B} B each); last byte bit 7 = y > (p − 1)/2, bit 6 = infinity (x = y = 0)`,
      'arkworks-compressed': extra
        ? `arkworks compressed: x LE (${B} B) ‖ flag byte: bit 7 = y > (p − 1)/2, bit 6 = infinity (x = 0), bits 5..0 zero`
        : `arkworks compressed: x LE (${B} B); last byte bit 7 = y > (p − 1)/2, bit 6 = infinity (x = 0)`,
      eip196: `EIP-196/197: x ‖ y big-endian (${B} B each), no flags; infinity = all zero (an x or y ≥ p is malformed)`,
      pasta: `Pasta (o1js layout): x ‖ y little-endian (${B} B each), no flags; infinity = all zero ((0, 0) is not on the curve)`,
    };
    return this.formats.map((f) => `  ${f.code} ${f.name} (${f.bytes} B): ${doc[f.name]}`);
  }

  /** Traps unless `format` is one of this curve's codes. */
  private trapUnlessFormat(fb: FuncBuilder, format: Local<'i32'>): void {
    const codes = this.formats.map((f) => f.code).sort((a, b) => a - b);
    if (codes.every((c, j) => c === j)) {
      fb.if(i32.gt_u(format.get, i32.const(codes.length - 1)), () => fb.line('(unreachable)'));
    } else {
      const known = codes.map((c) => i32.eq(format.get, i32.const(c))).reduce((a, b) => i32.or(a, b));
      fb.if(i32.eqz(known), () => fb.line('(unreachable)'));
    }
  }

  // ---------------------------------------------------------------- emit helpers
  protected el(ptr: I32, k: number): I32 {
    return k === 0 ? ptr : i32.add(ptr, i32.const(k * this.EB));
  }
  protected fcall(fb: FuncBuilder, op: string, ...args: I32[]): void {
    fb.call(`${this.F}_${op}`, ...args);
  }
  protected fexpr(fb: FuncBuilder, op: string, ...args: I32[]): I32 {
    return fb.callExpr('i32', `${this.F}_${op}`, ...args);
  }
  protected copyElems(fb: FuncBuilder, dst: I32, src: I32, count: number): void {
    for (let k = 0; k < count; k++) this.fcall(fb, 'copy', this.el(dst, k), this.el(src, k));
  }
  /** i32 expression: 1 if the bytes [base, base + len) are all zero after clearing `clearMask`
   * bits of byte `flagByte` (relative to base). */
  private zeroBytes(base: I32, len: number, flagByte: number, clearMask: number): I32 {
    const terms: I64[] = [];
    let k = 0;
    for (; k + 8 <= len; k += 8) {
      let e = i64.load(base, k);
      if (flagByte >= k && flagByte < k + 8) {
        const keep = ((1n << 64n) - 1n) ^ (BigInt(clearMask) << BigInt(8 * (flagByte - k)));
        e = i64.and(e, i64.const(keep));
      }
      terms.push(e);
    }
    for (; k < len; k++) {
      let e = i32.load8_u(base, k);
      if (k === flagByte) e = i32.and(e, i32.const(0xff ^ clearMask));
      terms.push(i64.extend_i32_u(e));
    }
    return i64.eqz(terms.reduce((a, b) => i64.or(a, b)));
  }
  private copyBytes(fb: FuncBuilder, dst: I32, src: I32, len: number): void {
    let k = 0;
    for (; k + 8 <= len; k += 8) fb.i64Store(dst, k, i64.load(src, k));
    for (; k < len; k++) fb.i32Store8(dst, k, i32.load8_u(src, k));
  }
  private zeroFill(fb: FuncBuilder, dst: I32, len: number): void {
    let k = 0;
    for (; k + 8 <= len; k += 8) fb.i64Store(dst, k, i64.const(0n));
    for (; k < len; k++) fb.i32Store8(dst, k, i32.const(0));
  }
  /**
   * acc ← [c]·acc for a constant c ≥ 1, where acc already holds the base (the top bit of c):
   * left-to-right double-and-add, runs of doublings emitted as counted loops. `add` adds the base.
   */
  protected mulConst(fb: FuncBuilder, acc: I32, c: bigint, opScratch: I32, add: () => void, counter: Local<'i32'>): void {
    emitDoubleAndAdd(fb, c, counter, () => fb.call(`${this.prefix}_xyzz_double`, acc, opScratch), add, (run) => `${run} doubling${run > 1 ? 's' : ''}`);
  }

  // ---------------------------------------------------------------- kernels
  emitAll(): void {
    this.emitFieldHelpers();
    this.emitEndo();
    this.emitXyzzBasics();
    this.emitXyzzDouble();
    this.emitXyzzAdd();
    this.emitXyzzToAffine();
    this.emitXyzzEq();
    this.emitXyzzMulSmall();
    this.emitSubgroup();
    this.emitSubgroupBatch();
    this.emitDecode();
    this.emitEncode();
  }

  /** is_on_curve and the "y is the larger root" predicate, both on locals only (no scratch). */
  private emitFieldHelpers(): void {
    const { mb, fp, prefix: g } = this;
    const { n, w, p } = fp.L;
    const one = toLimbs(1n, w, n).map((v) => i64.const(v));
    const half = (p - 1n) / 2n;

    mb.func(`${g}_is_on_curve`, { p: 'i32' }, 'i32', [
      `${g}_is_on_curve(p) → 1 if the affine point p satisfies y² = x³ + ${this.params.b}, else 0 (infinity is not representable).`,
      `No scratch: products kept in locals (inlined CIOS Montgomery products). Cost: 3M + compares.`,
    ], (fb) => {
      const P = fb.param('p', 'i32');
      const x = P.get;
      const y = this.el(P.get, 1);
      const xs = fp.load(fb, x, 'ox');
      const x2 = fp.montMulCios(fb, x, xs.map((v) => v.get), 'oa');
      const x3 = fp.montMulCios(fb, x, x2.map((v) => v.get), 'ob');
      fp.addConst(fb, x3, this.bMont);
      fp.condSubConst(fb, x3, 2n * p); // x³ + b < 3p → [0, 2p)
      fp.condSubConst(fb, x3, p);
      const ys = fp.load(fb, y, 'oy');
      const y2 = fp.montMulCios(fb, y, ys.map((v) => v.get), 'oc');
      fp.condSubConst(fb, y2, p);
      fb.ret(x3.map((v, j) => i64.eq(v.get, y2[j].get)).reduce((a, b) => i32.and(a, b)));
    });

    mb.func(`${g}_y_is_largest`, { y: 'i32' }, 'i32', [
      `${g}_y_is_largest(y) → 1 if the canonical value of y exceeds (p − 1)/2 (y is the lexicographically`,
      `largest of ±y, the ZCash "sort" flag and the arkworks YIsNegative flag), else 0. No scratch. Cost: 1M.`,
    ], (fb) => {
      const s = fp.montMulCios(fb, fb.param('y', 'i32').get, one, 'm');
      fp.condSubConst(fb, s, p);
      fb.ret(i32.eqz(fp.lessThanConst(fb, s, half + 1n)));
    });
  }

  private emitEndo(): void {
    const { mb, fp, prefix: g } = this;
    const beta = fp.montLimbs(this.params.beta).map((v) => i64.const(v));
    mb.func(`${g}_endo`, { dst: 'i32', src: 'i32' }, undefined, [
      `${g}_endo(dst, src): dst = ψ(src) = (beta·x, y), affine; dst may equal src. No scratch.`,
      `ψ acts as lambda on G1 (beta a primitive cube root of unity). Cost: 1M (constant operand).`,
    ], (fb) => {
      const dst = fb.param('dst', 'i32');
      const src = fb.param('src', 'i32');
      const s = fp.montMulCios(fb, src.get, beta, 'm');
      fp.store(fb, dst.get, s.map((v) => v.get));
      this.fcall(fb, 'copy', this.el(dst.get, 1), this.el(src.get, 1));
    });
  }

  protected emitXyzzBasics(): void {
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

  protected emitXyzzDouble(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_xyzz_double`, { acc: 'i32', scratch: 'i32' }, undefined, [
      `${g}_xyzz_double(acc, scratch): acc = 2·acc in XYZZ. Infinity (ZZ ≡ 0) stays infinity; a point with`,
      `y = 0 gives ZZ = 0 (infinity). scratch: ${this.scratchElements.double} elements (${this.scratchBytes('double')} bytes).`,
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
    }, { scratch: this.scratchBytes('double') });

    mb.func(`${g}_xyzz_double_affine`, { dst: 'i32', a: 'i32', scratch: 'i32' }, undefined, [
      `${g}_xyzz_double_affine(dst, a, scratch): dst = 2·a in XYZZ for the finite affine point a.`,
      `dst must not overlap a. scratch: ${this.scratchElements.doubleAffine} elements (${this.scratchBytes('doubleAffine')} bytes).`,
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
    }, { scratch: this.scratchBytes('doubleAffine') });
  }

  protected emitXyzzAdd(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_xyzz_add_affine`, { acc: 'i32', a: 'i32', scratch: 'i32' }, undefined, [
      `${g}_xyzz_add_affine(acc, a, scratch): acc = acc + a for the finite affine point a (mixed addition).`,
      `acc may be infinity (→ a); acc = a → doubling (mdbl-2008-s-1); acc = −a → infinity.`,
      `acc must not overlap a. scratch: ${this.scratchElements.addAffine} elements (${this.scratchBytes('addAffine')} bytes).`,
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
    }, { scratch: this.scratchBytes('addAffine') });

    mb.func(`${g}_xyzz_add`, { acc: 'i32', b: 'i32', scratch: 'i32' }, undefined, [
      `${g}_xyzz_add(acc, b, scratch): acc = acc + b, both XYZZ. Either may be infinity; acc = b → doubling`,
      `(dbl-2008-s-1); acc = −b → infinity. acc may equal b exactly (then it doubles), no partial overlap.`,
      `scratch: ${this.scratchElements.add} elements (${this.scratchBytes('add')} bytes).`,
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
    }, { scratch: this.scratchBytes('add') });
  }

  protected emitXyzzToAffine(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_xyzz_to_affine`, { dst: 'i32', src: 'i32', scratch: 'i32' }, 'i32', [
      `${g}_xyzz_to_affine(dst, src, scratch) → 1 (dst untouched) if src is infinity, else 0 and dst = (X/ZZ, Y/ZZZ)`,
      `canonical ([0, p)). dst may equal src. scratch: ${this.scratchElements.toAffine} elements (${this.scratchBytes('toAffine')} bytes).`,
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
    }, { scratch: this.scratchBytes('toAffine') });
  }

  protected emitXyzzEq(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_xyzz_eq`, { a: 'i32', b: 'i32', scratch: 'i32' }, 'i32', [
      `${g}_xyzz_eq(a, b, scratch) → 1 if the XYZZ points a and b are equal (both infinity counts), else 0.`,
      `Cross-multiplied: X_a·ZZ_b = X_b·ZZ_a and Y_a·ZZZ_b = Y_b·ZZZ_a. scratch: ${this.scratchElements.eq} elements (${this.scratchBytes('eq')} bytes). Cost: ≤ 4M.`,
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
    }, { scratch: this.scratchBytes('eq') });
  }

  protected emitXyzzMulSmall(): void {
    const { mb, prefix: g } = this;
    mb.func(`${g}_xyzz_mul_small`, { acc: 'i32', k: 'i32', scratch: 'i32' }, undefined, [
      `${g}_xyzz_mul_small(acc, k, scratch): acc = k·acc for k read as an unsigned 32-bit integer (k = 0 → infinity).`,
      `Left-to-right double-and-add over the bits of k with ${g}_xyzz_double / ${g}_xyzz_add (all exceptional cases`,
      `handled there). scratch: ${this.scratchElements.mulSmall} elements (${this.scratchBytes('mulSmall')} bytes): base copy + add scratch.`,
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
    }, { scratch: this.scratchBytes('mulSmall') });
  }

  private emitSubgroup(): void {
    const { mb, prefix: g } = this;
    const t = this.subgroupT;
    if (t === undefined) {
      mb.func(`${g}_is_in_subgroup`, { p: 'i32', scratch: 'i32' }, 'i32', [
        `${g}_is_in_subgroup(p, scratch) → 1, always: the cofactor of ${this.params.name} is 1, so E(F_p) is the order-r group G1`,
        `and every affine point on the curve is in it (p assumed on the curve, as for the other curves). p and scratch are`,
        `not read (scratch: 0 bytes). Kept so that callers need no per-curve case; ${g}_decode_batch skips it. Cost: 0.`,
      ], (fb) => {
        fb.ret(i32.const(1));
      }, { scratch: this.scratchBytes('subgroup') });
      return;
    }
    const weight = t.toString(2).replace(/0/g, '').length;
    const len = t.toString(2).length;
    mb.func(`${g}_is_in_subgroup`, { p: 'i32', scratch: 'i32' }, 'i32', [
      `${g}_is_in_subgroup(p, scratch) → 1 if the affine point p (assumed on the curve, finite) is in the order-r`,
      `subgroup, else 0. Test [t]([t]P) = ψ(P) + P with t² − 1 = lambda, |t| = 0x${t.toString(16)} (sign irrelevant):`,
      `ψ − [t² − 1] has degree (t² − 1)² + (t² − 1) + 1 whose gcd with #E(F_p) is r (asserted at generation), so`,
      `its kernel in E(F_p) is exactly G1 (the endomorphism method of Scott, eprint 2021/1130, in this form).`,
      `scratch: ${this.scratchElements.subgroup} elements (${this.scratchBytes('subgroup')} bytes).`,
      `Cost: 2·${len - 1} doublings (6M + 3S) + ${weight - 1} mixed adds (8M + 2S) + ${weight - 1} adds (12M + 2S) + 1M + 1 mixed add + 4M.`,
    ], (fb) => {
      const P = fb.param('p', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const A = s;
      const Bp = this.el(s, 4);
      const C = this.el(s, 8);
      const E = this.el(s, 12);
      const ops = this.el(s, 14);
      const counter = fb.local('c', 'i32');
      fb.comment('A = [|t|]P');
      fb.call(`${g}_xyzz_from_affine`, A, P);
      this.mulConst(fb, A, t, ops, () => fb.call(`${g}_xyzz_add_affine`, A, P, ops), counter);
      fb.comment('A = [|t|]([|t|]P) = [t²]P');
      this.copyElems(fb, Bp, A, 4);
      this.mulConst(fb, A, t, ops, () => fb.call(`${g}_xyzz_add`, A, Bp, ops), counter);
      fb.comment('C = ψ(P) + P');
      fb.call(`${g}_endo`, E, P);
      fb.call(`${g}_xyzz_from_affine`, C, E);
      fb.call(`${g}_xyzz_add_affine`, C, P, ops);
      fb.ret(fb.callExpr('i32', `${g}_xyzz_eq`, A, C, ops));
    }, { scratch: this.scratchBytes('subgroup') });
  }

  /**
   * g1_subgroup_check_batch: the exact test of emitSubgroup for many points at once, in affine
   * coordinates with one shared inversion per chain step (Montgomery's trick), and the tail of the
   * test reduced to a comparison: for affine P = (x, y), ψ(P) has the same y, so the chord through P
   * and ψ(P) is horizontal and ψ(P) + P = (−(1 + β)x, −y) = (β²x, −y) (1 + β + β² = 0); for x = 0
   * (ψ(P) = P, a point of order 3) the same formula gives −P = 2P. Exceptional steps (a doubling
   * with y = 0, an addition with equal x: only points with a component of small order reach them,
   * never a point of G1, since the chain's multiples [k]P, [k]Q stay below r) drop the point from
   * the batch; it gets the XYZZ test at the end.
   */
  private emitSubgroupBatch(): void {
    const { mb, EB, prefix: g } = this;
    const PB = 2 * EB;
    const t = this.subgroupT;
    const name = `${g}_subgroup_check_batch`;
    const params = { points: 'i32', inf: 'i32', count: 'i32', scratch: 'i32' } as const;
    const head = `${name}(points, inf, count, scratch) → −1, or (i << ${STATUS_SHIFT}) | ${PointError.notInSubgroup} for the lowest i < count with inf[i] = 0 whose`;
    if (t === undefined) {
      const unread = countedScratch(subgroupBatchScratchBytes, EB, () => 0);
      mb.func(name, params, 'i32', [
        `${head} point is not in G1: never here, the cofactor of ${this.params.name} is 1. Nothing is read (the runtime passes`,
        `scratch: ${unread.doc()}). Cost: 0.`,
      ], (fb) => {
        fb.ret(i32.const(-1));
      }, { scratch: unread });
      return;
    }
    const fixed = 8 + this.scratchElements.subgroup;
    if (fixed > SUBGROUP_BATCH_FIXED_ELEMENTS) throw new Error(`${name}: ${fixed} fixed scratch elements exceed SUBGROUP_BATCH_FIXED_ELEMENTS`);
    // acc[count], base[count] (points) | prefix[count] | the fixed elements | state[count] (bytes)
    const scratchRule = countedScratch(subgroupBatchScratchBytes, EB, (count) => (5 * count + SUBGROUP_BATCH_FIXED_ELEMENTS) * EB + count);
    const bits = t.toString(2);
    const weight = bits.replace(/0/g, '').length;
    const f = this.F;
    const call = (fb: FuncBuilder, op: string, ...args: I32[]) => fb.call(`${f}_${op}`, ...args);
    const at = (base: I32, k: I32, stride: number) => i32.add(base, i32.mul(k, i32.const(stride)));

    // one step for every active point k (state[k] = 0): acc[k] ← 2·acc[k], or acc[k] + base[k] when add ≠ 0.
    // work: prefix[count] | INV | T | LAM | X3 | T2 | D (elements). A zero denominator sets state[k] = 2.
    mb.func(`${g}_subgroup_batch_step`, { acc: 'i32', base: 'i32', state: 'i32', count: 'i32', work: 'i32', add: 'i32' }, undefined, [
      `${g}_subgroup_batch_step(acc, base, state, count, work, add): one affine doubling (add = 0) or addition of every active point`,
      `of ${name}, one inversion for all (internal).`,
    ], (fb) => {
      const acc = fb.param('acc', 'i32'), base = fb.param('base', 'i32'), state = fb.param('state', 'i32');
      const count = fb.param('count', 'i32'), work = fb.param('work', 'i32'), add = fb.param('add', 'i32');
      const k = fb.local('k', 'i32'), A = fb.local('A', 'i32'), B = fb.local('B', 'i32'), st = fb.local('st', 'i32');
      const tmp = (j: number) => i32.add(work.get, i32.add(i32.mul(count.get, i32.const(EB)), i32.const(j * EB)));
      const INV = tmp(0), T = tmp(1), LAM = tmp(2), X3 = tmp(3), T2 = tmp(4), D = tmp(5);
      const prefix = (idx: I32) => at(work.get, idx, EB);
      const yA = i32.add(A.get, i32.const(EB)), yB = i32.add(B.get, i32.const(EB));
      const denominator = () => fb.if(add.get, () => call(fb, 'sub', D, B.get, A.get), () => call(fb, 'double', D, yA));
      const point = () => {
        A.set(at(acc.get, k.get, PB));
        B.set(at(base.get, k.get, PB));
        st.set(i32.add(state.get, k.get));
      };
      // forward: D_k (x_B − x_A or 2·y_A; 1 for an inactive point) and prefix products
      fb.forRange(k, i32.const(0), count.get, 1, () => {
        point();
        fb.if(i32.eqz(i32.load8_u(st.get)), () => {
          denominator();
          fb.if(this.fexpr(fb, 'is_zero', D), () => {
            fb.i32Store8(st.get, 0, i32.const(2));
            call(fb, 'set_one', D);
          });
        }, () => call(fb, 'set_one', D));
        fb.if(i32.eqz(k.get), () => call(fb, 'copy', prefix(k.get), D), () => call(fb, 'mul', prefix(k.get), prefix(i32.sub(k.get, i32.const(1))), D));
      });
      fb.if(i32.eqz(count.get), () => fb.ret());
      call(fb, 'inv', INV, prefix(i32.sub(count.get, i32.const(1))));
      // backward: 1/D_k = INV · prefix_{k−1}, INV ← INV · D_k (inactive points have D_k = 1: skipped)
      k.set(count.get);
      fb.loop((again) => {
        k.set(i32.sub(k.get, i32.const(1)));
        point();
        fb.if(i32.eqz(i32.load8_u(st.get)), () => {
          fb.if(i32.eqz(k.get), () => call(fb, 'copy', T, INV), () => {
            call(fb, 'mul', T, INV, prefix(i32.sub(k.get, i32.const(1))));
            denominator();
            call(fb, 'mul', INV, INV, D);
          });
          fb.if(add.get, () => {
            // λ = (y_B − y_A)/(x_B − x_A), x3 = λ² − x_A − x_B
            call(fb, 'sub', LAM, yB, yA);
            call(fb, 'mul', LAM, LAM, T);
            call(fb, 'sqr', X3, LAM);
            call(fb, 'sub', X3, X3, A.get);
            call(fb, 'sub', X3, X3, B.get);
          }, () => {
            // λ = 3x_A²/(2y_A), x3 = λ² − 2x_A
            call(fb, 'sqr', LAM, A.get);
            call(fb, 'double', T2, LAM);
            call(fb, 'add', LAM, LAM, T2);
            call(fb, 'mul', LAM, LAM, T);
            call(fb, 'sqr', X3, LAM);
            call(fb, 'sub', X3, X3, A.get);
            call(fb, 'sub', X3, X3, A.get);
          });
          // y3 = λ(x_A − x3) − y_A
          call(fb, 'sub', T2, A.get, X3);
          call(fb, 'mul', T2, T2, LAM);
          call(fb, 'sub', yA, T2, yA);
          call(fb, 'copy', A.get, X3);
        });
        fb.brIf(again, i32.ne(k.get, i32.const(0)));
      });
    }, { export: false });

    // acc[k] ← [|t|]·acc[k] (acc[k] = base[k] on entry), left to right over the bits of |t|
    mb.func(`${g}_subgroup_batch_chain`, { acc: 'i32', base: 'i32', state: 'i32', count: 'i32', work: 'i32' }, undefined, [
      `${g}_subgroup_batch_chain(acc, base, state, count, work): acc ← [|t|]·base for the active points of ${name} (internal).`,
    ], (fb) => {
      const args = ['acc', 'base', 'state', 'count', 'work'].map((p) => fb.param(p, 'i32').get);
      const counter = fb.local('run', 'i32');
      const step = (add: number) => fb.call(`${g}_subgroup_batch_step`, ...args, i32.const(add));
      emitDoubleAndAdd(fb, t, counter, () => step(0), () => step(1), (run, one) => `${run} doubling${run > 1 ? 's' : ''}${one ? ', then + base' : ''}`);
    }, { export: false });

    const beta2 = this.fp.montLimbs((this.params.beta * this.params.beta) % this.params.p).map((v) => i64.const(v));
    const steps = bits.length - 1 + weight - 1;
    mb.func(name, params, 'i32', [
      `${head} point (assumed on the curve) is not in the order-r subgroup G1. The same test as ${g}_is_in_subgroup,`,
      `[t]([t]P) = ψ(P) + P, |t| = 0x${t.toString(16)}, run for all points at once in affine coordinates: each of the 2·${steps} chain steps`,
      `(doubling or addition of the chain base) is one batch over the points with one shared inversion (Montgomery's trick),`,
      `then [t²]P is compared with ψ(P) + P = (β²x, −y). A point whose chain hits y = 0 or equal x (possible only outside G1,`,
      `for a component of small order) leaves the batch and gets ${g}_is_in_subgroup. points: count affine points (${PB} B each),`,
      `read only; inf: count bytes. scratch: ${scratchRule.doc()}: acc, base (count points each), prefix products,`,
      `${SUBGROUP_BATCH_FIXED_ELEMENTS} fixed elements, count state bytes; must not overlap the inputs. Cost per point: ${2 * (bits.length - 1)} doublings (5M + 2S) and ${2 * (weight - 1)} additions (5M + 1S),`,
      `plus 2·${steps} inversions per call (shared), + 1M; the XYZZ test for the rare dropped points.`,
    ], (fb) => {
      const points = fb.param('points', 'i32'), inf = fb.param('inf', 'i32'), count = fb.param('count', 'i32'), scratch = fb.param('scratch', 'i32');
      const k = fb.local('k', 'i32'), P = fb.local('P', 'i32'), A = fb.local('A', 'i32'), st = fb.local('st', 'i32');
      const acc = scratch.get;
      const base = at(scratch.get, count.get, PB);
      const work = at(scratch.get, count.get, 2 * PB);
      // work = prefix[count] | 8 temporaries | g1_is_in_subgroup's scratch; then the state bytes
      const tail = i32.add(at(scratch.get, count.get, 5 * EB), i32.const(8 * EB));
      const state = i32.add(at(scratch.get, count.get, 5 * EB), i32.const(SUBGROUP_BATCH_FIXED_ELEMENTS * EB));
      const point = () => {
        P.set(at(points.get, k.get, PB));
        A.set(at(acc, k.get, PB));
        st.set(i32.add(state, k.get));
      };
      fb.comment('state[k]: 0 in the batch, 1 infinity (skipped), 2 dropped (exceptional step: the XYZZ test)');
      fb.forRange(k, i32.const(0), count.get, 1, () => {
        point();
        fb.i32Store8(st.get, 0, i32.ne(i32.load8_u(i32.add(inf.get, k.get)), i32.const(0)));
        this.copyElems(fb, A.get, P.get, 2);
      });
      fb.comment('acc = [|t|]P; base = acc; acc = [|t|]([|t|]P)');
      fb.call(`${g}_subgroup_batch_chain`, acc, points.get, state, count.get, work);
      fb.forRange(k, i32.const(0), count.get, 1, () => {
        point();
        this.copyElems(fb, at(base, k.get, PB), A.get, 2);
      });
      fb.call(`${g}_subgroup_batch_chain`, acc, base, state, count.get, work);
      fb.comment('in G1 iff acc = (β²x, −y); dropped points: the XYZZ test; the lowest failing index wins');
      const X = fb.local('X', 'i32');
      X.set(i32.add(work, i32.mul(count.get, i32.const(EB))));
      fb.forRange(k, i32.const(0), count.get, 1, () => {
        point();
        const fail = () => fb.ret(i32.or(i32.shl(k.get, STATUS_SHIFT), i32.const(PointError.notInSubgroup)));
        fb.if(i32.eq(i32.load8_u(st.get), i32.const(2)), () => {
          fb.if(i32.eqz(fb.callExpr('i32', `${g}_is_in_subgroup`, P.get, tail)), fail);
        }, () => {
          fb.if(i32.eqz(i32.load8_u(st.get)), () => {
            const m = this.fp.montMulCios(fb, P.get, beta2, 'b2');
            this.fp.store(fb, X.get, m.map((v) => v.get));
            fb.if(i32.eqz(this.fexpr(fb, 'eq', A.get, X.get)), fail);
            call(fb, 'neg', i32.add(X.get, i32.const(EB)), i32.add(P.get, i32.const(EB)));
            fb.if(i32.eqz(this.fexpr(fb, 'eq', i32.add(A.get, i32.const(EB)), i32.add(X.get, i32.const(EB)))), fail);
          });
        });
      });
      fb.ret(i32.const(-1));
    }, { scratch: scratchRule });
  }

  private emitDecode(): void {
    const { mb, prefix: g } = this;
    const B = this.B;
    const BA = this.BA;
    const EB = this.EB;
    const cofactorOne = this.subgroupT === undefined;
    const compressedKinds = this.formats.filter((f) => f.name === 'zcash-compressed' || f.name === 'arkworks-compressed').map((f) => f.code);
    mb.func(`${g}_decode_batch`, { dst: 'i32', inf: 'i32', src: 'i32', count: 'i32', format: 'i32', check: 'i32', scratch: 'i32' }, 'i32', [
      `${g}_decode_batch(dst, inf, src, count, format, check, scratch) → −1 if all count encodings at src decode, else`,
      `(index << ${STATUS_SHIFT}) | code for the first bad one (src/abi/codes.ts PointError: ${Object.entries(PointError).map(([k, v]) => `${v} ${k}`).join(', ')}); nothing is`,
      `written for it or after it. Element i: the encoding at src + i·(bytes of the format), affine point at`,
      `dst + i·${2 * EB}, inf[i] (byte) = 1 for infinity (its dst slot zeroed) else 0. format (other values trap):`,
      ...this.formatDocs(),
      `check: 0 parse (canonical coordinates < p, consistent flags, canonical infinity), 1 + on curve, 2 + subgroup`,
      cofactorOne
        ? `(cofactor 1: the same as 1, no extra work); other values trap.`
        : `(see ${g}_is_in_subgroup); other values trap.`,
      ...(compressedKinds.length ? [`Compressed points (code${compressedKinds.length > 1 ? 's' : ''} ${compressedKinds.join(', ')}) are on the curve by construction (no square root → malformed).`] : []),
      `Strict: only the encodings ${g}_encode produces are accepted (flags must match y; nothing else may be set).`,
      `scratch: ${this.scratchElements.decode} elements (${this.scratchBytes('decode')} bytes); must not overlap dst, inf, src.`,
      `Cost per point: 2 byte conversions (2M)${compressedKinds.length ? '; compressed: + 2M + 1S + sqrt (one fixed exponentiation) + 1M' : ''}; on curve 3M` +
        (cofactorOne ? '.' : ';'),
      ...(cofactorOne ? [] : [`subgroup see ${g}_is_in_subgroup (≈ ${this.subgroupCostEstimate()} M-equivalents).`]),
    ], (fb) => {
      const dst = fb.param('dst', 'i32');
      const inf = fb.param('inf', 'i32');
      const src = fb.param('src', 'i32');
      const count = fb.param('count', 'i32');
      const format = fb.param('format', 'i32');
      const check = fb.param('check', 'i32');
      const s = fb.param('scratch', 'i32').get;
      const i = fb.local('i', 'i32');
      const enc = fb.local('enc', 'i32');
      const flags = fb.local('flags', 'i32');
      const buf = this.el(s, 0);
      const T = this.el(s, 1);
      const Tx = T;
      const Ty = this.el(s, 2);
      const rhs = this.el(s, 3);
      const bConst = this.el(s, 4);
      const tail = this.el(s, 5);
      const fail = (code: number) => fb.ret(i32.or(i32.shl(i.get, STATUS_SHIFT), i32.const(code)));
      const f = (op: string, ...args: I32[]) => this.fcall(fb, op, ...args);

      fb.if(i32.gt_u(check.get, i32.const(Check.subgroup)), () => fb.line('(unreachable)'));
      this.trapUnlessFormat(fb, format);
      this.fp.storeConst(fb, bConst, this.bMont);

      const body = (fmt: CurveFormat) => {
        const L = fmt.bytes;
        enc.set(i32.add(src.get, i32.mul(i.get, i32.const(L))));
        const outPtr = i32.add(dst.get, i32.mul(i.get, i32.const(2 * EB)));
        const infPtr = i32.add(inf.get, i.get);
        const writeInfinity = () => {
          f('set_zero', outPtr);
          f('set_zero', i32.add(outPtr, i32.const(EB)));
          fb.i32Store8(infPtr, 0, i32.const(1));
        };
        /** y = ±√(x³ + b) with the larger root iff `largest` (an i32 0/1); y = 0 with `largest` set is malformed. */
        const decompress = (largest: () => I32) => {
          f('sqr', rhs, Tx);
          f('mul', rhs, rhs, Tx);
          f('add', rhs, rhs, bConst);
          fb.if(i32.eqz(this.fexpr(fb, 'sqrt', Ty, rhs, tail)), () => fail(PointError.noSquareRoot));
          fb.if(i32.ne(fb.callExpr('i32', `${g}_y_is_largest`, Ty), largest()), () => f('neg', Ty, Ty));
        };
        if (fmt.name === 'zcash' || fmt.name === 'zcash-compressed') {
          const compressed = fmt.name === 'zcash-compressed';
          flags.set(i32.shr_u(i32.load8_u(enc.get), 5));
          fb.comment(`flags = c·4 + i·2 + s (top bits of byte 0); c must be ${compressed ? 1 : 0}`);
          fb.if(i32.ne(i32.shr_u(flags.get, 2), i32.const(compressed ? 1 : 0)), () => fail(PointError.flags));
          if (!compressed) fb.if(i32.and(flags.get, i32.const(1)), () => fail(PointError.flags));
          fb.if(i32.and(flags.get, i32.const(2)), () => {
            fb.comment('infinity: sort flag clear and every other bit zero');
            fb.if(i32.and(flags.get, i32.const(1)), () => fail(PointError.flags));
            fb.if(i32.eqz(this.zeroBytes(enc.get, L, 0, 0xe0)), () => fail(PointError.infinity));
            writeInfinity();
          }, () => {
            this.copyBytes(fb, buf, enc.get, B);
            fb.i32Store8(buf, 0, i32.and(i32.load8_u(buf), i32.const(0x1f)));
            fb.if(i32.eqz(this.fexpr(fb, 'from_bytes_be', Tx, buf)), () => fail(PointError.coordinate));
            if (compressed) {
              decompress(() => i32.and(flags.get, i32.const(1)));
              fb.comment('y = 0 has no larger root: the sort flag must then be clear');
              fb.if(i32.and(i32.and(flags.get, i32.const(1)), this.fexpr(fb, 'is_zero', Ty)), () => fail(PointError.sign));
            } else {
              fb.if(i32.eqz(this.fexpr(fb, 'from_bytes_be', Ty, i32.add(enc.get, i32.const(B)))), () => fail(PointError.coordinate));
            }
            this.checkAndStore(fb, check, T, tail, outPtr, infPtr, fail, !compressed);
          });
        } else if (fmt.name === 'arkworks' || fmt.name === 'arkworks-compressed') {
          const compressed = fmt.name === 'arkworks-compressed';
          const last = L - 1;
          /** Reads the flag-carrying coordinate (BA bytes at `at`) into `out`, flag bits excluded. */
          const readFlagged = (out: I32, at: I32) => {
            if (BA === B) {
              this.copyBytes(fb, buf, at, B);
              fb.i32Store8(buf, B - 1, i32.and(i32.load8_u(buf, B - 1), i32.const(0x3f)));
              fb.if(i32.eqz(this.fexpr(fb, 'from_bytes_le', out, buf)), () => fail(PointError.coordinate));
            } else {
              fb.comment('the flag byte holds no coordinate bits: bits 5..0 must be zero');
              fb.if(i32.and(i32.load8_u(enc.get, last), i32.const(0x3f)), () => fail(PointError.flags));
              fb.if(i32.eqz(this.fexpr(fb, 'from_bytes_le', out, at)), () => fail(PointError.coordinate));
            }
          };
          flags.set(i32.shr_u(i32.load8_u(enc.get, last), 6));
          fb.comment('flags = neg·2 + inf (top bits of the last byte); both set is invalid');
          fb.if(i32.eq(flags.get, i32.const(3)), () => fail(PointError.flags));
          fb.if(i32.and(flags.get, i32.const(1)), () => {
            fb.comment(compressed ? 'infinity: x = 0' : 'infinity: x = y = 0');
            fb.if(i32.eqz(this.zeroBytes(enc.get, L, last, 0xc0)), () => fail(PointError.infinity));
            writeInfinity();
          }, () => {
            if (compressed) {
              readFlagged(Tx, enc.get);
              decompress(() => i32.shr_u(flags.get, 1));
              fb.comment('y = 0 is encoded with YIsNegative clear');
              fb.if(i32.and(i32.shr_u(flags.get, 1), this.fexpr(fb, 'is_zero', Ty)), () => fail(PointError.sign));
            } else {
              fb.if(i32.eqz(this.fexpr(fb, 'from_bytes_le', Tx, enc.get)), () => fail(PointError.coordinate));
              readFlagged(Ty, i32.add(enc.get, i32.const(B)));
              fb.comment('the YIsNegative flag must match y');
              fb.if(i32.ne(fb.callExpr('i32', `${g}_y_is_largest`, Ty), i32.shr_u(flags.get, 1)), () => fail(PointError.sign));
            }
            this.checkAndStore(fb, check, T, tail, outPtr, infPtr, fail, !compressed);
          });
        } else {
          const endian = fmt.name === 'eip196' ? 'be' : 'le';
          fb.comment('no flags: infinity is all bytes zero ((0, 0) is not on the curve as b ≠ 0)');
          fb.if(this.zeroBytes(enc.get, L, -1, 0), () => writeInfinity(), () => {
            fb.if(i32.eqz(this.fexpr(fb, `from_bytes_${endian}`, Tx, enc.get)), () => fail(PointError.coordinate));
            fb.if(i32.eqz(this.fexpr(fb, `from_bytes_${endian}`, Ty, i32.add(enc.get, i32.const(B)))), () => fail(PointError.coordinate));
            this.checkAndStore(fb, check, T, tail, outPtr, infPtr, fail, true);
          });
        }
      };

      for (const fmt of this.formats) {
        fb.if(i32.eq(format.get, i32.const(fmt.code)), () => {
          fb.forRange(i, i32.const(0), count.get, 1, () => body(fmt));
        });
      }
      fb.ret(i32.const(-1));
    }, { scratch: this.scratchBytes('decode') });
  }

  /** Rough cost of is_in_subgroup in M-equivalents (S = M, as stated in the headers). */
  private subgroupCostEstimate(): number {
    const t = this.subgroupT;
    if (t === undefined) return 0;
    const len = t.toString(2).length;
    const weight = t.toString(2).replace(/0/g, '').length;
    const est = 2 * (len - 1) * 9 + (weight - 1) * 10 + (weight - 1) * 14 + 1 + 10 + 4;
    return Math.round(est / 10) * 10;
  }

  /** Optional on-curve and subgroup checks of the decoded point T, then T → dst slot, inf byte 0. */
  private checkAndStore(fb: FuncBuilder, check: Local<'i32'>, T: I32, tail: I32, outPtr: I32, infPtr: I32, fail: (code: number) => void, needCurveCheck: boolean): void {
    const g = this.prefix;
    if (needCurveCheck) {
      fb.if(i32.and(i32.ge_u(check.get, i32.const(Check.onCurve)), i32.eqz(fb.callExpr('i32', `${g}_is_on_curve`, T))), () => fail(PointError.notOnCurve));
    }
    if (this.subgroupT !== undefined) {
      fb.if(i32.ge_u(check.get, i32.const(Check.subgroup)), () => {
        fb.if(i32.eqz(fb.callExpr('i32', `${g}_is_in_subgroup`, T, tail)), () => fail(PointError.notInSubgroup));
      });
    }
    this.copyElems(fb, outPtr, T, 2);
    fb.i32Store8(infPtr, 0, i32.const(0));
  }

  private emitEncode(): void {
    const { mb, prefix: g } = this;
    const B = this.B;
    const BA = this.BA;
    mb.func(`${g}_encode`, { dst: 'i32', a: 'i32', isInf: 'i32', format: 'i32', scratch: 'i32' }, undefined, [
      `${g}_encode(dst, a, isInf, format, scratch): canonical encoding of the affine point a (or of infinity if isInf ≠ 0,`,
      `a then unread) at dst, in the format (other values trap):`,
      ...this.formatDocs(),
      `"y > (p − 1)/2" and "larger root" are the same predicate (${g}_y_is_largest); y = 0 never sets it.`,
      `dst must not overlap a. scratch: unused (0 bytes; reserved). Cost: 2 conversions (2M) + 1M for the sign.`,
    ], (fb) => {
      const dst = fb.param('dst', 'i32').get;
      const a = fb.param('a', 'i32').get;
      const isInf = fb.param('isInf', 'i32');
      const format = fb.param('format', 'i32');
      const x = this.el(a, 0);
      const y = this.el(a, 1);
      const f = (op: string, ...args: I32[]) => this.fcall(fb, op, ...args);
      const largest = () => fb.callExpr('i32', `${g}_y_is_largest`, y);
      /** Flag bits into the last byte of the flag-carrying arkworks coordinate (shared or extra byte). */
      const arkFlags = (last: number) => {
        if (BA === B) fb.i32Store8(dst, last, i32.or(i32.load8_u(dst, last), i32.shl(largest(), 7)));
        else fb.i32Store8(dst, last, i32.shl(largest(), 7));
      };
      const body = (fmt: CurveFormat) => {
        const L = fmt.bytes;
        switch (fmt.name) {
          case 'zcash':
            fb.if(isInf.get, () => {
              this.zeroFill(fb, dst, L);
              fb.i32Store8(dst, 0, i32.const(0x40));
            }, () => {
              f('to_bytes_be', dst, x);
              f('to_bytes_be', i32.add(dst, i32.const(B)), y);
            });
            break;
          case 'zcash-compressed':
            fb.if(isInf.get, () => {
              this.zeroFill(fb, dst, L);
              fb.i32Store8(dst, 0, i32.const(0xc0));
            }, () => {
              f('to_bytes_be', dst, x);
              fb.i32Store8(dst, 0, i32.or(i32.or(i32.load8_u(dst), i32.const(0x80)), i32.shl(largest(), 5)));
            });
            break;
          case 'arkworks':
            fb.if(isInf.get, () => {
              this.zeroFill(fb, dst, L);
              fb.i32Store8(dst, L - 1, i32.const(0x40));
            }, () => {
              f('to_bytes_le', dst, x);
              f('to_bytes_le', i32.add(dst, i32.const(B)), y);
              arkFlags(L - 1);
            });
            break;
          case 'arkworks-compressed':
            fb.if(isInf.get, () => {
              this.zeroFill(fb, dst, L);
              fb.i32Store8(dst, L - 1, i32.const(0x40));
            }, () => {
              f('to_bytes_le', dst, x);
              arkFlags(L - 1);
            });
            break;
          case 'eip196':
          case 'pasta': {
            const endian = fmt.name === 'eip196' ? 'be' : 'le';
            fb.if(isInf.get, () => this.zeroFill(fb, dst, L), () => {
              f(`to_bytes_${endian}`, dst, x);
              f(`to_bytes_${endian}`, i32.add(dst, i32.const(B)), y);
            });
            break;
          }
        }
      };
      this.trapUnlessFormat(fb, format);
      this.formats.forEach((fmt, j) => {
        if (j === this.formats.length - 1) {
          body(fmt);
          return;
        }
        fb.if(fmt.code === 0 ? i32.eqz(format.get) : i32.eq(format.get, i32.const(fmt.code)), () => {
          body(fmt);
          fb.ret();
        });
      });
    }, { scratch: this.scratchBytes('encode') });
  }
}
