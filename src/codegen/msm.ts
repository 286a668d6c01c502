/**
 * Generator of the MSM kernels of one group with a GLV endomorphism (a = 0 short Weierstrass), over
 * its coordinate field: G1 over F_p (kernels g1_batch_add, g1_batch_touch, msm_*) and, for curves
 * with a G2, G2 over F_p² (g2_batch_add, g2_batch_touch, g2_msm_*; see `MsmGen.kernel`). The scalar
 * split, the packed layout and the lazy differences are G1's only (emitted once, shared).
 *
 * Terms used in this file: n points P_i with scalars s_i; GLV splits s = k1 + k2·λ with
 * 0 ≤ k1, k2 < 2^128, so the MSM runs over 2n "halves" (P_i with k1, endo(P_i) with k2).
 * Windows of c bits give K = ⌈129/c⌉ signed digits per half, |digit| ≤ 2^(c−1) = L buckets.
 *
 * Kernels (all pointers are byte addresses in the shared memory; G1's names, G2's prefixed):
 * - msm_split_scalars: bytes → reduced mod r → (k1, k2) with s ≡ k1 + k2·λ by the rounded GLV lattice
 *   decomposition (two short basis vectors, precomputed rounding constants; see emitSplitScalars).
 * - g1_batch_add: P ← P + Q over an array of pairs with ONE inversion (Montgomery's trick),
 *   exceptional cases inside the batch (P = Q → doubling, P = −Q → infinity, reported per pair).
 * - g1_batch_touch: loads each pair's a operand once per cache line, so a batch's bucket misses overlap.
 * - msm_accumulate: one window's bucket accumulation by scanning the halves (no sort), scheduling
 *   independent additions into batches; a second point for a busy bucket is paired with a third
 *   (a temporary partial sum), so even "all points in one bucket" proceeds as a batched tree.
 * - msm_reduce_segments: bucket reduction Σ l·B_l with batch-affine additions by splitting the L
 *   buckets into S independent segments (the recursive partition split of the montgomery write-up,
 *   one level wide: the S segment sums are combined afterwards in XYZZ, see src/msm/).
 * - msm_straus: a small MSM in one call (Straus, width-5 NAF of the GLV halves; ./msm-straus.ts).
 * - msm_compact, msm_expand_endo, msm_expand_triples (+ msm_expand_packed, G1): the point layouts
 *   msm_accumulate reads (emitPrepare); g1_validate_batch: on-curve and subgroup checks of a batch.
 */
import type { CurveParams } from '../curves/types.js';
import { Check, PointError, STATUS_SHIFT } from '../abi/codes.js';
import { glvBasis } from '../reference/curve.js';
import type { CoordinateField } from './fp2.js';
import { toLimbs, type FieldLayout } from './field-layout.js';
import { FieldGen } from './field.js';
import { FuncBuilder, I32, I64, Local, ModuleBuilder, i32, i64 } from './wat.js';
import { countedScratch, type CountedScratch } from './scratch.js';
import { emitStraus } from './msm-straus.js';
import {
  ACC_STATE_FIELDS, BUCKET_BUSY, BUCKET_EMPTY, BUCKET_FULL, HALF_MAGNITUDE_BITS, INFO_DATA_MASK, INFO_INFINITY, INFO_PACKED, INFO_TEMP, PAIR_BYTES,
  POINT_LAYOUT_PACKED, POINT_LAYOUT_PAIRS, accOffset, batchAddScratchBytes, packedElementBytes, type AccStateField,
} from '../abi/layout.js';

function limbs32(v: bigint, count: number): bigint[] {
  return Array.from({ length: count }, (_, i) => (v >> BigInt(32 * i)) & 0xffffffffn);
}

/** msm_accumulate's i32 state fields: all of ACC_STATE_FIELDS but the carry rule's 128-bit values. */
type AccI32Field = Exclude<AccStateField, `carry${string}`>;
const ACC_I32_FIELDS = ACC_STATE_FIELDS.filter((f): f is AccI32Field => !f.startsWith('carry'));

/** A list as lines of `perLine` items, comma-separated. */
function wrapList(items: readonly string[], perLine: number): string[] {
  const lines: string[] = [];
  for (let k = 0; k < items.length; k += perLine) lines.push(items.slice(k, k + perLine).join(', ') + (k + perLine < items.length ? ',' : ''));
  return lines;
}

/**
 * y of a tagged point pointer (bit 0: negate, bit 1: shared-y triple): x is at `tagged & ~3`, y
 * follows it (x + EB), or for bit 1 (the β·x slot of a triple [β·x, x, y]) one element further.
 */
function yPointer(tagged: I32, EB: number): I32 {
  return i32.add(i32.add(i32.and(tagged, i32.const(~3)), i32.const(EB)), i32.mul(i32.and(tagged, i32.const(2)), i32.const(EB / 2)));
}

/** Limb j (w bits) of an element packed by <f>_pack, cut from its 64-bit words (`word(k)`, k < words). */
function packedLimb(L: FieldLayout, words: number, word: (k: number) => I64, j: number): I64 {
  const bit = L.w * j, k = bit >> 6, s = bit & 63;
  let v: I64 = k < words ? i64.shr_u(word(k), s) : i64.const(0n);
  if (s + L.w > 64 && k + 1 < words) v = i64.or(v, i64.shl(word(k + 1), 64 - s));
  return i64.and(v, i64.const((1n << BigInt(L.w)) - 1n));
}

export class MsmGen {
  readonly EB: number;
  readonly PB: number;
  /** bytes of a packed element (POINT_LAYOUT_PACKED, G1 only; 0 for other groups) */
  readonly PK: number;
  /** whether g1_batch_add feeds its products unreduced differences (emitLazyDifferences) */
  readonly lazy: boolean;
  /**
   * scratch of batch_add for `count` pairs (and so of msm_reduce_segments for S, msm_accumulate for
   * its batch): N_k, then Q_k [count] | D[count] | 8 temporaries (elements) | kinds[count] (bytes)
   */
  readonly batchScratch: CountedScratch;
  constructor(
    readonly mb: ModuleBuilder,
    readonly fp: CoordinateField,
    readonly params: CurveParams,
    /** scratch bytes of g1_is_in_subgroup (g1_validate_batch passes its scratch on) */
    readonly subgroupScratchBytes = 0,
    /**
     * the group: 'g1' (kernels g1_batch_add, msm_*), or e.g. 'g2' (g2_batch_add, g2_msm_*; the scalar
     * split msm_split_scalars and the statistics globals are then shared with G1's, emitted first)
     */
    readonly group = 'g1',
  ) {
    this.EB = fp.L.elementBytes;
    this.PB = 2 * this.EB;
    this.PK = group === 'g1' ? packedElementBytes(fp.L as FieldLayout) : 0;
    const L = fp.L as FieldLayout;
    // 30-bit limbs with R > 8p: a product of x ≤ 4p and y < 2p is < 2p (x·y/R + p), see emitLazyDifferences
    this.lazy = group === 'g1' && L.w <= 30 && 8n * L.p < 1n << BigInt(L.w * L.n);
    // packed items carry tag bit 2; the other items then (temporaries, stride PB, 16-aligned) must have it clear
    if (this.PK && (this.PB % 8 !== 0 || this.PK % 16 !== 0)) throw new Error(`MsmGen: packed layout needs PB ≡ 0 mod 8 and PK ≡ 0 mod 16 (PB = ${this.PB}, PK = ${this.PK})`);
    // the kernels index pair entries by a shift of 4
    if (PAIR_BYTES !== 16) throw new Error(`MsmGen: pair entries are 16 bytes, PAIR_BYTES = ${PAIR_BYTES}`);
    this.batchScratch = countedScratch(batchAddScratchBytes, this.EB, (count) => (2 * count + 8) * this.EB + count);
  }

  /** Name of a kernel of this group: `msm_accumulate` → `msm_accumulate` (G1) or `g2_msm_accumulate`. */
  kernel(name: 'batch_add' | 'batch_touch' | 'msm_accumulate' | 'msm_reduce_segments' | 'msm_compact' | 'msm_expand_endo' | 'msm_expand_triples' | 'msm_expand_packed' | 'msm_straus'): string {
    if (name === 'batch_add' || name === 'batch_touch') return `${this.group}_${name}`;
    return this.group === 'g1' ? name : `${this.group}_${name}`;
  }

  emitAll(): void {
    if (this.group !== 'g1') {
      this.emitChordKernels();
      this.emitBatchAdd();
      this.emitBatchTouch();
      this.emitAccumulate();
      this.emitReduceSegments();
      this.emitPrepare();
      emitStraus(this);
      return;
    }
    // statistics: pairs added and batches (= inversions) run by g1_batch_add, read by the runtime
    this.mb.globalI32('stat_pairs', true, 0, true);
    this.mb.globalI32('stat_batches', true, 0, true);
    this.emitSplitScalars();
    this.emitPacking();
    this.emitLazyDifferences();
    this.emitChordKernels();
    this.emitBatchAdd();
    this.emitBatchTouch();
    this.emitAccumulate();
    this.emitReduceSegments();
    this.emitPrepare();
    emitStraus(this);
    if (this.mb.hasFunc('g1_is_on_curve') && this.mb.hasFunc('g1_is_in_subgroup')) this.emitValidate();
  }

  /** g1_validate_batch(points, inf, count, check, scratch) → −1, or (index << 3) | code of the first
   * bad point (PointError: not on curve, not in subgroup); check 1 = on-curve, 2 = + subgroup. */
  private emitValidate(): void {
    const { PB } = this;
    this.mb.func('g1_validate_batch', { points: 'i32', inf: 'i32', count: 'i32', check: 'i32', scratch: 'i32' }, 'i32', [
      `g1_validate_batch(points, inf, count, check, scratch) → −1 or (index << ${STATUS_SHIFT}) | code (${PointError.notOnCurve} off-curve, ${PointError.notInSubgroup} off-subgroup).`,
      `Skips points with inf[i] ≠ 0. scratch: ${this.subgroupScratchBytes} bytes (g1_is_in_subgroup's).`,
    ], (fb) => {
      const points = fb.param('points', 'i32'), inf = fb.param('inf', 'i32'), count = fb.param('count', 'i32');
      const check = fb.param('check', 'i32'), scratch = fb.param('scratch', 'i32');
      const i = fb.local('i', 'i32');
      const p = fb.local('p', 'i32');
      fb.forRange(i, i32.const(0), count.get, 1, () => {
        fb.if(i32.eqz(i32.load8_u(i32.add(inf.get, i.get))), () => {
          p.set(i32.add(points.get, i32.mul(i.get, i32.const(PB))));
          fb.if(i32.eqz(fb.callExpr('i32', 'g1_is_on_curve', p.get)), () => fb.ret(i32.or(i32.shl(i.get, STATUS_SHIFT), i32.const(PointError.notOnCurve))));
          fb.if(i32.ge_u(check.get, i32.const(Check.subgroup)), () => {
            fb.if(i32.eqz(fb.callExpr('i32', 'g1_is_in_subgroup', p.get, scratch.get)), () => fb.ret(i32.or(i32.shl(i.get, STATUS_SHIFT), i32.const(PointError.notInSubgroup))));
          });
        });
      });
      fb.ret(i32.const(-1));
    }, { scratch: this.subgroupScratchBytes });
  }

