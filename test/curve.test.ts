/**
 * G1 kernels (src/codegen/curve*.ts) on every curve of the registry, one template: each curve at its
 * shipped Fp tuning, at w = 30 Karatsuba and on 64-bit limbs (src/codegen/field64.ts, the
 * wide-arithmetic helpers polyfilled in Node); the codecs also on the other limb layouts (w = 29
 * CIOS, w = 26 Karatsuba). Oracles: the bigint reference RefCurve; @noble/curves where it has the
 * curve (its G1, and byte for byte on the ZCash formats); encoders built here from each format's
 * rules (ZCash, the arkworks ark-ec SWFlags, EIP-196, Pasta); arkworks' own serialized bytes
 * (vectors/<curve>.json).
 *
 * Arithmetic: points in non-trivial XYZZ representations (random ZZ = s², ZZZ = s³), coordinates in
 * the redundant range [0, 2p), every exceptional case of the group law (infinity on either side,
 * P + P, P + (−P), the points of order 3 and 2 where 3 or 2 divides #E(F_p) = h1·r). Subgroup: only
 * h1 > 1 curves have non-G1 points; cofactor-1 curves must answer 1. Formats: the generator's table
 * is the descriptor's list with the ABI codes and sizes, round trips, arkworks' vectors, every
 * malformed class with its code and the first bad index, unsupported codes trap.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { WeierstrassPointCons } from '@noble/curves/abstract/weierstrass.js';
import { CurveGen, curveFormats, type CurveFormat } from '../src/codegen/curve.js';
import { devCurveInstance } from '../src/testing/dev-instance.js';
import { PointFormat, type PointFormatName } from '../src/abi/codes.js';
import { Cat, category } from './helpers/point-status.js';
import { FieldGen } from '../src/codegen/field.js';
import { ModuleBuilder } from '../src/codegen/wat.js';
import type { CurveParams, MulStrategy } from '../src/curves/types.js';
import { curves } from '../src/curves/index.js';
import { curveNames, nobleOf, registry, vectorFormats, type CurveName } from './helpers/registry.js';
import { RefCurve, type Affine, type AffinePoint } from '../src/reference/curve.js';
import { isqrt } from '../src/reference/arith.js';
import { bigintToBytesLE } from '../src/reference/field.js';
import { makeRng } from '../src/reference/rng.js';
import { pointMemory } from './helpers/point-memory.js';
import { pointsOfOrder, randomCurvePoint } from './helpers/curve-points.js';

type Kernel = (...args: number[]) => number;

interface JsonPoint {
  x: string;
  y: string;
}
interface VectorFile {
  curve: string;
  cases: { name: string; points: (JsonPoint | null)[] }[];
  serialization: { point: JsonPoint | null; uncompressed: string; compressed: string }[];
}
const loadVectors = (name: string): VectorFile =>
  JSON.parse(readFileSync(new URL(`../vectors/${name}.json`, import.meta.url), 'utf8')) as VectorFile;
const toPoint = (p: JsonPoint | null): Affine => (p === null ? null : { x: BigInt(p.x), y: BigInt(p.y) });
const fromHex = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const bitLen = (x: bigint): number => x.toString(2).length;

/** The kernel code of each format (docs/formats.md), stated here independently of src/abi/codes.ts. */
const CODE = { zcash: 0, 'zcash-compressed': 1, arkworks: 2, 'arkworks-compressed': 3, eip196: 4, pasta: 5 } as const satisfies Record<PointFormatName, number>;
/** Bytes per point from the format's rule: L = ⌈bits(p)/8⌉ per coordinate, LA = ⌈(bits(p) + 2)/8⌉ for arkworks' flagged one. */
const formatBytes = (n: PointFormatName, L: number, LA: number): number =>
  n === 'zcash-compressed' ? L : n === 'arkworks' ? L + LA : n === 'arkworks-compressed' ? LA : 2 * L;

type Layout = { w: number; mul: MulStrategy };
const sameLayout = (a: Layout, b: Layout) => a.w === b.w && a.mul === b.mul;
/** Each curve at its shipped Fp tuning first, then at w = 30 Karatsuba and w = 64 (where those are not its tuning). */
const configs: (Layout & { name: CurveName; shipped: boolean })[] = curveNames.flatMap((name) => {
  const shipped: Layout = { w: registry[name].tuning.fp.w, mul: registry[name].tuning.fp.mul };
  const others: Layout[] = [{ w: 30, mul: 'karatsuba' }, { w: 64, mul: 'cios-loop' }];
  return [{ ...shipped, name, shipped: true }, ...others.filter((l) => !sameLayout(l, shipped)).map((l) => ({ ...l, name, shipped: false }))];
});
const devs = new Map<(typeof configs)[number], Awaited<ReturnType<typeof devCurveInstance>>>();
for (const c of configs) devs.set(c, await devCurveInstance(curves[c.name], { w: c.w, mul: c.mul }, { formats: registry[c.name].formats }));

