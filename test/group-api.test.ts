/**
 * The public API of a group (src/api/group.ts: msm, msmSync, toBytes, pointFormats, options and
 * errors), one template over every (curve, group) of the registry: G1 on every curve, G2 on the
 * curves whose descriptor has one. Oracles: the bigint references (RefCurve, RefG2: the naive MSM),
 * byte layouts written from the format rules (test/helpers/encodings.ts), @noble/curves' ZCash bytes
 * where noble has the curve. Covered: results on adversarial objects (infinity, P and −P,
 * duplicates, scalars 0, r − 1, ≥ r, negative), n = 0 and 1; every format's layout and round trip;
 * malformed encodings, off-curve and non-subgroup points (typed errors with their index; on-curve
 * validation accepts the latter); the worker pool against the calling thread; inputs taken at the
 * call (buffers and objects changed afterwards do not reach the MSM); progress, streaming
 * (chunkPoints) and a memory budget too small; bad options, sync and async (InvalidOptionError
 * naming the option, before any work), undefined entries and holes; `.g2` of a curve without one.
 * G2-only maths (ψ, the twist, the batched subgroup check) is in g2-msm and g2-validation.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  curves, startThreads, stopThreads, InvalidOptionError, LengthMismatchError, NotInSubgroupError, NotOnCurveError, PippinError, PointEncodingError,
  ScalarEncodingError, type Curve,
} from '../src/index.js';
import type { MsmProgress } from '../src/msm/progress.js';
import { g2Params } from '../src/curves/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { RefG2 } from '../src/reference/g2.js';
import { makeRng } from '../src/reference/rng.js';
import { coordinateBytes, encodeG2Point, encodePoint, scalarBytes } from './helpers/encodings.js';
import { pointsOfOrder } from './helpers/curve-points.js';
import { curveGroups, curvesWithoutG2, hasG2, nobleOf, registry, type CurveName, type GroupName } from './helpers/registry.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type P = any; // a point of the group under test (G1: { x, y } bigints; G2: { x, y } pairs), null = infinity

/** The members both groups have, over the point type of the group under test. */
interface GroupApi {
  msm(points: Uint8Array | readonly P[], scalars: Uint8Array | readonly bigint[], options?: Record<string, unknown>): Promise<unknown>;
  msmSync(points: Uint8Array | readonly P[], scalars: Uint8Array | readonly bigint[], options?: Record<string, unknown>): unknown;
  toBytes(point: P, format?: string): Uint8Array;
  readonly pointFormats: readonly { name: string; bytes: number }[];
}
/** The bigint reference of either group (RefCurve, RefG2). */
interface Ref {
  readonly G: P;
  mul(P: P, k: bigint): P;
  neg(P: P): P;
  msmNaive(points: readonly P[], scalars: readonly bigint[]): P;
  isOnCurve(P: P): boolean;
}

const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((s, q) => s + q.length, 0));
  let o = 0;
  for (const q of parts) out.set(q, (o += q.length) - q.length);
  return out;
};

