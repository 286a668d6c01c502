/**
 * G1 kernels (src/codegen/curve.ts) for BLS12-381, Fp with w = 30 and the Karatsuba product, against
 * the bigint reference RefCurve and @noble/curves. Points are fed in non-trivial XYZZ representations
 * (random ZZ = s², ZZZ = s³) and coordinates in the redundant range [0, 2p), and every exceptional
 * case of the group law is exercised: infinity on either side, P + P, P + (−P), order-3 points.
 * The codecs are checked byte for byte against noble (ZCash formats) and against encodings built
 * here from the arkworks ark-ec SWFlags rules (format 2), including every malformed class.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381 as nobleBls } from '@noble/curves/bls12-381.js';
import { CurveGen } from '../src/codegen/curve.js';
import { devCurveInstance } from '../src/testing/dev-instance.js';
import { Cat, category } from './helpers/point-status.js';
import { FieldGen } from '../src/codegen/field.js';
import { ModuleBuilder } from '../src/codegen/wat.js';
import type { CurveParams } from '../src/curves/types.js';
import { bls12_381, bls12_381Curve } from '../src/curves/bls12-381.js';
import { RefCurve, type Affine, type AffinePoint } from '../src/reference/curve.js';
import { bigintToBytesLE } from '../src/reference/field.js';
import { makeRng } from '../src/reference/rng.js';
import { pointMemory } from './helpers/point-memory.js';

type Kernel = (...args: number[]) => number;

const ref = new RefCurve(bls12_381);
const Fp = ref.Fp;
const { p, r, h1 } = bls12_381;
const NP = nobleBls.G1.Point;
const rng = makeRng(381);
const B = 48;

const dev = await devCurveInstance(bls12_381, { w: 30, mul: 'karatsuba' }, { formats: bls12_381Curve.formats });
const { inst, curve } = dev;
const F = inst.fields.fp;
const EB = F.info.elementBytes;
const k = (name: string): Kernel => {
  const fn = inst.exports[`g1_${name}`];
  if (typeof fn !== 'function') throw new Error(`missing kernel g1_${name}`);
  return fn as Kernel;
};
const mem = () => new Uint8Array(inst.memory.buffer);

// ------------------------------------------------------------------ memory helpers
const { writeEl, writeAffine, readAffine, writeXyzz, readXyzz, show } = pointMemory(F, Fp, rng);

// ------------------------------------------------------------------ points
const G = ref.G;
const nobleToAffine = (Q: InstanceType<typeof NP>): AffinePoint => {
  const a = Q.toAffine();
  return { x: a.x, y: a.y };
};
const g1Mul = (s: bigint): AffinePoint => nobleToAffine(NP.BASE.multiply(s));
/** A random point of E(F_p) (almost surely outside G1): random x, y = ±√(x³ + 4). */
function randomCurvePoint(): AffinePoint {
  for (;;) {
    const x = Fp.random(rng);
    const y = Fp.sqrt(Fp.add(Fp.pow(x, 3n), 4n));
    if (y !== undefined) return { x, y: rng.nextBigint(1) ? y : Fp.neg(y) };
  }
}
const isTorsionFree = (P: AffinePoint) => NP.fromAffine(P).isTorsionFree();
const order3: AffinePoint[] = [{ x: 0n, y: 2n }, { x: 0n, y: p - 2n }];
const g1Points: AffinePoint[] = [G, g1Mul(2n), g1Mul(r - 1n), ...Array.from({ length: 4 }, () => g1Mul(rng.nextBelow(r - 1n) + 1n))];
const offPoints: AffinePoint[] = Array.from({ length: 6 }, randomCurvePoint);

// scratch and buffers
const scr = inst.arena.alloc(64 * EB);
const P1 = inst.arena.alloc(4 * EB);
const P2 = inst.arena.alloc(4 * EB);
const A1 = inst.arena.alloc(2 * EB);

