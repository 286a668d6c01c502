/**
 * The public G2 API (curve.g2.msm / msmSync / toBytes / pointFormats) on BLS12-381 and BN254:
 * results against the bigint reference, every format's round trip and byte layout (ZCash bytes
 * against @noble/curves, EIP-197 and arkworks against the layouts built from the reference),
 * malformed encodings, off-curve and non-subgroup points (typed errors with their index), n = 0,
 * and the worker pool against the calling thread.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381 as nobleBls } from '@noble/curves/bls12-381.js';
import { curves, bls12_381, bn254, startThreads, stopThreads, NotInSubgroupError, NotOnCurveError, PointEncodingError, LengthMismatchError, PippinError, InvalidOptionError } from '../src/index.js';
import type { MsmProgress } from '../src/msm/progress.js';
import { curveNames, g2CurveNames, g2Params } from '../src/curves/index.js';
import { RefG2, type G2Point } from '../src/reference/g2.js';
import { makeRng } from '../src/reference/rng.js';

const be = (v: bigint, len: number) => Uint8Array.from({ length: len }, (_, i) => Number((v >> BigInt(8 * (len - 1 - i))) & 0xffn));
const le = (v: bigint, len: number) => be(v, len).reverse();
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) out.set(p, (o += p.length) - p.length);
  return out;
};

after(() => stopThreads());

for (const [curve, name] of [[bls12_381, 'bls12-381'], [bn254, 'bn254']] as const) {
  const params = g2Params[name];
  const ref = new RefG2(params);
  const { r } = params.g1;
  const B = name === 'bn254' ? 32 : 48;
  const rng = makeRng(99 + B);
  const randomScalar = () => rng.nextBigint(256) % r;
  const point = () => ref.mul(ref.G, randomScalar())!;
  const asResult = (P: G2Point) => (P === null ? { x: [0n, 0n], y: [0n, 0n], infinity: true } : { x: [...P.x], y: [...P.y], infinity: false });
  const nonG2 = ref.pointFromX0(3n);

  describe(`${name}.g2`, async () => {
    await curve.init();
    const g2 = curve.g2;

    it('pointFormats', () => {
      assert.deepEqual(g2.pointFormats, name === 'bn254'
        ? [{ name: 'eip197', bytes: 128 }, { name: 'arkworks', bytes: 128 }, { name: 'arkworks-compressed', bytes: 64 }]
        : [{ name: 'zcash', bytes: 192 }, { name: 'zcash-compressed', bytes: 96 }, { name: 'arkworks', bytes: 192 }]);
    });

    it('msmSync on objects against the reference (infinity, P and −P, duplicates, scalars 0, r − 1, ≥ r, negative), n = 0, 1', () => {
      const P = point(), Q = point();
      const points = [P, ref.neg(P), null, Q, Q, P];
      const scalars = [3n, 5n, 7n, r - 1n, r + 2n, -4n];
      assert.deepEqual(g2.msmSync(points, scalars), asResult(ref.msmNaive(points, scalars)));
      assert.deepEqual(g2.msmSync([], []), asResult(null));
      assert.deepEqual(g2.msmSync([P], [0n]), asResult(null));
      assert.deepEqual(g2.msmSync([P], [1n]), asResult(P));
      assert.deepEqual(g2.msmSync([{ infinity: true }], [1n]), asResult(null));
    });

    it('every format round-trips (points and infinity) and has the documented layout', () => {
      const P = point();
      const flip = (y: readonly [bigint, bigint]) => ref.F.isLargest(y);
      for (const { name: fmt, bytes } of g2.pointFormats) {
        const enc = g2.toBytes(P, fmt);
        assert.equal(enc.length, bytes);
        let want: Uint8Array;
        if (fmt === 'zcash' || fmt === 'eip197') want = cat(be(P.x[1], B), be(P.x[0], B), be(P.y[1], B), be(P.y[0], B));
        else if (fmt === 'zcash-compressed') {
          want = cat(be(P.x[1], B), be(P.x[0], B));
          want[0] |= 0x80 | (flip(P.y) ? 0x20 : 0);
        } else if (fmt === 'arkworks') {
          want = cat(le(P.x[0], B), le(P.x[1], B), le(P.y[0], B), le(P.y[1], B));
          want[bytes - 1] |= flip(P.y) ? 0x80 : 0;
        } else {
          want = cat(le(P.x[0], B), le(P.x[1], B));
          want[bytes - 1] |= flip(P.y) ? 0x80 : 0;
        }
        assert.deepEqual(enc, want, fmt);
        const negEnc = g2.toBytes({ x: P.x, y: ref.neg(P)!.y }, fmt);
        const inf = g2.toBytes(null, fmt);
        const both = cat(enc, inf, negEnc);
        assert.deepEqual(g2.msmSync(both, [5n, 9n, 2n], { pointFormat: fmt }), asResult(ref.mul(P, 3n)), `${fmt} decode`);
      }
      if (name === 'bls12-381') {
        const N = nobleBls.G2.Point.fromAffine({ x: { c0: P.x[0], c1: P.x[1] }, y: { c0: P.y[0], c1: P.y[1] } });
        assert.deepEqual(g2.toBytes(P, 'zcash'), N.toBytes(false));
        assert.deepEqual(g2.toBytes(P, 'zcash-compressed'), N.toBytes(true));
        assert.deepEqual(g2.toBytes(null, 'zcash-compressed'), nobleBls.G2.Point.ZERO.toBytes(true));
      }
    });

    it('malformed encodings: bad flags, coordinate ≥ p, bytes beside infinity, wrong length', () => {
      const P = point();
      const fmt = g2.pointFormats[0].name;
      const good = g2.toBytes(P, fmt);
      const one = (b: Uint8Array) => () => g2.msmSync(cat(good, b), [1n, 1n]);
      if (fmt === 'zcash') {
        const bad = good.slice();
        bad[0] |= 0x80; // compressed bit on an uncompressed encoding
        assert.throws(one(bad), (e: unknown) => e instanceof PointEncodingError && e.index === 1);
        const inf = g2.toBytes(null, fmt);
        inf[100] = 1;
        assert.throws(one(inf), (e: unknown) => e instanceof PointEncodingError && e.index === 1);
      }
      const big = good.slice();
      big.set(be(params.g1.p, B), B); // x.c0 = p in both big-endian layouts
      assert.throws(one(big), (e: unknown) => e instanceof PointEncodingError && e.index === 1 && /not below p/.test(e.message));
      assert.throws(() => g2.msmSync(good.subarray(1), [1n]), LengthMismatchError);
    });

    it('off-curve and non-G2 points: typed errors with the index (objects and bytes); on-curve validation accepts the latter', () => {
      const P = point();
      assert.equal(ref.isInSubgroupSlow(nonG2), false);
      assert.throws(() => g2.msmSync([P, nonG2], [1n, 1n]), (e: unknown) => e instanceof NotInSubgroupError && e.index === 1);
      const enc = cat(g2.toBytes(P), g2.toBytes(P), g2.toBytes(nonG2));
      assert.throws(() => g2.msmSync(enc, [1n, 1n, 1n]), (e: unknown) => e instanceof NotInSubgroupError && e.index === 2);
      for (const fmt of g2.pointFormats.map((f) => f.name).filter((f) => f.endsWith('compressed'))) {
        assert.throws(() => g2.msmSync(g2.toBytes(nonG2, fmt), [1n], { pointFormat: fmt }), (e: unknown) => e instanceof NotInSubgroupError && e.index === 0);
      }
      assert.deepEqual(g2.msmSync([nonG2], [1n], { validate: 'on-curve' }), asResult(nonG2));
      const off = { x: P.x, y: [P.y[0], (P.y[1] + 1n) % params.g1.p] as const };
      assert.throws(() => g2.msmSync([P, P, off], [1n, 1n, 1n]), (e: unknown) => e instanceof NotOnCurveError && e.index === 2);
      assert.throws(() => g2.toBytes(off), NotOnCurveError);
      assert.throws(() => g2.msmSync([{ x: [1n], y: [0n, 0n] } as never], [1n]), PointEncodingError);
    });

    it('on worker threads: the same result as the calling thread', async () => {
      await startThreads(2);
      const n = 600;
      const base = Array.from({ length: 8 }, point);
      const points = Array.from({ length: n }, (_, i) => (i % 50 === 7 ? null : base[i % 8]));
      const scalars = Array.from({ length: n }, randomScalar);
      const want = g2.msmSync(points, scalars);
      let threads = 0;
      const got = await g2.msm(points, scalars, { onStats: (s) => (threads = s.threads) });
      assert.deepEqual(got, want);
      assert.equal(threads, 2);
      const bytes = cat(...points.map((P) => g2.toBytes(P)));
      assert.deepEqual(await g2.msm(bytes, scalars), want);
      await assert.rejects(g2.msm(cat(bytes.subarray(0, bytes.length - g2.pointFormats[0].bytes), g2.toBytes(nonG2)), scalars), (e: unknown) => e instanceof NotInSubgroupError && e.index === n - 1);
    });

    it('onProgress: monotone reports ending at done === total (msmSync, msm on 2 threads); G2 streams (chunkPoints) and refuses a budget too small', async () => {
      await startThreads(2);
      const n = 3000;
      const base = Array.from({ length: 8 }, point);
      const points = Array.from({ length: n }, (_, i) => base[i % 8]);
      const scalars = Array.from({ length: n }, randomScalar);
      const bytes = cat(...points.map((P) => g2.toBytes(P)));
      const want = g2.msmSync(points, scalars);
      for (const run of [(o: object) => Promise.resolve(g2.msmSync(bytes, scalars, o)), (o: object) => g2.msm(bytes, scalars, o)]) {
        const reports: MsmProgress[] = [];
        assert.deepEqual(await run({ onProgress: (p: MsmProgress) => reports.push({ ...p }) }), want);
        const last = reports.at(-1)!;
        assert.equal(last.phase, 'done');
        assert.equal(last.done, last.total);
        assert.ok(last.total > n, `total ${last.total} counts decoding and the windows`);
        reports.forEach((p, i) => assert.ok(i === 0 || p.done >= reports[i - 1].done, 'done never decreases'));
      }
      let chunks: number | undefined;
      assert.deepEqual(g2.msmSync(bytes, scalars, { chunkPoints: 700, onStats: (s) => (chunks = s.streamedChunks) }), want, 'streamed on the calling thread');
      assert.equal(chunks, Math.ceil(n / 700));
      assert.deepEqual(await g2.msm(bytes, scalars, { chunkPoints: 1024 }), want, 'streamed on the pool');
      assert.throws(() => g2.msmSync(bytes, scalars, { maxMemoryBytes: 2 ** 20 }), (e: unknown) => e instanceof InvalidOptionError && e.option === 'maxMemoryBytes');
      await assert.rejects(g2.msm(bytes, scalars, { maxMemoryBytes: 2 ** 20 }), (e: unknown) => e instanceof InvalidOptionError && e.option === 'maxMemoryBytes');
      assert.deepEqual(await g2.msm(bytes, scalars), want, 'usable after the refused option');
    });
  });
}

describe('curves without G2 (read off the registry)', () => {
  const without = curveNames.filter((name) => !(g2CurveNames as readonly string[]).includes(name));
  it(`${without.join(', ')}: .g2 throws a PippinError`, async () => {
    assert.ok(without.length > 0);
    for (const name of without) {
      await curves[name].init();
      assert.throws(() => curves[name].g2, PippinError, name);
    }
  });
});