  // ------------------------------------------------------------------ scalars
  /** Column product of 32-bit limb vectors, normalized to 32-bit limbs, columns [0, nOut). */
  private mul32(fb: FuncBuilder, a: I64[], b: I64[], nOut: number, prefix: string): Local<'i64'>[] {
    const out = fb.locals64(prefix, nOut);
    const lo = fb.local(`${prefix}_lo`, 'i64');
    const hi = fb.local(`${prefix}_hi`, 'i64');
    const prod = fb.local(`${prefix}_p`, 'i64');
    const M32 = i64.const(0xffffffffn);
    hi.set(i64.const(0));
    for (let k = 0; k < nOut; k++) {
      lo.set(hi.get); // carry from the previous column
      hi.set(i64.const(0));
      for (let i = 0; i < a.length; i++) {
        const j = k - i;
        if (j < 0 || j >= b.length) continue;
        prod.set(i64.mul(a[i], b[j]));
        lo.set(i64.add(lo.get, i64.and(prod.get, M32)));
        hi.set(i64.add(hi.get, i64.shr_u(prod.get, 32)));
      }
      out[k].set(i64.and(lo.get, M32));
      hi.set(i64.add(hi.get, i64.shr_u(lo.get, 32)));
    }
    return out;
  }

  /** s ← s − c over 32-bit limbs if s ≥ c (constant c). */
  private condSub32(fb: FuncBuilder, s: Local<'i64'>[], c: bigint, prefix: string): I32 {
    const cl = limbs32(c, s.length);
    const d = fb.locals64(`${prefix}_d`, s.length);
    const t = fb.local(`${prefix}_t`, 'i64');
    for (let j = 0; j < s.length; j++) {
      const diff = i64.sub(s[j].get, i64.const(cl[j]));
      t.set(j === 0 ? diff : i64.add(diff, i64.shr_s(t.get, 32)));
      d[j].set(i64.and(t.get, i64.const(0xffffffffn)));
    }
    const ok = fb.local(`${prefix}_ok`, 'i32');
    ok.set(i64.ge_s(t.get, i64.const(0)));
    fb.if(ok.get, () => s.forEach((x, j) => x.set(d[j].get)));
    return ok.get;
  }

  /**
   * GLV split for any curve with an endomorphism eigenvalue λ: with a short lattice basis
   * v1 = (a1, b1), v2 = (a2, b2) (a + b·λ ≡ 0 mod r, det = r), c_i = round(s·β_i / r) for
   * β1 = b2, β2 = −b1, and k1 = s − c1·a1 − c2·a2, k2 = −c1·b1 − c2·b2, so s ≡ k1 + k2·λ.
   * round(s·|β|/r) = ⌊(s·g + 2^(m−1)) / 2^m⌋ with g = round(2^m·|β|/r), m = 288: the error of g is
   * < 2^−33 for s < 2^255, so |k1| ≤ (|a1| + |a2|)·(1/2 + 2^−32), likewise k2 (asserted < 2^127).
   * k1, k2 are computed modulo 2^160 (their true values are tiny there), then stored as magnitude
   * with the sign in bit 127.
   */
  private emitSplitScalars(): void {
    const { r, lambda } = this.params;
    const M = 288;
    let [v1, v2] = glvBasis(r, lambda);
    if (v1.a * v2.b - v2.a * v1.b === -r) [v1, v2] = [v2, v1];
    if (v1.a * v2.b - v2.a * v1.b !== r) throw new Error('GLV basis determinant is not ±r');
    const abs = (x: bigint) => (x < 0n ? -x : x);
    const betas = [v2.b, -v1.b];
    const gs = betas.map((b) => ((abs(b) << BigInt(M)) + r / 2n) / r);
    const bound = (x: bigint, y: bigint) => ((abs(x) + abs(y)) * ((1n << 32n) + 2n)) >> 33n;
    const bounds = [bound(v1.a, v2.a) + 1n, bound(v1.b, v2.b) + 1n];
    if (bounds.some((b) => b >= 1n << BigInt(HALF_MAGNITUDE_BITS))) throw new Error('GLV halves would not fit 127 bits');
    for (const g of gs) if (g >= 1n << 192n) throw new Error('GLV rounding constant exceeds 6 limbs');
    // numerical self-check of the bound on the worst inputs we can name
    for (const s of [0n, 1n, r - 1n, r / 2n, lambda, r - lambda]) {
      const c = betas.map((b, i) => ((s * gs[i] + (1n << BigInt(M - 1))) >> BigInt(M)) * (b < 0n ? -1n : 1n));
      const k1 = s - c[0] * v1.a - c[1] * v2.a;
      const k2 = -c[0] * v1.b - c[1] * v2.b;
      if (((k1 + k2 * lambda - s) % r + r) % r !== 0n || abs(k1) > bounds[0] || abs(k2) > bounds[1]) throw new Error('GLV split self-check failed');
    }
    this.mb.func('msm_split_scalars', { dst: 'i32', src: 'i32', count: 'i32', bigEndian: 'i32' }, undefined, [
      'msm_split_scalars(dst, src, count, bigEndian): for each 32-byte scalar s at src (LE, or BE if bigEndian),',
      's ← s mod r, then s ≡ k1 + k2·λ (mod r) by the rounded GLV lattice decomposition (see emitSplitScalars).',
      `dst: count × 32 bytes: |k1| (16 bytes LE) ‖ |k2|, sign of each in its bit 127; |k1| ≤ 0x${bounds[0].toString(16)}, |k2| ≤ 0x${bounds[1].toString(16)}.`,
      'dst may equal src (in place). Cost: ≈ 140 i64.mul per scalar.',
    ], (fb) => {
      const dst = fb.param('dst', 'i32');
      const src = fb.param('src', 'i32');
      const count = fb.param('count', 'i32');
      const be = fb.param('bigEndian', 'i32');
      const i = fb.local('i', 'i32');
      const at = fb.local('at', 'i32');
      const out = fb.local('out', 'i32');
      const s = fb.locals64('s', 8);
      const M32 = i64.const(0xffffffffn);
      fb.forRange(i, i32.const(0), count.get, 1, () => {
        at.set(i32.add(src.get, i32.shl(i.get, 5)));
        out.set(i32.add(dst.get, i32.shl(i.get, 5)));
        fb.if(be.get, () => {
          // limb j = bytes [28 − 4j, 32 − 4j) read big-endian
          for (let j = 0; j < 8; j++) {
            const base = 28 - 4 * j;
            const b = (k: number) => i64.extend_i32_u(i32.load8_u(at.get, base + k));
            s[j].set(i64.or(i64.or(i64.shl(b(0), 24), i64.shl(b(1), 16)), i64.or(i64.shl(b(2), 8), b(3))));
          }
        }, () => {
          for (let j = 0; j < 8; j++) s[j].set(i64.load32_u(at.get, 4 * j));
        });
        // s < 2^256: subtract r while s ≥ r (at most ⌊2^256/r⌋ times; a loop keeps any r valid)
        const maxSubs = Number((1n << 256n) / r);
        for (let t = 0; t < maxSubs; t++) this.condSub32(fb, s, r, 'red');
        // |c_i| = ⌊(s·g_i + 2^(M−1)) / 2^M⌋, limbs 9..12 of the product
        const cs = gs.map((g, gi) => {
          const prod = this.mul32(fb, s.map((x) => x.get), limbs32(g, 6).map((v) => i64.const(v)), 14, `cg${gi}`);
          prod[8].set(i64.add(prod[8].get, i64.const(0x80000000n)));
          for (let j = 8; j < 13; j++) {
            prod[j + 1].set(i64.add(prod[j + 1].get, i64.shr_u(prod[j].get, 32)));
            prod[j].set(i64.and(prod[j].get, M32));
          }
          return prod.slice(9, 13);
        });
        // k mod 2^160 as signed column sums of 32-bit pieces, then normalized
        const emitK = (name: string, init: boolean, terms: { c: number; coef: bigint }[]) => {
          const acc = fb.locals64(`${name}_`, 5);
          for (let j = 0; j < 5; j++) acc[j].set(init ? s[j].get : i64.const(0));
          terms.forEach(({ c, coef }, ti) => {
            // the term is −sign(β_c)·|c|·coef; its magnitude |c|·|coef| mod 2^160
            if (coef === 0n) return;
            const negate = (betas[c] < 0n) !== (coef < 0n) ? false : true;
            const prod = this.mul32(fb, cs[c].map((x) => x.get), limbs32(abs(coef), 5).map((v) => i64.const(v)), 5, `${name}p${ti}`);
            for (let j = 0; j < 5; j++) acc[j].set(negate ? i64.sub(acc[j].get, prod[j].get) : i64.add(acc[j].get, prod[j].get));
          });
          const t = fb.local(`${name}_t`, 'i64');
          t.set(i64.const(0));
          for (let j = 0; j < 5; j++) {
            t.set(i64.add(acc[j].get, i64.shr_s(t.get, 32)));
            acc[j].set(i64.and(t.get, M32));
          }
          // negative (bit 159 set): magnitude = 2^160 − value
          const neg = fb.local(`${name}_neg`, 'i32');
          neg.set(i32.wrap_i64(i64.shr_u(acc[4].get, 31)));
          fb.if(neg.get, () => {
            t.set(i64.const(0));
            for (let j = 0; j < 5; j++) {
              t.set(i64.add(i64.sub(i64.const(0), acc[j].get), i64.shr_s(t.get, 32)));
              acc[j].set(i64.and(t.get, M32));
            }
          });
          acc[3].set(i64.or(acc[3].get, i64.shl(i64.extend_i32_u(neg.get), 31)));
          return acc;
        };
        // k1 = s − c1·a1 − c2·a2 ; k2 = −c1·b1 − c2·b2  (c_i = sign(β_i)·|c_i|)
        const k1 = emitK('k1', true, [{ c: 0, coef: v1.a }, { c: 1, coef: v2.a }]);
        const k2 = emitK('k2', false, [{ c: 0, coef: v1.b }, { c: 1, coef: v2.b }]);
        for (let j = 0; j < 4; j++) fb.i64Store32(out.get, 4 * j, k1[j].get);
        for (let j = 0; j < 4; j++) fb.i64Store32(out.get, 16 + 4 * j, k2[j].get);
      });
    });
  }

