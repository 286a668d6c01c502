/**
 * Generator of the G2 kernels `g2_*`: the XYZZ point arithmetic of ./curve-xyzz.ts (as G1's)
 * emitted over the coordinate field F_p² (src/codegen/fp2.ts) — the same code, the ops called as
 * `fp2_<op>` and elements of 2·EB bytes — plus G2's own on-curve test, ψ and subgroup test.
 * In the cost lines of the shared XYZZ kernels, M and S are F_p² products (3 and 2 base products).
 * Curve: the twist y² = x³ + b' of src/curves/g2.ts; affine point x at +0, y at +2·EB (4·EB bytes),
 * XYZZ point 8·EB bytes. Nothing here is constant-time.
 */
import { XyzzGen, nonAdjacentForm } from './curve-xyzz.js';
import type { FieldGen } from './field.js';
import type { Fp2Gen } from './fp2.js';
import { type FuncBuilder, type I32, type ModuleBuilder, i32 } from './wat.js';
import type { G2FormatName, G2Params } from '../curves/g2.js';

export type { G2FormatName };
import { RefG2 } from '../reference/g2.js';
import { Check, PointError, PointFormat, STATUS_SHIFT, type PointFormatSpec } from '../abi/codes.js';

/** Kernel codes of the G2 formats (EIP-197 shares EIP-196's code: the same big-endian, zeros-are-infinity family). */
export const G2_FORMAT_CODES: Readonly<Record<G2FormatName, number>> = Object.freeze({
  zcash: PointFormat.zcash,
  'zcash-compressed': PointFormat['zcash-compressed'],
  arkworks: PointFormat.arkworks,
  'arkworks-compressed': PointFormat['arkworks-compressed'],
  eip197: PointFormat.eip196,
});

/** Name, kernel code and bytes of each G2 format of a curve whose coordinates take B bytes. */
export function g2Formats(names: readonly G2FormatName[], B: number): PointFormatSpec<G2FormatName>[] {
  const bytes: Record<G2FormatName, number> = { zcash: 4 * B, 'zcash-compressed': 2 * B, arkworks: 4 * B, 'arkworks-compressed': 2 * B, eip197: 4 * B };
  return names.map((name) => ({ name, code: G2_FORMAT_CODES[name], bytes: bytes[name] }));
}

/**
 * Byte offsets of the components in an encoding: [x.c0, x.c1, y.c0, y.c1] (compressed: the first two).
 * ZCash and EIP-197 put the imaginary part first (big-endian), arkworks c0 first (little-endian).
 */
function componentOffsets(name: G2FormatName, B: number): number[] {
  return name === 'arkworks' || name === 'arkworks-compressed' ? [0, B, 2 * B, 3 * B] : [B, 0, 3 * B, 2 * B];
}

export class G2CurveGen extends XyzzGen {
  /** scratch elements (F_p²) of g2_is_on_curve, g2_psi and g2_is_in_subgroup */
  readonly g2Scratch = { onCurve: 3, psi: 2, subgroup: 22 } as const;

  /** the G2 formats implemented (the curve's list, primary first) */
  readonly g2FormatSpecs: PointFormatSpec<G2FormatName>[];
  /** scratch elements (F_p²) of g2_decode_batch: buffer, point, rhs, b', then the largest tail (the subgroup test) */
  readonly decodeScratchElements: number;

  /** bytes of one canonical F_p coordinate encoding: ⌈bits(p)/8⌉ */
  readonly B: number;

  constructor(mb: ModuleBuilder, fp: FieldGen, readonly fp2: Fp2Gen, readonly g2: G2Params, readonly g2FormatNames: readonly G2FormatName[]) {
    super(mb, fp, 'g2', fp2);
    this.B = fp.L.byteLength;
    if (Math.ceil((fp.L.bits + 2) / 8) !== fp.L.byteLength) throw new Error(`G2CurveGen(${g2.name}): no room for arkworks' flag bits in the top byte`);
    if (g2FormatNames.some((f) => f.startsWith('zcash')) && 8 * fp.L.byteLength - fp.L.bits < 3) throw new Error(`G2CurveGen(${g2.name}): no room for the ZCash flags`);
    this.g2FormatSpecs = g2Formats(g2FormatNames, fp.L.byteLength);
    this.decodeScratchElements = 5 + Math.max(this.g2Scratch.subgroup, fp2.sqrtScratchElements, this.g2Scratch.onCurve);
    const ref = new RefG2(g2);
    if (!ref.isOnCurve(ref.G) || ref.mul(ref.G, g2.g1.r) !== null) throw new Error(`G2CurveGen(${g2.name}): generator not of order r`);
    if (!ref.eq(ref.psi(ref.G), ref.mul(ref.G, g2.psiEigen))) throw new Error(`G2CurveGen(${g2.name}): ψ(G) ≠ [psiEigen]G`);
    if (!ref.eq(ref.endo(ref.G), ref.mul(ref.G, g2.g1.lambda))) throw new Error(`G2CurveGen(${g2.name}): (beta·x, y) ≠ [lambda]P`);
  }