/** One group of one curve: its reference, layouts, and the points the template needs. */
function groupUnderTest(name: CurveName, group: GroupName) {
  const curve = curves[name] as unknown as Curve<string>;
  const { p, r } = registry[name].params;
  const { B, flagged } = coordinateBytes(p);
  const rng = makeRng(0x6a + name.length * 3 + (group === 'g2' ? 1 : 0));
  if (group === 'g1') {
    const ref: Ref & RefCurve = new RefCurve(registry[name].params);
    const h1 = registry[name].params.h1;
    // a point outside G1 (G + a point of the smallest prime order dividing h1), none when h1 = 1
    let ell = 2n;
    while (h1 > 1n && h1 % ell !== 0n) ell++;
    const outside = h1 === 1n ? undefined : ref.add(ref.G, pointsOfOrder(ref, ell, rng)[0]);
    const nb = nobleOf(name)?.G1;
    return {
      curve, ref, rng, p, r, G: ref.G, outside,
      formats: registry[name].formats as readonly string[],
      /** bytes per point from each format's rule */
      bytesOf: (f: string) => (f === 'zcash-compressed' ? B : f === 'arkworks' ? B + flagged : f === 'arkworks-compressed' ? flagged : 2 * B),
      encode: (f: string, Q: P) => encodePoint(p, f, Q),
      asResult: (Q: P) => (Q === null ? { x: 0n, y: 0n, infinity: true } : { x: Q.x, y: Q.y, infinity: false }),
      offCurve: (Q: P) => ({ x: Q.x, y: (Q.y + 1n) % p }),
      withXAt: (Q: P, v: bigint) => ({ x: v, y: Q.y }),
      /** a copy of the point object, and a change to it in place */
      clone: (Q: P) => ({ x: Q.x, y: Q.y }),
      spoil: (Q: P) => void (Q.x = 1n),
      notAPoint: { x: 1n } as P,
      /** membership by the naive reference r·P = O */
      inGroup: (Q: P) => ref.isInSubgroup(Q),
      nobleBytes: nb && ((Q: P, compressed: boolean) => (Q === null ? nb.ZERO : nb.fromAffine(Q)).toBytes(compressed)),
    };
  }
  if (!hasG2(name)) throw new Error(`${name} has no G2`);
  const ref: Ref & RefG2 = new RefG2(g2Params[name]);
  const nb = nobleOf(name)?.G2;
  return {
    curve, ref, rng, p, r, G: ref.G, outside: ref.pointFromX0(3n) as P,
    formats: g2Params[name].formats as readonly string[],
    bytesOf: (f: string) => (f.endsWith('compressed') ? 2 * B : 4 * B),
    encode: (f: string, Q: P) => encodeG2Point(p, f, Q),
    asResult: (Q: P) => (Q === null ? { x: [0n, 0n], y: [0n, 0n], infinity: true } : { x: [...Q.x], y: [...Q.y], infinity: false }),
    offCurve: (Q: P) => ({ x: Q.x, y: [Q.y[0], (Q.y[1] + 1n) % p] }),
    withXAt: (Q: P, v: bigint) => ({ x: [v, Q.x[1]], y: Q.y }),
    clone: (Q: P) => ({ x: [...Q.x], y: [...Q.y] }),
    spoil: (Q: P) => void (Q.x[0] = 1n), // inside the coordinate's array
    notAPoint: { x: [1n], y: [0n, 0n] } as P,
    inGroup: (Q: P) => ref.isInSubgroupSlow(Q),
    nobleBytes: nb && ((Q: P, compressed: boolean) =>
      (Q === null ? nb.ZERO : nb.fromAffine({ x: { c0: Q.x[0], c1: Q.x[1] }, y: { c0: Q.y[0], c1: Q.y[1] } })).toBytes(compressed)),
  };
}

const isOption = (option: string) => (e: unknown) => e instanceof InvalidOptionError && e.option === option;

before(() => startThreads(2));
after(() => stopThreads());