  // ------------------------------------------------------------------ packed elements
  /**
   * ${f}_pack(out, x) / ${f}_unpack(out, x): an element's w-bit limbs (u32 slots for w ≤ 30) to and
   * from their bits concatenated in PK/8 little-endian 64-bit words (POINT_LAYOUT_PACKED). Values are
   * < 2p with normalized limbs, so they fit; 64-bit limbs are packed already (both are copies).
   */
  private emitPacking(): void {
    const L = this.fp.L as FieldLayout;
    const f = this.fp.f;
    const words = this.PK / 8;
    const ptr = { out: 'i32', x: 'i32' } as const;
    const costNote = L.w === 64 ? 'a copy (64-bit limbs are packed already)' : `${words} i64 loads or stores, ${L.n} shifts and masks`;
    this.mb.func(`${f}_pack`, ptr, undefined, [`${f}_pack(out, x): x (< 2p, normalized limbs) as ${this.PK} bytes: the ${L.w}-bit limbs concatenated. Cost: ${costNote}. out must not overlap x.`], (fb) => {
      const out = fb.param('out', 'i32'), x = fb.param('x', 'i32');
      if (L.w === 64) return fb.call(`${f}_copy`, out.get, x.get);
      const acc = fb.locals64('w', words);
      acc.forEach((a) => a.set(i64.const(0n)));
      for (let j = 0; j < L.n; j++) {
        const limb = i64.load32_u(x.get, 4 * j);
        const bit = L.w * j, k = bit >> 6, s = bit & 63;
        if (k < words) acc[k].set(i64.or(acc[k].get, i64.shl(limb, s)));
        if (s + L.w > 64 && k + 1 < words) acc[k + 1].set(i64.or(acc[k + 1].get, i64.shr_u(i64.load32_u(x.get, 4 * j), 64 - s)));
      }
      acc.forEach((a, k) => fb.i64Store(out.get, 8 * k, a.get));
    });
    this.mb.func(`${f}_unpack`, ptr, undefined, [`${f}_unpack(out, x): the element packed at x (${f}_pack) as normalized limbs. Cost: ${costNote}. out must not overlap x.`], (fb) => {
      const out = fb.param('out', 'i32'), x = fb.param('x', 'i32');
      if (L.w === 64) return fb.call(`${f}_copy`, out.get, x.get);
      const W = fb.locals64('w', words);
      W.forEach((wk, k) => wk.set(i64.load(x.get, 8 * k)));
      for (let j = 0; j < L.n; j++) fb.i32Store(out.get, 4 * j, i32.wrap_i64(packedLimb(L, words, (k) => W[k].get, j)));
    });
  }

  /** The limbs of v (< R) in the coordinate field's w-bit layout. */
  private limbsOf(v: bigint): bigint[] {
    const { w, n } = this.fp.L as FieldLayout;
    return toLimbs(v, w, n);
  }

  /**
   * A lazy difference into fresh locals (prefix): x − y + 2p ∈ (0, 4p), or 4p − x − y ∈ (0, 4p] where
   * `negate` (a constant, or an i32 chosen per call by selects) — for x, y ∈ [0, 2p) given limb by
   * limb. One signed borrow chain; `<f>_sub_lazy`, `<f>_neg_sum_lazy` and the chord kernels are written with it.
   */
  private lazyDifference(fb: FuncBuilder, x: (j: number) => I64, y: (j: number) => I64, negate: boolean | I32, prefix: string): Local<'i64'>[] {
    const { w, n, p } = this.fp.L as FieldLayout;
    const twoP = this.limbsOf(2n * p), fourP = this.limbsOf(4n * p);
    const mask = i64.const((1n << BigInt(w)) - 1n);
    const t = fb.local(`${prefix}_t`, 'i64');
    const xj = typeof negate === 'boolean' ? undefined : fb.local(`${prefix}_x`, 'i64');
    const z = fb.locals64(prefix, n);
    for (let j = 0; j < n; j++) {
      const plus = (v: I64) => i64.add(v, i64.const(twoP[j]));
      const minus = (v: I64) => i64.sub(i64.const(fourP[j]), v);
      let first: I64;
      if (typeof negate === 'boolean') first = negate ? minus(x(j)) : plus(x(j));
      else {
        // x_j is read once and used by both arms of the select
        xj!.set(x(j));
        first = i64.select(minus(xj!.get), plus(xj!.get), negate);
      }
      const v = i64.sub(first, y(j));
      t.set(j === 0 ? v : i64.add(v, i64.shr_s(t.get, w)));
      z[j].set(i64.and(t.get, mask));
    }
    return z;
  }

  /** i32: 1 when a top limb is that of 0, p, 2p or 3p — the only values ≡ 0 in a lazy difference's [0, 4p). */
  private zeroCandidate(top: I64): I32 {
    const p = (this.fp.L as FieldLayout).p;
    return [0n, p, 2n * p, 3n * p].map((m) => i64.eq(top, i64.const(this.limbsOf(m).at(-1)!))).reduce((acc, c) => i32.or(acc, c));
  }

  /**
   * ${f}_sub_lazy(out, x, y) = x − y + 2p ∈ (0, 4p) and ${f}_neg_sum_lazy(out, x, y) = 4p − x − y ∈ (0, 4p],
   * for x, y ∈ [0, 2p), normalized limbs: differences that only feed a Montgomery product, which
   * still ends < 2p (x·y·R⁻¹ + p < 2p for x ≤ 4p, y < 2p when 8p < R). One borrow chain, no
   * conditional correction (whose outcome is a coin flip), and −(y_b + y_a) in one op instead of two.
   * Without that headroom (64-bit limbs) they are the exact ops, so every G1 module has the same kernels.
   */
  private emitLazyDifferences(): void {
    const L = this.fp.L as FieldLayout;
    const f = this.fp.f;
    if (!this.lazy) {
      const ptr = { out: 'i32', x: 'i32', y: 'i32' } as const;
      this.mb.func(`${f}_sub_lazy`, ptr, undefined, [`${f}_sub_lazy(out, x, y): ${f}_sub (no headroom for the lazy form).`], (fb) => fb.call(`${f}_sub`, fb.param('out', 'i32').get, fb.param('x', 'i32').get, fb.param('y', 'i32').get));
      this.mb.func(`${f}_neg_sum_lazy`, ptr, undefined, [`${f}_neg_sum_lazy(out, x, y): −(x + y) by ${f}_add and ${f}_neg (no headroom for the lazy form).`], (fb) => {
        const out = fb.param('out', 'i32');
        fb.call(`${f}_add`, out.get, fb.param('x', 'i32').get, fb.param('y', 'i32').get);
        fb.call(`${f}_neg`, out.get, out.get);
      });
      this.mb.func(`${f}_sub_sum`, { out: 'i32', x: 'i32', y: 'i32', z: 'i32' }, undefined, [`${f}_sub_sum(out, x, y, z): x − y − z by two ${f}_sub (no headroom for the one-pass form).`], (fb) => {
        const out = fb.param('out', 'i32'), x = fb.param('x', 'i32'), y = fb.param('y', 'i32'), z = fb.param('z', 'i32');
        fb.call(`${f}_sub`, out.get, x.get, y.get);
        fb.call(`${f}_sub`, out.get, out.get, z.get);
      });
      this.mb.func(`${f}_is_zero_lazy`, { x: 'i32' }, 'i32', [`${f}_is_zero_lazy(x): ${f}_is_zero (${f}_sub_lazy is exact here).`], (fb) => fb.ret(fb.callExpr('i32', `${f}_is_zero`, fb.param('x', 'i32').get)));
      return;
    }
    const emit = (name: string, doc: string, negate: boolean) => {
      this.mb.func(`${f}_${name}`, { out: 'i32', x: 'i32', y: 'i32' }, undefined, [doc], (fb) => {
        const x = fb.param('x', 'i32').get, y = fb.param('y', 'i32').get;
        const z = this.lazyDifference(fb, (j) => i64.load32_u(x, 4 * j), (j) => i64.load32_u(y, 4 * j), negate, 'z');
        z.forEach((zj, j) => fb.i64Store32(fb.param('out', 'i32').get, 4 * j, zj.get));
      });
    };
    emit('sub_lazy', `${f}_sub_lazy(out, x, y): x − y + 2p ∈ (0, 4p) for x, y ∈ [0, 2p): only as a ${f}_mul input. Cost: one borrow chain.`, false);
    emit('neg_sum_lazy', `${f}_neg_sum_lazy(out, x, y): 4p − x − y ∈ (0, 4p] for x, y ∈ [0, 2p): only as a ${f}_mul input. Cost: one borrow chain.`, true);

    // the exact ops below are written with the field generator's limb primitives (a FieldGen of ≤ 30-bit limbs here)
    const field = this.fp;
    if (!(field instanceof FieldGen)) throw new Error('MsmGen: the lazy field ops need a FieldGen');
    const ptr3 = { out: 'i32', x: 'i32', y: 'i32', z: 'i32' } as const;
    this.mb.func(`${f}_sub_sum`, ptr3, undefined, [
      `${f}_sub_sum(out, x, y, z): out = x − y − z ∈ [0, 2p) for x, y, z ∈ [0, 2p), normalized limbs; out may alias an input.`,
      'Cost: one three-operand borrow chain, then one or two conditional + 2p chains (two subs would take two of each).',
    ], (fb) => {
      const [xs, ys, zs] = (['x', 'y', 'z'] as const).map((name) => field.load(fb, fb.param(name, 'i32').get, name));
      const r = field.subCorrected(fb, (j) => xs[j].get, [(j) => ys[j].get, (j) => zs[j].get]);
      field.store(fb, fb.param('out', 'i32').get, r.map((v) => v.get));
    });

    // x ≡ 0 (mod p) for x ∈ [0, 4p) (a lazy difference): x ∈ {0, p, 2p, 3p}; the top limb rejects almost every x
    const multiples = [0n, L.p, 2n * L.p, 3n * L.p].map((m) => this.limbsOf(m));
    this.mb.func(`${f}_is_zero_lazy`, { x: 'i32' }, 'i32', [
      `${f}_is_zero_lazy(x) → 1 if x ≡ 0 (mod p), else 0, for x ∈ [0, 4p) (${f}_sub_lazy's range). Cost: one load and four`,
      'compares unless the top limb is that of 0, p, 2p or 3p, then a full compare with each.',
    ], (fb) => {
      const x = fb.param('x', 'i32');
      const top = fb.local('top', 'i64');
      top.set(i64.load32_u(x.get, 4 * (L.n - 1)));
      fb.if(i32.eqz(this.zeroCandidate(top.get)), () => fb.ret(i32.const(0)));
      const xs = field.load(fb, x.get, 'x');
      const equals = (m: bigint[]) => m.map((mj, j) => i64.eq(xs[j].get, i64.const(mj))).reduce((acc, c) => i32.and(acc, c));
      fb.ret(multiples.map(equals).reduce((acc, c) => i32.or(acc, c)));
    });
  }

