/**
 * Generator of the G2 kernels `g2_*`: the XYZZ point arithmetic of CurveGen (src/codegen/curve.ts)
 * emitted over the coordinate field F_p² (src/codegen/fp2.ts) — the same code, the ops called as
 * `fp2_<op>` and elements of 2·EB bytes — plus G2's own on-curve test, ψ and subgroup test.
 * In the cost lines of the shared XYZZ kernels, M and S are F_p² products (3 and 2 base products).
 * Curve: the twist y² = x³ + b' of src/curves/g2.ts; affine point x at +0, y at +2·EB (4·EB bytes),
 * XYZZ point 8·EB bytes. Nothing here is constant-time.
 */
import { CurveGen } from './curve.js';
import type { FieldGen } from './field.js';
import type { Fp2Gen } from './fp2.js';
import type { ModuleBuilder } from './wat.js';
import type { G2Params } from '../curves/g2.js';
import { RefG2 } from '../reference/g2.js';

export class G2CurveGen extends CurveGen {
  /** scratch elements (F_p²) of g2_is_on_curve, g2_psi and g2_is_in_subgroup */
  readonly g2Scratch = { onCurve: 3, psi: 2, subgroup: 22 } as const;

  constructor(mb: ModuleBuilder, fp: FieldGen, readonly fp2: Fp2Gen, readonly g2: G2Params) {
    super(mb, fp, g2.g1, 'g2', { coordinates: fp2 });
    const ref = new RefG2(g2);
    if (!ref.isOnCurve(ref.G) || ref.mul(ref.G, g2.g1.r) !== null) throw new Error(`G2CurveGen(${g2.name}): generator not of order r`);
    if (!ref.eq(ref.psi(ref.G), ref.mul(ref.G, g2.psiEigen))) throw new Error(`G2CurveGen(${g2.name}): ψ(G) ≠ [psiEigen]G`);
    if (!ref.eq(ref.endo(ref.G), ref.mul(ref.G, g2.g1.lambda))) throw new Error(`G2CurveGen(${g2.name}): (beta·x, y) ≠ [lambda]P`);
  }

  private g2Bytes(k: keyof G2CurveGen['g2Scratch']): number {
    return this.g2Scratch[k] * this.EB;
  }

  override describe(): string[] {
    const g = this.g2;
    return [`curve ${g.name} g2: y² = x³ + (${g.b[0]} + ${g.b[1]}·i) over F_p², subgroup test ψ(P) = [${g.psiEigen}]P`];
  }

  override emitAll(): void {
    this.emitXyzzBasics();
    this.emitXyzzDouble();
    this.emitXyzzAdd();
    this.emitXyzzToAffine();
    this.emitXyzzEq();
    this.emitXyzzMulSmall();
    this.emitChecks();
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
    const weight = e.toString(2).replace(/0/g, '').length;
    mb.func('g2_is_in_subgroup', { p: 'i32', scratch: 'i32' }, 'i32', [
      `g2_is_in_subgroup(p, scratch) → 1 if the affine point p (on the curve, finite) is in G2, else 0: ψ(p) = [${g2.psiEigen}]p`,
      g2.name === 'bn254'
        ? `(for BN curves ψ(P) = [6u²]P characterises G2: El Housni, Guillevic, Piellard, eprint 2022/352).`
        : `(for BLS12 curves ψ(P) = [z]P characterises G2: Scott, eprint 2021/1130).`,
      `scratch: ${this.g2Scratch.subgroup} ${F} elements (${this.g2Bytes('subgroup')} bytes). Cost: ${len - 1} XYZZ doublings + ${weight - 1} mixed`,
      `additions + ψ (2M) + 1 mixed addition + XYZZ comparison (4M), over ${F}.`,
    ], (fb) => {
      const P = fb.param('p', 'i32').get;
      const s = fb.param('scratch', 'i32').get;
      const A = s;
      const C = this.el(s, 4);
      const Q = this.el(s, 8);
      const ops = this.el(s, 12);
      const counter = fb.local('c', 'i32');
      fb.comment(`A = [${e}]P`);
      fb.call('g2_xyzz_from_affine', A, P);
      this.mulConst(fb, A, e, ops, () => fb.call('g2_xyzz_add_affine', A, P, ops), counter);
      if (g2.psiEigen < 0n) fb.call('g2_xyzz_neg', A);
      fb.comment('C = ψ(P)');
      fb.call('g2_psi', Q, P, ops);
      fb.call('g2_xyzz_from_affine', C, Q);
      fb.ret(fb.callExpr('i32', 'g2_xyzz_eq', A, C, ops));
    }, { scratch: this.g2Bytes('subgroup') });
  }
}
