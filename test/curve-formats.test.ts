/**
 * G1 kernels (src/codegen/curve.ts) on all five curves — BLS12-381, BN254, BLS12-377, Pallas,
 * Vesta — each in its own module (Fp with w = 30, Karatsuba): the per-curve point formats against
 * arkworks' serialized bytes (vectors/<curve>.json) and against encoders built here from the
 * format rules, EIP-196 and Pasta round trips, every malformed class with its code and index,
 * XYZZ arithmetic against RefCurve, and the subgroup check (the endomorphism test on BLS12-377,
 * the constant 1 on the cofactor-1 curves). BLS12-381 is covered in depth by curve.test.ts; here
 * it is checked against its (ZCash-format) arkworks vectors like the others.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CurveGen, curveFormats, type CurveFormat } from '../src/codegen/curve.js';
import { devCurveInstance } from '../src/testing/dev-instance.js';
import { PointFormat, type PointFormatName } from '../src/abi/codes.js';
import { Cat, category } from './helpers/point-status.js';
import { FieldGen } from '../src/codegen/field.js';
import { ModuleBuilder } from '../src/codegen/wat.js';
import { curves, registry, type CurveName } from '../src/curves/index.js';
import type { CurveParams } from '../src/curves/types.js';
import { RefCurve, type Affine, type AffinePoint } from '../src/reference/curve.js';
import { bigintToBytesLE } from '../src/reference/field.js';
import { makeRng } from '../src/reference/rng.js';
import { pointMemory } from './helpers/point-memory.js';

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

/** What each curve must offer: [name, code, bytes], primary format first. */
const EXPECTED: Record<CurveName, [PointFormatName, number, number][]> = {
  'bls12-381': [['zcash', 0, 96], ['zcash-compressed', 1, 48], ['arkworks', 2, 96]],
  bn254: [['eip196', 4, 64], ['arkworks', 2, 64], ['arkworks-compressed', 3, 32]],
  'bls12-377': [['arkworks', 2, 96], ['arkworks-compressed', 3, 48]],
  pallas: [['pasta', 5, 64], ['arkworks', 2, 65], ['arkworks-compressed', 3, 33]],
  vesta: [['pasta', 5, 64], ['arkworks', 2, 65], ['arkworks-compressed', 3, 33]],
};
/** The formats of arkworks' own serialization in the vector files (ark-bls12-381 uses ZCash's). */
const VECTOR_FORMATS: Record<CurveName, [uncompressed: PointFormatName, compressed: PointFormatName]> = {
  'bls12-381': ['zcash', 'zcash-compressed'],
  bn254: ['arkworks', 'arkworks-compressed'],
  'bls12-377': ['arkworks', 'arkworks-compressed'],
  pallas: ['arkworks', 'arkworks-compressed'],
  vesta: ['arkworks', 'arkworks-compressed'],
};

// Build all modules up front (≈ 50 ms each).
const devs = new Map<CurveName, Awaited<ReturnType<typeof devCurveInstance>>>();
for (const name of Object.keys(curves) as CurveName[]) devs.set(name, await devCurveInstance(curves[name], { w: 30, mul: 'karatsuba' }, { formats: registry[name].formats }));

