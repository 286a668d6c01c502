/**
 * G1 MSM through the public API against independent oracles: the naive bigint MSM (n ≤ 256, every
 * window size), @noble/curves' Pippenger (larger n), and closed-form sums for points with known
 * discrete logs. Includes the adversarial input families and the typed errors.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381 as nobleBls } from '@noble/curves/bls12-381.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { bls12_381, LengthMismatchError, NotInSubgroupError, NotOnCurveError, PointEncodingError, ScalarEncodingError } from '../src/index.js';
import type { G1Affine } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { makeRng } from '../src/reference/rng.js';

type Pt = { x: bigint; y: bigint } | null;
const params = bls12_381.params;
const ref = new RefCurve(params);
const { r, G1: G } = params;
const rng = makeRng(2024);

/** Points with known logs: P_i = a_i·G, built by additions from a few multiples (fast enough in bigint). */
function pointsWithLogs(n: number, seed = 1): { pts: Pt[]; logs: bigint[] } {
  const g = makeRng(seed);
  const base = Array.from({ length: Math.min(n, 8) }, () => (g.nextBigint(255) % (r - 1n)) + 1n);
  const pts: Pt[] = base.map((a) => ref.mul(G, a));
  const logs = [...base];
  while (pts.length < n) {
    const i = pts.length;
    const a = i - 1;
    const b = g.nextU32() % (i - 1);
    pts.push(ref.add(pts[a], pts[b]));
    logs.push((logs[a] + logs[b]) % r);
  }
  return { pts: pts.slice(0, n), logs: logs.slice(0, n) };
}

const toAffine = (res: G1Affine): Pt => (res.infinity ? null : { x: res.x, y: res.y });
const eqPt = (a: Pt, b: Pt) => ref.eq(a, b);
const randScalars = (n: number) => Array.from({ length: n }, () => rng.nextBigint(256) % r);

/** ZCash uncompressed encoding; noble's encoder for valid points, by hand for invalid ones. */
function zcashBytes(pts: Pt[]): Uint8Array {
  const out = new Uint8Array(96 * pts.length);
  pts.forEach((P, i) => {
    if (P === null) return out.set(nobleBls.G1.Point.ZERO.toBytes(false), 96 * i);
    if (ref.isOnCurve(P)) return out.set(nobleBls.G1.Point.fromAffine(P).toBytes(false), 96 * i);
    for (let b = 0; b < 48; b++) {
      out[96 * i + 47 - b] = Number((P.x >> BigInt(8 * b)) & 0xffn);
      out[96 * i + 95 - b] = Number((P.y >> BigInt(8 * b)) & 0xffn);
    }
  });
  return out;
}
function scalarBytesLE(s: bigint[], endian: 'le' | 'be' = 'le'): Uint8Array {
  const out = new Uint8Array(32 * s.length);
  s.forEach((v, i) => {
    for (let b = 0; b < 32; b++) out[32 * i + (endian === 'le' ? b : 31 - b)] = Number((v >> BigInt(8 * b)) & 0xffn);
  });
  return out;
}

before(async () => {
  await bls12_381.init();
});

describe('G1 MSM vs the naive bigint reference', () => {
  const { pts } = pointsWithLogs(300, 7);
  it('every window size 2..16 on n = 1, 2, 3, 17, 64', () => {
    for (const n of [1, 2, 3, 17, 64]) {
      const s = randScalars(n);
      const want = ref.msmNaive(pts.slice(0, n), s);
      for (let c = 2; c <= 16; c++) {
        const got = bls12_381.g1.msmSync(pts.slice(0, n), s, { windowBits: c, validate: 'on-curve' });
        assert.ok(eqPt(toAffine(got), want), `n = ${n}, c = ${c}`);
      }
    }
  });
  it('planner-chosen windows for n up to 256, odd sizes, bytes and objects agree', () => {
    for (const n of [0, 1, 5, 31, 100, 255, 256]) {
      const s = randScalars(n);
      const want = ref.msmNaive(pts.slice(0, n), s);
      const a = bls12_381.g1.msmSync(pts.slice(0, n), s);
      const b = bls12_381.g1.msmSync(zcashBytes(pts.slice(0, n)), scalarBytesLE(s));
      const c = bls12_381.g1.msmSync(zcashBytes(pts.slice(0, n)), scalarBytesLE(s, 'be'), { scalarEndian: 'be' });
      for (const got of [a, b, c]) assert.ok(eqPt(toAffine(got), want), `n = ${n}`);
    }
  });
});

