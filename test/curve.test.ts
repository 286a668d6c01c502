/**
 * G1 kernels (src/codegen/curve.ts) on every curve of the registry, each at its shipped Fp tuning
 * (and BLS12-381 at w = 30 Karatsuba), against the bigint reference RefCurve and, for BLS12-381 and
 * BN254, @noble/curves. Points are fed in non-trivial XYZZ representations (random ZZ = s², ZZZ = s³)
 * and coordinates in the redundant range [0, 2p), and every exceptional case of the group law is
 * exercised: infinity on either side, P + P, P + (−P), and the points of order 3 and 2 where 3 or 2
 * divides #E(F_p) = h1·r. Subgroup membership: only h1 > 1 curves have non-G1 points; cofactor-1
 * curves must answer 1. BLS12-381's codecs are checked byte for byte against noble (ZCash formats)
 * and against encodings built here from the arkworks ark-ec SWFlags rules (format 2), including
 * every malformed class; the other curves' formats are in curve-formats.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381 as nobleBls } from '@noble/curves/bls12-381.js';
import { bn254 as nobleBn } from '@noble/curves/bn254.js';
import type { WeierstrassPointCons } from '@noble/curves/abstract/weierstrass.js';
import { CurveGen } from '../src/codegen/curve.js';
import { devCurveInstance } from '../src/testing/dev-instance.js';
import { Cat, category } from './helpers/point-status.js';
import { FieldGen } from '../src/codegen/field.js';
import { ModuleBuilder } from '../src/codegen/wat.js';
import type { CurveParams, MulStrategy } from '../src/curves/types.js';
import { curveNames, curves, registry, type CurveName } from '../src/curves/index.js';
import { RefCurve, type Affine, type AffinePoint } from '../src/reference/curve.js';
import { isqrt } from '../src/reference/arith.js';
import { bigintToBytesLE } from '../src/reference/field.js';
import { makeRng } from '../src/reference/rng.js';
import { pointMemory } from './helpers/point-memory.js';
import { pointsOfOrder, randomCurvePoint } from './helpers/curve-points.js';

/** noble's G1 where it has the curve (an independent oracle). */
const NOBLE: Partial<Record<CurveName, WeierstrassPointCons<bigint>>> = { 'bls12-381': nobleBls.G1.Point, bn254: nobleBn.G1.Point };

/** Each curve at its shipped Fp tuning, and BLS12-381 at w = 30 Karatsuba (if that is not its tuning). */
const configs: { name: CurveName; w: number; mul: MulStrategy }[] = curveNames.map((name) => ({ name, w: registry[name].tuning.fp.w, mul: registry[name].tuning.fp.mul }));
if (!configs.some((c) => c.name === 'bls12-381' && c.w === 30 && c.mul === 'karatsuba')) configs.push({ name: 'bls12-381', w: 30, mul: 'karatsuba' });
// and every curve on 64-bit limbs (src/codegen/field64.ts, wide-arithmetic helpers polyfilled in Node)
for (const name of curveNames) configs.push({ name, w: 64, mul: 'cios-loop' });
const devs = new Map<(typeof configs)[number], Awaited<ReturnType<typeof devCurveInstance>>>();
for (const c of configs) devs.set(c, await devCurveInstance(curves[c.name], { w: c.w, mul: c.mul }, { formats: registry[c.name].formats }));