  // ------------------------------------------------------------------ batch-affine addition
  /**
   * The chord kernels of batch_add: ${f}_chord_forward (a pair's D and N, then the forward products
   * P·D and N·P), ${f}_chord_tail (the backward step I·Q, I·D, then λ², x3, y3) and ${f}_chord_prefix
   * (the forward products alone, for the pairs a tangent or a zero-candidate D sends around the
   * forward kernel's), the limbs in locals within each, with _packed forms of the first two for a
   * packed b. Without the lazy headroom (64-bit limbs, whose packed elements are plain ones, and G2's
   * F_p²) they are compositions of the exact ops, in one form.
   */
  private emitChordKernels(): void {
    const L = this.fp.L as FieldLayout;
    const field = this.fp;
    const { f } = field;
    const { EB } = this;
    if (!this.lazy) {
      this.mb.func(`${f}_chord_forward`, { Q: 'i32', P: 'i32', D: 'i32', a: 'i32', b: 'i32', yb: 'i32', neg: 'i32' }, 'i32', [
        `${f}_chord_forward(Q, P, D, a, b, yb, neg) → ${f}_is_zero(D): D = x_b − x_a and Q = ±y_b − y_a by the exact ops;`,
        `unless D = 0, then Q ← Q·P and P ← P·D (${f}_chord_prefix).`,
      ], (fb) => {
        const [Q, P, D, a, b, yb] = (['Q', 'P', 'D', 'a', 'b', 'yb'] as const).map((name) => fb.param(name, 'i32').get);
        const ya = i32.add(a, i32.const(EB));
        fb.call(`${f}_sub`, D, b, a);
        fb.if(fb.param('neg', 'i32').get, () => {
          fb.call(`${f}_add`, Q, yb, ya);
          fb.call(`${f}_neg`, Q, Q);
        }, () => fb.call(`${f}_sub`, Q, yb, ya));
        fb.if(fb.callExpr('i32', `${f}_is_zero`, D), () => fb.ret(i32.const(1)));
        fb.call(`${f}_chord_prefix`, Q, P, D);
        fb.ret(i32.const(0));
      }, { export: false });
      this.mb.func(`${f}_chord_tail`, { dst: 'i32', a: 'i32', b: 'i32', inv: 'i32', q: 'i32', d: 'i32', scratch: 'i32' }, undefined, [
        `${f}_chord_tail(dst, a, b, inv, q, d, scratch): λ = inv·q, inv ← inv·d, x3 = λ² − x_a − x_b, y3 = λ(x_a − x3) − y_a;`,
        `dst ← (x3, y3), by the exact ops; dst may equal a. scratch: 3 elements.`,
      ], (fb) => {
        const [dst, a, b, inv, q, d, scratch] = (['dst', 'a', 'b', 'inv', 'q', 'd', 'scratch'] as const).map((name) => fb.param(name, 'i32').get);
        const LAM = scratch, X3 = i32.add(scratch, i32.const(EB)), T = i32.add(scratch, i32.const(2 * EB));
        fb.call(`${f}_mul`, LAM, inv, q);
        fb.call(`${f}_mul`, inv, inv, d);
        fb.call(`${f}_sqr`, X3, LAM);
        fb.call(`${f}_sub`, X3, X3, a);
        fb.call(`${f}_sub`, X3, X3, b);
        fb.call(`${f}_sub`, T, a, X3);
        fb.call(`${f}_mul`, T, T, LAM);
        fb.call(`${f}_sub`, i32.add(dst, i32.const(EB)), T, i32.add(a, i32.const(EB)));
        fb.call(`${f}_copy`, dst, X3);
      }, { export: false });
      this.mb.func(`${f}_chord_prefix`, { Q: 'i32', P: 'i32', D: 'i32' }, undefined, [
        `${f}_chord_prefix(Q, P, D): Q ← Q·P, then P ← P·D, by ${f}_mul.`,
      ], (fb) => {
        const [Q, P, D] = (['Q', 'P', 'D'] as const).map((name) => fb.param(name, 'i32').get);
        fb.call(`${f}_mul`, Q, Q, P);
        fb.call(`${f}_mul`, P, P, D);
      }, { export: false });
      return;
    }
    if (!(field instanceof FieldGen)) throw new Error('MsmGen: the lazy chord kernels need a FieldGen');
    const limb = (ptr: I32, j: number, offset = 0) => i64.load32_u(ptr, offset + 4 * j);
    // limb j of b's element at ptr: normalized limbs, or (_packed) cut from the PK-byte packed words
    const packedAt = (ptr: I32, j: number) => packedLimb(L, this.PK / 8, (k) => i64.load(ptr, 8 * k), j);
    // P ← P·D, then Q ← N·P (the old P: read once, kept in locals), D read from memory and N taken
    // only where its product needs it: values held across a product cost V8 spills (docs/msm.md)
    const prefixProducts = (fb: FuncBuilder, Q: I32, P: I32, D: I32, numerator: () => Local<'i64'>[]) => {
      const ps = field.load(fb, P, 'pv');
      const pd = field.productOfLocals(fb, ps, field.load(fb, D, 'dv'), 'kp', 'pd');
      field.store(fb, P, pd.map((v) => v.get));
      const q = field.productOfLocals(fb, numerator(), ps, 'kq', 'qp');
      field.store(fb, Q, q.map((v) => v.get));
    };
    this.mb.func(`${f}_chord_prefix`, { Q: 'i32', P: 'i32', D: 'i32' }, undefined, [
      `${f}_chord_prefix(Q, P, D): P ← P·D, then Q ← Q·P with P's old value (Montgomery products; P, D < 2p or ≤ 4p as ${f}_mul takes them),`,
      'P read once. Cost: 2M.',
    ], (fb) => {
      const Q = fb.param('Q', 'i32').get;
      prefixProducts(fb, Q, fb.param('P', 'i32').get, fb.param('D', 'i32').get, () => field.load(fb, Q, 'qv'));
    }, { export: false });
    for (const [form, bLimb] of [['', limb], ['_packed', packedAt]] as const) {
      this.mb.func(`${f}_chord_forward${form}`, { Q: 'i32', P: 'i32', D: 'i32', a: 'i32', b: 'i32', yb: 'i32', neg: 'i32' }, 'i32', [
        `${f}_chord_forward${form}(Q, P, D, a, b, yb, neg) → zero candidate: D = x_b − x_a + 2p ∈ (0, 4p) and N = ±y_b − y_a,`,
        `as y_b − y_a + 2p or (neg) 4p − y_b − y_a ∈ (0, 4p] (${f}_sub_lazy, ${f}_neg_sum_lazy), for affine a (y at a + EB),`,
        `x_b at b, y_b at yb (${form ? `packed by ${f}_pack` : 'normalized limbs'}), all in [0, 2p); D is stored. When D's top limb is that of 0, p, 2p`,
        `or 3p it stores Q ← N and returns 1 (test D with ${f}_is_zero_lazy, then ${f}_chord_prefix); else Q ← N·P, P ← P·D`,
        '(the prefix products of Montgomery\'s trick) and returns 0. Cost: 2M, two borrow chains, four compares; the chains',
        'run beside the products instead of in a pass of their own.',
      ], (fb) => {
        const a = fb.param('a', 'i32').get, b = fb.param('b', 'i32').get, yb = fb.param('yb', 'i32').get, neg = fb.param('neg', 'i32').get;
        const Q = fb.param('Q', 'i32').get;
        const Dp = fb.param('D', 'i32').get, P = fb.param('P', 'i32').get;
        const D = this.lazyDifference(fb, (j) => bLimb(b, j), (j) => limb(a, j), false, 'd');
        field.store(fb, Dp, D.map((v) => v.get));
        const numerator = (prefix: string) => this.lazyDifference(fb, (j) => bLimb(yb, j), (j) => limb(a, j, EB), neg, prefix);
        fb.if(this.zeroCandidate(D[D.length - 1].get), () => {
          field.store(fb, Q, numerator('yc').map((v) => v.get));
          fb.ret(i32.const(1));
        });
        // D's locals end at its store; P·D reads it back
        prefixProducts(fb, Q, P, Dp, () => numerator('y'));
        fb.ret(i32.const(0));
      }, { export: false });
      this.mb.func(`${f}_chord_tail${form}`, { dst: 'i32', a: 'i32', b: 'i32', inv: 'i32', q: 'i32', d: 'i32', scratch: 'i32' }, undefined, [
        `${f}_chord_tail${form}(dst, a, b, inv, q, d, scratch): λ = inv·q and inv ← inv·d (the backward step of Montgomery's trick,`,
        `inv read once), x3 = λ² − x_a − x_b, y3 = λ(x_a − x3) − y_a; dst ← (x3, y3). Affine a (y at a + EB), x_b at b`,
        `(${form ? `packed by ${f}_pack` : 'normalized limbs'}); inv, x_a, x_b, y_a in [0, 2p), q, d ≤ 4p; dst may equal a. The limbs stay in locals from λ`,
        'to y3; scratch unused (the composed form\'s). Cost: 3M + 1S, one lazy difference, two corrected ones.',
      ], (fb) => {
        const dst = fb.param('dst', 'i32').get, a = fb.param('a', 'i32').get, b = fb.param('b', 'i32').get;
        // the inverse's update first, I read once (as P in fp_chord_forward)
        const inv = fb.param('inv', 'i32').get;
        const is = field.load(fb, inv, 'iv');
        const id = field.productOfLocals(fb, is, field.load(fb, fb.param('d', 'i32').get, 'dv'), 'ki', 'id');
        field.store(fb, inv, id.map((v) => v.get));
        const lam = field.productOfLocals(fb, is, field.load(fb, fb.param('q', 'i32').get, 'qv'), 'k', 'lam');
        const lam2 = field.squareOfLocals(fb, lam, 'sk', 'sq');
        const x3 = field.subCorrected(fb, (j) => lam2[j].get, [(j) => limb(a, j), (j) => bLimb(b, j)]);
        const dx = this.lazyDifference(fb, (j) => limb(a, j), (j) => x3[j].get, false, 'dx');
        field.store(fb, dst, x3.map((v) => v.get));
        const t = field.productOfLocals(fb, dx, lam, 'ky', 'ty');
        const y3 = field.subCorrected(fb, (j) => t[j].get, [(j) => limb(a, j, EB)]);
        field.store(fb, i32.add(dst, i32.const(EB)), y3.map((v) => v.get));
      }, { export: false });
    }
  }