describe('adversarial families (naive reference)', () => {
  const n = 96;
  const { pts } = pointsWithLogs(n, 3);
  const cases: [string, () => { P: Pt[]; s: bigint[] }][] = [
    ['all-zero scalars', () => ({ P: pts, s: pts.map(() => 0n) })],
    ['scalars r − 1', () => ({ P: pts, s: pts.map(() => r - 1n) })],
    ['scalars r (≡ 0) and r + 1 (≡ 1)', () => ({ P: pts, s: pts.map((_, i) => (i % 2 ? r : r + 1n)) })],
    ['scalars ≥ 2^255 and negative', () => ({ P: pts, s: pts.map((_, i) => (i % 2 ? (1n << 256n) - 1n - BigInt(i) : -BigInt(i + 1))) })],
    ['all-equal scalars', () => ({ P: pts, s: pts.map(() => 0x1234567890abcdef1234567890abcdefn) })],
    ['all scalars 1 (one bucket)', () => ({ P: pts, s: pts.map(() => 1n) })],
    ['repeated point', () => ({ P: pts.map(() => pts[0]), s: randScalars(n) })],
    ['repeated point, equal scalars', () => ({ P: pts.map(() => pts[1]), s: pts.map(() => 77n) })],
    ['P and −P with equal scalars (cancels)', () => ({ P: pts.map((p, i) => (i % 2 ? ref.neg(pts[i - 1]) : p)), s: pts.map((_, i) => BigInt(1000 + (i >> 1))) })],
    ['P and P and −P', () => ({ P: pts.map((_, i) => (i % 3 === 2 ? ref.neg(pts[0]) : pts[0])), s: pts.map(() => 5n) })],
    ['infinity inputs mixed in', () => ({ P: pts.map((p, i) => (i % 5 === 0 ? null : p)), s: randScalars(n) })],
    ['all infinity', () => ({ P: pts.map(() => null), s: randScalars(n) })],
    ['arithmetic progression P_i = P_0 + i·Q', () => {
      const Q = pts[1];
      const P: Pt[] = [pts[0]];
      for (let i = 1; i < n; i++) P.push(ref.add(P[i - 1], Q));
      return { P, s: randScalars(n) };
    }],
    ['arithmetic progression with scalars i (partial sums collide)', () => {
      const P: Pt[] = [G];
      for (let i = 1; i < n; i++) P.push(ref.add(P[i - 1], G));
      return { P, s: P.map((_, i) => BigInt(n - i)) };
    }],
    ['small scalars (top windows empty)', () => ({ P: pts, s: pts.map((_, i) => BigInt(i % 7)) })],
    ['scalar equal to λ and λ ± 1 (GLV edges)', () => ({ P: pts, s: pts.map((_, i) => params.lambda + BigInt((i % 3) - 1)) })],
  ];
  for (const [name, make] of cases) {
    it(name, () => {
      const { P, s } = make();
      const want = ref.msmNaive(P, s.map((v) => ((v % r) + r) % r));
      for (const c of [undefined, 3, 8]) {
        const got = bls12_381.g1.msmSync(P, s, { windowBits: c });
        assert.ok(eqPt(toAffine(got), want), `${name}, c = ${c ?? 'auto'}`);
      }
    });
  }
});

describe('larger n', () => {
  it('n = 2^12 against @noble/curves pippenger', () => {
    const n = 1 << 12;
    const { pts } = pointsWithLogs(n, 11);
    const s = randScalars(n);
    const nobleRes = pippenger(nobleBls.G1.Point, pts.map((p) => nobleBls.G1.Point.fromAffine(p!)), s);
    const want: Pt = nobleRes.is0() ? null : nobleRes.toAffine();
    const got = bls12_381.g1.msmSync(zcashBytes(pts), scalarBytesLE(s), { validate: 'on-curve' });
    assert.ok(eqPt(toAffine(got), want), 'n = 2^12 vs noble');
  });
  it('n = 2^14 closed form with known discrete logs (sizes around window switches too)', () => {
    const { pts, logs } = pointsWithLogs(1 << 14, 5);
    for (const n of [1 << 14, (1 << 14) - 1, 3001, 512, 513, 2048, 2049, 8192, 8193]) {
      const s = randScalars(n);
      let e = 0n;
      for (let i = 0; i < n; i++) e = (e + s[i] * logs[i]) % r;
      const got = bls12_381.g1.msmSync(pts.slice(0, n), s, { validate: 'none' });
      assert.ok(eqPt(toAffine(got), ref.mulScalar(G, e)), `n = ${n}`);
    }
  });
});