for (const [name, params] of Object.entries(curves) as [CurveName, CurveParams][]) {
  const dev = devs.get(name)!;
  const { inst, curve, wat } = dev;
  const ref = new RefCurve(params);
  const Fp = ref.Fp;
  const { p, r, h1, b } = params;
  const rng = makeRng(0xf0 + name.length * 7 + Number(b));
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

  // ---------------------------------------------------------------- memory helpers
  const { writeAffine, readAffine, writeXyzz, readXyzz, show } = pointMemory(F, Fp, rng);

  // ---------------------------------------------------------------- points
  const G = ref.G;
  const vecPoints = vec.cases.flatMap((c) => c.points.map(toPoint)).filter((P): P is AffinePoint => P !== null);
  const g1Points: AffinePoint[] = [G, ...vecPoints.slice(0, 6)];
  /** Random point of E(F_p): random x, y = ±√(x³ + b). Outside G1 almost surely when h1 > 1. */
  const randomCurvePoint = (): AffinePoint => {
    for (;;) {
      const x = Fp.random(rng);
      const y = Fp.sqrt(Fp.add(Fp.pow(x, 3n), b));
      if (y !== undefined) return { x, y: rng.nextBigint(1) ? y : Fp.neg(y) };
    }
  };
  const curvePoints: AffinePoint[] = Array.from({ length: 4 }, randomCurvePoint);
  /** Small-order points where they exist: (0, ±√b) of order 3, (∛−b, 0) of order 2. */
  const special: AffinePoint[] = [];
  {
    const y0 = Fp.sqrt(b);
    if (y0 !== undefined) special.push({ x: 0n, y: y0 }, { x: 0n, y: Fp.neg(y0) });
    for (let x = 0n; x < 1000n; x++) {
      if (Fp.add(Fp.pow(Fp.neg(x), 3n), b) === 0n) special.push({ x: Fp.neg(x), y: 0n });
    }
  }

  // buffers
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

  describe(`G1 kernels and point formats, ${name} (fp w = 30, karatsuba)`, () => {
    it('generation: format table, byte sizes, subgroup parameter, scratch sizes', () => {
      assert.deepEqual(curve.formats.map((f) => [f.name, f.code, f.bytes]), EXPECTED[name]);
      assert.deepEqual(curveFormats(params, registry[name].formats), curve.formats, 'curveFormats(params, descriptor formats) = the generator’s table');
      for (const f of curve.formats) assert.equal(f.code, ({ zcash: 0, 'zcash-compressed': 1, arkworks: 2, 'arkworks-compressed': 3, eip196: 4, pasta: 5 } as const)[f.name], `${f.name}: kernel code`);
      for (const f of curve.formats) assert.equal(PointFormat[f.name], f.code, `${f.name}: the ABI's code table`);
      assert.equal(curve.B, L);
      assert.equal(curve.BA, LA);
      assert.equal(curve.EB, EB);
      const s = curve.scratchElements;
      if (h1 === 1n) {
        assert.equal(curve.subgroupT, undefined, 'cofactor 1: no subgroup test');
        assert.equal(s.subgroup, 0);
        assert.equal(s.decode, 26);
        const at = wat.indexOf('(func $g1_is_in_subgroup (param');
        const fn = wat.slice(at, wat.indexOf('(func', at + 5));
        assert.match(wat, /g1_is_in_subgroup\(p, scratch\) → 1, always: the cofactor of \S+ is 1/, 'header says why');
        assert.match(fn, /\(return \(i32\.const 1\)\)/, 'body returns 1');
        assert.doesNotMatch(fn, /call/, 'body does no work');
      } else {
        assert.equal(s.subgroup, 24);
        assert.equal(s.decode, 29);
      }
      if (name === 'bls12-377') {
        const z = 0x8508c00000000001n;
        assert.equal(curve.subgroupT, z, 't = z');
        assert.equal(params.lambda, z * z - 1n, 'lambda = z² − 1');
        // m = t² − 1 = lambda, so deg(ψ − [m]) = m² + m + 1 = r exactly and gcd(deg, #E) = r
        const m = z * z - 1n;
        assert.equal(m * m + m + 1n, r, 'deg(ψ − [t² − 1]) = r');
        assert.equal(h1 % r === 0n, false, 'r ∤ h1');
        assert.throws(() => newCurveGen(params, z + 2n), /lambda/);
      }
      if (name === 'bls12-381') assert.equal(curve.subgroupT, 0xd201000000010000n);
      // formats the curve cannot carry
      if (L * 8 - bitLen(p) < 3) assert.throws(() => curveFormats(params, ['zcash']), /3 flag bits/);
      assert.throws(() => curveFormats(params, ['arkworks', 'arkworks']), /repeated/);
      assert.deepEqual(newCurveGen(params, undefined, ['eip196', 'pasta']).formats.map((f) => f.code), [4, 5]);
    });

    it('arkworks vectors: every serialized sample decodes to its point; encode reproduces the bytes exactly', () => {
      const [fu, fc] = VECTOR_FORMATS[name].map(fmtOf);
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

    if (name === 'bn254') {
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
    if (name === 'pallas' || name === 'vesta') {
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
      const others = [...curvePoints, ...special];
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
        const small = smallFor(n);
        if (small) {
          cases.push([n, setX(n, encRef(n, small), small.x + p), 'x + p']);
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
            for (const Z of special.filter((Q) => Q.y === 0n)) {
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
        const small = smallFor(fmt.name);
        for (const Q of [P, Pn, null, ...(small ? [small] : [])]) assert.equal(decodeOne(encRef(fmt.name, Q), fmt, 2), -1, `${fmt.name} ${show(Q)} valid`);
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

    // ---------------------------------------------------------------- arithmetic
    const pairs: [Affine, Affine][] = [];
    {
      const pts: Affine[] = [g1Points[0], g1Points[3], curvePoints[0], curvePoints[1], ...special.slice(0, 1), ...special.filter((Q) => Q.y === 0n)];
      for (const P of pts) {
        pairs.push([P, P], [P, ref.neg(P)], [P, null], [null, P]);
        for (const Q of pts) if (Q !== P) pairs.push([P, Q]);
      }
      pairs.push([null, null], [G, ref.double(G)], [ref.double(G), G]);
    }

    it('xyzz_add, xyzz_add_affine, xyzz_double(_affine), xyzz_eq vs RefCurve (all exceptional cases)', () => {
      for (const [P, Q] of pairs) {
        writeXyzz(P1, P);
        writeXyzz(P2, Q);
        k('xyzz_add')(P1, P2, scr);
        assert.deepEqual(readXyzz(P1), ref.add(P, Q), `add ${show(P)} + ${show(Q)}`);
        writeXyzz(P1, P);
        writeXyzz(P2, Q);
        assert.equal(k('xyzz_eq')(P1, P2, scr), ref.eq(P, Q) ? 1 : 0, `eq ${show(P)} ${show(Q)}`);
        if (Q === null) continue;
        writeXyzz(P1, P);
        writeAffine(A1, Q, true);
        k('xyzz_add_affine')(P1, A1, scr);
        assert.deepEqual(readXyzz(P1), ref.add(P, Q), `add_affine ${show(P)} + ${show(Q)}`);
      }
      for (const P of [...g1Points.slice(0, 3), ...curvePoints, ...special, null]) {
        writeXyzz(P1, P);
        k('xyzz_double')(P1, scr);
        assert.deepEqual(readXyzz(P1), ref.double(P), `double ${show(P)}`);
        writeXyzz(P1, P);
        k('xyzz_add')(P1, P1, scr);
        assert.deepEqual(readXyzz(P1), ref.double(P), `add aliased ${show(P)}`);
        if (P === null) continue;
        writeAffine(A1, P, true);
        k('xyzz_double_affine')(P1, A1, scr);
        assert.deepEqual(readXyzz(P1), ref.double(P), `double_affine ${show(P)}`);
      }
    });

    it('xyzz_to_affine, from_affine, neg, mul_small vs RefCurve', () => {
      for (const P of [...g1Points, ...curvePoints, ...special]) {
        writeXyzz(P1, P);
        assert.equal(k('xyzz_to_affine')(A1, P1, scr), 0);
        assert.deepEqual(readAffine(A1), P);
        assert.ok(F.readLimbs(A1) < p && F.readLimbs(A1 + EB) < p, 'to_affine output canonical');
        writeAffine(A1, P, true);
        k('xyzz_from_affine')(P1, A1);
        k('xyzz_neg')(P1);
        assert.deepEqual(readXyzz(P1), ref.neg(P));
      }
      writeXyzz(P1, null);
      mem().fill(0xab, A1, A1 + 2 * EB);
      assert.equal(k('xyzz_to_affine')(A1, P1, scr), 1, 'to_affine(O) = 1');
      assert.ok(mem().slice(A1, A1 + 2 * EB).every((x) => x === 0xab), 'dst untouched for O');
      for (const P of [G, curvePoints[2], ...special.slice(-1), null]) {
        for (const kk of [0, 1, 2, 3, 6, 255, 0x7fffffff, rng.nextU32() >>> 1]) {
          writeXyzz(P1, P);
          k('xyzz_mul_small')(P1, kk, scr);
          assert.deepEqual(readXyzz(P1), ref.mul(P, BigInt(kk)), `mul_small ${kk}·${show(P)}`);
        }
      }
      // endo acts as lambda on G1
      writeAffine(A1, G);
      k('endo')(A1, A1);
      assert.deepEqual(readAffine(A1), ref.mul(G, params.lambda));
    });

    it(h1 === 1n ? 'is_in_subgroup: cofactor 1, every on-curve point → 1' : 'is_in_subgroup: multiples of G → 1; random curve points, torsion points → 0', () => {
      if (h1 === 1n) {
        for (const P of [...g1Points, ...curvePoints, ...Array.from({ length: 6 }, randomCurvePoint)]) {
          writeAffine(A1, P, true);
          assert.equal(k('is_in_subgroup')(A1, scr), 1, `${show(P)}`);
        }
        for (const P of curvePoints.slice(0, 2)) assert.ok(ref.isInSubgroup(P), 'reference: a random curve point is in G1');
        return;
      }
      const yes: AffinePoint[] = [...g1Points, ref.double(G) as AffinePoint];
      for (const s of [3n, 5n, r - 1n, rng.nextBelow(r)]) yes.push(ref.mul(G, s) as AffinePoint);
      for (let j = 0; j < 3; j++) yes.push(ref.mul(randomCurvePoint(), h1) as AffinePoint);
      const no: AffinePoint[] = [...curvePoints, ...special];
      for (let j = 0; j < 2; j++) {
        const T = ref.mul(randomCurvePoint(), r); // order divides h1
        assert.ok(T !== null, 'torsion point');
        no.push(T, ref.add(G, T) as AffinePoint);
      }
      for (let j = 0; j < 12; j++) no.push(randomCurvePoint());
      for (const P of yes) {
        writeAffine(A1, P, true);
        assert.equal(k('is_in_subgroup')(A1, scr), 1, `G1 point ${show(P)}`);
      }
      for (const P of no) {
        writeAffine(A1, P, true);
        assert.equal(k('is_in_subgroup')(A1, scr), 0, `non-G1 point ${show(P)}`);
      }
      // the naive reference on a sample of both
      for (const P of [yes[1], yes[yes.length - 1], ...no.slice(0, 4), no[no.length - 1]]) {
        assert.equal(ref.isInSubgroup(P), yes.includes(P), `reference agrees on ${show(P)}`);
      }
    });
  });
}

/** Runs only the CurveGen constructor (generation-time assertions), no emission or assembly. */
function newCurveGen(params: CurveParams, subgroupT?: bigint, formats?: PointFormatName[]): CurveGen {
  const mb = new ModuleBuilder([], { imported: false, shared: false, initialPages: 1, maximumPages: 1 });
  const fp = new FieldGen(mb, { name: 'fp', p: params.p, w: 30 });
  return new CurveGen(mb, fp, params, 'g1', { ...(subgroupT === undefined ? {} : { subgroupT }), ...(formats ? { formats } : {}) });
}

/**
 * The codecs on other limb layouts (w = 29 CIOS is the production layout of BN254, Pallas and
 * Vesta; w = 26 gives different element sizes): arkworks' vectors decode and re-encode byte for
 * byte in every format the curve has, and the subgroup check still separates G1.
 */
describe('G1 codecs on other limb layouts (w = 29 cios-loop, w = 26 karatsuba)', () => {
  for (const field of [{ w: 29, mul: 'cios-loop' }, { w: 26, mul: 'karatsuba' }] as const) {
    for (const [name, params] of Object.entries(curves) as [CurveName, CurveParams][]) {
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
        const [fu, fc] = VECTOR_FORMATS[name].map((n) => curve.formats.find((f) => f.name === n)!);
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