for (const { name, group } of curveGroups) {
  describe(`${name}.${group}`, { timeout: 300_000 }, () => {
    const t = groupUnderTest(name, group);
    const { r, p } = t;
    const ref: Ref = t.ref;
    const g = () => t.curve[group] as unknown as GroupApi;
    const point = (): P => ref.mul(t.G, t.rng.nextBigint(256) % r);
    /** Σ s_i·P_i by the reference for points drawn from a few objects: one multiplication per distinct object */
    const sumRef = (points: readonly P[], scalars: readonly bigint[]) => {
      const by = new Map<P, bigint>();
      points.forEach((q, i) => q !== null && by.set(q, (by.get(q) ?? 0n) + scalars[i]));
      return ref.msmNaive([...by.keys()], [...by.values()]);
    };
    before(() => t.curve.init());

    it('pointFormats: the descriptor’s formats, in order, with the sizes of their rules', () => {
      assert.deepEqual(g().pointFormats, t.formats.map((f) => ({ name: f, bytes: t.bytesOf(f) })));
    });

    it('msmSync on objects against the reference (infinity, P and −P, duplicates, scalars 0, r − 1, ≥ r, negative), n = 0, 1', () => {
      const P = point(), Q = point();
      const points = [P, ref.neg(P), null, Q, Q, P];
      const scalars = [3n, 5n, 7n, r - 1n, r + 2n, -4n];
      assert.deepEqual(g().msmSync(points, scalars), t.asResult(ref.msmNaive(points, scalars)));
      assert.deepEqual(g().msmSync([], []), t.asResult(null));
      assert.deepEqual(g().msmSync([P], [0n]), t.asResult(null));
      assert.deepEqual(g().msmSync([P], [1n]), t.asResult(P));
      assert.deepEqual(g().msmSync([{ infinity: true }], [1n]), t.asResult(null));
    });

    it('every format has the layout of its rule and round-trips (points of both signs and infinity); ZCash bytes equal noble’s', () => {
      const pts = Array.from({ length: 3 }, point);
      const P = pts[0];
      // G2's sign flag orders y by c1, then c0: add a point that tells this from ordering by c0 (y's components on different sides of (p − 1)/2)
      const split = (Q: P) => Q.y[1] > (p - 1n) / 2n !== Q.y[0] > (p - 1n) / 2n;
      if (group === 'g2') for (let Q = point(), tries = 0; tries < 64; Q = point(), tries++) if (split(Q)) {
        pts.push(Q);
        break;
      }
      if (group === 'g2') assert.ok(pts.some(split), 'a point with y’s components on different sides of (p − 1)/2');
      for (const P0 of pts.flatMap((Q) => [Q, ref.neg(Q)])) {
        for (const { name: fmt, bytes } of g().pointFormats) {
          const enc = g().toBytes(P0, fmt);
          assert.equal(enc.length, bytes);
          assert.deepEqual(enc, t.encode(fmt, P0), `${fmt} layout`);
          assert.deepEqual(g().toBytes(null, fmt), t.encode(fmt, null), `${fmt} infinity`);
          const both = cat(enc, g().toBytes(null, fmt), g().toBytes(ref.neg(P0), fmt));
          assert.deepEqual(g().msmSync(both, [5n, 9n, 2n], { pointFormat: fmt }), t.asResult(ref.mul(P0, 3n)), `${fmt} decode`);
        }
      }
      if (t.nobleBytes && t.formats.includes('zcash')) {
        for (const Q of [P, null]) {
          assert.deepEqual(g().toBytes(Q, 'zcash'), t.nobleBytes(Q, false), 'noble: zcash');
          assert.deepEqual(g().toBytes(Q, 'zcash-compressed'), t.nobleBytes(Q, true), 'noble: zcash-compressed');
        }
      }
    });

    it('malformed encodings: a coordinate ≥ p, ZCash flags, wrong length (PointEncodingError / LengthMismatchError with the index)', () => {
      const P = point();
      const fmt = g().pointFormats[0].name;
      const good = g().toBytes(P, fmt);
      const second = (b: Uint8Array) => () => g().msmSync(cat(good, b), [1n, 1n]);
      assert.throws(second(t.encode(fmt, t.withXAt(P, p))), (e: unknown) => e instanceof PointEncodingError && e.index === 1 && /not below p/.test(e.message));
      if (fmt === 'zcash') {
        const flagged = good.slice();
        flagged[0] |= 0x80; // compressed bit on an uncompressed encoding
        assert.throws(second(flagged), (e: unknown) => e instanceof PointEncodingError && e.index === 1);
        const inf = g().toBytes(null, fmt);
        inf[inf.length - 1] = 1;
        assert.throws(second(inf), (e: unknown) => e instanceof PointEncodingError && e.index === 1);
      }
      assert.throws(() => g().msmSync(good.subarray(1), [1n]), LengthMismatchError);
      assert.throws(() => g().msmSync([P, P], [1n]), LengthMismatchError);
    });

    it('off-curve and outside-subgroup points: typed errors with the index (objects and bytes); on-curve validation accepts the latter', () => {
      const P = point();
      const off = t.offCurve(P);
      assert.throws(() => g().msmSync([P, P, off], [1n, 1n, 1n]), (e: unknown) => e instanceof NotOnCurveError && e.index === 2);
      assert.throws(() => g().toBytes(off), NotOnCurveError);
      assert.throws(() => g().msmSync([t.notAPoint], [1n]), (e: unknown) => e instanceof PointEncodingError && e.index === 0);
      const X = t.outside;
      if (X === undefined) return; // cofactor 1: every curve point is in the group
      assert.equal(ref.isOnCurve(X), true);
      assert.equal(t.inGroup(X), false, 'outside: r·X ≠ O');
      assert.throws(() => g().msmSync([P, X], [1n, 1n]), (e: unknown) => e instanceof NotInSubgroupError && e.index === 1);
      const enc = cat(g().toBytes(P), g().toBytes(P), g().toBytes(X));
      assert.throws(() => g().msmSync(enc, [1n, 1n, 1n]), (e: unknown) => e instanceof NotInSubgroupError && e.index === 2);
      for (const fmt of t.formats.filter((f) => f.endsWith('compressed'))) {
        assert.throws(() => g().msmSync(g().toBytes(X, fmt), [1n], { pointFormat: fmt }), (e: unknown) => e instanceof NotInSubgroupError && e.index === 0, fmt);
      }
      assert.deepEqual(g().msmSync([X], [1n], { validate: 'on-curve' }), t.asResult(X));
    });

    it('on worker threads: the same result as the calling thread (objects and bytes); the lowest bad index', async () => {
      const n = 600;
      const base = Array.from({ length: 8 }, point);
      const points = Array.from({ length: n }, (_, i) => (i % 50 === 7 ? null : base[i % 8]));
      const scalars = Array.from({ length: n }, () => t.rng.nextBigint(256) % r);
      const want = g().msmSync(points, scalars);
      assert.deepEqual(want, t.asResult(sumRef(points, scalars)));
      let threads = 0;
      assert.deepEqual(await g().msm(points, scalars, { onStats: (s: { threads: number }) => (threads = s.threads) }), want);
      assert.equal(threads, 2);
      const bytes = cat(...points.map((Q) => g().toBytes(Q)));
      assert.deepEqual(await g().msm(bytes, scalars), want);
      const last = t.outside ?? t.offCurve(base[0]);
      const bad = cat(bytes.subarray(0, bytes.length - g().pointFormats[0].bytes), t.encode(g().pointFormats[0].name, last));
      await assert.rejects(g().msm(bad, scalars), (e: unknown) => (e instanceof NotInSubgroupError || e instanceof NotOnCurveError) && e.index === n - 1);
    });

    it('onProgress: monotone reports ending at done === total (msmSync, msm on 2 threads); chunkPoints streams; a memory budget too small is refused', async () => {
      const n = 3000;
      const base = Array.from({ length: 8 }, point);
      const points = Array.from({ length: n }, (_, i) => base[i % 8]);
      const scalars = Array.from({ length: n }, () => t.rng.nextBigint(256) % r);
      const bytes = cat(...points.map((Q) => g().toBytes(Q)));
      const want = g().msmSync(points, scalars);
      for (const run of [(o: Record<string, unknown>) => Promise.resolve(g().msmSync(bytes, scalars, o)), (o: Record<string, unknown>) => g().msm(bytes, scalars, o)]) {
        const reports: MsmProgress[] = [];
        assert.deepEqual(await run({ onProgress: (q: MsmProgress) => reports.push({ ...q }) }), want);
        const last = reports.at(-1)!;
        assert.equal(last.phase, 'done');
        assert.equal(last.done, last.total);
        assert.ok(last.total > n, `total ${last.total} counts decoding and the windows`);
        reports.forEach((q, i) => assert.ok(i === 0 || q.done >= reports[i - 1].done, 'done never decreases'));
      }
      let chunks: number | undefined;
      assert.deepEqual(g().msmSync(bytes, scalars, { chunkPoints: 700, onStats: (s: { streamedChunks?: number }) => (chunks = s.streamedChunks) }), want, 'streamed on the calling thread');
      assert.equal(chunks, Math.ceil(n / 700));
      assert.deepEqual(await g().msm(bytes, scalars, { chunkPoints: 1024 }), want, 'streamed on the pool');
      // 16-bit windows: 2^15 buckets need more than 1 MiB, whole or streamed
      const tight = { maxMemoryBytes: 2 ** 20, windowBits: 16 };
      assert.throws(() => g().msmSync(bytes, scalars, tight), isOption('maxMemoryBytes'));
      await assert.rejects(g().msm(bytes, scalars, tight), isOption('maxMemoryBytes'));
      // at the default window 1 MiB gives the point (streamed) or the same refusal, nothing else
      for (const run of [async (o: Record<string, unknown>) => g().msmSync(bytes, scalars, o), (o: Record<string, unknown>) => g().msm(bytes, scalars, o)]) {
        await run({ maxMemoryBytes: 2 ** 20 }).then((got) => assert.deepEqual(got, want), (e: unknown) => assert.ok(isOption('maxMemoryBytes')(e), String(e)));
      }
      assert.deepEqual(await g().msm(bytes, scalars), want, 'usable after the refused option');
    });

    it('inputs are taken at the call: packed points and scalars zeroed right after msm() (an earlier MSM still queued), point objects and scalar arrays changed', async () => {
      const n = 600;
      const base = Array.from({ length: 8 }, point);
      const points = Array.from({ length: n }, (_, i) => base[i % 8]);
      const s = points.map((_, i) => BigInt(i) * 0x9e3779b97f4a7c15n + 1n);
      const want = t.asResult(sumRef(points, s));
      const bytes = cat(...points.map((q) => g().toBytes(q)));
      const first = g().msm(bytes, scalarBytes(s)); // queued ahead: the next call waits for it
      const points2 = bytes.slice();
      const scalars2 = scalarBytes(s);
      const second = g().msm(points2, scalars2);
      points2.fill(0);
      scalars2.fill(0);
      assert.deepEqual(await first, want, 'first');
      assert.deepEqual(await second, want, 'buffers zeroed after the call');
      const objs = points.map(t.clone);
      const scalars = [...s];
      const running = g().msm(objs, scalars);
      objs.forEach(t.spoil);
      scalars.fill(0n);
      objs.length = 0;
      assert.deepEqual(await running, want, 'objects changed after the call');
    });

    it('bad options: InvalidOptionError naming the option, sync and async, before any work (also with an off-curve point)', async () => {
      const P = point();
      const entry = `${name}.${group}.msmSync`;
      assert.throws(() => g().msmSync([P], [1n], { windowBits: '8' as never }),
        (e: unknown) => isOption('windowBits')(e) && (e as Error).message === `${entry}: option windowBits must be an integer in 2…16, got "8" (a string)`);
      const offBytes = cat(g().toBytes(P), t.encode(g().pointFormats[0].name, t.offCurve(P)));
      const bad: [string, Record<string, unknown>][] = [
        ...['toString', 'constructor', '__proto__', 'valueOf'].map((v) => ['validate', { validate: v }] as [string, Record<string, unknown>]),
        ...[-1, 2.5, 0, 1, 17, 40, NaN, 8n].map((w) => ['windowBits', { windowBits: w }] as [string, Record<string, unknown>]),
        ['scalarEndian', { scalarEndian: 'BE' }], ['scalarEndian', { scalarEndian: 'big' }],
        ['pointFormat', { pointFormat: 'nope' }], ['pointFormat', { pointFormat: 'toString' }],
        ['threads', { threads: 0 }], ['maxMemoryBytes', { maxMemoryBytes: 2 ** 20 - 1 }], ['backnd', { backnd: 'i32' }],
      ];
      for (const [option, o] of bad) {
        assert.throws(() => g().msmSync(offBytes, [1n, 2n], o), isOption(option), `msmSync ${option} ${String(Object.values(o)[0])}`);
        await assert.rejects(g().msm(offBytes, [1n, 2n], o), isOption(option), `msm ${option} ${String(Object.values(o)[0])}`);
      }
      // 300 points: the async call would run on the pool
      const many = cat(...Array.from({ length: 150 }, () => offBytes));
      const s300 = Array.from({ length: 300 }, (_, i) => BigInt(i + 1));
      await assert.rejects(g().msm(many, s300, { validate: 'toString' }), isOption('validate'), 'msm on 300 points');
      assert.throws(() => g().msmSync([P], [1n], null as never), isOption('options'));
      await assert.rejects(g().msm([P], [1n], null as never), isOption('options'));
      for (const v of ['toString', '__proto__', 'constructor', 'ZCASH', null, 5]) {
        assert.throws(() => g().toBytes(P, v as string), isOption('format'), `toBytes format ${String(v)}`);
      }
      assert.equal(g().toBytes(P).length, g().pointFormats[0].bytes);
      assert.deepEqual(await g().msm([P], [2n]), t.asResult(ref.mul(P, 2n)), 'usable afterwards');
    });

    it('an undefined entry or a hole is PointEncodingError, a bad scalar ScalarEncodingError, with its index (sync and async)', async () => {
      const P = point();
      // eslint-disable-next-line no-sparse-arrays
      for (const [what, pts] of [['undefined', [P, undefined, P]], ['hole', [P, , P]]] as [string, P[]][]) {
        assert.throws(() => g().msmSync(pts, [1n, 2n, 3n]), (e: unknown) => e instanceof PointEncodingError && e.index === 1 && (what !== 'hole' || /hole/.test(e.message)));
        await assert.rejects(g().msm(pts, [1n, 2n, 3n]), (e: unknown) => e instanceof PointEncodingError && e.index === 1);
      }
      for (const s of [[1n, 1.5, 2n], [1n, '2', 3n], [1n, undefined, 3n]] as unknown as bigint[][]) {
        assert.throws(() => g().msmSync([P, P, P], s), (e: unknown) => e instanceof ScalarEncodingError && e.index === 1);
        await assert.rejects(g().msm([P, P, P], s), (e: unknown) => e instanceof ScalarEncodingError && e.index === 1);
      }
    });
  });
}

describe('curves without G2 (read off the registry)', () => {
  it(`${curvesWithoutG2.join(', ')}: .g2 throws a PippinError`, async () => {
    assert.ok(curvesWithoutG2.length > 0);
    for (const name of curvesWithoutG2) {
      await curves[name].init();
      assert.throws(() => curves[name].g2, PippinError, name);
    }
  });
});