  private g2Bytes(k: keyof G2CurveGen['g2Scratch']): number {
    return this.g2Scratch[k] * this.EB;
  }

  describe(): string[] {
    const g = this.g2;
    return [`curve ${g.name} g2: y² = x³ + (${g.b[0]} + ${g.b[1]}·i) over F_p², subgroup test ψ(P) = [${g.psiEigen}]P`];
  }

  emitAll(): void {
    this.emitXyzz();
    this.emitChecks();
    this.emitCodecs();
  }

  private emitChecks(): void {
    const { mb, fp2, g2 } = this;
    const F = this.F;
    mb.func('g2_is_on_curve', { p: 'i32', scratch: 'i32' }, 'i32', [
      `g2_is_on_curve(p, scratch) → 1 if the affine point p satisfies y² = x³ + b' (b' = ${g2.b[0]} + ${g2.b[1]}·i), else 0.`,
      `scratch: ${this.g2Scratch.onCurve} ${F} elements (${this.g2Bytes('onCurve')} bytes). Cost: 1M + 2S over ${F} (7 base products).`,
    ], (fb) => {
      const P = fb.param('p', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const [T, U, B] = [0, 1, 2].map((k) => this.el(s, k));
      fp2.storeConst(fb, B, fp2.montLimbs2(g2.b));
      fb.call(`${F}_sqr`, T, P);
      fb.call(`${F}_mul`, T, T, P);
      fb.call(`${F}_add`, T, T, B);
      fb.call(`${F}_sqr`, U, this.el(P, 1));
      fb.ret(fb.callExpr('i32', `${F}_eq`, T, U));
    }, { scratch: this.g2Bytes('onCurve') });

    mb.func('g2_psi', { dst: 'i32', src: 'i32', scratch: 'i32' }, undefined, [
      `g2_psi(dst, src, scratch): dst = ψ(src) = (psiX·conj(x), psiY·conj(y)) for the affine src (untwist–Frobenius–twist).`,
      `dst may equal src. scratch: ${this.g2Scratch.psi} ${F} elements (${this.g2Bytes('psi')} bytes). Cost: 2M over ${F}.`,
    ], (fb) => {
      const dst = fb.param('dst', 'i32').get;
      const src = fb.param('src', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const [KX, KY] = [this.el(s, 0), this.el(s, 1)];
      fp2.storeConst(fb, KX, fp2.montLimbs2(g2.psiX));
      fp2.storeConst(fb, KY, fp2.montLimbs2(g2.psiY));
      fb.call(`${F}_conj`, dst, src);
      fb.call(`${F}_mul`, dst, dst, KX);
      fb.call(`${F}_conj`, this.el(dst, 1), this.el(src, 1));
      fb.call(`${F}_mul`, this.el(dst, 1), this.el(dst, 1), KY);
    }, { scratch: this.g2Bytes('psi') });

    const e = g2.psiEigen < 0n ? -g2.psiEigen : g2.psiEigen;
    const len = e.toString(2).length;
    const nafWeight = Math.min(e.toString(2).replace(/0/g, '').length, nonAdjacentForm(e).filter((d) => d !== 0).length);
    mb.func('g2_is_in_subgroup', { p: 'i32', scratch: 'i32' }, 'i32', [
      `g2_is_in_subgroup(p, scratch) → 1 if the affine point p (on the curve, finite) is in G2, else 0: ψ(p) = [${g2.psiEigen}]p`,
      g2.name === 'bn254'
        ? `(for BN curves ψ(P) = [6u²]P characterises G2: El Housni, Guillevic, Piellard, eprint 2022/352).`
        : `(for BLS12 curves ψ(P) = [z]P characterises G2: Scott, eprint 2021/1130).`,
      `The chain in Jacobian coordinates (doubling 2M + 5S), compared with ψ(P) without inversion.`,
      `scratch: ${this.g2Scratch.subgroup} ${F} elements (${this.g2Bytes('subgroup')} bytes). Cost: ${len - 1} Jacobian doublings (2M + 5S) + ${nafWeight - 1} mixed`,
      `additions (7M + 4S; the NAF of the constant when shorter) + ψ (2M) + ≤ 4M, over ${F}.`,
    ], (fb) => {
      const P = fb.param('p', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const A = s;
      const Q = this.el(s, 4);
      const [T, U] = [this.el(s, 6), this.el(s, 7)];
      const ops = this.el(s, 8);
      const counter = fb.local('c', 'i32');
      fb.comment(`A = [${e}]P (Jacobian)`);
      this.copyElems(fb, A, P, 2);
      fb.call(`${F}_set_one`, this.el(A, 2));
      this.mulConstJac(fb, A, e, P, ops, counter, this.el(s, 18));
      fb.comment(`Q = ψ(P); in G2 iff A = ${g2.psiEigen < 0n ? '−' : ''}Q`);
      fb.call('g2_psi', Q, P, ops);
      fb.ret(this.jacEqAffine(fb, A, Q, this.el(Q, 1), g2.psiEigen < 0n, [T, U]));
    }, { scratch: this.g2Bytes('subgroup') });
  }

  /** i32: 1 if the bytes [base, base + len) are zero after clearing `mask` in byte `flagByte` (−1: none). */
  private allZero(fb: FuncBuilder, base: I32, len: number, flagByte: number, mask: number): I32 {
    const terms: I32[] = [];
    for (let k = 0; k < len; k += 4) {
      let w = i32.load(base, k);
      if (flagByte >= k && flagByte < k + 4) w = i32.and(w, i32.const(~(mask << (8 * (flagByte - k)))));
      terms.push(w);
    }
    return i32.eqz(terms.reduce((a, b) => i32.or(a, b)));
  }

  private emitCodecs(): void {
    const { mb, fp2 } = this;
    const F = this.F;
    const B = this.B;
    const E = this.EB; // bytes of one F_p² element
    const e = E / 2; // bytes of one F_p element
    const specs = this.g2FormatSpecs;
    const codes = specs.map((f) => `${f.code} ${f.name} (${f.bytes} B)`).join(', ');
    const layout: Record<G2FormatName, string> = {
      zcash: `x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 big-endian; byte 0 bits 7, 6, 5 = compressed (0), infinity, sort (0); infinity = 0x40 then zeros`,
      'zcash-compressed': `x.c1 ‖ x.c0 big-endian; byte 0 bit 7 = 1, bit 6 = infinity, bit 5 = y is the larger root (c1, then c0, above (p − 1)/2)`,
      arkworks: `x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1 little-endian; last byte bit 7 = y > −y (c1 first), bit 6 = infinity (all else zero)`,
      'arkworks-compressed': `x.c0 ‖ x.c1 little-endian; last byte bit 7 = y > −y, bit 6 = infinity (all else zero)`,
      eip197: `x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 big-endian (imaginary part first), no flags; infinity = all zero`,
    };
    const docs = specs.map((f) => `  ${f.code} ${f.name} (${f.bytes} B): ${layout[f.name]}`);

    mb.func('g2_y_is_largest', { y: 'i32' }, 'i32', [
      `g2_y_is_largest(y) → 1 if y is the larger of ±y in the ZCash and arkworks order (c1 > (p − 1)/2, or c1 = 0 and c0 > (p − 1)/2).`,
      `No scratch. Cost: 1M (g1_y_is_largest on one component).`,
    ], (fb) => {
      const y = fb.param('y', 'i32').get;
      fb.if(fb.callExpr('i32', 'fp_is_zero', i32.add(y, i32.const(e))), () => fb.ret(fb.callExpr('i32', 'g1_y_is_largest', y)));
      fb.ret(fb.callExpr('i32', 'g1_y_is_largest', i32.add(y, i32.const(e))));
    });

    mb.func('g2_validate_batch', { points: 'i32', inf: 'i32', count: 'i32', check: 'i32', scratch: 'i32' }, 'i32', [
      `g2_validate_batch(points, inf, count, check, scratch) → −1 or (index << ${STATUS_SHIFT}) | code (${PointError.notOnCurve} off-curve, ${PointError.notInSubgroup} off-subgroup).`,
      `Affine points of ${2 * E} bytes; skips points with inf[i] ≠ 0; check 1 = on-curve, 2 = + subgroup. scratch: as g2_is_in_subgroup (${this.g2Bytes('subgroup')} bytes).`,
    ], (fb) => {
      const points = fb.param('points', 'i32'), inf = fb.param('inf', 'i32'), count = fb.param('count', 'i32');
      const check = fb.param('check', 'i32'), scratch = fb.param('scratch', 'i32');
      const i = fb.local('i', 'i32');
      const p = fb.local('p', 'i32');
      fb.forRange(i, i32.const(0), count.get, 1, () => {
        fb.if(i32.eqz(i32.load8_u(i32.add(inf.get, i.get))), () => {
          p.set(i32.add(points.get, i32.mul(i.get, i32.const(2 * E))));
          fb.if(i32.eqz(fb.callExpr('i32', 'g2_is_on_curve', p.get, scratch.get)), () => fb.ret(i32.or(i32.shl(i.get, STATUS_SHIFT), i32.const(PointError.notOnCurve))));
          fb.if(i32.ge_u(check.get, i32.const(Check.subgroup)), () => {
            fb.if(i32.eqz(fb.callExpr('i32', 'g2_is_in_subgroup', p.get, scratch.get)), () => fb.ret(i32.or(i32.shl(i.get, STATUS_SHIFT), i32.const(PointError.notInSubgroup))));
          });
        });
      });
      fb.ret(i32.const(-1));
    }, { scratch: this.g2Bytes('subgroup') });

    const decodeBytes = this.decodeScratchElements * E;
    mb.func('g2_decode_batch', { dst: 'i32', inf: 'i32', src: 'i32', count: 'i32', format: 'i32', check: 'i32', scratch: 'i32' }, 'i32', [
      `g2_decode_batch(dst, inf, src, count, format, check, scratch) → −1 if all count encodings at src decode, else (index << ${STATUS_SHIFT}) | code`,
      `(src/abi/codes.ts PointError) of the first bad one. Affine point i at dst + i·${2 * E}, inf[i] = 1 for infinity (slot zeroed). Formats (others trap):`,
      ...docs,
      `check: 0 parse (canonical components < p, consistent flags), 1 + on curve, 2 + subgroup (g2_is_in_subgroup). Compressed points are on the`,
      `curve by construction (no square root → malformed). Strict: exactly what g2_encode produces. scratch: ${this.decodeScratchElements} ${F} elements (${decodeBytes} bytes).`,
      `Cost per point: 4 byte conversions; compressed: + 1M + 1S + fp2_sqrt + 1M; on curve 1M + 2S; subgroup see g2_is_in_subgroup (all over ${F}).`,
    ], (fb) => {
      const dst = fb.param('dst', 'i32'), inf = fb.param('inf', 'i32'), src = fb.param('src', 'i32'), count = fb.param('count', 'i32');
      const format = fb.param('format', 'i32'), check = fb.param('check', 'i32');
      const s = fb.param('scratch', 'i32').get;
      const i = fb.local('i', 'i32');
      const enc = fb.local('enc', 'i32');
      const flags = fb.local('flags', 'i32');
      const out = fb.local('out', 'i32');
      const buf = this.el(s, 0);
      const T = this.el(s, 1);
      const Ty = this.el(s, 2);
      const rhs = this.el(s, 3);
      const bConst = this.el(s, 4);
      const tail = this.el(s, 5);
      const fail = (code: number) => fb.ret(i32.or(i32.shl(i.get, STATUS_SHIFT), i32.const(code)));
      fb.if(i32.gt_u(check.get, i32.const(Check.subgroup)), () => fb.line('(unreachable)'));
      fb.if(i32.eqz(specs.map((f) => i32.eq(format.get, i32.const(f.code))).reduce((a, b) => i32.or(a, b))), () => fb.line('(unreachable)'));
      fp2.storeConst(fb, bConst, fp2.montLimbs2(this.g2.b));

      const body = (spec: PointFormatSpec<G2FormatName>) => {
        const name = spec.name;
        const L = spec.bytes;
        const compressed = name.endsWith('compressed');
        const be = name !== 'arkworks' && name !== 'arkworks-compressed';
        const offs = componentOffsets(name, B);
        const nComp = compressed ? 2 : 4;
        // the byte holding the flags (and which bits): ZCash byte 0 top 3, arkworks last byte top 2, EIP-197 none
        const flagByte = name.startsWith('zcash') ? 0 : name.startsWith('arkworks') ? L - 1 : -1;
        const flagMask = name.startsWith('zcash') ? 0xe0 : 0xc0;
        enc.set(i32.add(src.get, i32.mul(i.get, i32.const(L))));
        out.set(i32.add(dst.get, i32.mul(i.get, i32.const(2 * E))));
        const infPtr = i32.add(inf.get, i.get);
        const writeInfinity = () => {
          fb.call(`${F}_set_zero`, out.get);
          fb.call(`${F}_set_zero`, i32.add(out.get, i32.const(E)));
          fb.i32Store8(infPtr, 0, i32.const(1));
        };
        /** Component j (0 x.c0, 1 x.c1, 2 y.c0, 3 y.c1) into T + j·e, flag bits cleared. */
        const readComponents = () => {
          for (let j = 0; j < nComp; j++) {
            const at = offs[j];
            const target = i32.add(T, i32.const(j * e));
            const holdsFlags = flagByte >= at && flagByte < at + B;
            let from: I32 = i32.add(enc.get, i32.const(at));
            if (holdsFlags) {
              for (let k = 0; k < B; k += 4) fb.i32Store(buf, k, i32.load(from, k));
              const rel = flagByte - at;
              fb.i32Store8(buf, rel, i32.and(i32.load8_u(buf, rel), i32.const(0xff ^ flagMask)));
              from = buf;
            }
            fb.if(i32.eqz(fb.callExpr('i32', `fp_from_bytes_${be ? 'be' : 'le'}`, target, from)), () => fail(PointError.coordinate));
          }
        };
        const storePoint = (curveCheck: boolean) => {
          if (curveCheck) {
            // nested: i32.and would evaluate the curve equation for every check level
            fb.if(i32.ge_u(check.get, i32.const(Check.onCurve)), () => {
              fb.if(i32.eqz(fb.callExpr('i32', 'g2_is_on_curve', T, tail)), () => fail(PointError.notOnCurve));
            });
          }
          fb.if(i32.ge_u(check.get, i32.const(Check.subgroup)), () => {
            fb.if(i32.eqz(fb.callExpr('i32', 'g2_is_in_subgroup', T, tail)), () => fail(PointError.notInSubgroup));
          });
          fb.call(`${F}_copy`, out.get, T);
          fb.call(`${F}_copy`, i32.add(out.get, i32.const(E)), Ty);
          fb.i32Store8(infPtr, 0, i32.const(0));
        };
        /** y = the root of x³ + b' whose "largest" predicate equals `largest`; y = 0 with it set is malformed. */
        const decompress = (largest: () => I32) => {
          fb.call(`${F}_sqr`, rhs, T);
          fb.call(`${F}_mul`, rhs, rhs, T);
          fb.call(`${F}_add`, rhs, rhs, bConst);
          fb.if(i32.eqz(fb.callExpr('i32', `${F}_sqrt`, Ty, rhs, tail)), () => fail(PointError.noSquareRoot));
          fb.if(i32.and(largest(), fb.callExpr('i32', `${F}_is_zero`, Ty)), () => fail(PointError.sign));
          fb.if(i32.ne(fb.callExpr('i32', 'g2_y_is_largest', Ty), largest()), () => fb.call(`${F}_neg`, Ty, Ty));
        };
        if (name === 'zcash' || name === 'zcash-compressed') {
          flags.set(i32.shr_u(i32.load8_u(enc.get), 5));
          fb.comment(`flags = c·4 + i·2 + s; c must be ${compressed ? 1 : 0}`);
          fb.if(i32.ne(i32.shr_u(flags.get, 2), i32.const(compressed ? 1 : 0)), () => fail(PointError.flags));
          if (!compressed) fb.if(i32.and(flags.get, i32.const(1)), () => fail(PointError.flags));
          fb.if(i32.and(flags.get, i32.const(2)), () => {
            fb.if(i32.and(flags.get, i32.const(1)), () => fail(PointError.flags));
            fb.if(i32.eqz(this.allZero(fb, enc.get, L, 0, 0xe0)), () => fail(PointError.infinity));
            writeInfinity();
          }, () => {
            readComponents();
            if (compressed) decompress(() => i32.and(flags.get, i32.const(1)));
            storePoint(!compressed);
          });
        } else if (name === 'arkworks' || name === 'arkworks-compressed') {
          flags.set(i32.shr_u(i32.load8_u(enc.get, L - 1), 6));
          fb.comment('flags = neg·2 + inf (top bits of the last byte); both set is invalid');
          fb.if(i32.eq(flags.get, i32.const(3)), () => fail(PointError.flags));
          fb.if(i32.and(flags.get, i32.const(1)), () => {
            fb.if(i32.eqz(this.allZero(fb, enc.get, L, L - 1, 0xc0)), () => fail(PointError.infinity));
            writeInfinity();
          }, () => {
            readComponents();
            if (compressed) decompress(() => i32.shr_u(flags.get, 1));
            else {
              fb.comment('the YIsNegative flag must match y');
              fb.if(i32.ne(fb.callExpr('i32', 'g2_y_is_largest', Ty), i32.shr_u(flags.get, 1)), () => fail(PointError.sign));
            }
            storePoint(!compressed);
          });
        } else {
          fb.comment("no flags: infinity is all bytes zero ((0, 0) is not on the curve as b' ≠ 0)");
          fb.if(this.allZero(fb, enc.get, L, -1, 0), () => writeInfinity(), () => {
            readComponents();
            storePoint(true);
          });
        }
      };
      for (const spec of specs) {
        fb.if(i32.eq(format.get, i32.const(spec.code)), () => fb.forRange(i, i32.const(0), count.get, 1, () => body(spec)));
      }
      fb.ret(i32.const(-1));
    }, { scratch: decodeBytes });

    mb.func('g2_encode', { dst: 'i32', a: 'i32', isInf: 'i32', format: 'i32', scratch: 'i32' }, undefined, [
      `g2_encode(dst, a, isInf, format, scratch): canonical encoding of the affine point a (or of infinity if isInf ≠ 0) at dst. Formats (others trap):`,
      ...docs,
      `dst must not overlap a. scratch: unused (reserved, 0 bytes). Cost: 4 conversions + 1M for a flag.`,
    ], (fb) => {
      const dst = fb.param('dst', 'i32').get;
      const a = fb.param('a', 'i32').get;
      const isInf = fb.param('isInf', 'i32');
      const format = fb.param('format', 'i32');
      const zeroFill = (L: number) => {
        for (let k = 0; k < L; k += 4) fb.i32Store(dst, k, i32.const(0));
      };
      const largest = () => fb.callExpr('i32', 'g2_y_is_largest', i32.add(a, i32.const(E)));
      fb.if(i32.eqz(specs.map((f) => i32.eq(format.get, i32.const(f.code))).reduce((x, y) => i32.or(x, y))), () => fb.line('(unreachable)'));
      for (const spec of specs) {
        const name = spec.name;
        const L = spec.bytes;
        const compressed = name.endsWith('compressed');
        const be = name !== 'arkworks' && name !== 'arkworks-compressed';
        const offs = componentOffsets(name, B);
        fb.if(i32.eq(format.get, i32.const(spec.code)), () => {
          fb.if(isInf.get, () => {
            zeroFill(L);
            if (name === 'zcash') fb.i32Store8(dst, 0, i32.const(0x40));
            if (name === 'zcash-compressed') fb.i32Store8(dst, 0, i32.const(0xc0));
            if (name.startsWith('arkworks')) fb.i32Store8(dst, L - 1, i32.const(0x40));
          }, () => {
            for (let j = 0; j < (compressed ? 2 : 4); j++) fb.call(`fp_to_bytes_${be ? 'be' : 'le'}`, i32.add(dst, i32.const(offs[j])), i32.add(a, i32.const(j * e)));
            if (name === 'zcash-compressed') fb.i32Store8(dst, 0, i32.or(i32.or(i32.load8_u(dst), i32.const(0x80)), i32.shl(largest(), 5)));
            if (name.startsWith('arkworks')) fb.i32Store8(dst, L - 1, i32.or(i32.load8_u(dst, L - 1), i32.shl(largest(), 7)));
          });
          fb.ret();
        });
      }
    }, { scratch: 0 });
  }
}
