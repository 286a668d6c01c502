/**
 * Generator of the G1 kernels of a short Weierstrass curve y² = x³ + b (a = 0) over the field
 * emitted by a FieldGen, one file per concern:
 * - here: the generator (its checks of the curve at generation time), the on-curve test, the
 *   "larger root" predicate and the GLV endomorphism ψ;
 * - ./curve-xyzz.ts: XYZZ point arithmetic with every exceptional case handled (shared with G2);
 * - ./curve-subgroup.ts: the subgroup tests (one point, and a batch);
 * - ./curve-codecs.ts: the point codecs of the curve's ecosystem (`curveFormats`: ZCash/IETF,
 *   arkworks, EIP-196, Pasta). Coordinates take B = ⌈bits(p)/8⌉ bytes, elements the FieldGen layout's size.
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
import { FieldGen } from './field.js';
import { toLimbs } from './field-layout.js';
import { ModuleBuilder, i32, i64 } from './wat.js';
import type { CurveParams } from '../curves/types.js';
import type { PointFormatName } from '../abi/codes.js';
import { XyzzGen } from './curve-xyzz.js';
import { emitSubgroupKernels, subgroupScratchElements, subgroupTestT } from './curve-subgroup.js';
import { emitCodecs, curveFormats, type CurveFormat } from './curve-codecs.js';

export { curveFormats, type CurveFormat };

export interface CurveGenOptions {
  /**
   * t with t² − 1 = lambda (as integers) for the endomorphism subgroup test. Default: derived from
   * params as the integer square root of lambda + 1 (exact for BLS12 curves, where t = ±z).
   * Unused when the cofactor is 1.
   */
  subgroupT?: bigint;
  /** Point encodings to implement (the curve descriptor's list; default: arkworks' generic ones). */
  formats?: readonly PointFormatName[];
}

export class CurveGen extends XyzzGen {
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
  /** b in Montgomery form (limbs) */
  readonly bMont: bigint[];

  constructor(
    mb: ModuleBuilder,
    fp: FieldGen,
    readonly params: CurveParams,
    prefix = 'g1',
    options: CurveGenOptions = {},
  ) {
    super(mb, fp, prefix);
    if (params.a !== 0n) throw new Error(`CurveGen(${params.name}): only a = 0 curves are supported`);
    if (fp.L.p !== params.p) throw new Error(`CurveGen(${params.name}): field generator is not for the base field`);
    if (params.h1 < 1n) throw new Error(`CurveGen(${params.name}): cofactor must be ≥ 1`);
    this.B = fp.L.byteLength;
    this.BA = Math.ceil((fp.L.bits + 2) / 8);
    // ZCash flags need 3 free top bits in the big-endian coordinate (checked there); arkworks'
    // SWFlags take 2 bits, in an extra byte when the top byte lacks them
    this.formats = curveFormats(params, options.formats);
    this.bMont = fp.montLimbs(params.b);
    this.subgroupT = subgroupTestT(params, options.subgroupT);
    const subgroup = subgroupScratchElements(this.subgroupT);
    this.scratchElements = {
      ...this.xyzzScratch,
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


  // ---------------------------------------------------------------- kernels
  emitAll(): void {
    this.emitFieldHelpers();
    this.emitEndo();
    this.emitXyzz();
    emitSubgroupKernels(this);
    emitCodecs(this);
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

}