  private emitBatchAdd(): void {
    const { EB, PK, lazy } = this;
    const f = this.fp.f;
    this.mb.func(this.kernel('batch_add'), { pairs: 'i32', count: 'i32', scratch: 'i32' }, undefined, [
      `${this.kernel('batch_add')}(pairs, count, scratch): for each ${PAIR_BYTES}-byte entry {dst, a, b, info}: dst ← a + (±b) in affine,`,
      'b negated when its bit 0 is set; b\'s y is at x + EB, or at x + 2·EB when its bit 1 is set (a shared-y triple, see',
      'msm_expand_triples); with info bit 29 (INFO_PACKED) b\'s x and y are packed elements (fp_pack), y one or two PK on, bit 2 a tag.',
      'a, b must be finite points; a = b doubles (b\'s tagged pointer = a: no coordinate compare); a = −b sets info bit 31 (dst untouched).',
      `dst may equal a; no dst may be another entry's a or b. scratch: ${this.batchScratch.doc()}: numerators and`,
      'denominators (count elements each), 8 temporaries, count kind bytes. λ_k = N_k/D_k for all k with one inversion',
      '(Montgomery\'s trick with the numerators folded in): forward, each pair\'s N_k and D_k, then P_k = P_(k−1)·D_k and',
      `Q_k = N_k·P_(k−1) from P_(−1) = 1 (${f}_chord_forward); I = 1/P_last; backward λ_k = I·Q_k, I ← I·D_k (${f}_chord_tail).`,
      'Per pair 5M + 1S (chord) or 5M + 2S (tangent): forward 2M, backward λ and I, then λ², y3; two products more a batch.',
    ], (fb) => {
      const pairs = fb.param('pairs', 'i32');
      const count = fb.param('count', 'i32');
      const scratch = fb.param('scratch', 'i32');
      const k = fb.local('k', 'i32');
      const e = fb.local('e', 'i32');
      const a = fb.local('a', 'i32');
      const b = fb.local('b', 'i32');
      const neg = fb.local('neg', 'i32');
      const yb = fb.local('yb', 'i32');
      const kind = fb.local('kind', 'i32'); // 0 chord, 1 tangent, 2 infinity
      const kinds = fb.local('kinds', 'i32');
      const dArr = fb.local('dArr', 'i32');
      const Dk = fb.local('Dk', 'i32');
      const Qk = fb.local('Qk', 'i32');
      const candidate = fb.local('candidate', 'i32');
      const packed = fb.local('packed', 'i32');
      // scratch: N, then Q [count] | D[count] | 8 temporaries | kinds[count] (bytes)
      const qAt = (idx: I32) => i32.add(scratch.get, i32.mul(idx, i32.const(EB)));
      const tmp = (j: number) => i32.add(scratch.get, i32.add(i32.mul(count.get, i32.const(2 * EB)), i32.const(j * EB)));
      const P = tmp(0), INV = tmp(1), LAM = tmp(2), YB = tmp(5), T2 = tmp(6);
      const call = (name: string, ...args: I32[]) => fb.call(`${f}_${name}`, ...args);
      fb.if(i32.eqz(count.get), () => fb.ret());
      fb.globalSet('stat_pairs', i32.add(fb.globalGet('stat_pairs'), count.get));
      fb.globalSet('stat_batches', i32.add(fb.globalGet('stat_batches'), i32.const(1)));
      dArr.set(i32.add(scratch.get, i32.mul(count.get, i32.const(EB))));
      kinds.set(tmp(8));
      const ya = () => i32.add(a.get, i32.const(EB));
      // pair idx's pointers; b's sign and y only forward (the tail reads x_b alone)
      const at = (idx: I32, forward: boolean) => {
        e.set(i32.add(pairs.get, i32.shl(idx, 4)));
        a.set(i32.load(e.get, 4));
        b.set(i32.load(e.get, 8));
        if (forward) neg.set(i32.and(b.get, i32.const(1)));
        if (PK) {
          // a packed b (info bit): x at b without its three tag bits, y one or (bit 1) two packed elements on
          packed.set(i32.ne(i32.and(i32.load(e.get, 12), i32.const(INFO_PACKED)), i32.const(0)));
          if (forward) {
            yb.set(i32.select(
              i32.add(i32.and(b.get, i32.const(~7)), i32.mul(i32.const(PK), i32.add(i32.const(1), i32.shr_u(i32.and(b.get, i32.const(2)), i32.const(1))))),
              yPointer(b.get, EB), packed.get));
          }
          b.set(i32.and(b.get, i32.select(i32.const(~7), i32.const(~3), packed.get)));
        } else {
          if (forward) yb.set(yPointer(b.get, EB));
          b.set(i32.and(b.get, i32.const(~3)));
        }
        Dk.set(i32.add(dArr.get, i32.mul(idx, i32.const(EB))));
        Qk.set(qAt(idx));
      };
      /** A chord kernel of the plain or (b packed, lazy kernels) the _packed form; 64-bit limbs are packed already. */
      const chordCall = (name: 'chord_forward' | 'chord_tail', result: Local<'i32'> | undefined, ...args: I32[]) => {
        const run = (form: string) => (result ? result.set(fb.callExpr('i32', `${f}_${name}${form}`, ...args)) : call(`${name}${form}`, ...args));
        if (PK && lazy) fb.if(packed.get, () => run('_packed'), () => run(''));
        else run('');
      };
      // a tangent: N = 3x², D = 2y
      const tangent = () => {
        kind.set(i32.const(1));
        call('sqr', Qk.get, a.get);
        call('double', T2, Qk.get);
        call('add', Qk.get, Qk.get, T2);
        call('double', Dk.get, ya());
      };
      // forward: N_k and D_k (x_b − x_a, or 2·y_a for a tangent, 1 for a = −b), then P_k = P_(k−1)·D_k and
      // Q_k = N_k·P_(k−1) from P_(−1) = 1 (one product more a batch than P_0 = D_0, but every P_k is a product,
      // so the inversion's input is < 2p whatever range the differences have)
      call('set_one', P);
      fb.forRange(k, i32.const(0), count.get, 1, () => {
        at(k.get, true);
        // b tagged exactly as a (same address, not negated, not a φ slot): a doubling, known without
        // comparing coordinates (the G1 FFTs' scalar multiplications and the tables' doublings)
        fb.if(i32.eq(i32.load(e.get, 8), a.get), () => {
          tangent();
          call('chord_prefix', Qk.get, P, Dk.get);
        }, () => {
          kind.set(i32.const(0));
          // same x: b = a (tangent) or b = −a (infinity), with b's sign applied
          const sameX = () => {
            if (PK) fb.if(packed.get, () => call('unpack', YB, yb.get), () => call('copy', YB, yb.get));
            else call('copy', YB, yb.get);
            fb.if(neg.get, () => call('neg', YB, YB));
            fb.if(fb.callExpr('i32', `${f}_eq`, YB, ya()), tangent, () => {
              kind.set(i32.const(2));
              call('set_one', Dk.get);
            });
          };
          // the chord kernel takes the differences and, unless D may be 0, the two products
          chordCall('chord_forward', candidate, Qk.get, P, Dk.get, a.get, b.get, yb.get, neg.get);
          fb.if(candidate.get, () => {
            // the lazy kernels flag candidates by the top limb; the exact ones answer is_zero
            if (lazy) fb.if(fb.callExpr('i32', `${f}_is_zero_lazy`, Dk.get), sameX);
            else sameX();
            call('chord_prefix', Qk.get, P, Dk.get);
          });
        });
        fb.i32Store8(i32.add(kinds.get, k.get), 0, kind.get);
      });
      call('inv', INV, P);
      // backward: I = 1/P_k, λ_k = I·Q_k, then I ← I·D_k
      k.set(count.get);
      fb.loop((again) => {
        k.set(i32.sub(k.get, i32.const(1)));
        at(k.get, false);
        kind.set(i32.load8_u(i32.add(kinds.get, k.get)));
        fb.if(i32.eq(kind.get, i32.const(2)), () => {
          fb.i32Store(e.get, 12, i32.or(i32.load(e.get, 12), i32.const(INFO_INFINITY)));
        }, () => {
          // x3 = λ² − x_a − x_b;  y3 = λ(x_a − x3) − y_a (scratch: LAM and the two temporaries after it)
          // (k = 0 updates I once more than needed: one product a batch)
          chordCall('chord_tail', undefined, i32.load(e.get, 0), a.get, b.get, INV, Qk.get, Dk.get, LAM);
        });
        fb.brIf(again, i32.ne(k.get, i32.const(0)));
      });
    }, { scratch: this.batchScratch });
  }

  /**
   * batch_touch(pairs, count, sink): loads one word per cache line of every pair's a operand (a
   * bucket or temporary: random addresses) and stores their XOR at `sink`, so none is dead code.
   * Wasm has no prefetch instruction; this loop's body is a few instructions, so the core keeps many
   * of its cache misses in flight at once, where batch_add's forward pass (a product per pair, longer
   * than the reorder window) would wait for each alone. The batch's working set then stays in L2 for
   * batch_add. msm_accumulate calls it before every batch (docs/performance.md, "The touch pass": at 2^18,
   * c = 16, the accumulation went from 1.32× to 1.07× its in-cache kernel time; with buckets that fit
   * L2, c = 13 for a 4096-point table, it cost nothing measurable: 33.8 ms with it, 33.6–34.6 without).
   */
  private emitBatchTouch(): void {
    const { EB } = this;
    this.mb.func(this.kernel('batch_touch'), { pairs: 'i32', count: 'i32', sink: 'i32' }, undefined, [
      `${this.kernel('batch_touch')}(pairs, count, sink): reads one word per cache line of each pair's a (${2 * EB} bytes) to bring`,
      `the batch's buckets into cache with their misses overlapped; writes 4 bytes at sink. Cost: ${Math.ceil((2 * EB - 4) / 64) + 1} loads per pair.`,
    ], (fb) => {
      const pairs = fb.param('pairs', 'i32'), count = fb.param('count', 'i32'), out = fb.param('sink', 'i32');
      const k = fb.local('k', 'i32');
      const a = fb.local('a', 'i32');
      const sink = fb.local('xor', 'i32');
      fb.forRange(k, i32.const(0), count.get, 1, () => {
        a.set(i32.load(i32.add(pairs.get, i32.shl(k.get, 4)), 4));
        for (let off = 0; off < 2 * EB - 4; off += 64) sink.set(i32.xor(sink.get, i32.load(a.get, off)));
        sink.set(i32.xor(sink.get, i32.load(a.get, 2 * EB - 4)));
      });
      fb.i32Store(out.get, 0, sink.get);
    });
  }