for (const cfg of configs) {
  const { name } = cfg;
  const params = curves[name];
  const { inst, curve, wat } = devs.get(cfg)!;
  const K = inst.k;
  const ref = new RefCurve(params);
  const Fp = ref.Fp;
  const { p, r, h1, b, lambda } = params;
  /** noble's G1 where it has the curve (an independent oracle) */
  const NP: WeierstrassPointCons<bigint> | undefined = nobleOf(name)?.G1;
  const rng = makeRng(Number(p % 1000n) * 1000 + cfg.w * 2 + (cfg.mul === 'karatsuba' ? 1 : 0));
  const F = inst.fields.fp;
  const EB = F.info.elementBytes;
  const L = Math.ceil(bitLen(p) / 8);
  const LA = Math.ceil((bitLen(p) + 2) / 8);
  const half = (p - 1n) / 2n;
  const vec = loadVectors(name);
  const k = (op: string): Kernel => {
    const fn = inst.exports[`g1_${op}`];
    if (typeof fn !== 'function') throw new Error(`missing kernel g1_${op}`);
    return fn as Kernel;
  };
  const mem = () => new Uint8Array(inst.memory.buffer);
  const fmtOf = (n: PointFormatName): CurveFormat => {
    const f = curve.formats.find((x) => x.name === n);
    if (!f) throw new Error(`${name} has no format ${n}`);
    return f;
  };
  const hasFormat = (n: PointFormatName) => curve.formats.some((f) => f.name === n);

  // ---------------------------------------------------------------- memory helpers
  const { writeEl, writeAffine, readAffine, writeXyzz, readXyzz, writeJac, readJac, show } = pointMemory(F, Fp, rng);

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
  /** the G1 points of arkworks' MSM vectors */
  const vecPoints = vec.cases.flatMap((c) => c.points.map(toPoint)).filter((P): P is AffinePoint => P !== null);
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
  const MAXN = 80;
  const encBuf = inst.arena.alloc(MAXN * 2 * LA);
  const dstBuf = inst.arena.alloc(MAXN * 2 * EB);
  const infBuf = inst.arena.alloc(MAXN);
  const outBuf = inst.arena.alloc(2 * LA + 16);

  // ---------------------------------------------------------------- reference encoders (from the format rules)
  // raw integers (no reduction mod p), so that non-canonical values can be written
  const le = (v: bigint, n: number) => bigintToBytesLE(v, n);
  const be = (v: bigint, n: number) => bigintToBytesLE(v, n).reverse();
  /** Encodes any (x, y) (also off-curve) with canonical coordinates; infinity for null. */
  const encRef = (fmt: PointFormatName, P: Affine): Uint8Array => {
    const big = P !== null && P.y > half;
    switch (fmt) {
      case 'zcash': {
        const out = new Uint8Array(2 * L);
        if (P === null) out[0] = 0x40;
        else out.set([...be(P.x, L), ...be(P.y, L)]);
        return out;
      }
      case 'zcash-compressed': {
        const out = new Uint8Array(L);
        if (P === null) out[0] = 0xc0;
        else {
          out.set(be(P.x, L));
          out[0] |= 0x80 | (big ? 0x20 : 0);
        }
        return out;
      }
      case 'arkworks': {
        // ark-ec SW serialize_uncompressed: x (L bytes LE), then y with SWFlags in ⌈(bits + 2)/8⌉ bytes
        const out = new Uint8Array(L + LA);
        if (P === null) out[L + LA - 1] = 0x40;
        else {
          out.set(le(P.x, L), 0);
          out.set(le(P.y, L), L);
          if (big) out[L + LA - 1] |= 0x80;
        }
        return out;
      }
      case 'arkworks-compressed': {
        const out = new Uint8Array(LA);
        if (P === null) out[LA - 1] = 0x40;
        else {
          out.set(le(P.x, L), 0);
          if (big) out[LA - 1] |= 0x80;
        }
        return out;
      }
      case 'eip196':
      case 'pasta': {
        const out = new Uint8Array(2 * L);
        if (P !== null) {
          const enc = fmt === 'eip196' ? be : le;
          out.set(enc(P.x, L), 0);
          out.set(enc(P.y, L), L);
        }
        return out;
      }
    }
  };

  /** Runs decode_batch; returns the result, the decoded slots and inf bytes. */
  const decode = (encs: Uint8Array[], fmt: CurveFormat, check: number) => {
    assert.ok(encs.length <= MAXN, 'batch fits the buffers');
    encs.forEach((e, i) => {
      assert.equal(e.length, fmt.bytes, `encoding length for ${fmt.name}`);
      mem().set(e, encBuf + i * fmt.bytes);
    });
    mem().fill(0xcd, dstBuf, dstBuf + encs.length * 2 * EB);
    mem().fill(0xcd, infBuf, infBuf + encs.length);
    const res = category(k('decode_batch')(dstBuf, infBuf, encBuf, encs.length, fmt.code, check, scr));
    return { res, slot: (i: number) => dstBuf + i * 2 * EB, inf: (i: number) => mem()[infBuf + i] };
  };
  const decodeOne = (e: Uint8Array, fmt: CurveFormat, check: number) => decode([e], fmt, check).res;
  /** g1_encode of P (affine written redundantly; garbage for infinity, which must not be read). */
  const encode = (P: Affine, fmt: CurveFormat): Uint8Array => {
    if (P !== null) writeAffine(A1, P, true);
    else mem().fill(0xee, A1, A1 + 2 * EB);
    mem().fill(0x5a, outBuf, outBuf + 2 * LA + 16);
    k('encode')(outBuf, A1, P === null ? 1 : 0, fmt.code, scr);
    assert.ok(mem().slice(outBuf + fmt.bytes, outBuf + 2 * LA + 16).every((x) => x === 0x5a), `${fmt.name}: encode writes ${fmt.bytes} bytes only`);
    return mem().slice(outBuf, outBuf + fmt.bytes);
  };
  const bad = (index: number, code: number) => (index << 2) | code;

  describe(`G1 kernels and point formats, ${name} (fp w = ${cfg.w}, ${cfg.mul}${cfg.shipped ? ', shipped' : ''})`, () => {
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


    it('generation: format table from the descriptor, byte sizes, kernels, scratch sizes, subgroup parameter t (t² − 1 = lambda), a ≠ 0 rejected', () => {
      // the format table: the descriptor's list, in order, with the ABI's codes and the sizes of each format's rule
      assert.deepEqual(curve.formats.map((f) => [f.name, f.code, f.bytes]), registry[name].formats.map((n) => [n, CODE[n], formatBytes(n, L, LA)]));
      assert.deepEqual(curveFormats(params, registry[name].formats), curve.formats, 'curveFormats(params, descriptor formats) = the generator’s table');
      for (const f of curve.formats) assert.equal(PointFormat[f.name], f.code, `${f.name}: the ABI's code table`);
      assert.equal(curve.B, L);
      assert.equal(curve.BA, LA);
      assert.equal(curve.EB, EB);
      assert.deepEqual(
        { ...curve.scratchElements },
        { double: 6, doubleAffine: 6, add: 10, addAffine: 10, toAffine: 4, eq: 2, mulSmall: 14, subgroup: h1 > 1n ? 24 : 0, decode: h1 > 1n ? 29 : 26, encode: 0 },
      );
      for (const op of ['is_on_curve', 'endo', 'y_is_largest', 'xyzz_set_inf', 'xyzz_from_affine', 'xyzz_add_affine', 'xyzz_add', 'xyzz_double',
        'xyzz_double_affine', 'xyzz_neg', 'xyzz_to_affine', 'xyzz_eq', 'xyzz_mul_small', 'is_in_subgroup', 'decode_batch', 'encode']) {
        assert.equal(typeof inst.exports[`g1_${op}`], 'function', `kernel g1_${op}`);
      }
      // formats the curve cannot carry
      if (L * 8 - bitLen(p) < 3) assert.throws(() => curveFormats(params, ['zcash']), /3 flag bits/);
      assert.throws(() => curveFormats(params, ['arkworks', 'arkworks']), /repeated/);
      assert.deepEqual(newCurveGen(params, undefined, ['eip196', 'pasta']).formats.map((f) => f.code), [4, 5]);
      assert.throws(() => newCurveGen({ ...params, a: 1n }), /a = 0/);
      if (h1 === 1n) {
        assert.equal(curve.subgroupT, undefined, 'cofactor 1: no subgroup test');
        const at = wat.indexOf('(func $g1_is_in_subgroup (param');
        const fn = wat.slice(at, wat.indexOf('(func', at + 5));
        assert.match(wat, /g1_is_in_subgroup\(p, scratch\) → 1, always: the cofactor of \S+ is 1/, 'header says why');
        assert.match(fn, /\(return \(i32\.const 1\)\)/, 'body returns 1');
        assert.doesNotMatch(fn, /call/, 'body does no work');
        return;
      }
      const t = curve.subgroupT;
      assert.ok(t !== undefined && t * t - 1n === lambda, 't² − 1 = lambda as integers');
      if (name === 'bls12-381') assert.equal(t, 0xd201000000010000n);
      if (name === 'bls12-377') {
        const z = 0x8508c00000000001n;
        assert.equal(t, z, 't = z');
        assert.equal(lambda, z * z - 1n, 'lambda = z² − 1');
        // m = t² − 1 = lambda, so deg(ψ − [m]) = m² + m + 1 = r exactly and gcd(deg, #E) = r
        assert.equal(lambda * lambda + lambda + 1n, r, 'deg(ψ − [t² − 1]) = r');
        assert.equal(h1 % r === 0n, false, 'r ∤ h1');
        assert.throws(() => newCurveGen(params, z + 2n), /lambda/);
      }
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

    it('jac_add_affine: all pairs with a finite affine operand (acc = a → double, acc = −a → O, acc = O → a); jac_double incl. O, order 2 and 3', () => {
      for (const [P, Q] of pairs) {
        if (Q === null) continue;
        writeJac(P1, P);
        writeAffine(A1, Q, true);
        K.g1_jac_add_affine(P1, A1, scr);
        assert.deepEqual(readJac(P1), ref.add(P, Q), `jac_add_affine ${show(P)} + ${show(Q)}`);
        assert.deepEqual(readAffine(A1), Q, 'a unchanged');
      }
      for (const P of [...g1Points, ...offPoints, ...small, null]) {
        writeJac(P1, P);
        K.g1_jac_double(P1, scr);
        assert.deepEqual(readJac(P1), ref.double(P), `jac_double ${show(P)}`);
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
        const pts: AffinePoint[] = [...g1Points, ...vecPoints.slice(0, 3), ...offPoints, ...Array.from({ length: 20 }, () => randomCurvePoint(ref, rng))];
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
        const yes: AffinePoint[] = [...g1Points, g1Mul(3n), g1Mul(5n), ...vecPoints.slice(0, 3)];
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

    it('arkworks vectors: every serialized sample decodes to its point; encode reproduces the bytes exactly', () => {
      const [fu, fc] = vectorFormats(name).map((n) => fmtOf(n as PointFormatName));
      assert.ok(vec.serialization.length >= 7 && vec.serialization.some((s) => s.point === null), 'samples incl. infinity');
      const pts = vec.serialization.map((s) => toPoint(s.point));
      for (const [fmt, bytes] of [[fu, vec.serialization.map((s) => fromHex(s.uncompressed))], [fc, vec.serialization.map((s) => fromHex(s.compressed))]] as const) {
        // the reference encoder agrees with arkworks
        pts.forEach((P, i) => assert.equal(toHex(encRef(fmt.name, P)), toHex(bytes[i]), `reference ${fmt.name} sample ${i}`));
        for (let check = 0; check <= 2; check++) {
          const { res, slot, inf } = decode(bytes, fmt, check);
          assert.equal(res, -1, `${fmt.name} batch, check ${check}`);
          pts.forEach((P, i) => {
            assert.equal(inf(i), P === null ? 1 : 0, `${fmt.name} sample ${i} inf`);
            if (P === null) assert.ok(mem().slice(slot(i), slot(i) + 2 * EB).every((x) => x === 0), 'infinity slot zeroed');
            else assert.deepEqual(readAffine(slot(i)), P, `${fmt.name} sample ${i}`);
          });
        }
        pts.forEach((P, i) => assert.equal(toHex(encode(P, fmt)), toHex(bytes[i]), `encode ${fmt.name} sample ${i}`));
        // and through the decoded slots
        const { slot, inf } = decode(bytes, fmt, 2);
        pts.forEach((_, i) => {
          mem().fill(0x5a, outBuf, outBuf + fmt.bytes);
          k('encode')(outBuf, slot(i), inf(i), fmt.code, scr);
          assert.equal(toHex(mem().slice(outBuf, outBuf + fmt.bytes)), toHex(bytes[i]), `decode → encode ${fmt.name} sample ${i}`);
        });
      }
    });

    it('round trips in every format: arkworks MSM points, their negatives and infinity (check 2)', () => {
      const pts: Affine[] = [null, ...vecPoints.slice(0, 30).flatMap((P) => [P, ref.neg(P)]), null, G, ref.neg(G)];
      for (const fmt of curve.formats) {
        const encs = pts.map((P) => encode(P, fmt));
        encs.forEach((e, i) => assert.equal(toHex(e), toHex(encRef(fmt.name, pts[i])), `${fmt.name} encode [${i}]`));
        const { res, slot, inf } = decode(encs, fmt, 2);
        assert.equal(res, -1, `${fmt.name} decode`);
        pts.forEach((P, i) => {
          assert.equal(inf(i), P === null ? 1 : 0);
          if (P !== null) assert.deepEqual(readAffine(slot(i)), P, `${fmt.name} [${i}]`);
        });
      }
      assert.equal(k('decode_batch')(dstBuf, infBuf, encBuf, 0, curve.formats[0].code, 2, scr), -1, 'count 0');
    });

    if (hasFormat('eip196')) {
      // EIP-196 is Ethereum's alt_bn128 (BN254) encoding: its generator is (1, 2)
      it('EIP-196: generator (1, 2) and 2G as in Ethereum’s ecAdd tests, infinity = 64 zero bytes', () => {
        const f = fmtOf('eip196');
        const gBytes = fromHex('0'.repeat(63) + '1' + '0'.repeat(63) + '2');
        assert.equal(toHex(encode(G, f)), toHex(gBytes));
        // ecAdd((1, 2), (1, 2)) = 2G
        const twoG = fromHex(
          '030644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd3' + '15ed738c0e0a7c92e7845f96b2ae9c0a68a6a449e3538fc7ff3ebf7a5a18a2c4',
        );
        assert.equal(toHex(encode(ref.double(G), f)), toHex(twoG));
        const { res, slot, inf } = decode([gBytes, twoG, new Uint8Array(64)], f, 2);
        assert.equal(res, -1);
        assert.deepEqual(readAffine(slot(0)), G);
        assert.deepEqual(readAffine(slot(1)), ref.double(G));
        assert.equal(inf(2), 1);
        assert.equal(toHex(encode(null, f)), '00'.repeat(64));
      });
    }
    if (hasFormat('pasta')) {
      // the Pasta curves' generator is (−1, 2)
      it('pasta: x ‖ y little-endian, 32 bytes each; infinity = 64 zero bytes (not a curve point)', () => {
        const f = fmtOf('pasta');
        assert.ok(!ref.isOnCurve({ x: 0n, y: 0n }), '(0, 0) is not on y² = x³ + 5');
        const e = encode(G, f);
        assert.equal(toHex(e), toHex(new Uint8Array([...Fp.toBytesLE(p - 1n, 32), ...Fp.toBytesLE(2n, 32)])));
        assert.equal(toHex(encode(null, f)), '00'.repeat(64));
        // the same coordinate bytes as arkworks' uncompressed encoding without its flag byte
        for (const s of vec.serialization.filter((s) => s.point !== null)) {
          const P = toPoint(s.point);
          const ark = fromHex(s.uncompressed);
          assert.equal(toHex(encode(P, f)), toHex(ark.subarray(0, 64)), 'pasta = arkworks bytes 0..63');
        }
      });
    }

    it('off-curve → 2 at check ≥ 1 (accepted by parse); cofactor-1 curves accept every on-curve point at check 2', () => {
      const P = g1Points[2];
      const off = { x: P.x, y: Fp.add(P.y, 1n) };
      assert.ok(!ref.isOnCurve(off));
      for (const fmt of curve.formats.filter((f) => !f.name.endsWith('compressed'))) {
        const e = encRef(fmt.name, off);
        const { res, slot } = decode([e], fmt, 0);
        assert.equal(res, -1, `${fmt.name}: parse accepts an off-curve point`);
        assert.deepEqual(readAffine(slot(0)), off);
        assert.equal(decodeOne(e, fmt, 1), bad(0, Cat.notOnCurve), `${fmt.name} check 1`);
        assert.equal(decodeOne(e, fmt, 2), bad(0, Cat.notOnCurve), `${fmt.name} check 2`);
        // an all-zero affine pair with infinity flags cleared is not a point ((0, 0) is infinity only without flags)
        if (fmt.name.startsWith('arkworks') || fmt.name === 'zcash') {
          assert.equal(decodeOne(new Uint8Array(fmt.bytes), fmt, 1), bad(0, Cat.notOnCurve), `${fmt.name}: zeros without flag`);
        }
        if (fmt.name === 'eip196' || fmt.name === 'pasta') {
          assert.equal(decodeOne(encRef(fmt.name, { x: 0n, y: 1n }), fmt, 1), bad(0, Cat.notOnCurve), `${fmt.name}: (0, 1)`);
          assert.equal(decodeOne(encRef(fmt.name, { x: 1n, y: 0n }), fmt, 1), bad(0, Cat.notOnCurve), `${fmt.name}: (1, 0)`);
        }
      }
      const others = [...offPoints, ...small];
      for (const fmt of curve.formats) {
        const { res, slot } = decode(others.map((Q) => encRef(fmt.name, Q)), fmt, h1 === 1n ? 2 : 1);
        assert.equal(res, -1, `${fmt.name}: random curve points decode`);
        others.forEach((Q, i) => assert.deepEqual(readAffine(slot(i)), Q));
        if (h1 !== 1n) {
          const first = others.findIndex((Q) => !ref.isInSubgroup(Q));
          assert.ok(first >= 0, 'some random point is outside G1');
          assert.equal(decode(others.map((Q) => encRef(fmt.name, Q)), fmt, 2).res, bad(first, Cat.notInSubgroup), `${fmt.name} non-G1`);
        }
      }
    });

    /** Bits available to x's value in the format (flags excluded). */
    const xBits = (n: PointFormatName): number =>
      n.startsWith('zcash') ? 8 * L - 3 : n === 'arkworks-compressed' && LA === L ? 8 * L - 2 : 8 * L;
    /** Replaces x's bytes by v (any integer below 2^xBits), keeping every flag bit. */
    const setX = (n: PointFormatName, e: Uint8Array, v: bigint): Uint8Array => {
      const c = Uint8Array.from(e);
      if (n.startsWith('zcash') || n === 'eip196') {
        const fl = n === 'eip196' ? 0 : c[0] & 0xe0;
        c.set(be(v, L), 0);
        c[0] |= fl;
      } else {
        const last = c.length - 1;
        const fl = n.startsWith('arkworks') ? c[last] & 0xc0 : 0;
        c.set(le(v, L), 0);
        c[last] |= fl;
      }
      return c;
    };
    /** A G1 point whose x + p still fits below the format's flags (a non-canonical x), if any. */
    const smallFor = (n: PointFormatName) => [...g1Points, ...vecPoints].find((Q) => Q.x + p < 1n << BigInt(xBits(n)));

    it('malformed encodings → 1 at every check level (flags, coordinates ≥ p, bad infinity, no root)', () => {
      const P = g1Points[1];
      const Pn = ref.neg(P);
      const mutate = (e: Uint8Array, f: (c: Uint8Array) => void) => {
        const c = Uint8Array.from(e);
        f(c);
        return c;
      };
      let noRoot = 0n;
      while (Fp.sqrt(Fp.add(Fp.pow(noRoot, 3n), b)) !== undefined) noRoot++;
      const cases: [PointFormatName, Uint8Array, string][] = [];
      let nonCanonicalX = 0;
      for (const fmt of curve.formats) {
        const n = fmt.name;
        const e = encRef(n, P);
        const eInf = encRef(n, null);
        const last = fmt.bytes - 1;
        cases.push(
          [n, setX(n, e, p), 'x = p'],
          [n, setX(n, e, (1n << BigInt(xBits(n))) - 1n), 'x = all ones below the flags'],
        );
        const lowP = smallFor(n);
        if (lowP) {
          cases.push([n, setX(n, encRef(n, lowP), lowP.x + p), 'x + p']);
          nonCanonicalX++;
        }
        if (n === 'arkworks' || n === 'arkworks-compressed') {
          cases.push(
            [n, mutate(eInf, (c) => (c[last] |= 0x80)), 'infinity and YIsNegative both set'],
            [n, mutate(e, (c) => (c[last] |= 0xc0)), 'both flags on a point'],
            [n, mutate(eInf, (c) => (c[0] = 1)), 'infinity with x byte 0'],
            [n, mutate(eInf, (c) => (c[L - 1] |= 0x01)), 'infinity with a bit in x’s top byte'],
            [n, mutate(eInf, (c) => (c[last] |= 0x01)), 'infinity with bit 0 of the flag byte'],
            [n, mutate(eInf, (c) => (c[last] |= 0x20)), 'infinity with bit 5 of the flag byte'],
          );
          if (LA > L) {
            cases.push(
              [n, mutate(e, (c) => (c[last] |= 0x01)), 'extra flag byte: bit 0 set on a point'],
              [n, mutate(e, (c) => (c[last] |= 0x20)), 'extra flag byte: bit 5 set on a point'],
              [n, mutate(e, (c) => (c[last - 1] |= 0x80)), 'bit 8L − 1 of the flagged coordinate (≥ 2^255 > p)'],
            );
          }
          if (n === 'arkworks') {
            const setY = (c: Uint8Array, v: bigint) => {
              const fl = c[last] & 0xc0;
              c.set(le(v, L), L);
              c[last] |= fl;
            };
            cases.push(
              [n, mutate(e, (c) => (c[last] ^= 0x80)), 'YIsNegative flipped'],
              [n, mutate(encRef(n, Pn), (c) => (c[last] ^= 0x80)), 'YIsNegative flipped (other sign)'],
              [n, mutate(eInf, (c) => (c[L] = 1)), 'infinity with y byte 0'],
              [n, mutate(e, (c) => setY(c, p)), 'y = p'],
              [n, mutate(e, (c) => setY(c, p + P.y)), 'y + p (flags kept)'],
            );
            if (LA === L) cases.push([n, mutate(e, (c) => setY(c, (1n << BigInt(8 * L - 2)) - 1n)), 'y = all ones below the flags']);
          } else {
            cases.push(
              [n, encRef(n, { x: noRoot, y: 0n }), `x = ${noRoot}: x³ + b not a square`],
              [n, mutate(encRef(n, { x: noRoot, y: 0n }), (c) => (c[last] |= 0x80)), 'no root, YIsNegative set'],
            );
            for (const Z of order2.filter((Q) => Q.y === 0n)) {
              cases.push([n, mutate(encRef(n, Z), (c) => (c[last] |= 0x80)), 'y = 0 with YIsNegative set']);
            }
          }
        } else if (n === 'eip196' || n === 'pasta') {
          const enc = n === 'eip196' ? be : le;
          const at = (c: Uint8Array, off: number, v: bigint) => c.set(enc(v, L), off);
          const top = (off: number) => (n === 'eip196' ? off : off + L - 1); // offset of the most significant byte
          cases.push(
            [n, mutate(e, (c) => at(c, L, p)), 'y = p'],
            [n, mutate(e, (c) => at(c, L, p + P.y)), 'y + p'],
            [n, mutate(eInf, (c) => at(c, 0, p)), 'x = p, y = 0'],
            [n, mutate(eInf, (c) => at(c, L, p)), 'x = 0, y = p'],
            [n, mutate(e, (c) => (c[top(0)] |= 0x80)), 'bit 255 of x (no flags in this format)'],
            [n, mutate(e, (c) => (c[top(L)] |= 0x40)), 'bit 254 of y'],
            [n, mutate(eInf, (c) => (c[top(L)] |= 0x80)), 'zero x, bit 255 of y'],
          );
        } else {
          // the ZCash formats are covered exhaustively in curve.test.ts; a few here
          cases.push(
            [n, mutate(e, (c) => (c[0] ^= 0x80)), 'compression flag flipped'],
            [n, mutate(eInf, (c) => (c[L - 1] = 1)), 'infinity with an x byte'],
          );
        }
      }
      assert.ok(nonCanonicalX > 0, 'x + p exercised in some format');
      for (const [n, e, what] of cases) {
        for (let check = 0; check <= 2; check++) {
          assert.equal(decodeOne(e, fmtOf(n), check), bad(0, Cat.malformed), `${n}: ${what}, check ${check}`);
        }
      }
      // the unmutated encodings decode (so each case fails for its own reason)
      for (const fmt of curve.formats) {
        const lowP = smallFor(fmt.name);
        for (const Q of [P, Pn, null, ...(lowP ? [lowP] : [])]) assert.equal(decodeOne(encRef(fmt.name, Q), fmt, 2), -1, `${fmt.name} ${show(Q)} valid`);
      }
    });

    it('decode_batch: first bad index reported, nothing written for it or after it', () => {
      const pts: Affine[] = [G, null, g1Points[1], g1Points[2], null, g1Points[3], g1Points[4], G];
      let noRoot = 0n;
      while (Fp.sqrt(Fp.add(Fp.pow(noRoot, 3n), b)) !== undefined) noRoot++;
      for (const fmt of curve.formats) {
        const compressed = fmt.name.endsWith('compressed');
        const encs = pts.map((P) => encRef(fmt.name, P));
        encs[5] = compressed ? encRef(fmt.name, { x: noRoot, y: 0n }) : encRef(fmt.name, { x: G.x, y: Fp.add(G.y, 2n) });
        encs[6] = setX(fmt.name, encs[6], p); // malformed further on
        const code = compressed ? Cat.malformed : Cat.notOnCurve;
        const { res, slot, inf } = decode(encs, fmt, 2);
        assert.equal(res, bad(5, code), `${fmt.name}`);
        for (let i = 0; i < 5; i++) {
          assert.equal(inf(i), pts[i] === null ? 1 : 0);
          if (pts[i] !== null) assert.deepEqual(readAffine(slot(i)), pts[i]);
        }
        for (let i = 5; i < pts.length; i++) {
          assert.equal(inf(i), 0xcd, `inf[${i}] untouched`);
          assert.ok(mem().slice(slot(i), slot(i) + 2 * EB).every((x) => x === 0xcd), `dst[${i}] untouched`);
        }
        if (!compressed) assert.equal(decode(encs, fmt, 0).res, bad(6, Cat.malformed), `${fmt.name}: parse only stops at index 6`);
      }
    });

    it('unsupported format codes and check levels trap (decode and encode)', () => {
      const codes = new Set(curve.formats.map((f) => f.code));
      for (let code = 0; code < 8; code++) {
        if (codes.has(code)) continue;
        assert.throws(() => k('decode_batch')(dstBuf, infBuf, encBuf, 1, code, 0, scr), WebAssembly.RuntimeError, `decode format ${code}`);
        assert.throws(() => k('encode')(outBuf, A1, 1, code, scr), WebAssembly.RuntimeError, `encode format ${code}`);
      }
      assert.throws(() => k('decode_batch')(dstBuf, infBuf, encBuf, 1, curve.formats[0].code, 3, scr), WebAssembly.RuntimeError);
      assert.throws(() => k('decode_batch')(dstBuf, infBuf, encBuf, 0, -1, 0, scr), WebAssembly.RuntimeError);
    });

    if (NP && hasFormat('zcash') && hasFormat('zcash-compressed') && hasFormat('arkworks')) {
      // ------------------------------------------------------------------ the ZCash formats in depth, against noble
      // (BLS12-381; formats by code: 0 zcash, 1 zcash-compressed, 2 arkworks — the CODE table above)
      const ZP = NP;
      const B = Fp.bytes;
      /** bits of x below ZCash's three flag bits */
      const XB = 8 * B - 3;
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
            if (fmt === 1) assert.ok(mem().slice(out + B, out + 2 * B).every((b) => b === 0x5a), `compressed writes ${B} bytes only`);
          }
        }
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
        // a point whose x + p still fits below the flags (for a non-canonical x with valid flags)
        let lowX: AffinePoint = G;
        for (let j = 1n; ; j++) {
          lowX = g1Mul(j);
          if (lowX.x + p < 1n << BigInt(XB)) break;
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
          [0, mutate(uInf, (c) => (c[B - 1] = 0x80)), 'infinity with x’s last byte'],
          [0, mutate(uInf, (c) => (c[B] = 1)), 'infinity with y byte 0'],
          [0, mutate(uInf, (c) => (c[2 * B - 1] = 1)), 'infinity with y’s last byte'],
          [0, mutate(zcash(lowX, false), (c) => setBE(c, 0, lowX.x + p)), 'x + p'],
          [0, mutate(u, (c) => setBE(c, 0, p)), 'x = p'],
          [0, mutate(u, (c) => setBE(c, 0, (1n << BigInt(XB)) - 1n)), 'x = all ones below the flags'],
          [0, mutate(u, (c) => setBE(c, B, P.y + p)), 'y + p'],
          [0, mutate(u, (c) => setBE(c, B, p)), 'y = p'],
          [0, mutate(u, (c) => (c[B] |= 0x80)), 'top bit of y'],
        );
        // format 1 (ZCash compressed)
        const c1 = zcash(P, true);
        const cInf = zcash(null, true);
        let noRoot = 0n;
        while (Fp.sqrt(Fp.add(Fp.pow(noRoot, 3n), b)) !== undefined) noRoot++;
        cases.push(
          [1, mutate(c1, (c) => (c[0] &= 0x7f)), 'compression flag clear'],
          [1, mutate(cInf, (c) => (c[0] |= 0x20)), 'sort flag on compressed infinity'],
          [1, mutate(cInf, (c) => (c[0] |= 0x10)), 'infinity with x bit in byte 0'],
          [1, mutate(cInf, (c) => (c[B - 1] = 1)), 'infinity with x’s last byte'],
          [1, mutate(cInf, (c) => (c[20] = 0xff)), 'infinity with x byte 20'],
          [1, mutate(zcash(lowX, true), (c) => setBE(c, 0, lowX.x + p)), 'x + p (flags kept)'],
          [1, mutate(c1, (c) => setBE(c, 0, p)), 'x = p'],
          [1, (() => { const c = bigintToBytesLE(noRoot, B).reverse(); c[0] |= 0x80; return c; })(), `x = ${noRoot}: x³ + b not a square`],
          [1, (() => { const c = bigintToBytesLE(noRoot, B).reverse(); c[0] |= 0xa0; return c; })(), 'no root, sort flag set'],
        );
        // format 2 (arkworks)
        const a = ark(P);
        const aInf = ark(null);
        const aNeg = ark(ref.neg(P));
        cases.push(
          [2, mutate(aInf, (c) => (c[2 * B - 1] |= 0x80)), 'infinity and YIsNegative both set'],
          [2, mutate(a, (c) => (c[2 * B - 1] ^= 0x80)), 'YIsNegative flag flipped'],
          [2, mutate(aNeg, (c) => (c[2 * B - 1] ^= 0x80)), 'YIsNegative flag flipped (other parity)'],
          [2, mutate(a, (c) => (c[2 * B - 1] |= 0x20)), 'bit 5 of the last byte (y ≥ 2^(8B − 3))'],
          [2, mutate(aInf, (c) => (c[0] = 1)), 'infinity with x byte 0'],
          [2, mutate(aInf, (c) => (c[B - 1] = 0x80)), 'infinity with x’s last byte'],
          [2, mutate(aInf, (c) => (c[B] = 1)), 'infinity with y byte 0'],
          [2, mutate(aInf, (c) => (c[2 * B - 1] |= 0x01)), 'infinity with y bit in the flag byte'],
          [2, mutate(aInf, (c) => (c[2 * B - 1] |= 0x20)), 'infinity with bit 5 of the flag byte'],
          [2, mutate(ark(lowX), (c) => setLE(c, 0, lowX.x + p)), 'x + p'],
          [2, mutate(a, (c) => setLE(c, 0, p)), 'x = p'],
          [2, mutate(a, (c) => { const flag = c[2 * B - 1] & 0xc0; setLE(c, B, p); c[2 * B - 1] |= flag; }), 'y = p'],
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
          encs[6][fmt === 2 ? 2 * B - 1 : 0] ^= 0x40; // flag damage further on
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

/** Runs only the CurveGen constructor (generation-time assertions), no emission or assembly. */
function newCurveGen(params: CurveParams, subgroupT?: bigint, formats?: PointFormatName[]): CurveGen {
  const mb = new ModuleBuilder([], { imported: false, shared: false, initialPages: 1, maximumPages: 1 });
  const fp = new FieldGen(mb, { name: 'fp', p: params.p, w: 30 });
  return new CurveGen(mb, fp, params, 'g1', { ...(subgroupT === undefined ? {} : { subgroupT }), ...(formats ? { formats } : {}) });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * The codecs on the limb layouts the template above does not run (w = 29 CIOS, w = 26 Karatsuba:
 * other element sizes): arkworks' vectors decode and re-encode byte for byte in every format the
 * curve has, and the subgroup check still separates G1.
 */
describe('G1 codecs on other limb layouts (w = 29 cios-loop, w = 26 karatsuba)', () => {
  for (const field of [{ w: 29, mul: 'cios-loop' }, { w: 26, mul: 'karatsuba' }] as const) {
    for (const name of curveNames) {
      if (configs.some((c) => c.name === name && sameLayout(c, field))) continue;
      const params = curves[name];
      it(`${name}, w = ${field.w} ${field.mul}`, async () => {
        const { inst, curve } = await devCurveInstance(params, field, { formats: registry[name].formats });
        const ref = new RefCurve(params);
        const F = inst.fields.fp;
        const EB = F.info.elementBytes;
        assert.equal(EB, 4 * Math.ceil((bitLen(params.p) + 2) / field.w), 'element size from the layout');
        const k = inst.exports as Record<string, Kernel>;
        const mem = () => new Uint8Array(inst.memory.buffer);
        const vec = loadVectors(name);
        const pts = vec.serialization.map((s) => toPoint(s.point));
        const MAX = 2 * 49;
        const src = inst.arena.alloc(pts.length * MAX);
        const dst = inst.arena.alloc(pts.length * 2 * EB);
        const inf = inst.arena.alloc(pts.length);
        const out = inst.arena.alloc(MAX);
        const scr = inst.arena.alloc(curve.scratchBytes('decode') + 64);
        const [fu, fc] = vectorFormats(name).map((n) => curve.formats.find((f) => f.name === n)!);
        const samples: [CurveFormat, Uint8Array[]][] = [
          [fu, vec.serialization.map((s) => fromHex(s.uncompressed))],
          [fc, vec.serialization.map((s) => fromHex(s.compressed))],
        ];
        // the other formats: bytes from the decoded points, checked by a second decode
        for (const fmt of curve.formats) {
          if (fmt === fu || fmt === fc) continue;
          const encs: Uint8Array[] = [];
          samples[0][1].forEach((e, i) => mem().set(e, src + i * fu.bytes));
          assert.equal(k.g1_decode_batch(dst, inf, src, pts.length, fu.code, 2, scr), -1, 'decode for re-encoding');
          for (let i = 0; i < pts.length; i++) {
            k.g1_encode(out, dst + i * 2 * EB, mem()[inf + i], fmt.code, scr);
            encs.push(mem().slice(out, out + fmt.bytes));
          }
          samples.push([fmt, encs]);
        }
        for (const [fmt, encs] of samples) {
          encs.forEach((e, i) => mem().set(e, src + i * fmt.bytes));
          assert.equal(k.g1_decode_batch(dst, inf, src, pts.length, fmt.code, 2, scr), -1, `${fmt.name} decodes`);
          pts.forEach((P, i) => {
            assert.equal(mem()[inf + i], P === null ? 1 : 0, `${fmt.name} [${i}] inf`);
            if (P !== null) assert.deepEqual({ x: F.read(dst + i * 2 * EB), y: F.read(dst + i * 2 * EB + EB) }, P, `${fmt.name} [${i}]`);
            k.g1_encode(out, dst + i * 2 * EB, mem()[inf + i], fmt.code, scr);
            assert.equal(toHex(mem().slice(out, out + fmt.bytes)), toHex(encs[i]), `${fmt.name} [${i}] re-encodes`);
          });
        }
        if (params.h1 !== 1n) {
          // a random curve point outside G1 is rejected with code 3
          const rng = makeRng(field.w);
          let Q: AffinePoint | undefined;
          while (!Q) {
            const x = ref.Fp.random(rng);
            const y = ref.Fp.sqrt(ref.Fp.add(ref.Fp.pow(x, 3n), params.b));
            if (y !== undefined) Q = { x, y };
          }
          F.write(dst, Q.x);
          F.write(dst + EB, Q.y);
          k.g1_encode(out, dst, 0, fu.code, scr);
          assert.equal(category(k.g1_decode_batch(dst, inf, out, 1, fu.code, 2, scr)), (0 << 2) | Cat.notInSubgroup, 'non-G1 point rejected');
          assert.equal(k.g1_decode_batch(dst, inf, out, 1, fu.code, 1, scr), -1, 'but on the curve');
        }
      });
    }
  }
});
