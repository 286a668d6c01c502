/**
 * Streamed MSM (maxMemoryBytes / chunkPoints / iterable inputs, issue #14 item 1): for every curve the
 * chunked MSM equals the one-piece MSM and the closed form (Σ s_i·a_i mod r)·G at several chunk sizes
 * (one point, sizes not dividing n, larger than n), with infinity points, zero scalars and scalars ≥ r;
 * ragged iterables (sync and async, cuts inside points, empty pieces); a bad point in chunk k is
 * reported with its global index; inputs ending at different lengths; a memory budget that forces
 * streaming; msmSync refuses async iterables.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { curves, startThreads, stopThreads, InvalidOptionError, LengthMismatchError, NotInSubgroupError, NotOnCurveError, PointEncodingError, ScalarEncodingError, type G1Affine } from '../src/index.js';
import type { CurveName } from '../src/curves/index.js';
import { makeRng } from '../src/reference/rng.js';
import { fixture, type Pt } from './helpers/msm-fixtures.js';
import { MAX_CHUNK_POINTS, chunkBytesPerPoint, fixedStreamBytes } from '../src/msm/stream.js';
import { batchFor, planMsm } from '../src/msm/plan.js';

const names = Object.keys(curves) as CurveName[];

function packScalars(s: readonly bigint[]): Uint8Array {
  const out = new Uint8Array(32 * s.length);
  s.forEach((v, i) => {
    let x = v;
    for (let b = 0; b < 32; b++, x >>= 8n) out[32 * i + b] = Number(x & 0xffn);
  });
  return out;
}

/** `bytes` cut at random places (inside items too), with empty pieces here and there. */
function ragged(bytes: Uint8Array, seed: number): Uint8Array[] {
  const rng = makeRng(seed);
  const pieces: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (rng.nextU32() % 7 === 0) pieces.push(new Uint8Array(0));
    const len = 1 + (rng.nextU32() % 400);
    pieces.push(bytes.slice(at, at + len));
    at += len;
  }
  return pieces;
}

async function* asyncOf(pieces: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const p of pieces) {
    await new Promise((res) => setTimeout(res, 0));
    yield p;
  }
}