  // ------------------------------------------------------------------ bucket accumulation
  /**
   * msm_accumulate(st): st points at the state block whose i32 fields are listed in
   * ACC_STATE_FIELDS (src/abi/layout.ts): inputs (points, halves, count, shift, c, and the carry rule
   * carryMask/carryThreshold, see carryInRule there), bucket
   * storage (buckets: L × PB, bstate: L bytes, pending: L × i32), the batch (pairs: batch entries,
   * scratch: batchAddScratchBytes(batch)), deferred items (deferredCap × 8 bytes), temporaries
   * (temps: tempCap × PB, freeTemps: tempCap × i32) and pendingList (L + batch + 1 entries).
   * Returns the number of batch flushes (statistics).
   */
  private emitAccumulate(): void {
    const { PB } = this;
    const f = this.fp.f;
    this.mb.func(this.kernel('msm_accumulate'), { st: 'i32' }, 'i32', [
      `${this.kernel('msm_accumulate')}(st) → flushes: accumulates one window into buckets. st: the state block of i32 fields`,
      '(ACC_STATE_FIELDS in src/abi/layout.ts, field k at 4·k):',
      ...wrapList(ACC_STATE_FIELDS, 8).map((l) => `  ${l}`),
      `its scratch field: ${this.batchScratch.doc('batch')} (${this.kernel('batch_add')}'s).`,
      'Digit of half i: signed c-bit window at `shift` plus its carry-in, which is',
      '[(half & carryMask) > carryThreshold] (128-bit compare; windows are independent, so threads can split them),',
      'digit ∈ (−2^(c−1), 2^(c−1)]; bucket |digit| − 1 receives ±point i (negated once more when the half\'s sign bit 127 is set). Items for a busy bucket are paired',
      'with each other into temporaries (a batched tree), so no input shape serializes the additions.',
    ], (fb) => {
      const st = fb.param('st', 'i32');
      // the state block's i32 fields, each loaded into a local of its name, in ACC_STATE_FIELDS order
      const state = {} as Record<AccI32Field, Local<'i32'>>;
      for (const name of ACC_I32_FIELDS) {
        state[name] = fb.local(name, 'i32');
        state[name].set(i32.load(st.get, accOffset(name)));
      }
      // (tempCap: temporary slots, more than the batch: see the runtime)
      const { points, halves, count, shift, c, buckets, bstate, pending, pairs, deferred, temps, freeTemps, scratch, pendingList, tempCap } = state;
      const { batch: cap, deferredCap: dcap, pointLayout: layout } = state;
      // the carry rule's 128-bit values, as low and high i64 (words 0–1 and 2–3)
      const wide = (name: 'carryMask' | 'carryThreshold', word: 0 | 2) => {
        const l = fb.local(`${name}${word === 0 ? 'Lo' : 'Hi'}`, 'i64');
        l.set(i64.load(st.get, accOffset(`${name}${word}`)));
        return l;
      };
      const tripleBytes = fb.local('tripleBytes', 'i32');
      const elemBytes = fb.local('elemBytes', 'i32');
      const packedTag = fb.local('packedTag', 'i32');
      const lowHi = fb.local('lowHi', 'i64');
      const np = fb.local('np', 'i32'); // pairs in the batch
      const nd = fb.local('nd', 'i32'); // deferred items
      const nfree = fb.local('nfree', 'i32');
      const npend = fb.local('npend', 'i32');
      const flushes = fb.local('flushes', 'i32');
      const i = fb.local('i', 'i32');
      const raw = fb.local('raw', 'i64');
      const digit = fb.local('digit', 'i32');
      const half = fb.local('half', 'i32');
      const mask = fb.local('mask', 'i64');
      const halfL = fb.local('halfL', 'i32');
      const item = fb.local('item', 'i32'); // pointer | neg bit
      const bk = fb.local('bk', 'i32');
      const isTemp = fb.local('isTemp', 'i32');
      const s = fb.local('s', 'i32');
      const j = fb.local('j', 'i32');
      const e = fb.local('e', 'i32');
      const t = fb.local('t', 'i32');
      const other = fb.local('other', 'i32');

      // triples: [β·x, x, y] of EB-byte elements, or of PK-byte packed ones (tag bit 2 on their pointers)
      const packed = i32.eq(layout.get, i32.const(POINT_LAYOUT_PACKED));
      elemBytes.set(i32.select(i32.const(this.PK || this.EB), i32.const(this.EB), packed));
      tripleBytes.set(i32.mul(elemBytes.get, i32.const(3)));
      packedTag.set(i32.select(i32.const(4), i32.const(0), packed));
      const [maskLo, maskHi, thrLo, thrHi] = [wide('carryMask', 0), wide('carryMask', 2), wide('carryThreshold', 0), wide('carryThreshold', 2)];
      np.set(i32.const(0)); nd.set(i32.const(0)); npend.set(i32.const(0)); flushes.set(i32.const(0));
      // free-temp stack holds every temp slot
      nfree.set(tempCap.get);
      fb.forRange(j, i32.const(0), tempCap.get, 1, () => {
        fb.i32Store(i32.add(freeTemps.get, i32.shl(j.get, 2)), 0, i32.add(temps.get, i32.mul(j.get, i32.const(PB))));
      });
      // a half's magnitude has HALF_MAGNITUDE_BITS bits (bit 127 is its sign, already applied to the
      // point by msm_expand_endo): clip the window mask there
      // (a window starting at or above that bit has no bits: mask 0)
      mask.set(i64.sub(i64.shl(i64.const(1), i64.extend_i32_u(
        i32.select(c.get, i32.sub(i32.const(HALF_MAGNITUDE_BITS), shift.get), i32.le_s(i32.add(shift.get, c.get), i32.const(HALF_MAGNITUDE_BITS))))), i64.const(1)));
      fb.if(i32.ge_s(shift.get, i32.const(HALF_MAGNITUDE_BITS)), () => mask.set(i64.const(0)));
      halfL.set(i32.shl(i32.const(1), i32.sub(c.get, i32.const(1))));

      const bucketPtr = (b: I32) => i32.add(buckets.get, i32.mul(b, i32.const(PB)));
      const stateAt = (b: I32) => i32.add(bstate.get, b);
      const pendAt = (b: I32) => i32.add(pending.get, i32.shl(b, 2));
      const isTempPtr = (p: I32) => i32.and(i32.ge_u(p, temps.get), i32.lt_u(p, i32.add(temps.get, i32.mul(tempCap.get, i32.const(PB)))));
      const freeTemp = (p: I32) => {
        fb.i32Store(i32.add(freeTemps.get, i32.shl(nfree.get, 2)), 0, p);
        nfree.set(i32.add(nfree.get, i32.const(1)));
      };
      const pushPair = (dst: I32, a: I32, bSigned: I32, inf: I32) => {
        e.set(i32.add(pairs.get, i32.shl(np.get, 4)));
        fb.i32Store(e.get, 0, dst);
        fb.i32Store(e.get, 4, a);
        fb.i32Store(e.get, 8, bSigned);
        fb.i32Store(e.get, 12, inf);
        np.set(i32.add(np.get, i32.const(1)));
      };
      const de = fb.local('de', 'i32');
      const pushDeferred = (it: I32, b: I32) => {
        // capacity is sized so this cannot overflow (see the runtime); trap loudly if it ever would
        fb.if(i32.ge_u(nd.get, dcap.get), () => fb.unreachable());
        de.set(i32.add(deferred.get, i32.shl(nd.get, 3)));
        fb.i32Store(de.get, 0, it);
        fb.i32Store(de.get, 4, b);
        nd.set(i32.add(nd.get, i32.const(1)));
      };
      /** Copies ±point into dst (affine); `it` is a tagged pointer (bit 0 negate, bit 1 shared-y triple, bit 2 packed). */
      const copySigned = (dst: I32, it: I32) => {
        const yDst = i32.add(dst, i32.const(this.EB));
        if (this.PK) {
          // tag bit 2 means packed only in the packed layout (packedTag 4): unpacked triples are only 4-aligned
          fb.if(i32.and(it, packedTag.get), () => {
            // packed: y is one or (bit 1) two packed elements after x
            fb.call(`${f}_unpack`, dst, i32.and(it, i32.const(~7)));
            fb.call(`${f}_unpack`, yDst, i32.add(i32.and(it, i32.const(~7)), i32.mul(i32.const(this.PK), i32.add(i32.const(1), i32.shr_u(i32.and(it, i32.const(2)), i32.const(1))))));
            fb.if(i32.and(it, i32.const(1)), () => fb.call(`${f}_neg`, yDst, yDst));
          }, () => copyPlain(dst, it));
        } else copyPlain(dst, it);
      };
      const copyPlain = (dst: I32, it: I32) => {
        fb.call(`${f}_copy`, dst, i32.and(it, i32.const(~3)));
        fb.if(i32.and(it, i32.const(1)),
          () => fb.call(`${f}_neg`, i32.add(dst, i32.const(this.EB)), yPointer(it, this.EB)),
          () => fb.call(`${f}_copy`, i32.add(dst, i32.const(this.EB)), yPointer(it, this.EB)));
      };
      /** A pair's info bits `info` for the b operand `it` (a tagged point, a packed one passed as it is:
       * INFO_PACKED tells batch_add to read it packed). */
      const withOperand = (info: I32, it: I32) => (this.PK ? i32.or(info, i32.mul(i32.ne(i32.and(it, packedTag.get), i32.const(0)), i32.const(INFO_PACKED))) : info);

      // schedule(item, bk): the one place that decides what happens to an item for bucket bk.
      // Needs: np < cap (room for one pair). Called from the scan and from the deferred drain.
      const schedule = () => {
        isTemp.set(isTempPtr(item.get));
        fb.block((scheduled) => {
          fb.loop((retry) => {
            s.set(i32.load8_u(stateAt(bk.get)));
            fb.if(i32.eq(s.get, i32.const(BUCKET_EMPTY)), () => {
              copySigned(bucketPtr(bk.get), item.get);
              fb.i32Store8(stateAt(bk.get), 0, i32.const(BUCKET_FULL));
              fb.if(isTemp.get, () => freeTemp(item.get));
              fb.br(scheduled);
            });
            fb.if(i32.eq(s.get, i32.const(BUCKET_FULL)), () => {
              pushPair(bucketPtr(bk.get), bucketPtr(bk.get), item.get, withOperand(bk.get, item.get));
              fb.i32Store8(stateAt(bk.get), 0, i32.const(BUCKET_BUSY));
              fb.br(scheduled);
            });
            // busy bucket: become its pending item, or add to the pending item (a tree inside the bucket)
            other.set(i32.load(pendAt(bk.get)));
            fb.if(i32.eqz(other.get), () => {
              fb.i32Store(pendAt(bk.get), 0, item.get);
              fb.i32Store(i32.add(pendingList.get, i32.shl(npend.get, 2)), 0, bk.get);
              npend.set(i32.add(npend.get, i32.const(1)));
              fb.br(scheduled);
            });
            // a temporary (always stored positive) is its own destination; else take a free slot
            fb.if(isTemp.get, () => {
              pushPair(item.get, item.get, other.get, withOperand(i32.or(bk.get, i32.const(INFO_TEMP)), other.get));
            }, () => {
              fb.if(isTempPtr(other.get), () => {
                pushPair(other.get, other.get, item.get, withOperand(i32.or(bk.get, i32.const(INFO_TEMP)), item.get));
              }, () => {
                // no free slot: run the batch; afterwards no bucket is busy, so the retry needs none
                fb.if(i32.eqz(nfree.get), () => {
                  flush();
                  fb.br(retry);
                });
                nfree.set(i32.sub(nfree.get, i32.const(1)));
                t.set(i32.load(i32.add(freeTemps.get, i32.shl(nfree.get, 2))));
                copySigned(t.get, other.get);
                pushPair(t.get, t.get, item.get, withOperand(i32.or(bk.get, i32.const(INFO_TEMP)), item.get));
              });
            });
            fb.i32Store(pendAt(bk.get), 0, i32.const(0));
          });
        });
      };
      // the batch: add, then settle each pair's bucket and re-queue temps and pending items
      const fj = fb.local('fj', 'i32');
      const fe = fb.local('fe', 'i32');
      const finfo = fb.local('finfo', 'i32');
      const fbk = fb.local('fbk', 'i32');
      const fb2 = fb.local('fb2', 'i32');
      const flush = () => {
        fb.call(this.kernel('batch_touch'), pairs.get, np.get, scratch.get);
        fb.call(this.kernel('batch_add'), pairs.get, np.get, scratch.get);
        flushes.set(i32.add(flushes.get, i32.const(1)));
        fb.forRange(fj, i32.const(0), np.get, 1, () => {
          fe.set(i32.add(pairs.get, i32.shl(fj.get, 4)));
          finfo.set(i32.load(fe.get, 12));
          fbk.set(i32.and(finfo.get, i32.const(INFO_DATA_MASK)));
          // the b operand is consumed: a temporary goes back to the pool
          fb2.set(i32.and(i32.load(fe.get, 8), i32.const(~3)));
          fb.if(isTempPtr(fb2.get), () => freeTemp(fb2.get));
          fb.if(i32.and(finfo.get, i32.const(INFO_TEMP)), () => {
            fb.if(i32.and(finfo.get, i32.const(INFO_INFINITY)),
              () => freeTemp(i32.load(fe.get, 0)),
              () => pushDeferred(i32.load(fe.get, 0), fbk.get));
          }, () => {
            fb.i32Store8(stateAt(fbk.get), 0, i32.select(i32.const(BUCKET_EMPTY), i32.const(BUCKET_FULL), i32.and(finfo.get, i32.const(INFO_INFINITY))));
          });
        });
        np.set(i32.const(0));
        // pending items wait for a bucket that is now idle: re-queue them
        fb.forRange(fj, i32.const(0), npend.get, 1, () => {
          fbk.set(i32.load(i32.add(pendingList.get, i32.shl(fj.get, 2))));
          fb2.set(i32.load(pendAt(fbk.get)));
          fb.if(fb2.get, () => {
            pushDeferred(fb2.get, fbk.get);
            fb.i32Store(pendAt(fbk.get), 0, i32.const(0));
          });
        });
        npend.set(i32.const(0));
      };
      /** Drains deferred items into the batch (LIFO), flushing whenever the batch fills. Items that
       * end up pending are re-queued by the flush. Terminates: every flush does ≥ 1 addition. */
      const drain = () => {
        fb.block((done) => {
          fb.loop((again) => {
            fb.brIf(done, i32.eqz(nd.get));
            nd.set(i32.sub(nd.get, i32.const(1)));
            e.set(i32.add(deferred.get, i32.shl(nd.get, 3)));
            item.set(i32.load(e.get, 0));
            bk.set(i32.load(e.get, 4));
            schedule();
            fb.if(i32.ge_u(np.get, cap.get), () => flush());
            fb.br(again);
          });
        });
      };
      const needFlush = () => i32.or(i32.ge_u(np.get, cap.get), i32.ge_u(nd.get, i32.sub(dcap.get, i32.shl(cap.get, 1))));

      // ---- scan all halves
      fb.forRange(i, i32.const(0), count.get, 1, () => {
        half.set(i32.add(halves.get, i32.shl(i.get, 4)));
        // window bits: 64-bit load at the 32-bit limb holding bit `shift` (halves are padded)
        raw.set(i64.and(
          i64.shr_u(i64.load(i32.add(half.get, i32.shl(i32.shr_u(shift.get, 5), 2))), i64.extend_i32_u(i32.and(shift.get, i32.const(31)))),
          mask.get));
        // carry-in: the half's bits below `shift` exceed the threshold (carryInRule in src/abi/layout.ts)
        lowHi.set(i64.and(i64.load(half.get, 8), maskHi.get));
        digit.set(i32.add(i32.wrap_i64(raw.get), i32.or(i64.gt_u(lowHi.get, thrHi.get),
          i32.and(i64.eq(lowHi.get, thrHi.get), i64.gt_u(i64.and(i64.load(half.get), maskLo.get), thrLo.get)))));
        // digits above L wrap to digit − 2L (the carry into the next window); selects, not branches: the
        // digit's sign is a coin flip
        digit.set(i32.sub(digit.get, i32.mul(i32.gt_s(digit.get, halfL.get), i32.shl(halfL.get, 1))));
        fb.if(i32.ne(digit.get, i32.const(0)), () => {
          // item i's point, tagged: POINT_LAYOUT_PAIRS: affine point i (stride PB); TRIPLES / PACKED: triple
          // ⌊i/2⌋ = [β·x, x, y], half 2j is (x, y) at +1 element, half 2j + 1 is (β·x, y) at +0 with tag bit 1
          const odd = i32.and(i.get, i32.const(1));
          const ptPtr = i32.select(
            i32.add(points.get, i32.mul(i.get, i32.const(PB))),
            i32.or(i32.or(i32.add(i32.add(points.get, i32.mul(i32.shr_u(i.get, i32.const(1)), tripleBytes.get)), i32.mul(i32.xor(odd, i32.const(1)), elemBytes.get)), i32.shl(odd, i32.const(1))), packedTag.get),
            i32.eq(layout.get, i32.const(POINT_LAYOUT_PAIRS)));
          // the half's sign (bit 127) negates the point: msm_expand_endo (pairs) may have moved it onto
          // the points and cleared it; shared-y triples and fixed-base tables cannot, so there it stays
          const sign = i32.shr_u(i32.load(half.get, 12), i32.const(31));
          const negative = i32.shr_u(digit.get, i32.const(31));
          item.set(i32.or(ptPtr, i32.xor(sign, negative)));
          bk.set(i32.sub(i32.select(i32.sub(i32.const(0), digit.get), digit.get, negative), i32.const(1)));
          schedule();
          fb.if(needFlush(), () => {
            flush();
            drain();
          });
        });
      });
      // ---- finish: flush until nothing is pending or deferred
      fb.block((done) => {
        fb.loop((again) => {
          fb.if(i32.ne(np.get, i32.const(0)), () => flush());
          drain();
          fb.brIf(again, i32.or(i32.ne(np.get, i32.const(0)), i32.ne(npend.get, i32.const(0))));
          fb.br(done);
        });
      });
      fb.ret(flushes.get);
    });
  }

