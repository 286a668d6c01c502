/**
 * msm_straus (G1) / g2_msm_straus: a small MSM in one kernel call, for the few points where a bucket
 * plan's fixed costs (windows, reduction, combination) outweigh its savings (src/msm/program.ts picks
 * it by point count, src/curves/*.tuning.ts).
 *
 * Algorithm: Straus's interleaved method (Straus 1964; with wNAF digits: Hankerson, Menezes, Vanstone,
 * Guide to Elliptic Curve Cryptography, Alg. 3.35 and 3.51) over the 2n GLV halves (k1 with P, k2 with
 * φ(P) = (β·x, y)), each half recoded as a width-w NAF (nonzero digits odd, |d| < 2^(w−1), at least
 * w − 1 zeros between them: density 1/(w + 1)); one accumulator in XYZZ shared by all halves, so the ≈ 128 doublings are
 * paid once per MSM; per point a table of the odd multiples P, 3P, …, (2^(w−1) − 1)P, built in XYZZ
 * and brought to affine by one batched inversion for all tables, with φ's table as β·x beside it (φ
 * commutes with multiplication), so every digit costs one mixed addition. Every exceptional case is
 * left to the XYZZ kernels (a table entry at infinity, possible only outside the prime-order subgroup,
 * is flagged and skipped), so the result is exactly Σ k1·P + k2·φ(P), the same point the bucket
 * method computes, for any points on the curve.
 */
import { STRAUS_DIGIT_BYTES, STRAUS_FIXED_ELEMENTS, STRAUS_TABLE, STRAUS_WNAF_WIDTH, strausScratchBytes } from '../abi/layout.js';
import { XYZZ_SCRATCH } from './curve-xyzz.js';
import { countedScratch } from './scratch.js';
import { i32, i64, type I32 } from './wat.js';
import type { MsmGen } from './msm.js';