describe('streamed MSM', { timeout: 600_000 }, () => {
  before(async () => {
    for (const name of names) await curves[name].init();
    await startThreads(2);
  });
  after(() => stopThreads());

  for (const name of names) {
    describe(name, () => {
      const f = fixture(name);
      const n = 37;
      let bytes: Uint8Array;
      let scalars: bigint[];
      let want: Pt;
      let format: string;
      before(() => {
        const known = f.withLogs(n);
        const pts = known.pts.slice();
        const logs = known.logs.slice();
        pts[3] = null; // the point at infinity
        logs[3] = 0n;
        scalars = f.scalars(makeRng(11), n);
        scalars[1] = 0n;
        scalars[2] = f.r - 1n;
        scalars[4] = f.r;
        format = f.formats[0];
        bytes = new Uint8Array(pts.flatMap((p) => [...f.api.g1.toBytes(p, format)]));
        want = f.closed(logs, scalars);
      });

      it('chunked = one piece = closed form at chunk sizes 1, 5, 16, 37, 64 (sync, and async on 2 threads)', async () => {
        const packed = packScalars(scalars);
        const whole = f.api.g1.msmSync(bytes, packed, { pointFormat: format });
        f.check(whole, want, 'one piece');
        for (const chunkPoints of [1, 5, 16, 37, 64]) {
          let stats: { streamedChunks?: number } | undefined;
          const got = f.api.g1.msmSync(bytes, packed, { pointFormat: format, chunkPoints, onStats: (s) => (stats = s) });
          f.check(got, want, `chunks of ${chunkPoints}`);
          assert.equal(stats?.streamedChunks, Math.ceil(n / chunkPoints), 'streamed in that many chunks');
        }
        f.check(await f.api.g1.msm(bytes, scalars, { pointFormat: format, chunkPoints: 5, threads: 2 }), want, 'async, 2 threads, bigint scalars');
      });

      it('ragged iterables (sync and async), cut inside points and scalars', async () => {
        const packed = packScalars(scalars);
        const p = ragged(bytes, 1);
        const s = ragged(packed, 2);
        f.check(f.api.g1.msmSync(p, s, { pointFormat: format }), want, 'sync iterables');
        f.check(f.api.g1.msmSync(p, s, { pointFormat: format, chunkPoints: 3 }), want, 'sync iterables, chunks of 3');
        f.check(await f.api.g1.msm(asyncOf(p), asyncOf(s), { pointFormat: format, chunkPoints: 7, threads: 2 }), want, 'async iterables, 2 threads');
        f.check(await f.api.g1.msm(asyncOf(p), scalars, { pointFormat: format, threads: 1 }), want, 'async points, bigint scalars');
        f.check(await f.api.g1.msm(bytes, s.values(), { pointFormat: format }), want, 'bytes and an iterator of scalars');
      });

      it('a bad point in chunk k is reported with its global index', async () => {
        const size = bytes.length / n;
        // point 23 (in chunk 4 of 5-point chunks, chunk 1 of 16) off the curve: the lowest bit of y flipped
        const corrupt = bytes.slice();
        const yLow = format === 'arkworks' || format === 'pasta' ? size / 2 : size - 1; // little- or big-endian y
        corrupt[23 * size + yLow] ^= 1;
        for (const chunkPoints of [5, 16]) {
          assert.throws(() => f.api.g1.msmSync(corrupt, packScalars(scalars), { pointFormat: format, chunkPoints }), (e: unknown) => (e instanceof NotOnCurveError || e instanceof PointEncodingError) && (e as NotOnCurveError).index === 23);
          await assert.rejects(f.api.g1.msm(ragged(corrupt, 3), scalars, { pointFormat: format, chunkPoints, threads: 2 }), (e: unknown) => (e instanceof NotOnCurveError || e instanceof PointEncodingError) && (e as NotOnCurveError).index === 23);
        }
      });
    });
  }

  it('bls12-381: a point outside G1 in chunk 2 of a batched subgroup check is found at its global index', async () => {
    const f = fixture('bls12-381');
    const n = 900;
    const { pts } = f.withLogs(n);
    const all = pts.slice();
    all[700] = f.curvePoint(77n, true);
    const bytes = new Uint8Array(all.flatMap((p) => [...f.api.g1.toBytes(p)]));
    const scalars = f.scalars(makeRng(5), n);
    await assert.rejects(f.api.g1.msm(bytes, scalars, { chunkPoints: 300, threads: 2 }), (e: unknown) => e instanceof NotInSubgroupError && e.index === 700);
    assert.throws(() => f.api.g1.msmSync(bytes, scalars, { chunkPoints: 300 }), (e: unknown) => e instanceof NotInSubgroupError && e.index === 700);
  });

  it('a memory budget below the one-piece size streams; too small a budget is an InvalidOptionError', async () => {
    const f = fixture('bn254');
    const n = 1 << 14;
    const { pts, logs } = f.withLogs(300);
    const idx = Array.from({ length: n }, (_, i) => i % 300);
    const bytes = new Uint8Array(idx.flatMap((i) => [...f.api.g1.toBytes(pts[i])]));
    const scalars = f.scalars(makeRng(9), n);
    const want = f.closed(idx.map((i) => logs[i]), scalars);
    let stats: { streamedChunks?: number; chunkPoints?: number } | undefined;
    // room for the buckets, workspaces and 3000 points per chunk on 2 threads
    const EB = f.api.g1.inst.fields.fp.info.elementBytes;
    const plan = planMsm(n, [], 10);
    const maxMemoryBytes = f.api.g1.inst.arena.mark() + fixedStreamBytes(EB, plan, 2, batchFor(2 * MAX_CHUNK_POINTS)) + 3000 * chunkBytesPerPoint(EB, 2);
    f.check(await f.api.g1.msm(bytes, scalars, { maxMemoryBytes, windowBits: 10, threads: 2, onStats: (s) => (stats = s) }), want, 'budget');
    assert.deepEqual({ chunks: stats?.streamedChunks, chunkPoints: stats?.chunkPoints }, { chunks: Math.ceil(n / 3000), chunkPoints: 3000 });
    await assert.rejects(f.api.g1.msm(bytes, scalars, { maxMemoryBytes: 2 ** 20 }), (e: unknown) => e instanceof InvalidOptionError && e.option === 'maxMemoryBytes');
  });

  it('an error stops the reading: the iterables are closed (their finally blocks run)', async () => {
    const f = fixture('bn254');
    const { pts } = f.withLogs(40);
    const bytes = new Uint8Array(pts.flatMap((p) => [...f.api.g1.toBytes(p)]));
    bytes[20 * 64 + 63] ^= 1; // point 20 off the curve
    const scalars = packScalars(f.scalars(makeRng(4), 40));
    const closed: string[] = [];
    async function* source(name: string, data: Uint8Array, size: number) {
      try {
        for (let at = 0; at < data.length; at += size) yield data.slice(at, at + size);
      } finally {
        closed.push(name);
      }
    }
    await assert.rejects(f.api.g1.msm(source('points', bytes, 64 * 3), source('scalars', scalars, 32 * 5), { chunkPoints: 4, threads: 1 }), (e: unknown) => e instanceof NotOnCurveError && e.index === 20);
    await new Promise((res) => setTimeout(res, 10));
    assert.deepEqual(closed.sort(), ['points', 'scalars']);
  });

  it('inputs of different lengths, a non-Uint8Array chunk, msmSync with an async iterable: typed errors', async () => {
    const f = fixture('pallas');
    const { pts } = f.withLogs(10);
    const bytes = new Uint8Array(pts.flatMap((p) => [...f.api.g1.toBytes(p)]));
    const scalars = packScalars(f.scalars(makeRng(3), 10));
    assert.throws(() => f.api.g1.msmSync([bytes], [scalars.subarray(0, 9 * 32)]), LengthMismatchError);
    assert.throws(() => f.api.g1.msmSync([bytes.subarray(0, bytes.length - 1)], [scalars]), LengthMismatchError);
    assert.throws(() => f.api.g1.msmSync([bytes, 5 as unknown as Uint8Array], [scalars]), (e: unknown) => e instanceof PointEncodingError && /chunk 1/.test((e as Error).message));
    assert.throws(() => f.api.g1.msmSync([bytes], [[1, 2] as unknown as Uint8Array]), ScalarEncodingError);
    assert.throws(() => f.api.g1.msmSync(asyncOf([bytes]) as unknown as Iterable<Uint8Array>, [scalars]), PointEncodingError);
    const empty: G1Affine = f.api.g1.msmSync([], [new Uint8Array(0)]);
    assert.ok(empty.infinity, 'empty iterables: infinity');
  });
});