describe('point formats through the public API', () => {
  const { pts } = pointsWithLogs(40, 13);
  const withInf: Pt[] = pts.map((p, i) => (i % 9 === 4 ? null : p));
  const s = randScalars(40);
  const want = ref.msmNaive(withInf, s);
  const enc = (format: 'zcash' | 'zcash-compressed' | 'arkworks') => {
    const size = format === 'zcash-compressed' ? 48 : 96;
    const out = new Uint8Array(size * withInf.length);
    withInf.forEach((P, i) => out.set(bls12_381.g1.toBytes(P, format), size * i));
    return out;
  };
  it('toBytes agrees with noble for ZCash formats (incl. infinity)', () => {
    for (const P of withInf.slice(0, 10)) {
      const np = P === null ? nobleBls.G1.Point.ZERO : nobleBls.G1.Point.fromAffine(P);
      assert.deepEqual(bls12_381.g1.toBytes(P, 'zcash'), np.toBytes(false), 'uncompressed');
      assert.deepEqual(bls12_381.g1.toBytes(P, 'zcash-compressed'), np.toBytes(true), 'compressed');
    }
  });
  it('every format gives the same MSM, and the MSM result round-trips through bytes', () => {
    for (const format of ['zcash', 'zcash-compressed', 'arkworks'] as const) {
      const got = bls12_381.g1.msmSync(enc(format), scalarBytesLE(s), { pointFormat: format });
      assert.ok(eqPt(toAffine(got), want), `format ${format}`);
      const bytes = bls12_381.g1.toBytes(got, format);
      const back = bls12_381.g1.msmSync(bytes, scalarBytesLE([1n]), { pointFormat: format });
      assert.ok(eqPt(toAffine(back), want), `round trip ${format}`);
    }
  });
  it('malformed compressed and arkworks inputs are rejected with the index', () => {
    const comp = enc('zcash-compressed');
    comp[48 * 7] &= 0x7f; // clear the compression flag
    assert.throws(() => bls12_381.g1.msmSync(comp, scalarBytesLE(s), { pointFormat: 'zcash-compressed' }), (e: unknown) => e instanceof PointEncodingError && e.index === 7);
    const ark = enc('arkworks');
    ark[96 * 3 + 95] |= 0xc0; // infinity and negative-y flags together
    assert.throws(() => bls12_381.g1.msmSync(ark, scalarBytesLE(s), { pointFormat: 'arkworks' }), (e: unknown) => e instanceof PointEncodingError && e.index === 3);
    assert.throws(() => bls12_381.g1.toBytes({ x: 1n, y: 1n }), NotOnCurveError);
  });
});

describe('typed errors name what and where', () => {
  const { pts } = pointsWithLogs(8, 9);
  const s = randScalars(8);
  it('length mismatches', () => {
    assert.throws(() => bls12_381.g1.msmSync(pts.slice(0, 7), s), LengthMismatchError);
    assert.throws(() => bls12_381.g1.msmSync(zcashBytes(pts).subarray(0, 95 * 8), scalarBytesLE(s)), LengthMismatchError);
    assert.throws(() => bls12_381.g1.msmSync(zcashBytes(pts), new Uint8Array(33)), LengthMismatchError);
  });
  it('not on curve, with index', () => {
    const bad = pts.slice();
    bad[5] = { x: pts[5]!.x, y: (pts[5]!.y + 1n) % params.p };
    assert.throws(() => bls12_381.g1.msmSync(bad, s), (e: unknown) => e instanceof NotOnCurveError && e.index === 5);
    const bytes = zcashBytes(bad);
    assert.throws(() => bls12_381.g1.msmSync(bytes, scalarBytesLE(s)), (e: unknown) => e instanceof NotOnCurveError && e.index === 5);
    // with validation off the caller takes responsibility; it must still not crash or hang
    bls12_381.g1.msmSync(bad, s, { validate: 'none' });
  });
  it('not in subgroup, with index (and accepted by on-curve)', () => {
    // a curve point outside G1: x with x³ + 4 a square, not cofactor-cleared
    let x = 5n;
    let y: bigint | undefined;
    for (;; x++) {
      y = ref.Fp.sqrt(ref.Fp.add(ref.Fp.mul(ref.Fp.sqr(x), x), 4n));
      if (y !== undefined && !ref.isInSubgroup({ x, y })) break;
    }
    const bad = pts.slice();
    bad[3] = { x, y: y! };
    assert.throws(() => bls12_381.g1.msmSync(bad, s), (e: unknown) => e instanceof NotInSubgroupError && e.index === 3);
    // 'on-curve' admits it; the MSM is only defined on the subgroup (GLV and scalars mod r assume it),
    // so the result is unspecified but must be a well-formed point, without a crash or hang
    const got = bls12_381.g1.msmSync(bad, s, { validate: 'on-curve' });
    assert.ok(ref.isOnCurve(toAffine(got)), 'result on curve');
  });
  it('malformed encodings and bad scalars', () => {
    const bytes = zcashBytes(pts);
    bytes[96 * 2] |= 0x80; // compression flag on an uncompressed encoding
    assert.throws(() => bls12_381.g1.msmSync(bytes, scalarBytesLE(s)), (e: unknown) => e instanceof PointEncodingError && e.index === 2);
    const big = pts.slice() as Pt[];
    assert.throws(() => bls12_381.g1.msmSync([...big.slice(0, 7), { x: params.p, y: 1n }], s), (e: unknown) => e instanceof PointEncodingError && e.index === 7);
    assert.throws(() => bls12_381.g1.msmSync(pts, [...s.slice(0, 4), 1 as unknown as bigint, ...s.slice(5)]), (e: unknown) => e instanceof ScalarEncodingError && e.index === 4);
  });
  it('n = 0 returns infinity', () => {
    assert.deepEqual(bls12_381.g1.msmSync([], []), { x: 0n, y: 0n, infinity: true });
    assert.deepEqual(bls12_381.g1.msmSync(new Uint8Array(0), new Uint8Array(0)), { x: 0n, y: 0n, infinity: true });
  });
});