for (const cfg of configs) {
  const { name } = cfg;
  const params = curves[name];
  const { inst, curve } = devs.get(cfg)!;
  const K = inst.k;
  const ref = new RefCurve(params);
  const Fp = ref.Fp;
  const { p, r, h1, lambda } = params;
  const NP = NOBLE[name];
  const rng = makeRng(Number(p % 1000n) * 1000 + cfg.w * 2 + (cfg.mul === 'karatsuba' ? 1 : 0));
  const F = inst.fields.fp;
  const EB = F.info.elementBytes;
  const mem = () => new Uint8Array(inst.memory.buffer);

  // ---------------------------------------------------------------- memory helpers
  const { writeEl, writeAffine, readAffine, writeXyzz, readXyzz, show } = pointMemory(F, Fp, rng);

  // ---------------------------------------------------------------- points
  const G = ref.G;
  const nobleToAffine = (Q: ReturnType<WeierstrassPointCons<bigint>['fromAffine']>): AffinePoint => {
    const a = Q.toAffine();
    return { x: a.x, y: a.y };
  };
  /** s·G, by noble where it has the curve, else by RefCurve. */
  const g1Mul = (s: bigint): AffinePoint => (NP ? nobleToAffine(NP.BASE.multiply(s)) : (ref.mul(G, s) as AffinePoint));
  /** G1 membership by noble where it has the curve, else by the naive reference r·P = O. */
  const inG1 = (P: AffinePoint) => (NP ? NP.fromAffine(P).isTorsionFree() : ref.isInSubgroup(P));
  /** random G1 point: s·G by noble, else h1·Q for a random curve point Q (cheaper than s·G in RefCurve) */
  const randomG1 = (): AffinePoint => (NP ? g1Mul(rng.nextBelow(r - 1n) + 1n) : (ref.mul(randomCurvePoint(ref, rng), h1) as AffinePoint));
  const g1Points: AffinePoint[] = [G, g1Mul(2n), g1Mul(r - 1n), ...Array.from({ length: 4 }, randomG1)];
  /** random curve points: outside G1 (almost surely) when h1 > 1 */
  const offPoints: AffinePoint[] = Array.from({ length: 6 }, () => randomCurvePoint(ref, rng));
  /** points of order 3 and 2, [P, −P, …], where 3 or 2 divides #E */
  const order3 = pointsOfOrder(ref, 3n, rng);
  const order2 = pointsOfOrder(ref, 2n, rng);
  const small = [...order3, ...order2];

  // scratch and buffers
  const scr = inst.arena.alloc(64 * EB);
  const P1 = inst.arena.alloc(4 * EB);
  const P2 = inst.arena.alloc(4 * EB);
  const A1 = inst.arena.alloc(2 * EB);

  describe(`G1 kernels, ${name} (fp w = ${cfg.w}, ${cfg.mul})`, () => {
    it('small-order points: computed from #E = h1·r, as expected on y² = x³ + b', () => {
      const nE = h1 * r;
      assert.equal(order3.length > 0, nE % 3n === 0n, 'order-3 points iff 3 | #E');
      assert.equal(order2.length > 0, nE % 2n === 0n, 'order-2 points iff 2 | #E');
      for (const [ell, pts] of [[3n, order3], [2n, order2]] as const) {
        for (const P of pts) {
          assert.ok(ref.isOnCurve(P), `order ${ell}: on the curve`);
          assert.equal(ref.mul(P, ell), null, `${ell}·${show(P)} = O`);
        }
      }
      // a = 0: (0, ±√b) has order 3 when b is a square; (x, 0) has order 2
      const y0 = Fp.sqrt(params.b);
      if (y0 !== undefined) for (const y of [y0, Fp.neg(y0)]) assert.ok(order3.some((P) => ref.eq(P, { x: 0n, y })), `(0, ${y}) found`);
      for (const P of order2) assert.equal(P.y, 0n);
      if (order2.length > 0) assert.equal(order2.length, 3, 'x³ = −b has a root x, so also beta·x and beta²·x');
    });

    it('generation: scratch sizes, kernels, subgroup parameter t (t² − 1 = lambda), a ≠ 0 rejected', () => {
      assert.deepEqual(
        { ...curve.scratchElements },
        { double: 6, doubleAffine: 6, add: 10, addAffine: 10, toAffine: 4, eq: 2, mulSmall: 14, subgroup: h1 > 1n ? 24 : 0, decode: h1 > 1n ? 29 : 26, encode: 0 },
      );
      for (const op of ['is_on_curve', 'endo', 'y_is_largest', 'xyzz_set_inf', 'xyzz_from_affine', 'xyzz_add_affine', 'xyzz_add', 'xyzz_double',
        'xyzz_double_affine', 'xyzz_neg', 'xyzz_to_affine', 'xyzz_eq', 'xyzz_mul_small', 'is_in_subgroup', 'decode_batch', 'encode']) {
        assert.equal(typeof inst.exports[`g1_${op}`], 'function', `kernel g1_${op}`);
      }
      assert.throws(() => newCurveGen({ ...params, a: 1n }), /a = 0/);
      if (h1 === 1n) return;
      const t = curve.subgroupT;
      assert.ok(t !== undefined && t * t - 1n === lambda, 't² − 1 = lambda as integers');
      assert.throws(() => newCurveGen(params, t + 1n), /lambda/);
      assert.equal(newCurveGen(params, -t).subgroupT, t, 'sign of t is irrelevant');
      // the other cube root of unity: t is not derived when lambda' + 1 is not a square; with it the check [t]([t]G) fails
      const other = r - 1n - lambda;
      const s = isqrt(other + 1n);
      const otherGen = () => newCurveGen({ ...params, lambda: other });
      if (s * s === other + 1n) assert.throws(otherGen);
      else assert.throws(otherGen, /not a square/);
      if (name === 'bls12-381' || name === 'bls12-377') assert.notEqual(s * s, other + 1n, "BLS12: lambda' + 1 is not a square");
      // t' = t + j·r still has t'² − 1 ≡ lambda (mod r), but for some j the degree m² + m + 1 of ψ − [m], m = t'² − 1, shares a
      // prime factor q with the cofactor: that test would accept q-torsion points, and generation rejects it (m² + m + 1 ≡ 0
      // mod q needs q ≡ 1 mod 3 or q = 3, and m + 1 a square mod q). The smallest such q: 10177 for BLS12-381, 13 for BLS12-377.
      const deg = (u: bigint) => (u * u - 1n) ** 2n + (u * u - 1n) + 1n;
      let rest = h1;
      let found: [q: bigint, j: bigint] | undefined;
      for (let q = 2n; q < 20000n && !found; q++) {
        if (rest % q !== 0n) continue;
        while (rest % q === 0n) rest /= q;
        for (let j = 0n; j < q && !found; j++) if (deg(t + j * r) % q === 0n) found = [q, j];
      }
      assert.ok(found, 'a prime q | h1 below 20000 with q | deg(t + j·r)');
      const [q, j] = found;
      assert.ok(h1 % q === 0n && deg(t + j * r) % q === 0n);
      if (name === 'bls12-381') assert.equal(q, 10177n);
      if (name === 'bls12-377') assert.equal(q, 13n);
      assert.throws(() => newCurveGen(params, t + j * r), /unsound/);
    });

    it('is_on_curve: G1 and other curve points, small-order points, redundant inputs; off-curve rejected', () => {
      const cases: [AffinePoint, boolean][] = [];
      for (const P of [...g1Points, ...offPoints, ...small]) {
        assert.ok(ref.isOnCurve(P));
        cases.push([P, true], [{ x: P.x, y: P.y ^ 1n }, false], [{ x: Fp.add(P.x, 1n), y: P.y }, false], [{ x: P.x, y: Fp.neg(P.y) }, true]);
      }
      // (0, y) is on the curve iff y² = b
      const bm = Fp.mod(params.b);
      cases.push([{ x: 0n, y: 0n }, bm === 0n], [{ x: 0n, y: 1n }, bm === 1n], [{ x: 0n, y: 2n }, bm === 4n]);
      for (const [P, want] of cases) {
        assert.equal(ref.isOnCurve(P), want, `reference for ${show(P)}`);
        for (const red of [false, true]) {
          writeAffine(A1, P, red);
          assert.equal(K.g1_is_on_curve(A1), want ? 1 : 0, `is_on_curve ${show(P)} redundant=${red}`);
        }
      }
    });

    it('endo = (beta·x, y) = lambda·P on G1, in place', () => {
      for (const P of [...g1Points, ...offPoints, ...small]) {
        writeAffine(A1, P, true);
        K.g1_endo(P1, A1);
        assert.deepEqual(readAffine(P1), ref.endo(P));
        K.g1_endo(A1, A1);
        assert.deepEqual(readAffine(A1), ref.endo(P));
      }
      const lamG = ref.mul(G, lambda);
      writeAffine(A1, G);
      K.g1_endo(A1, A1);
      assert.deepEqual(readAffine(A1), lamG);
    });

    it('y_is_largest: canonical y > (p − 1)/2, redundant inputs', () => {
      const half = (p - 1n) / 2n;
      for (const y of [0n, 1n, half - 1n, half, half + 1n, p - 1n, ...Array.from({ length: 20 }, () => Fp.random(rng))]) {
        for (const red of [false, true]) {
          writeEl(A1, y, red);
          assert.equal(K.g1_y_is_largest(A1), y > half ? 1 : 0, `y = ${y}`);
        }
      }
    });

    it('xyzz_set_inf, from_affine, neg, to_affine (infinity leaves dst untouched; in place)', () => {
      K.g1_xyzz_set_inf(P1);
      assert.equal(readXyzz(P1), null);
      for (const P of [...g1Points, ...offPoints, ...small]) {
        writeAffine(A1, P, true);
        K.g1_xyzz_from_affine(P1, A1);
        assert.deepEqual(readXyzz(P1), P);
        writeXyzz(P1, P);
        K.g1_xyzz_neg(P1);
        assert.deepEqual(readXyzz(P1), ref.neg(P));
        writeXyzz(P1, P);
        mem().fill(0xab, A1, A1 + 2 * EB);
        assert.equal(K.g1_xyzz_to_affine(A1, P1, scr), 0);
        assert.deepEqual(readAffine(A1), P);
        assert.ok(F.readLimbs(A1) < p && F.readLimbs(A1 + EB) < p, 'to_affine output canonical');
        assert.equal(K.g1_xyzz_to_affine(P1, P1, scr), 0, 'in place');
        assert.deepEqual(readAffine(P1), P);
      }
      for (let j = 0; j < 4; j++) {
        writeXyzz(P1, null, BigInt(j));
        K.g1_xyzz_neg(P1);
        assert.equal(readXyzz(P1), null, 'neg(O) = O');
        writeXyzz(P1, null, BigInt(j));
        mem().fill(0xab, A1, A1 + 2 * EB);
        assert.equal(K.g1_xyzz_to_affine(A1, P1, scr), 1, 'to_affine(O) returns 1');
        assert.ok(mem().slice(A1, A1 + 2 * EB).every((b) => b === 0xab), 'to_affine(O) leaves dst untouched');
      }
    });

    it('xyzz_to_affine: canonical output and X/ZZ, Y/ZZZ for arbitrary coordinates (no ZZ³ = ZZZ² needed)', () => {
      // uniform (X, Y, ZZ, ZZZ) with ZZ, ZZZ ≠ 0, built as X = x·ZZ, Y = y·ZZZ so that the answer (x, y) needs no inversion
      for (let j = 0; j < 1500; j++) {
        const [x, y, zz, zzz] = [0, 1, 2, 3].map(() => Fp.random(rng));
        if (zz === 0n || zzz === 0n) continue;
        [Fp.mul(x, zz), Fp.mul(y, zzz), zz, zzz].forEach((v, i) => writeEl(P1 + i * EB, v, (j >> i) % 2 === 1));
        assert.equal(K.g1_xyzz_to_affine(A1, P1, scr), 0);
        assert.ok(F.readLimbs(A1) < p && F.readLimbs(A1 + EB) < p, `canonical output (${j})`);
        assert.deepEqual(readAffine(A1), { x, y });
      }
    });

    // operand pairs: generic, P + P, P + (−P), infinity on either side, small-order points
    const pairs: [Affine, Affine][] = [];
    {
      const pts: Affine[] = [g1Points[0], g1Points[3], offPoints[0], offPoints[1], ...order3.slice(0, 1), ...order2.slice(0, 1)];
      for (const P of pts) {
        pairs.push([P, P], [P, ref.neg(P)], [P, null], [null, P]);
        for (const Q of pts) if (Q !== P) pairs.push([P, Q]);
      }
      pairs.push([null, null], [G, ref.double(G)], [ref.double(G), G]);
      if (order3.length >= 2) pairs.push([order3[0], order3[1]]);
      if (order2.length >= 2) pairs.push([order2[0], order2[1]]);
    }

    it('xyzz_add: all pairs incl. P + P, P + (−P), O + P, P + O, O + O, acc = b aliasing', () => {
      for (const [P, Q] of pairs) {
        const want = ref.add(P, Q);
        for (let rep = 0; rep < 2; rep++) {
          writeXyzz(P1, P);
          writeXyzz(P2, Q);
          K.g1_xyzz_add(P1, P2, scr);
          assert.deepEqual(readXyzz(P1), want, `add ${show(P)} + ${show(Q)}`);
          assert.deepEqual(readXyzz(P2), Q, 'b unchanged');
        }
      }
      for (const P of [G, offPoints[2], ...order3.slice(1, 2), ...order2.slice(0, 1), null]) {
        writeXyzz(P1, P);
        K.g1_xyzz_add(P1, P1, scr);
        assert.deepEqual(readXyzz(P1), ref.double(P), `add aliased ${show(P)}`);
      }
    });

    it('xyzz_add_affine: all pairs with a finite affine operand (acc = a → double, acc = −a → O, acc = O → a)', () => {
      for (const [P, Q] of pairs) {
        if (Q === null) continue;
        writeXyzz(P1, P);
        writeAffine(A1, Q, true);
        K.g1_xyzz_add_affine(P1, A1, scr);
        assert.deepEqual(readXyzz(P1), ref.add(P, Q), `add_affine ${show(P)} + ${show(Q)}`);
        assert.deepEqual(readAffine(A1), Q, 'a unchanged');
      }
    });

    it('xyzz_double and xyzz_double_affine (incl. O and small-order points)', () => {
      for (const P of [...g1Points, ...offPoints, ...small, null]) {
        writeXyzz(P1, P);
        K.g1_xyzz_double(P1, scr);
        assert.deepEqual(readXyzz(P1), ref.double(P), `double ${show(P)}`);
        if (P === null) continue;
        writeAffine(A1, P, true);
        K.g1_xyzz_double_affine(P1, A1, scr);
        assert.deepEqual(readXyzz(P1), ref.double(P), `double_affine ${show(P)}`);
      }
      // order 3: 2·P = −P; order 2 (y = 0): 2·P = O
      for (const P of order3) {
        writeXyzz(P1, P);
        K.g1_xyzz_double(P1, scr);
        assert.deepEqual(readXyzz(P1), ref.neg(P));
      }
      for (const P of order2) {
        writeXyzz(P1, P);
        K.g1_xyzz_double(P1, scr);
        assert.equal(readXyzz(P1), null);
      }
    });

    it('xyzz_eq: same point in different representations, negatives, infinity', () => {
      for (const [P, Q] of pairs) {
        writeXyzz(P1, P);
        writeXyzz(P2, Q);
        assert.equal(K.g1_xyzz_eq(P1, P2, scr), ref.eq(P, Q) ? 1 : 0, `eq ${show(P)} ${show(Q)}`);
      }
    });

    it(`xyzz_mul_small: k = 0, 1, 2, 3, …, 2^31 − 1 on G1, other curve points, small-order points and O (vs RefCurve${NP ? ' and noble' : ''})`, () => {
      const ks = [0, 1, 2, 3, 4, 5, 6, 7, 255, 65537, 0x7fffffff, 0x40000000, rng.nextU32() >>> 1, rng.nextU32() >>> 1];
      let nobleChecked = 0;
      for (const P of [G, g1Points[4], offPoints[3], ...order3.slice(0, 1), ...order2.slice(0, 1), null]) {
        const torsionFree = P !== null && NP !== undefined && NP.fromAffine(P).isTorsionFree();
        for (const kk of ks) {
          writeXyzz(P1, P);
          K.g1_xyzz_mul_small(P1, kk, scr);
          const want = ref.mul(P, BigInt(kk));
          assert.deepEqual(readXyzz(P1), want, `mul_small ${kk}·${show(P)}`);
          if (NP && P !== null && torsionFree && kk > 0) {
            assert.deepEqual(want, nobleToAffine(NP.fromAffine(P).multiply(BigInt(kk))), 'noble agrees');
            nobleChecked++;
          }
        }
      }
      if (NP) assert.ok(nobleChecked >= 2 * (ks.length - 1), 'noble checked G and a G1 point');
    });

    if (h1 === 1n) {
      it('is_in_subgroup: cofactor 1, every on-curve point → 1 (E(F_p) = G1)', () => {
        const pts: AffinePoint[] = [...g1Points, ...offPoints, ...Array.from({ length: 20 }, () => randomCurvePoint(ref, rng))];
        for (const P of pts) {
          writeAffine(A1, P, true);
          assert.equal(K.g1_is_in_subgroup(A1, scr), 1, `${show(P)}`);
        }
        // the oracles agree: random curve points are in G1
        for (const P of offPoints.slice(0, 2)) assert.ok(ref.isInSubgroup(P), 'reference: r·P = O');
        if (NP) for (const P of pts) assert.ok(NP.fromAffine(P).isTorsionFree(), 'noble: in G1');
      });
    } else {
      it('is_in_subgroup: G1 points → 1; random curve points, small-order and h1-torsion points → 0', () => {
        const yes: AffinePoint[] = [...g1Points];
        // cofactor-cleared random points: h1·Q (RefCurve), and noble's clearCofactor where noble has the curve
        for (let j = 0; j < 3; j++) {
          const Q = randomCurvePoint(ref, rng);
          const hQ = ref.mul(Q, h1);
          assert.ok(hQ !== null);
          yes.push(hQ, NP ? nobleToAffine(NP.fromAffine(Q).clearCofactor()) : (ref.mul(randomCurvePoint(ref, rng), h1) as AffinePoint));
        }
        const no: AffinePoint[] = [...offPoints, ...small];
        // points of order dividing h1 (r·Q), and G1 + such a point
        for (let j = 0; j < 2; j++) {
          const T = ref.mul(randomCurvePoint(ref, rng), r);
          assert.ok(T !== null);
          no.push(T, ref.add(G, T) as AffinePoint);
        }
        /** outside G1 by construction: orders 2, 3 and divisors of h1 (coprime to r), G1 + those */
        const notG1ByConstruction = new Set(no.slice(offPoints.length));
        for (let j = 0; j < 20; j++) no.push(randomCurvePoint(ref, rng));
        // oracle: noble on every point, else the naive r·P = O on the random ones (G1 points by construction: multiples of G, h1·Q)
        for (const P of yes) {
          if (NP) assert.ok(inG1(P), 'noble: in G1');
          writeAffine(A1, P, true);
          assert.equal(K.g1_is_in_subgroup(A1, scr), 1, `G1 point ${show(P)}`);
        }
        for (const P of no) {
          if (NP || !notG1ByConstruction.has(P)) assert.ok(!inG1(P), `${NP ? 'noble' : 'reference'}: not in G1`);
          writeAffine(A1, P, true);
          assert.equal(K.g1_is_in_subgroup(A1, scr), 0, `non-G1 point ${show(P)}`);
        }
        // slow naive reference on a few
        for (const P of [yes[0], yes[yes.length - 1], no[0], no[6]]) {
          writeAffine(A1, P);
          assert.equal(K.g1_is_in_subgroup(A1, scr), ref.isInSubgroup(P) ? 1 : 0);
        }
      });
    }

    if (name === 'bls12-381') {
      const ZP = nobleBls.G1.Point;
      const B = Fp.bytes;
      // ------------------------------------------------------------------ codecs
      // (count 0, unknown format and check codes, zero bytes without flags: in curve-formats.test.ts)
      /** ZCash/IETF encodings built here (for non-G1 and malformed inputs); checked against noble below. */
      const zcash = (P: Affine, compressed: boolean): Uint8Array => {
        if (P === null) {
          const out = new Uint8Array(compressed ? B : 2 * B);
          out[0] = compressed ? 0xc0 : 0x40;
          return out;
        }
        const x = Fp.toBytesBE(P.x, B);
        if (compressed) {
          x[0] |= 0x80 | (P.y > (p - 1n) / 2n ? 0x20 : 0);
          return x;
        }
        return concat(x, Fp.toBytesBE(P.y, B));
      };
      /** arkworks (ark-ec ≥ 0.4 generic SW) serialize_uncompressed: x LE ‖ y LE, last byte |= flags:
       * 0x40 PointAtInfinity (with x = y = 0), 0x80 YIsNegative iff y > −y as canonical integers. */
      const ark = (P: Affine): Uint8Array => {
        const out = new Uint8Array(2 * B);
        if (P === null) {
          out[2 * B - 1] = 0x40;
          return out;
        }
        out.set(Fp.toBytesLE(P.x, B), 0);
        out.set(Fp.toBytesLE(P.y, B), B);
        if (P.y > Fp.neg(P.y)) out[2 * B - 1] |= 0x80;
        return out;
      };
      const encoders = [(P: Affine) => zcash(P, false), (P: Affine) => zcash(P, true), ark];
      const lengths = [2 * B, B, 2 * B];
      const encBuf = inst.arena.alloc(64 * 2 * B);
      const dstBuf = inst.arena.alloc(64 * 2 * EB);
      const infBuf = inst.arena.alloc(64);

      /** Runs decode_batch on the given encodings; returns the result, decoded points and inf bytes. */
      function decode(encs: Uint8Array[], format: number, check: number) {
        const L = lengths[format];
        encs.forEach((e, i) => {
          assert.equal(e.length, L);
          mem().set(e, encBuf + i * L);
        });
        mem().fill(0xcd, dstBuf, dstBuf + encs.length * 2 * EB);
        mem().fill(0xcd, infBuf, infBuf + encs.length);
        const res = category(K.g1_decode_batch(dstBuf, infBuf, encBuf, encs.length, format, check, scr));
        return { res, slot: (i: number) => dstBuf + i * 2 * EB, inf: (i: number) => mem()[infBuf + i] };
      }
      function decodeOne(e: Uint8Array, format: number, check: number): number {
        return decode([e], format, check).res;
      }
      const bad = (index: number, code: number) => (index << 2) | code;

      // both y parities: P and −P for every point
      const encPoints: Affine[] = [null, ...g1Points.flatMap((P) => [P, ref.neg(P)])];

      it('encoders used as oracles agree with noble (ZCash formats)', () => {
        for (const P of encPoints) {
          const Q = P === null ? ZP.ZERO : ZP.fromAffine(P);
          assert.deepEqual(zcash(P, false), Q.toBytes(false));
          assert.deepEqual(zcash(P, true), Q.toBytes(true));
        }
      });

      it('encode: byte-exact vs noble (formats 0, 1) and the arkworks rules (format 2), infinity included', () => {
        const out = inst.arena.alloc(2 * B);
        for (const P of encPoints) {
          if (P !== null) writeAffine(A1, P, true);
          else mem().fill(0xee, A1, A1 + 2 * EB); // unread for infinity
          const Q = P === null ? ZP.ZERO : ZP.fromAffine(P);
          const want = [Q.toBytes(false), Q.toBytes(true), ark(P)];
          for (let fmt = 0; fmt < 3; fmt++) {
            mem().fill(0x5a, out, out + 2 * B);
            K.g1_encode(out, A1, P === null ? 1 : 0, fmt, scr);
            assert.deepEqual(mem().slice(out, out + lengths[fmt]), want[fmt], `encode format ${fmt} ${show(P)}`);
            if (fmt === 1) assert.ok(mem().slice(out + B, out + 2 * B).every((b) => b === 0x5a), 'compressed writes 48 bytes only');
          }
        }
        assert.throws(() => K.g1_encode(out, A1, 0, 3, scr), WebAssembly.RuntimeError);
      });

      it('decode_batch: valid batches (with infinity) in all formats and checks; round trip; agrees with noble.fromBytes', () => {
        const pts: Affine[] = [...encPoints, null];
        for (let fmt = 0; fmt < 3; fmt++) {
          for (let check = 0; check <= 2; check++) {
            const { res, slot, inf } = decode(pts.map(encoders[fmt]), fmt, check);
            assert.equal(res, -1, `format ${fmt} check ${check}`);
            pts.forEach((P, i) => {
              assert.equal(inf(i), P === null ? 1 : 0);
              if (P === null) assert.ok(mem().slice(slot(i), slot(i) + 2 * EB).every((b) => b === 0), 'infinity slot zeroed');
              else assert.deepEqual(readAffine(slot(i)), P, `format ${fmt} [${i}]`);
            });
          }
        }
        // noble as the decoder oracle for formats 0, 1
        for (const P of encPoints) {
          const Q = P === null ? ZP.ZERO : ZP.fromAffine(P);
          for (const [fmt, bytes] of [[0, Q.toBytes(false)], [1, Q.toBytes(true)]] as const) {
            const want = ZP.fromBytes(bytes);
            const { res, slot, inf } = decode([bytes], fmt, 2);
            assert.equal(res, -1);
            if (want.is0()) assert.equal(inf(0), 1);
            else assert.deepEqual(readAffine(slot(0)), nobleToAffine(want));
          }
        }
        // encode ∘ decode round trip through the kernels
        const out = inst.arena.alloc(2 * B);
        for (let fmt = 0; fmt < 3; fmt++) {
          const { slot, inf } = decode(pts.map(encoders[fmt]), fmt, 2);
          pts.forEach((P, i) => {
            K.g1_encode(out, slot(i), inf(i), fmt, scr);
            assert.deepEqual(mem().slice(out, out + lengths[fmt]), encoders[fmt](P));
          });
        }
      });

      it('decode_batch: off-curve → 2 (check ≥ 1), non-G1 → 3 (check 2), accepted at lower checks; compressed non-G1', () => {
        const P = g1Points[4];
        const off = { x: P.x, y: P.y ^ 4n };
        assert.ok(!ref.isOnCurve(off));
        for (const fmt of [0, 2]) {
          const e = encoders[fmt](off);
          assert.equal(decodeOne(e, fmt, 0), -1, 'parse only accepts an off-curve point');
          assert.equal(decodeOne(e, fmt, 1), bad(0, Cat.notOnCurve));
          assert.equal(decodeOne(e, fmt, 2), bad(0, Cat.notOnCurve));
        }
        for (const Q of [offPoints[0], offPoints[1], order3[0], order3[1]]) {
          for (let fmt = 0; fmt < 3; fmt++) {
            const e = encoders[fmt](Q);
            for (const check of [0, 1]) {
              const { res, slot } = decode([e], fmt, check);
              assert.equal(res, -1);
              assert.deepEqual(readAffine(slot(0)), Q);
            }
            assert.equal(decodeOne(e, fmt, 2), bad(0, Cat.notInSubgroup), `non-G1 format ${fmt}`);
            if (fmt < 2) assert.throws(() => ZP.fromBytes(e), 'noble rejects it too');
          }
        }
      });

      it('decode_batch: malformed encodings → 1 (flags in each position, non-canonical coordinates, bad infinity, no root)', () => {
        const P = g1Points[3];
        // a point whose x + p still fits below 2^381 (for a non-canonical x with valid flags)
        let lowX: AffinePoint = G;
        for (let j = 1n; ; j++) {
          lowX = g1Mul(j);
          if (lowX.x + p < 1n << 381n) break;
        }
        const setBE = (e: Uint8Array, off: number, v: bigint) => e.set(bigintToBytesLE(v, B).reverse(), off);
        const setLE = (e: Uint8Array, off: number, v: bigint) => e.set(bigintToBytesLE(v, B), off);
        const mutate = (e: Uint8Array, f: (c: Uint8Array) => void) => {
          const c = Uint8Array.from(e);
          f(c);
          return c;
        };
        const cases: [number, Uint8Array, string][] = [];
        // format 0 (ZCash uncompressed)
        const u = zcash(P, false);
        const uInf = zcash(null, false);
        cases.push(
          [0, mutate(u, (c) => (c[0] |= 0x80)), 'compression flag on uncompressed'],
          [0, mutate(u, (c) => (c[0] |= 0x20)), 'sort flag on uncompressed'],
          [0, mutate(uInf, (c) => (c[0] |= 0x20)), 'sort flag on infinity'],
          [0, mutate(uInf, (c) => (c[0] |= 0x80)), 'compression flag on uncompressed infinity'],
          [0, mutate(uInf, (c) => (c[0] |= 0x01)), 'infinity with x bit in byte 0'],
          [0, mutate(uInf, (c) => (c[1] = 1)), 'infinity with x byte 1'],
          [0, mutate(uInf, (c) => (c[47] = 0x80)), 'infinity with x byte 47'],
          [0, mutate(uInf, (c) => (c[48] = 1)), 'infinity with y byte 0'],
          [0, mutate(uInf, (c) => (c[95] = 1)), 'infinity with y byte 47'],
          [0, mutate(zcash(lowX, false), (c) => setBE(c, 0, lowX.x + p)), 'x + p'],
          [0, mutate(u, (c) => setBE(c, 0, p)), 'x = p'],
          [0, mutate(u, (c) => setBE(c, 0, (1n << 381n) - 1n)), 'x = 2^381 − 1'],
          [0, mutate(u, (c) => setBE(c, B, P.y + p)), 'y + p'],
          [0, mutate(u, (c) => setBE(c, B, p)), 'y = p'],
          [0, mutate(u, (c) => (c[B] |= 0x80)), 'top bit of y'],
        );
        // format 1 (ZCash compressed)
        const c1 = zcash(P, true);
        const cInf = zcash(null, true);
        let noRoot = 0n;
        while (Fp.sqrt(Fp.add(Fp.pow(noRoot, 3n), 4n)) !== undefined) noRoot++;
        cases.push(
          [1, mutate(c1, (c) => (c[0] &= 0x7f)), 'compression flag clear'],
          [1, mutate(cInf, (c) => (c[0] |= 0x20)), 'sort flag on compressed infinity'],
          [1, mutate(cInf, (c) => (c[0] |= 0x10)), 'infinity with x bit in byte 0'],
          [1, mutate(cInf, (c) => (c[47] = 1)), 'infinity with x byte 47'],
          [1, mutate(cInf, (c) => (c[20] = 0xff)), 'infinity with x byte 20'],
          [1, mutate(zcash(lowX, true), (c) => setBE(c, 0, lowX.x + p)), 'x + p (flags kept)'],
          [1, mutate(c1, (c) => setBE(c, 0, p)), 'x = p'],
          [1, (() => { const c = bigintToBytesLE(noRoot, B).reverse(); c[0] |= 0x80; return c; })(), `x = ${noRoot}: x³ + 4 not a square`],
          [1, (() => { const c = bigintToBytesLE(noRoot, B).reverse(); c[0] |= 0xa0; return c; })(), 'no root, sort flag set'],
        );
        // format 2 (arkworks)
        const a = ark(P);
        const aInf = ark(null);
        const aNeg = ark(ref.neg(P));
        cases.push(
          [2, mutate(aInf, (c) => (c[95] |= 0x80)), 'infinity and YIsNegative both set'],
          [2, mutate(a, (c) => (c[95] ^= 0x80)), 'YIsNegative flag flipped'],
          [2, mutate(aNeg, (c) => (c[95] ^= 0x80)), 'YIsNegative flag flipped (other parity)'],
          [2, mutate(a, (c) => (c[95] |= 0x20)), 'bit 5 of the last byte (y ≥ 2^381)'],
          [2, mutate(aInf, (c) => (c[0] = 1)), 'infinity with x byte 0'],
          [2, mutate(aInf, (c) => (c[47] = 0x80)), 'infinity with x byte 47'],
          [2, mutate(aInf, (c) => (c[48] = 1)), 'infinity with y byte 0'],
          [2, mutate(aInf, (c) => (c[95] |= 0x01)), 'infinity with y bit in the flag byte'],
          [2, mutate(aInf, (c) => (c[95] |= 0x20)), 'infinity with bit 5 of the flag byte'],
          [2, mutate(ark(lowX), (c) => setLE(c, 0, lowX.x + p)), 'x + p'],
          [2, mutate(a, (c) => setLE(c, 0, p)), 'x = p'],
          [2, mutate(a, (c) => { const flag = c[95] & 0xc0; setLE(c, B, p); c[95] |= flag; }), 'y = p'],
        );
        for (const [fmt, e, what] of cases) {
          for (let check = 0; check <= 2; check++) {
            assert.equal(decodeOne(e, fmt, check), bad(0, Cat.malformed), `format ${fmt}, ${what}, check ${check}`);
          }
          if (fmt < 2) assert.throws(() => ZP.fromBytes(e), `noble rejects: ${what}`);
        }
        // the unmutated encodings are fine (so each case fails for its own reason)
        for (const [fmt, e] of [[0, u], [0, uInf], [0, zcash(lowX, false)], [1, c1], [1, cInf], [1, zcash(lowX, true)], [2, a], [2, aNeg], [2, aInf], [2, ark(lowX)]] as const) {
          assert.equal(decodeOne(e, fmt, 2), -1);
        }
      });

      it('decode_batch: first bad index reported, nothing written for it or after it', () => {
        const pts: Affine[] = [G, null, g1Points[1], g1Points[2], null, g1Points[3], g1Points[4], G];
        for (let fmt = 0; fmt < 3; fmt++) {
          const encs = pts.map(encoders[fmt]);
          encs[5] = fmt === 1 ? encoders[1](offPoints[0]) : encoders[fmt]({ x: G.x, y: G.y ^ 2n });
          encs[6] = Uint8Array.from(encs[6]);
          encs[6][fmt === 2 ? 95 : 0] ^= 0x40; // flag damage further on
          const code = fmt === 1 ? Cat.notInSubgroup : Cat.notOnCurve;
          const { res, slot, inf } = decode(encs, fmt, 2);
          assert.equal(res, bad(5, code), `format ${fmt}`);
          for (let i = 0; i < 5; i++) {
            assert.equal(inf(i), pts[i] === null ? 1 : 0);
            if (pts[i] !== null) assert.deepEqual(readAffine(slot(i)), pts[i]);
          }
          for (let i = 5; i < pts.length; i++) {
            assert.equal(inf(i), 0xcd, `inf[${i}] untouched`);
            assert.ok(mem().slice(slot(i), slot(i) + 2 * EB).every((b) => b === 0xcd), `dst[${i}] untouched`);
          }
          // with check 0 the first problem is the flag damage at index 6
          assert.equal(decode(encs, fmt, 0).res, bad(6, Cat.malformed));
        }
      });

      it('decode_batch fuzz: single-bit flips of ZCash encodings, acceptance and value agree with noble.fromBytes', () => {
        let accepted = 0;
        let rejected = 0;
        for (const P of [null, G, g1Points[5], ref.neg(g1Points[6])]) {
          for (const compressed of [false, true]) {
            const base = zcash(P, compressed);
            const fmt = compressed ? 1 : 0;
            const bits = base.length * 8;
            const positions = [0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 200, bits - 1, ...Array.from({ length: 24 }, () => Number(rng.nextBelow(BigInt(bits))))];
            for (const bit of positions) {
              const e = Uint8Array.from(base);
              e[bit >> 3] ^= 0x80 >> (bit & 7);
              let want: AffinePoint | null | undefined;
              try {
                const Q = ZP.fromBytes(e);
                want = Q.is0() ? null : nobleToAffine(Q);
              } catch {
                want = undefined;
              }
              const { res, slot, inf } = decode([e], fmt, 2);
              if (want === undefined) {
                assert.notEqual(res, -1, `noble rejects bit ${bit} of ${show(P)} compressed=${compressed}`);
                rejected++;
              } else {
                assert.equal(res, -1, `noble accepts bit ${bit} of ${show(P)} compressed=${compressed}`);
                if (want === null) assert.equal(inf(0), 1);
                else assert.deepEqual(readAffine(slot(0)), want);
                accepted++;
              }
            }
          }
        }
        assert.ok(accepted > 0 && rejected > 0, `both outcomes exercised (${accepted} accepted, ${rejected} rejected)`);
      });
    }
  });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Runs only the CurveGen constructor (generation-time assertions), no emission or assembly. */
function newCurveGen(params: CurveParams, subgroupT?: bigint): CurveGen {
  const mb = new ModuleBuilder([], { imported: false, shared: false, initialPages: 1, maximumPages: 1 });
  const fp = new FieldGen(mb, { name: 'fp', p: params.p, w: 30 });
  return new CurveGen(mb, fp, params, 'g1', subgroupT === undefined ? {} : { subgroupT });
}
