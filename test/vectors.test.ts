/**
 * The curve descriptors and the bigint reference checked against arkworks: every curve in the
 * registry (src/curves/index.ts) has a file vectors/<curve>.json written by vectors/src/main.rs
 * (scripts/make-vectors.sh) with arkworks' curve constants, MSM cases whose expected sums
 * arkworks computed, and points next to arkworks' serialized bytes. For BLS12-381 and BN254 the
 * file's `g2` member has the same for G2, checked against pippin's public G2 API (msmSync, msm,
 * toBytes, decoding in every format arkworks produces).
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { curves, type CurveName } from '../src/curves/index.js';
import { checkCurveParams } from '../src/curves/check.js';
import type { CurveParams } from '../src/curves/types.js';
import { RefCurve, type Affine } from '../src/reference/curve.js';
import { makeRng } from '../src/reference/rng.js';
import { curves as apiCurves, type G2Affine as ApiG2Affine, type G2PointInput } from '../src/index.js';
import { g2CurveNames, vectorFormats } from './helpers/registry.js';
import { g2Params, type G2CurveName } from '../src/curves/index.js';
import { RefG2, type G2Point } from '../src/reference/g2.js';

interface JsonPoint {
  x: string;
  y: string;
}
type JsonFp2 = [string, string];
interface JsonG2Point {
  x: JsonFp2;
  y: JsonFp2;
}
interface VectorCase<P> {
  name: string;
  n: number;
  points: (P | null)[];
  scalars: string[];
  expected: P | null;
}
/** The `g2` member (BLS12-381, BN254). `ark_ec_*`: ark-ec's generic encoding where the curve crate overrides it. */
interface G2Section {
  constants: { b: JsonFp2; generator: JsonG2Point; cofactor: string; glv_beta: JsonFp2; glv_lambda: string };
  cases: VectorCase<JsonG2Point>[];
  serialization: { point: JsonG2Point | null; uncompressed: string; compressed: string; ark_ec_uncompressed?: string; ark_ec_compressed?: string }[];
}
interface VectorFile {
  curve: string;
  constants: {
    p: string;
    r: string;
    a: string;
    b: string;
    generator: JsonPoint;
    cofactor: string;
    glv_beta: string;
    glv_lambda: string;
  };
  cases: VectorCase<JsonPoint>[];
  serialization: { point: JsonPoint | null; uncompressed: string; compressed: string }[];
  g2?: G2Section;
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);
const bits = (x: bigint): number => (x === 0n ? 0 : abs(x).toString(2).length);
const toPoint = (p: JsonPoint | null): Affine => (p === null ? null : { x: BigInt(p.x), y: BigInt(p.y) });
const fromHex = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
const leToBigint = (b: Uint8Array): bigint => b.reduceRight((acc, v) => (acc << 8n) | BigInt(v), 0n);
const beToBigint = (b: Uint8Array): bigint => b.reduce((acc, v) => (acc << 8n) | BigInt(v), 0n);