export function emitStraus(gen: MsmGen): void {
  const { mb, EB, PB } = gen;
  const f = gen.fp.f;
  const g = gen.group;
  const XB = 4 * EB;
  const W = STRAUS_WNAF_WIDTH;
  const E = STRAUS_TABLE;
  const DS = STRAUS_DIGIT_BYTES;
  const opsElements = Math.max(XYZZ_SCRATCH.add, XYZZ_SCRATCH.addAffine, XYZZ_SCRATCH.double, XYZZ_SCRATCH.doubleAffine);
  // fixed: D (2P, XYZZ) 4 | NEG (affine) 2 | INV, T, T2, BETA 1 each | the XYZZ kernels' scratch
  const fixedUsed = 4 + 2 + 4 + opsElements;
  if (fixedUsed > STRAUS_FIXED_ELEMENTS) throw new Error(`msm_straus: ${fixedUsed} fixed scratch elements exceed STRAUS_FIXED_ELEMENTS`);
  const scratchRule = countedScratch(strausScratchBytes, EB, (count) => STRAUS_FIXED_ELEMENTS * EB + count * (E * (9 * EB + 1) + 2 * DS));
  const name = gen.kernel('msm_straus');
  const betaL = gen.fp.montLimbs(gen.params.beta);
  mb.func(name, { out: 'i32', points: 'i32', halves: 'i32', count: 'i32', scratch: 'i32' }, undefined, [
    `${name}(out, points, halves, count, scratch): out = Σ_i k1_i·P_i + k2_i·φ(P_i) in XYZZ (infinity for count = 0), where`,
    `points are count finite affine points (stride ${PB}, [0, 2p) per component, read only) and halves count pairs (k1, k2)`,
    `of 16-byte little-endian magnitudes < 2^127 with the sign in bit 127 (msm_split_scalars' output, read only).`,
    `Straus over the 2·count halves, each a width-${W} NAF, with per point the odd multiples P … ${2 * E - 1}P in affine`,
    `(one inversion for all tables) and φ's as β·x: see src/codegen/msm-straus.ts. scratch: ${scratchRule.doc()};`,
    `no overlap with the other arguments. Cost: ≈ 128 doublings (6M + 3S) once; per point 1 doubling, ${E - 1} XYZZ`,
    `additions (12M + 2S), ${9 * E}M for the affine tables, and ≈ 2·128/${W + 1} mixed additions (8M + 2S); + 1I.`,
  ], (fb) => {
    const out = fb.param('out', 'i32'), points = fb.param('points', 'i32'), halves = fb.param('halves', 'i32');
    const count = fb.param('count', 'i32'), scratch = fb.param('scratch', 'i32');
    const el = (base: I32, k: number) => (k === 0 ? base : i32.add(base, i32.const(k * EB)));
    const call = (op: string, ...args: I32[]) => fb.call(`${f}_${op}`, ...args);
    const isZero = (x: I32) => fb.callExpr('i32', `${f}_is_zero`, x);
    const at = (base: I32, k: I32, stride: number) => i32.add(base, i32.mul(k, i32.const(stride)));
    const s = scratch.get;
    const D = s, NEG = el(s, 4), INV = el(s, 6), T = el(s, 7), T2 = el(s, 8), BETA = el(s, 9), ops = el(s, 10);
    const tabX = fb.local('tabX', 'i32'), tabA = fb.local('tabA', 'i32'), tabB = fb.local('tabB', 'i32');
    const den = fb.local('den', 'i32'), pre = fb.local('pre', 'i32'), flags = fb.local('flags', 'i32'), digits = fb.local('digits', 'i32');
    const N = fb.local('N', 'i32');
    const h = fb.local('h', 'i32'), i = fb.local('i', 'i32'), e = fb.local('e', 'i32'), pos = fb.local('pos', 'i32'), top = fb.local('top', 'i32');
    const dp = fb.local('dp', 'i32'), d = fb.local('d', 'i32'), neg = fb.local('neg', 'i32'), Z = fb.local('Z', 'i32'), A = fb.local('A', 'i32');
    const lo = fb.local('lo', 'i64'), hi = fb.local('hi', 'i64'), dd = fb.local('dd', 'i64'), t = fb.local('t', 'i64');

    fb.call(`${g}_xyzz_set_inf`, out.get);
    fb.if(i32.eqz(count.get), () => fb.ret());
    N.set(i32.mul(count.get, i32.const(E)));
    tabX.set(el(s, STRAUS_FIXED_ELEMENTS));
    tabA.set(at(tabX.get, N.get, XB));
    tabB.set(at(tabA.get, N.get, PB));
    den.set(at(tabB.get, N.get, EB));
    pre.set(at(den.get, N.get, EB));
    flags.set(at(pre.get, N.get, EB));
    digits.set(i32.add(flags.get, N.get));
    gen.fp.storeConst(fb, BETA, betaL);

    fb.comment(`1. width-${W} NAF of every half: digit j of half h is the i8 at digits + ${DS}·h + j, the half's sign applied`);
    top.set(i32.const(0));
    fb.forRange(h, i32.const(0), i32.shl(count.get, 1), 1, () => {
      dp.set(at(digits.get, h.get, DS));
      for (let o = 0; o < DS; o += 8) fb.i64Store(dp.get, o, i64.const(0));
      lo.set(i64.load(at(halves.get, h.get, 16)));
      hi.set(i64.load(at(halves.get, h.get, 16), 8));
      neg.set(i32.wrap_i64(i64.shr_u(hi.get, 63)));
      hi.set(i64.and(hi.get, i64.const(0x7fffffffffffffffn)));
      pos.set(i32.const(0));
      fb.block((done) => {
        fb.loop((again) => {
          fb.brIf(done, i64.eqz(i64.or(lo.get, hi.get)));
          fb.if(i32.wrap_i64(i64.and(lo.get, i64.const(1))), () => {
            // d = m mods 2^w (odd, in (−2^(w−1), 2^(w−1))); m ← m − d, which clears m's low w bits
            d.set(i32.wrap_i64(i64.and(lo.get, i64.const((1 << W) - 1))));
            fb.if(i32.ge_u(d.get, i32.const(1 << (W - 1))), () => d.set(i32.sub(d.get, i32.const(1 << W))));
            dd.set(i64.extend_i32_s(d.get));
            fb.if(i32.gt_s(d.get, i32.const(0)), () => {
              hi.set(i64.sub(hi.get, i64.extend_i32_u(i64.lt_u(lo.get, dd.get))));
              lo.set(i64.sub(lo.get, dd.get));
            }, () => {
              t.set(i64.sub(lo.get, dd.get));
              hi.set(i64.add(hi.get, i64.extend_i32_u(i64.lt_u(t.get, lo.get))));
              lo.set(t.get);
            });
            fb.i32Store8(i32.add(dp.get, pos.get), 0, i32.select(i32.sub(i32.const(0), d.get), d.get, neg.get));
          });
          lo.set(i64.or(i64.shr_u(lo.get, 1), i64.shl(hi.get, 63)));
          hi.set(i64.shr_u(hi.get, 1));
          pos.set(i32.add(pos.get, i32.const(1)));
          fb.br(again);
        });
      });
      fb.if(i32.gt_u(pos.get, top.get), () => top.set(pos.get));
    });

    fb.comment(`2. per point the odd multiples T_k = (2k + 1)·P, k < ${E}, in XYZZ: T_0 = P, D = 2P, T_k = T_(k−1) + D`);
    fb.forRange(i, i32.const(0), count.get, 1, () => {
      A.set(at(points.get, i.get, PB));
      Z.set(at(tabX.get, i.get, E * XB));
      fb.call(`${g}_xyzz_from_affine`, Z.get, A.get);
      fb.call(`${g}_xyzz_double_affine`, D, A.get, ops);
      for (let k = 1; k < E; k++) {
        const prev = i32.add(Z.get, i32.const((k - 1) * XB));
        const cur = i32.add(Z.get, i32.const(k * XB));
        for (let c = 0; c < 4; c++) call('copy', el(cur, c), el(prev, c));
        fb.call(`${g}_xyzz_add`, cur, D, ops);
      }
    });

    fb.comment('3. every entry to affine with one inversion (Montgomery\'s trick on ZZ·ZZZ); entries at infinity flagged');
    fb.forRange(e, i32.const(0), N.get, 1, () => {
      Z.set(at(tabX.get, e.get, XB));
      A.set(at(den.get, e.get, EB));
      fb.if(isZero(el(Z.get, 2)), () => {
        fb.i32Store8(i32.add(flags.get, e.get), 0, i32.const(1));
        call('set_one', A.get);
      }, () => {
        fb.i32Store8(i32.add(flags.get, e.get), 0, i32.const(0));
        call('mul', A.get, el(Z.get, 2), el(Z.get, 3));
      });
      fb.if(i32.eqz(e.get), () => call('copy', pre.get, A.get), () => call('mul', at(pre.get, e.get, EB), at(pre.get, i32.sub(e.get, i32.const(1)), EB), A.get));
    });
    call('inv', INV, at(pre.get, i32.sub(N.get, i32.const(1)), EB));
    fb.forRangeDown(e, N.get, () => {
      Z.set(at(tabX.get, e.get, XB));
      fb.if(i32.eqz(e.get), () => call('copy', T, INV), () => {
        call('mul', T, INV, at(pre.get, i32.sub(e.get, i32.const(1)), EB));
        call('mul', INV, INV, at(den.get, e.get, EB));
      });
      fb.if(i32.eqz(i32.load8_u(i32.add(flags.get, e.get))), () => {
        A.set(at(tabA.get, e.get, PB));
        // T = 1/(ZZ·ZZZ): 1/ZZ = T·ZZZ, 1/ZZZ = T·ZZ
        call('mul', T2, T, el(Z.get, 3));
        call('mul', A.get, Z.get, T2);
        call('mul', T2, T, el(Z.get, 2));
        call('mul', el(A.get, 1), el(Z.get, 1), T2);
        call('mul', at(tabB.get, e.get, EB), A.get, BETA);
      });
    });

    fb.comment('4. Straus: for each digit position from the top, one doubling, then ± the table entry of every nonzero digit');
    pos.set(top.get);
    fb.block((done) => {
      fb.loop((again) => {
        fb.brIf(done, i32.eqz(pos.get));
        pos.set(i32.sub(pos.get, i32.const(1)));
        fb.call(`${g}_xyzz_double`, out.get, ops);
        fb.forRange(h, i32.const(0), i32.shl(count.get, 1), 1, () => {
          d.set(i32.load8_s(i32.add(at(digits.get, h.get, DS), pos.get)));
          fb.if(d.get, () => {
            neg.set(i32.lt_s(d.get, i32.const(0)));
            e.set(i32.add(i32.mul(i32.shr_u(h.get, 1), i32.const(E)), i32.shr_u(i32.select(i32.sub(i32.const(0), d.get), d.get, neg.get), 1)));
            fb.if(i32.eqz(i32.load8_u(i32.add(flags.get, e.get))), () => {
              A.set(at(tabA.get, e.get, PB));
              fb.if(i32.or(neg.get, i32.and(h.get, i32.const(1))), () => {
                // −T, φ(T) or −φ(T) into NEG
                fb.if(i32.and(h.get, i32.const(1)), () => call('copy', NEG, at(tabB.get, e.get, EB)), () => call('copy', NEG, A.get));
                fb.if(neg.get, () => call('neg', el(NEG, 1), el(A.get, 1)), () => call('copy', el(NEG, 1), el(A.get, 1)));
                fb.call(`${g}_xyzz_add_affine`, out.get, NEG, ops);
              }, () => fb.call(`${g}_xyzz_add_affine`, out.get, A.get, ops));
            });
          });
        });
        fb.br(again);
      });
    });
  }, { scratch: scratchRule });
}