describe('G1 kernels, BLS12-381 (fp w = 30, karatsuba)', () => {
  it('generation: scratch sizes, subgroup parameter t = |z|, a ≠ 0 rejected', () => {
    assert.equal(curve.subgroupT, 0xd201000000010000n);
    assert.deepEqual(
      { ...curve.scratchElements },
      { double: 6, doubleAffine: 6, add: 10, addAffine: 10, toAffine: 4, eq: 2, mulSmall: 14, subgroup: 24, decode: 29, encode: 0 },
    );
    for (const name of ['is_on_curve', 'endo', 'y_is_largest', 'xyzz_set_inf', 'xyzz_from_affine', 'xyzz_add_affine', 'xyzz_add', 'xyzz_double',
      'xyzz_double_affine', 'xyzz_neg', 'xyzz_to_affine', 'xyzz_eq', 'xyzz_mul_small', 'is_in_subgroup', 'decode_batch', 'encode']) k(name);
    assert.throws(() => newCurveGen({ ...bls12_381, a: 1n }), /a = 0/);
    assert.throws(() => newCurveGen(bls12_381, 0xd201000000010001n), /lambda/);
    assert.equal(newCurveGen(bls12_381, -0xd201000000010000n).subgroupT, 0xd201000000010000n, 'sign of t is irrelevant');
    // the other cube root of unity: lambda' + 1 is not a square, so t cannot be derived
    assert.throws(() => newCurveGen({ ...bls12_381, lambda: r - 1n - bls12_381.lambda }), /not a square/);
    // t' = z + j·r still has t'² − 1 ≡ lambda (mod r), but for some j the degree of ψ − [t'² − 1] shares the
    // prime factor q = 10177 of the cofactor: that test would accept q-torsion points, and generation rejects it
    // (m² + m + 1 ≡ 0 mod q needs q ≡ 1 mod 3, and m + 1 = −ω² a square needs q ≡ 1 mod 4: both hold)
    const z = -0xd201000000010000n;
    const q = 10177n;
    const deg = (t: bigint) => (t * t - 1n) ** 2n + (t * t - 1n) + 1n;
    let j = 0n;
    while (deg(z + j * r) % q !== 0n && j < q) j++;
    assert.ok(j < q && h1 % q === 0n);
    assert.throws(() => newCurveGen(bls12_381, z + j * r), /unsound/);
  });

  it('is_on_curve: G1 and non-G1 curve points, order-3 points, redundant inputs; off-curve rejected', () => {
    const cases: [AffinePoint, boolean][] = [];
    for (const P of [...g1Points, ...offPoints, ...order3]) {
      assert.ok(ref.isOnCurve(P));
      cases.push([P, true], [{ x: P.x, y: P.y ^ 1n }, false], [{ x: Fp.add(P.x, 1n), y: P.y }, false], [{ x: P.x, y: Fp.neg(P.y) }, true]);
    }
    cases.push([{ x: 0n, y: 0n }, false], [{ x: 0n, y: 1n }, false]);
    for (const [P, want] of cases) {
      assert.equal(ref.isOnCurve(P), want, `reference for ${show(P)}`);
      for (const red of [false, true]) {
        writeAffine(A1, P, red);
        assert.equal(k('is_on_curve')(A1), want ? 1 : 0, `is_on_curve ${show(P)} redundant=${red}`);
      }
    }
  });

  it('endo = (beta·x, y) = lambda·P on G1, in place', () => {
    for (const P of [...g1Points, ...offPoints]) {
      writeAffine(A1, P, true);
      k('endo')(P1, A1);
      assert.deepEqual(readAffine(P1), ref.endo(P));
      k('endo')(A1, A1);
      assert.deepEqual(readAffine(A1), ref.endo(P));
    }
    const lamG = ref.mul(G, bls12_381.lambda);
    writeAffine(A1, G);
    k('endo')(A1, A1);
    assert.deepEqual(readAffine(A1), lamG);
  });

  it('y_is_largest: canonical y > (p − 1)/2, redundant inputs', () => {
    const half = (p - 1n) / 2n;
    for (const y of [0n, 1n, half - 1n, half, half + 1n, p - 1n, ...Array.from({ length: 20 }, () => Fp.random(rng))]) {
      for (const red of [false, true]) {
        writeEl(A1, y, red);
        assert.equal(k('y_is_largest')(A1), y > half ? 1 : 0, `y = ${y}`);
      }
    }
  });

  it('xyzz_set_inf, from_affine, neg, to_affine (infinity leaves dst untouched; in place)', () => {
    k('xyzz_set_inf')(P1);
    assert.equal(readXyzz(P1), null);
    for (const P of [...g1Points, ...offPoints]) {
      writeAffine(A1, P, true);
      k('xyzz_from_affine')(P1, A1);
      assert.deepEqual(readXyzz(P1), P);
      writeXyzz(P1, P);
      k('xyzz_neg')(P1);
      assert.deepEqual(readXyzz(P1), ref.neg(P));
      writeXyzz(P1, P);
      mem().fill(0xab, A1, A1 + 2 * EB);
      assert.equal(k('xyzz_to_affine')(A1, P1, scr), 0);
      assert.deepEqual(readAffine(A1), P);
      assert.ok(F.readLimbs(A1) < p && F.readLimbs(A1 + EB) < p, 'to_affine output canonical');
      assert.equal(k('xyzz_to_affine')(P1, P1, scr), 0, 'in place');
      assert.deepEqual(readAffine(P1), P);
    }
    for (let j = 0; j < 4; j++) {
      writeXyzz(P1, null, BigInt(j));
      k('xyzz_neg')(P1);
      assert.equal(readXyzz(P1), null, 'neg(O) = O');
      writeXyzz(P1, null, BigInt(j));
      mem().fill(0xab, A1, A1 + 2 * EB);
      assert.equal(k('xyzz_to_affine')(A1, P1, scr), 1, 'to_affine(O) returns 1');
      assert.ok(mem().slice(A1, A1 + 2 * EB).every((b) => b === 0xab), 'to_affine(O) leaves dst untouched');
    }
  });

  it('xyzz_to_affine: canonical output and X/ZZ, Y/ZZZ for arbitrary coordinates (no ZZ³ = ZZZ² needed)', () => {
    for (let j = 0; j < 1500; j++) {
      const c = [0, 1, 2, 3].map(() => Fp.random(rng));
      if (c[2] === 0n || c[3] === 0n) continue;
      c.forEach((v, i) => writeEl(P1 + i * EB, v, (j >> i) % 2 === 1));
      assert.equal(k('xyzz_to_affine')(A1, P1, scr), 0);
      const [x, y] = [F.readLimbs(A1), F.readLimbs(A1 + EB)];
      assert.ok(x < p && y < p, `canonical output (${j})`);
      assert.deepEqual(readAffine(A1), { x: Fp.div(c[0], c[2]), y: Fp.div(c[1], c[3]) });
    }
  });

  // operand pairs: generic, P + P, P + (−P), infinity on either side, order-3 points
  const pairs: [Affine, Affine][] = [];
  {
    const pts: Affine[] = [g1Points[0], g1Points[3], offPoints[0], offPoints[1], order3[0]];
    for (const P of pts) {
      pairs.push([P, P], [P, ref.neg(P)], [P, null], [null, P]);
      for (const Q of pts) if (Q !== P) pairs.push([P, Q]);
    }
    pairs.push([null, null], [order3[0], order3[1]], [G, ref.double(G)], [ref.double(G), G]);
  }

  it('xyzz_add: all pairs incl. P + P, P + (−P), O + P, P + O, O + O, acc = b aliasing', () => {
    for (const [P, Q] of pairs) {
      const want = ref.add(P, Q);
      for (let rep = 0; rep < 2; rep++) {
        writeXyzz(P1, P);
        writeXyzz(P2, Q);
        k('xyzz_add')(P1, P2, scr);
        assert.deepEqual(readXyzz(P1), want, `add ${show(P)} + ${show(Q)}`);
        assert.deepEqual(readXyzz(P2), Q, 'b unchanged');
      }
    }
    for (const P of [G, offPoints[2], order3[1], null]) {
      writeXyzz(P1, P);
      k('xyzz_add')(P1, P1, scr);
      assert.deepEqual(readXyzz(P1), ref.double(P), `add aliased ${show(P)}`);
    }
  });

  it('xyzz_add_affine: all pairs with a finite affine operand (acc = a → double, acc = −a → O, acc = O → a)', () => {
    for (const [P, Q] of pairs) {
      if (Q === null) continue;
      writeXyzz(P1, P);
      writeAffine(A1, Q, true);
      k('xyzz_add_affine')(P1, A1, scr);
      assert.deepEqual(readXyzz(P1), ref.add(P, Q), `add_affine ${show(P)} + ${show(Q)}`);
      assert.deepEqual(readAffine(A1), Q, 'a unchanged');
    }
  });

  it('xyzz_double and xyzz_double_affine (incl. O and order-3 points)', () => {
    for (const P of [...g1Points, ...offPoints, ...order3, null]) {
      writeXyzz(P1, P);
      k('xyzz_double')(P1, scr);
      assert.deepEqual(readXyzz(P1), ref.double(P), `double ${show(P)}`);
      if (P === null) continue;
      writeAffine(A1, P, true);
      k('xyzz_double_affine')(P1, A1, scr);
      assert.deepEqual(readXyzz(P1), ref.double(P), `double_affine ${show(P)}`);
    }
    // 2·(0, ±2) = (0, ∓2): order 3; 3·(0, 2) = O through add
    writeXyzz(P1, order3[0]);
    k('xyzz_double')(P1, scr);
    assert.deepEqual(readXyzz(P1), order3[1]);
  });

  it('xyzz_eq: same point in different representations, negatives, infinity', () => {
    for (const [P, Q] of pairs) {
      writeXyzz(P1, P);
      writeXyzz(P2, Q);
      assert.equal(k('xyzz_eq')(P1, P2, scr), ref.eq(P, Q) ? 1 : 0, `eq ${show(P)} ${show(Q)}`);
    }
  });

  it('xyzz_mul_small: k = 0, 1, 2, 3, …, 2^31 − 1 on G1, non-G1, order-3 points and O (vs RefCurve and noble)', () => {
    const ks = [0, 1, 2, 3, 4, 5, 6, 7, 255, 65537, 0x7fffffff, 0x40000000, rng.nextU32() >>> 1, rng.nextU32() >>> 1];
    for (const P of [G, g1Points[4], offPoints[3], order3[0], null]) {
      for (const kk of ks) {
        writeXyzz(P1, P);
        k('xyzz_mul_small')(P1, kk, scr);
        const want = ref.mul(P, BigInt(kk));
        assert.deepEqual(readXyzz(P1), want, `mul_small ${kk}·${show(P)}`);
        if (P !== null && isTorsionFree(P) && kk > 0) {
          assert.deepEqual(want, nobleToAffine(NP.fromAffine(P).multiply(BigInt(kk))), 'noble agrees');
        }
      }
    }
  });

  it('is_in_subgroup: G1 points → 1; random curve points, order-3 and h1-torsion points → 0', () => {
    const yes: AffinePoint[] = [...g1Points];
    // cofactor-cleared random points: h1·Q (RefCurve) and noble's clearCofactor
    for (let j = 0; j < 3; j++) {
      const Q = randomCurvePoint();
      const hQ = ref.mul(Q, h1);
      assert.ok(hQ !== null);
      yes.push(hQ, nobleToAffine(NP.fromAffine(Q).clearCofactor()));
    }
    const no: AffinePoint[] = [...offPoints, ...order3];
    // points of order dividing h1 (r·Q), and G1 + such a point
    for (let j = 0; j < 2; j++) {
      const T = ref.mul(randomCurvePoint(), r);
      assert.ok(T !== null);
      no.push(T, ref.add(G, T) as AffinePoint);
    }
    for (let j = 0; j < 20; j++) no.push(randomCurvePoint());
    for (const P of yes) {
      assert.ok(isTorsionFree(P), 'noble: in G1');
      writeAffine(A1, P, true);
      assert.equal(k('is_in_subgroup')(A1, scr), 1, `G1 point ${show(P)}`);
    }
    for (const P of no) {
      assert.ok(!isTorsionFree(P), 'noble: not in G1');
      writeAffine(A1, P, true);
      assert.equal(k('is_in_subgroup')(A1, scr), 0, `non-G1 point ${show(P)}`);
    }
    // slow naive reference on a few
    for (const P of [yes[0], yes[yes.length - 1], no[0], no[6]]) {
      writeAffine(A1, P);
      assert.equal(k('is_in_subgroup')(A1, scr), ref.isInSubgroup(P) ? 1 : 0);
    }
  });

  // ------------------------------------------------------------------ codecs
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
    const res = category(k('decode_batch')(dstBuf, infBuf, encBuf, encs.length, format, check, scr));
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
      const Q = P === null ? NP.ZERO : NP.fromAffine(P);
      assert.deepEqual(zcash(P, false), Q.toBytes(false));
      assert.deepEqual(zcash(P, true), Q.toBytes(true));
    }
  });

  it('encode: byte-exact vs noble (formats 0, 1) and the arkworks rules (format 2), infinity included', () => {
    const out = inst.arena.alloc(2 * B);
    for (const P of encPoints) {
      if (P !== null) writeAffine(A1, P, true);
      else mem().fill(0xee, A1, A1 + 2 * EB); // unread for infinity
      const Q = P === null ? NP.ZERO : NP.fromAffine(P);
      const want = [Q.toBytes(false), Q.toBytes(true), ark(P)];
      for (let fmt = 0; fmt < 3; fmt++) {
        mem().fill(0x5a, out, out + 2 * B);
        k('encode')(out, A1, P === null ? 1 : 0, fmt, scr);
        assert.deepEqual(mem().slice(out, out + lengths[fmt]), want[fmt], `encode format ${fmt} ${show(P)}`);
        if (fmt === 1) assert.ok(mem().slice(out + B, out + 2 * B).every((b) => b === 0x5a), 'compressed writes 48 bytes only');
      }
    }
    assert.throws(() => k('encode')(out, A1, 0, 3, scr), WebAssembly.RuntimeError);
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
      const Q = P === null ? NP.ZERO : NP.fromAffine(P);
      for (const [fmt, bytes] of [[0, Q.toBytes(false)], [1, Q.toBytes(true)]] as const) {
        const want = NP.fromBytes(bytes);
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
        k('encode')(out, slot(i), inf(i), fmt, scr);
        assert.deepEqual(mem().slice(out, out + lengths[fmt]), encoders[fmt](P));
      });
    }
    assert.equal(k('decode_batch')(dstBuf, infBuf, encBuf, 0, 0, 2, scr), -1, 'count 0');
    assert.throws(() => k('decode_batch')(dstBuf, infBuf, encBuf, 1, 3, 0, scr), WebAssembly.RuntimeError);
    assert.throws(() => k('decode_batch')(dstBuf, infBuf, encBuf, 1, 0, 3, scr), WebAssembly.RuntimeError);
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
        if (fmt < 2) assert.throws(() => NP.fromBytes(e), 'noble rejects it too');
      }
    }
    // the all-zero affine pair (0, 0) without the infinity flag is not a point
    assert.equal(decodeOne(new Uint8Array(2 * B), 0, 1), bad(0, Cat.notOnCurve));
    assert.equal(decodeOne(new Uint8Array(2 * B), 2, 1), bad(0, Cat.notOnCurve));
  });

  it('decode_batch: malformed encodings → 1 (flags in each position, non-canonical coordinates, bad infinity, no root)', () => {
    const P = g1Points[3];
    // a point whose x + p still fits below 2^381 (for a non-canonical x with valid flags)
    let small: AffinePoint = G;
    for (let j = 1n; ; j++) {
      small = g1Mul(j);
      if (small.x + p < 1n << 381n) break;
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
      [0, mutate(zcash(small, false), (c) => setBE(c, 0, small.x + p)), 'x + p'],
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
      [1, mutate(zcash(small, true), (c) => setBE(c, 0, small.x + p)), 'x + p (flags kept)'],
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
      [2, mutate(ark(small), (c) => setLE(c, 0, small.x + p)), 'x + p'],
      [2, mutate(a, (c) => setLE(c, 0, p)), 'x = p'],
      [2, mutate(a, (c) => { const flag = c[95] & 0xc0; setLE(c, B, p); c[95] |= flag; }), 'y = p'],
    );
    for (const [fmt, e, what] of cases) {
      for (let check = 0; check <= 2; check++) {
        assert.equal(decodeOne(e, fmt, check), bad(0, Cat.malformed), `format ${fmt}, ${what}, check ${check}`);
      }
      if (fmt < 2) assert.throws(() => NP.fromBytes(e), `noble rejects: ${what}`);
    }
    // the unmutated encodings are fine (so each case fails for its own reason)
    for (const [fmt, e] of [[0, u], [0, uInf], [0, zcash(small, false)], [1, c1], [1, cInf], [1, zcash(small, true)], [2, a], [2, aNeg], [2, aInf], [2, ark(small)]] as const) {
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
            const Q = NP.fromBytes(e);
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
});

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