function loadVectors(name: string): VectorFile {
  const url = new URL(`../vectors/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as VectorFile;
}

/**
 * Whether r = λ² + λ + 1 holds exactly (as integers) for the descriptor's lambda. The Wasm GLV
 * split relies on it for BLS12-381 (k2 = ⌊s/λ⌋ gives two non-negative halves < 2^128); curves
 * without it need the general lattice split. Recorded here so a descriptor change is noticed.
 */
const R_IS_LAMBDA_NORM: Record<CurveName, boolean> = {
  'bls12-381': true,
  bn254: false,
  'bls12-377': true,
  pallas: false,
  vesta: false,
};

/**
 * Decode arkworks' bytes for a G1 point. A crate that follows ZCash (vectorFormats: ark-bls12-381 ≥ 0.4) writes:
 * big-endian, flags in the top bits of byte 0 (compressed 0x80, infinity 0x40, y is the larger
 * root 0x20). Every other curve here uses ark-ec's generic short-Weierstrass format: x‖y
 * little-endian, each ⌈bits(p)/8⌉ bytes, and the last element widened to ⌈(bits(p) + 2)/8⌉ bytes
 * to hold two flags in the top bits of its last byte (infinity 0x40, y > (p − 1)/2 0x80). For the
 * 255-bit Pasta primes that widening adds a whole byte (compressed 33, uncompressed 65 bytes).
 */
function decodeArkworks(c: CurveParams, curve: RefCurve, bytes: Uint8Array, compressed: boolean): Affine {
  const fieldBytes = Math.ceil(bits(c.p) / 8);
  const isNegY = (y: bigint): boolean => y > (c.p - 1n) / 2n;
  if (vectorFormats(c.name as CurveName)[0] === 'zcash') {
    assert.equal(bytes.length, compressed ? fieldBytes : 2 * fieldBytes, 'zcash length');
    const flags = bytes[0]!;
    assert.equal(Boolean(flags & 0x80), compressed, 'zcash compression flag');
    const body = Uint8Array.from(bytes);
    body[0] = flags & 0x1f;
    const x = beToBigint(body.subarray(0, fieldBytes));
    if (flags & 0x40) return null;
    if (!compressed) return { x, y: beToBigint(body.subarray(fieldBytes)) };
    const y = curve.Fp.sqrt(x * x * x + c.a * x + c.b);
    assert.ok(y !== undefined, 'zcash: x has no square root');
    return { x, y: Boolean(flags & 0x20) === isNegY(y) ? y : curve.Fp.neg(y) };
  }
  const lastBytes = Math.ceil((bits(c.p) + 2) / 8);
  assert.equal(bytes.length, compressed ? lastBytes : fieldBytes + lastBytes, 'arkworks length');
  const flags = bytes[bytes.length - 1]! & 0xc0;
  const body = Uint8Array.from(bytes);
  body[body.length - 1]! &= 0x3f;
  if (flags & 0x40) return null;
  const x = leToBigint(body.subarray(0, compressed ? lastBytes : fieldBytes));
  if (!compressed) {
    const y = leToBigint(body.subarray(fieldBytes));
    assert.equal(Boolean(flags & 0x80), isNegY(y), 'arkworks: sign flag of an uncompressed point');
    return { x, y };
  }
  const y = curve.Fp.sqrt(x * x * x + c.a * x + c.b);
  assert.ok(y !== undefined, 'arkworks: x has no square root');
  return { x, y: Boolean(flags & 0x80) === isNegY(y) ? y : curve.Fp.neg(y) };
}

for (const [key, params] of Object.entries(curves) as [CurveName, CurveParams][]) {
  describe(`curve ${key} vs arkworks`, () => {
    const vec = loadVectors(key);
    const curve = new RefCurve(params);
    const { r, lambda, beta } = params;

    it('descriptor passes checkCurveParams and names its registry key', () => {
      assert.equal(params.name, key, 'descriptor name = registry key');
      assert.ok(Object.isFrozen(params) && Object.isFrozen(params.G1), 'descriptor is frozen');
      checkCurveParams(params);
    });

    it('constants equal arkworks’ (p, r, a, b, generator, cofactor)', () => {
      const k = vec.constants;
      assert.equal(vec.curve, key, 'vector file is for this curve');
      assert.equal(BigInt(k.p), params.p, 'p');
      assert.equal(BigInt(k.r), params.r, 'r');
      assert.equal(BigInt(k.a), params.a, 'a');
      assert.equal(BigInt(k.b), params.b, 'b');
      assert.equal(BigInt(k.generator.x), params.G1.x, 'G1.x');
      assert.equal(BigInt(k.generator.y), params.G1.y, 'G1.y');
      assert.equal(BigInt(k.cofactor), params.h1, 'cofactor');
    });

    it('(beta, lambda) satisfies lambda·G = (beta·Gx, Gy); arkworks’ GLV pair is ours or its square', () => {
      const G = curve.G;
      assert.ok(curve.eq(curve.mul(G, lambda), { x: curve.Fp.mul(beta, G.x), y: G.y }), 'lambda·G = (beta·Gx, Gy)');
      const arkBeta = BigInt(vec.constants.glv_beta);
      const arkLambda = BigInt(vec.constants.glv_lambda);
      assert.ok(curve.eq(curve.mul(G, arkLambda), { x: curve.Fp.mul(arkBeta, G.x), y: G.y }), 'arkworks: LAMBDA·G = (ENDO·Gx, Gy)');
      const same = arkBeta === beta && arkLambda === lambda;
      const squared = arkBeta === curve.Fp.sqr(beta) && arkLambda === curve.Fr.sqr(lambda);
      assert.ok(same || squared, 'arkworks pair is (beta, lambda) or (beta², lambda²)');
      // Ours is the smaller cube root of unity mod r (the short z² − 1 on the BLS12 curves).
      assert.ok(lambda < curve.Fr.sqr(lambda), 'descriptor lambda is the smaller root');
      assert.equal(lambda * lambda + lambda + 1n === r, R_IS_LAMBDA_NORM[key], 'r = λ² + λ + 1 as recorded');
    });

    it('glvSplit on random scalars: k1 + k2·λ ≡ s (mod r) within the proven bound', () => {
      const rng = makeRng(0x61c + key.length);
      const [b1, b2] = curve.glvBound;
      assert.ok(b1 < 1n << 128n && b2 < 1n << 128n, `bound fits in 128 signed bits (${bits(b1)}, ${bits(b2)} bits)`);
      const scalars = [0n, 1n, r - 1n, r, r + 1n, lambda, lambda + 1n, r - lambda, (r - 1n) / 2n];
      for (let i = 0; i < 1000; i++) scalars.push(i % 4 === 0 ? rng.nextBigint(256) : rng.nextBelow(r));
      for (const s of scalars) {
        const { k1, k2 } = curve.glvSplit(s);
        assert.equal((((k1 + k2 * lambda - s) % r) + r) % r, 0n, `congruence for s = ${s}`);
        assert.ok(abs(k1) <= b1 && abs(k2) <= b2, `bound for s = ${s}: k1 = ${k1}, k2 = ${k2}`);
      }
      // And on the curve, for a few scalars: k1·G + k2·φ(G) = s·G.
      for (const s of scalars.slice(0, 12)) {
        const { k1, k2 } = curve.glvSplit(s);
        const combo = curve.add(curve.mul(curve.G, k1), curve.mul(curve.endo(curve.G), k2));
        assert.ok(curve.eq(combo, curve.mulScalar(curve.G, s)), `k1·G + k2·φ(G) = s·G for s = ${s}`);
      }
    });

    it('msmNaive reproduces every arkworks MSM result', () => {
      assert.ok(vec.cases.length >= 20, 'vector file has its cases');
      for (const c of vec.cases) {
        assert.equal(c.points.length, c.n, `${c.name}: point count`);
        assert.equal(c.scalars.length, c.n, `${c.name}: scalar count`);
        const points = c.points.map(toPoint);
        // Cofactor-1 curves: on the curve means in the group. The others get the subgroup check
        // on the expected result only (a full check per input would cost a scalar mul each).
        for (const [i, P] of points.entries()) assert.ok(curve.isOnCurve(P), `${c.name}: point ${i} on the curve`);
        const scalars = c.scalars.map((s) => BigInt(s));
        assert.ok(scalars.every((s) => s >= 0n && s < 1n << 256n), `${c.name}: scalars are 256-bit`);
        const got = curve.msmNaive(points, scalars);
        const expected = toPoint(c.expected);
        assert.ok(curve.isInSubgroup(expected), `${c.name}: expected result in the subgroup`);
        assert.deepEqual(got, expected, `${c.name} (n = ${c.n})`);
      }
      const names = new Set(vec.cases.map((c) => c.name));
      for (const n of ['random-1', 'random-2', 'random-7', 'random-64', 'random-300', 'p-and-neg-p', 'infinity-mixed']) {
        assert.ok(names.has(n), `case ${n} present`);
      }
      const big = vec.cases.flatMap((c) => c.scalars.map((s) => BigInt(s)));
      assert.ok(big.some((s) => s >= r) && big.includes(r - 1n) && big.includes(0n) && big.includes(1n), 'edge scalars present');
    });

    it('arkworks’ serialized bytes decode to the listed points', () => {
      assert.ok(vec.serialization.length >= 3, 'serialization samples present');
      assert.ok(vec.serialization.some((s) => s.point === null), 'infinity sample present');
      for (const [i, s] of vec.serialization.entries()) {
        const P = toPoint(s.point);
        assert.ok(curve.isOnCurve(P), `sample ${i} on the curve`);
        assert.deepEqual(decodeArkworks(params, curve, fromHex(s.uncompressed), false), P, `sample ${i} uncompressed`);
        assert.deepEqual(decodeArkworks(params, curve, fromHex(s.compressed), true), P, `sample ${i} compressed`);
      }
    });
  });
}

const fp2 = ([c0, c1]: JsonFp2): [bigint, bigint] => [BigInt(c0), BigInt(c1)];
const toG2Point = (P: JsonG2Point | null): G2Point => (P === null ? null : { x: fp2(P.x), y: fp2(P.y) });
/** A vector point as pippin's G2 result. */
const asG2Result = (P: JsonG2Point | null): ApiG2Affine =>
  P === null ? { x: [0n, 0n], y: [0n, 0n], infinity: true } : { x: fp2(P.x), y: fp2(P.y), infinity: false };
const toHex = (b: Uint8Array): string => Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');

/**
 * Which pippin format reads each byte string of a G2 sample, for every registry curve with a G2:
 * arkworks' crate writes G2 in the convention it uses for G1 (vectorFormats: ark-bls12-381 follows
 * ZCash); where that is not ark-ec's generic encoding, the sample's ark_ec_uncompressed bytes are
 * read by pippin's G2 'arkworks' format (there is no compressed variant of it in pippin).
 */
const g2SampleFormats = (name: G2CurveName): (readonly ['uncompressed' | 'compressed' | 'ark_ec_uncompressed', string])[] => {
  const [u, c] = vectorFormats(name);
  return [['uncompressed', u], ['compressed', c], ...(u !== 'arkworks' ? [['ark_ec_uncompressed', 'arkworks'] as const] : [])];
};

for (const key of g2CurveNames) {
  const api = apiCurves[key];
  const formats = g2SampleFormats(key);
  describe(`curve ${key} G2 vs arkworks`, () => {
    const g2vec = loadVectors(key).g2!;
    const params = g2Params[key];
    const ref = new RefG2(params);
    const { r, lambda } = params.g1;
    before(() => api.init());

    it('G2 constants equal arkworks’ (b, generator, cofactor); arkworks’ GLV pair is ours or its square', () => {
      const k = g2vec.constants;
      assert.deepEqual(fp2(k.b), [...params.b], 'b');
      assert.deepEqual(toG2Point(k.generator), { x: [...params.G2.x], y: [...params.G2.y] }, 'generator');
      assert.equal(BigInt(k.cofactor), params.h2, 'cofactor');
      const [arkBeta, arkBetaC1] = fp2(k.glv_beta);
      const arkLambda = BigInt(k.glv_lambda);
      assert.equal(arkBetaC1, 0n, 'arkworks’ beta is in F_p');
      const G = ref.G;
      assert.ok(ref.eq(ref.mul(G, arkLambda), { x: ref.F.mulFp(G.x, arkBeta), y: G.y }), 'arkworks: LAMBDA·G = (ENDO·Gx, Gy)');
      const same = arkBeta === params.beta && arkLambda === lambda;
      const squared = arkBeta === ref.F.Fp.sqr(params.beta) && arkLambda === ref.Fr.sqr(lambda);
      assert.ok(same || squared, 'arkworks pair is (beta, lambda) or (beta², lambda²)');
    });

    const cases = g2vec.cases.map((c) => {
      assert.equal(c.points.length, c.n, `${c.name}: point count`);
      assert.equal(c.scalars.length, c.n, `${c.name}: scalar count`);
      return { name: c.name, n: c.n, points: c.points.map(toG2Point), scalars: c.scalars.map((s) => BigInt(s)), expected: asG2Result(c.expected) };
    });

    it('the cases cover the edge inputs; points on the twist, expected sums in G2', () => {
      assert.ok(cases.length >= 20, 'vector file has its G2 cases');
      const names = new Set(cases.map((c) => c.name));
      for (const n of ['empty', 'random-1', 'random-50', 'all-zero-scalars', 'p-and-neg-p', 'repeated-point', 'infinity-mixed', 'all-infinity']) {
        assert.ok(names.has(n), `case ${n} present`);
      }
      const all = cases.flatMap((c) => c.scalars);
      for (const s of [0n, 1n, r - 1n, r, (1n << 256n) - 1n]) assert.ok(all.includes(s), `scalar ${s} present`);
      assert.ok(cases.some((c) => c.points.includes(null)), 'point at infinity present');
      for (const c of cases) {
        for (const [i, P] of c.points.entries()) assert.ok(ref.isOnCurve(P), `${c.name}: point ${i} on the twist`);
        const E = c.expected.infinity ? null : { x: c.expected.x, y: c.expected.y };
        assert.ok(ref.isInSubgroup(E), `${c.name}: expected sum in G2`);
      }
    });

    it('g2.msmSync reproduces every arkworks G2 MSM result', () => {
      for (const c of cases) assert.deepEqual(api.g2.msmSync(c.points as G2PointInput[], c.scalars), c.expected, `${c.name} (n = ${c.n})`);
    });

    it('g2.msm reproduces every arkworks G2 MSM result', async () => {
      for (const c of cases) assert.deepEqual(await api.g2.msm(c.points as G2PointInput[], c.scalars), c.expected, `${c.name} (n = ${c.n})`);
    });

    it('arkworks’ serialized G2 bytes decode to the listed points and re-encode to the same bytes', () => {
      const samples = g2vec.serialization;
      assert.ok(samples.some((s) => s.point === null), 'infinity sample present');
      const pts = samples.map((s) => toG2Point(s.point));
      const negated = pts.filter((P) => P !== null && pts.some((Q) => Q !== null && ref.eq(Q, ref.neg(P))));
      assert.ok(negated.length >= 4, 'samples hold P and −P (both "larger y" flags)');
      const g2 = api.g2 as unknown as {
        pointFormats: readonly { name: string }[];
        msmSync(p: Uint8Array, s: bigint[], o: { pointFormat: string }): ApiG2Affine;
        toBytes(p: G2PointInput, f: string): Uint8Array;
      };
      const names = g2.pointFormats.map((f) => f.name);
      for (const [field, format] of formats) {
        assert.ok(names.includes(format), `pippin has format ${format}`);
        for (const [i, s] of samples.entries()) {
          const hex = s[field];
          assert.ok(hex !== undefined, `sample ${i} has ${field}`);
          const got = g2.msmSync(fromHex(hex), [1n], { pointFormat: format });
          assert.deepEqual(got, asG2Result(s.point), `sample ${i}: ${field} decodes as ${format}`);
          assert.equal(toHex(g2.toBytes(pts[i] ?? null, format)), hex, `sample ${i}: toBytes ${format} = ${field}`);
        }
      }
    });
  });
}