  // ------------------------------------------------------------------ bucket reduction
  /**
   * msm_reduce_segments(buckets, bstate, L, S, R, P, flags, pairs, scratch): with m = L/S, for every
   * segment j: R_j = Σ_{t<m} B_{jm+t}, P_j = Σ_t (t+1)·B_{jm+t}, by the running-sum method
   * (R += B_l; P += R for l from the top), each step batched over all S segments (2 batches of ≤ S
   * additions per step, one inversion each). flags[j] bit 0: R_j finite, bit 1: P_j finite.
   * The window sum is then Σ_j P_j + m·Σ_j j·R_j (combined in XYZZ by the runtime).
   */
  private emitReduceSegments(): void {
    const { PB } = this;
    const f = this.fp.f;
    this.mb.func(this.kernel('msm_reduce_segments'), {
      buckets: 'i32', bstate: 'i32', L: 'i32', S: 'i32', R: 'i32', P: 'i32', flags: 'i32', pairs: 'i32', scratch: 'i32',
    }, undefined, [
      `${this.kernel('msm_reduce_segments')}(buckets, bstate, L, S, R, P, flags, pairs, scratch): per segment j of m = L/S buckets,`,
      'R_j = Σ B and P_j = Σ (t+1)·B_{jm+t} by running sums, batched across segments (batch-affine).',
      `pairs: S entries of ${PAIR_BYTES} bytes; scratch: ${this.batchScratch.doc('S')} (${this.kernel('batch_add')}'s for S pairs).`,
      'Cost ≈ 2L batch additions + 2m inversions.',
    ], (fb) => {
      const p = (n: string) => fb.param(n, 'i32');
      const buckets = p('buckets'), bstate = p('bstate'), L = p('L'), S = p('S'), R = p('R'), P = p('P'), flags = p('flags'), pairs = p('pairs'), scratch = p('scratch');
      const m = fb.local('m', 'i32');
      const t = fb.local('t', 'i32');
      const j = fb.local('j', 'i32');
      const l = fb.local('l', 'i32');
      const np = fb.local('np', 'i32');
      const e = fb.local('e', 'i32');
      const fl = fb.local('fl', 'i32');
      const info = fb.local('info', 'i32');
      const Rj = (idx: I32) => i32.add(R.get, i32.mul(idx, i32.const(PB)));
      const Pj = (idx: I32) => i32.add(P.get, i32.mul(idx, i32.const(PB)));
      const flagAt = (idx: I32) => i32.add(flags.get, idx);
      const copyPoint = (dst: I32, src: I32) => {
        fb.call(`${f}_copy`, dst, src);
        fb.call(`${f}_copy`, i32.add(dst, i32.const(this.EB)), i32.add(src, i32.const(this.EB)));
      };
      const push = (dst: I32, b: I32, idx: I32) => {
        e.set(i32.add(pairs.get, i32.shl(np.get, 4)));
        fb.i32Store(e.get, 0, dst);
        fb.i32Store(e.get, 4, dst);
        fb.i32Store(e.get, 8, b);
        fb.i32Store(e.get, 12, idx);
        np.set(i32.add(np.get, i32.const(1)));
      };
      /** Runs the batch; clears `bit` in flags[idx] of every pair whose sum is infinity. */
      const flush = (bit: number) => {
        fb.if(np.get, () => {
          fb.call(this.kernel('batch_add'), pairs.get, np.get, scratch.get);
          fb.forRange(j, i32.const(0), np.get, 1, () => {
            e.set(i32.add(pairs.get, i32.shl(j.get, 4)));
            info.set(i32.load(e.get, 12));
            fb.if(i32.and(info.get, i32.const(INFO_INFINITY)), () => {
              const idx = i32.and(info.get, i32.const(INFO_DATA_MASK));
              fb.i32Store8(flagAt(idx), 0, i32.and(i32.load8_u(flagAt(idx)), i32.const(~bit & 0xff)));
            });
          });
        });
        np.set(i32.const(0));
      };
      m.set(i32.div_u(L.get, S.get));
      fb.forRange(j, i32.const(0), S.get, 1, () => fb.i32Store8(flagAt(j.get), 0, i32.const(0)));
      t.set(m.get);
      fb.block((done) => {
        fb.loop((again) => {
          fb.brIf(done, i32.eqz(t.get));
          t.set(i32.sub(t.get, i32.const(1)));
          // R_j += B_{jm+t}
          np.set(i32.const(0));
          fb.forRange(j, i32.const(0), S.get, 1, () => {
            l.set(i32.add(i32.mul(j.get, m.get), t.get));
            fb.if(i32.ne(i32.load8_u(i32.add(bstate.get, l.get)), i32.const(BUCKET_EMPTY)), () => {
              fl.set(i32.load8_u(flagAt(j.get)));
              fb.if(i32.and(fl.get, i32.const(1)),
                () => push(Rj(j.get), i32.add(buckets.get, i32.mul(l.get, i32.const(PB))), j.get),
                () => {
                  copyPoint(Rj(j.get), i32.add(buckets.get, i32.mul(l.get, i32.const(PB))));
                  fb.i32Store8(flagAt(j.get), 0, i32.or(fl.get, i32.const(1)));
                });
            });
          });
          flush(1);
          // P_j += R_j
          fb.forRange(j, i32.const(0), S.get, 1, () => {
            fl.set(i32.load8_u(flagAt(j.get)));
            fb.if(i32.and(fl.get, i32.const(1)), () => {
              fb.if(i32.and(fl.get, i32.const(2)),
                () => push(Pj(j.get), Rj(j.get), j.get),
                () => {
                  copyPoint(Pj(j.get), Rj(j.get));
                  fb.i32Store8(flagAt(j.get), 0, i32.or(fl.get, i32.const(2)));
                });
            });
          });
          flush(2);
          fb.br(again);
        });
      });
    }, { scratch: this.batchScratch });
  }

  // ------------------------------------------------------------------ preparation
  /**
   * msm_compact(points, inf, halves, count) → kept: drops inputs that are infinity or whose scalar
   * halves are both zero, keeping order; points stride PB, halves stride 32 (k1 ‖ k2).
   * msm_expand_endo(points, halves, count): in place, from count compacted (P_i, k1‖k2) to 2·count
   * interleaved (P_i, k1), (endo P_i, k2) with halves re-laid to 16-byte stride (both arrays must
   * have room for 2·count entries). Runs backwards so nothing is overwritten before it is read.
   * Fixed-base tables use it; the MSM itself lays points out with msm_expand_triples (shared y).
   */
  private emitPrepare(): void {
    const { PB, EB } = this;
    const f = this.fp.f;
    this.mb.func(this.kernel('msm_compact'), { points: 'i32', inf: 'i32', halves: 'i32', count: 'i32' }, 'i32', [
      `${this.kernel('msm_compact')}(points, inf, halves, count) → kept count (order preserved, in place).`,
    ], (fb) => {
      const points = fb.param('points', 'i32'), inf = fb.param('inf', 'i32'), halves = fb.param('halves', 'i32'), count = fb.param('count', 'i32');
      const i = fb.local('i', 'i32');
      const kept = fb.local('kept', 'i32');
      const h = fb.local('h', 'i32');
      const w = fb.local('w', 'i32');
      kept.set(i32.const(0));
      fb.forRange(i, i32.const(0), count.get, 1, () => {
        h.set(i32.add(halves.get, i32.shl(i.get, 5)));
        const nz = [0, 8, 16, 24].map((o) => i64.load(h.get, o)).reduce((a, b) => i64.or(a, b));
        fb.if(i32.and(i32.eqz(i32.load8_u(i32.add(inf.get, i.get))), i64.ne(nz, i64.const(0))), () => {
          fb.if(i32.ne(kept.get, i.get), () => {
            w.set(i32.add(halves.get, i32.shl(kept.get, 5)));
            for (const o of [0, 8, 16, 24]) fb.i64Store(w.get, o, i64.load(h.get, o));
            const src = i32.add(points.get, i32.mul(i.get, i32.const(PB)));
            const dst = i32.add(points.get, i32.mul(kept.get, i32.const(PB)));
            fb.call(`${f}_copy`, dst, src);
            fb.call(`${f}_copy`, i32.add(dst, i32.const(EB)), i32.add(src, i32.const(EB)));
          });
          kept.set(i32.add(kept.get, i32.const(1)));
        });
      });
      fb.ret(kept.get);
    });
    const [beta] = [this.params.beta];
    const betaL = this.fp.montLimbs(beta);
    this.mb.func(this.kernel('msm_expand_endo'), { points: 'i32', halves: 'i32', count: 'i32' }, undefined, [
      `${this.kernel('msm_expand_endo')}(points, halves, count): see emitPrepare; applies the halves\' sign bits to the points. Cost: 1 mul per point (β·x).`,
    ], (fb) => {
      const points = fb.param('points', 'i32'), halves = fb.param('halves', 'i32'), count = fb.param('count', 'i32');
      const i = fb.local('i', 'i32');
      const src = fb.local('src', 'i32');
      const d0 = fb.local('d0', 'i32');
      const betaPtr = fb.local('betaPtr', 'i32');
      // β lives in the slot after the last expanded point (the caller reserves 2·count + 1 slots)
      betaPtr.set(i32.add(points.get, i32.mul(i32.shl(count.get, 1), i32.const(PB))));
      this.fp.storeConst(fb, betaPtr.get, betaL);
      fb.forRangeDown(i, count.get, () => {
        // halves: (k1 ‖ k2) at 32·i → k1 at 16·(2i), k2 at 16·(2i+1): the same bytes, so nothing to move
        src.set(i32.add(points.get, i32.mul(i.get, i32.const(PB))));
        d0.set(i32.add(points.get, i32.mul(i32.shl(i.get, 1), i32.const(PB))));
        // endo point first (slot 2i+1), then move P_i to slot 2i (2i ≥ i: copy from the end is safe)
        fb.call(`${f}_mul`, i32.add(d0.get, i32.const(PB)), src.get, betaPtr.get);
        fb.call(`${f}_copy`, i32.add(d0.get, i32.const(PB + EB)), i32.add(src.get, i32.const(EB)));
        fb.if(i32.ne(d0.get, src.get), () => {
          fb.call(`${f}_copy`, d0.get, src.get);
          fb.call(`${f}_copy`, i32.add(d0.get, i32.const(EB)), i32.add(src.get, i32.const(EB)));
        });
        // signs of k1 and k2 (bit 127 of each half) move onto the points: −k·P = k·(−P)
        for (const [half, slot] of [[12, 0], [28, PB]] as const) {
          const word = i32.add(i32.add(halves.get, i32.shl(i.get, 5)), i32.const(half));
          fb.if(i32.lt_s(i32.load(word), i32.const(0)), () => {
            fb.i32Store(word, 0, i32.and(i32.load(word), i32.const(0x7fffffff)));
            const y = i32.add(d0.get, i32.const(slot + EB));
            fb.call(`${f}_neg`, y, y);
          });
        }
      });
    });
    this.emitExpandTriples('msm_expand_triples', EB, [
      `${this.kernel('msm_expand_triples')}(points, count): in place, from count affine points (x, y) at stride 2·EB to count`,
      'shared-y triples [β·x, x, y] at stride 3·EB (POINT_LAYOUT_TRIPLES in src/abi/layout.ts: φ(P) = (β·x, y) without a',
      'second y). The halves keep their sign bits (msm_accumulate applies them). points must have room for',
      '3·count + 1 elements (β is kept in the last). Runs backwards: triple i starts at or after point i, and',
      'y moves before x, so nothing is overwritten before it is read. Cost: 1 mul per point.',
    ], (fb, src, dst, beta) => {
      fb.call(`${f}_copy`, i32.add(dst, i32.const(2 * EB)), i32.add(src, i32.const(EB)));
      fb.call(`${f}_copy`, i32.add(dst, i32.const(EB)), src);
      fb.call(`${f}_mul`, dst, i32.add(dst, i32.const(EB)), beta);
    });
    if (!this.PK) return;
    const { PK } = this;
    this.emitExpandTriples('msm_expand_packed', PK, [
      `${this.kernel('msm_expand_packed')}(points, count): as msm_expand_triples, with each element of the triple packed (${f}_pack:`,
      `${PK} bytes instead of ${EB}): stride ${3 * PK} (POINT_LAYOUT_PACKED). points must have room for ${3 * PK}·count bytes + 4`,
      'elements (β and 3 scratch elements after the triples; x and y are copied there first, since triple i',
      'overlaps point i for small i). Runs backwards (triple i starts at or after point i). Cost: 1 mul per point.',
    ], (fb, src, dst, beta) => {
      const [sx, sy, sbx] = [1, 2, 3].map((k) => i32.add(beta, i32.const(k * EB)));
      fb.call(`${f}_copy`, sx, src);
      fb.call(`${f}_copy`, sy, i32.add(src, i32.const(EB)));
      fb.call(`${f}_mul`, sbx, sx, beta);
      fb.call(`${f}_pack`, dst, sbx);
      fb.call(`${f}_pack`, i32.add(dst, i32.const(PK)), sx);
      fb.call(`${f}_pack`, i32.add(dst, i32.const(2 * PK)), sy);
    });
  }

  /**
   * An in-place expansion from count affine points (stride PB) to count triples of elements of E
   * bytes at stride 3E, backwards; β is stored (unpacked) at points + 3E·count. `move` writes triple
   * i at dst from point i at src.
   */
  private emitExpandTriples(name: 'msm_expand_triples' | 'msm_expand_packed', E: number, doc: string[], move: (fb: FuncBuilder, src: I32, dst: I32, beta: I32) => void): void {
    const betaL = this.fp.montLimbs(this.params.beta);
    this.mb.func(this.kernel(name), { points: 'i32', count: 'i32' }, undefined, doc, (fb) => {
      const points = fb.param('points', 'i32'), count = fb.param('count', 'i32');
      const i = fb.local('i', 'i32');
      const src = fb.local('src', 'i32');
      const dst = fb.local('dst', 'i32');
      const betaPtr = fb.local('betaPtr', 'i32');
      betaPtr.set(i32.add(points.get, i32.mul(count.get, i32.const(3 * E))));
      this.fp.storeConst(fb, betaPtr.get, betaL);
      fb.forRangeDown(i, count.get, () => {
        src.set(i32.add(points.get, i32.mul(i.get, i32.const(this.PB))));
        dst.set(i32.add(points.get, i32.mul(i.get, i32.const(3 * E))));
        move(fb, src.get, dst.get, betaPtr.get);
      });
    });
  }
}
