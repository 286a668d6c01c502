/**
 * Every member of a group exists once (src/api/group.ts) and works for both groups: on each curve
 * of the registry with a G2, for G1 and G2, prepared bases (msm, msmSync, msmBatch, fixed-base
 * tables, dispose) and streamed MSMs (chunkPoints, iterables and async iterables of odd-sized
 * chunks; a budget too small for streaming is refused) equal the plain MSM and the bigint reference
 * (closed form over points with known logs); a point outside the subgroup is found at its index
 * by prepare and by a streamed MSM; progress ends at done === total.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { curves, startThreads, stopThreads, InvalidOptionError, NotInSubgroupError, type Curve } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { RefG2 } from '../src/reference/g2.js';
import { g2CurveNames, g2Params } from '../src/curves/index.js';
import { outsideSubgroup } from './helpers/outside-subgroup.js';
import { makeRng } from '../src/reference/rng.js';
import { expectedLog, g2Io, randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { GROUP_NAMES } from '../src/msm/group.js';

const N = 600;
const key = (p: { x: unknown; y: unknown; infinity: boolean }) => (p.infinity ? 'inf' : JSON.stringify([p.x, p.y], (_, v) => (typeof v === 'bigint' ? v.toString(16) : v)));

function* chunked(bytes: Uint8Array, sizes: number[]): Generator<Uint8Array> {
  for (let at = 0, j = 0; at < bytes.length; j++) {
    const len = Math.min(sizes[j % sizes.length], bytes.length - at);
    yield bytes.slice(at, at + len);
    at += len;
  }
}
async function* asyncChunked(bytes: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
  for (const c of chunked(bytes, sizes)) {
    await new Promise((r) => setTimeout(r, 0));
    yield c;
  }
}

describe('one group implementation: G1 and G2 features', { timeout: 600_000 }, () => {
  before(() => startThreads(2));
  after(() => stopThreads());
  for (const name of g2CurveNames) {
    for (const group of GROUP_NAMES) {
      describe(`${name} ${group}`, () => {
        const curve = curves[name] as unknown as Curve<string>;
        let bytes: Uint8Array;
        let size: number;
        let logs: bigint[];
        let mulG: (l: bigint) => string;
        let badPoint: Uint8Array | undefined;
        before(async () => {
          await curve.init();
          const g = curve[group];
          const rng = makeRng(group === 'g1' ? 11 : 12);
          const r = curve.params.r;
          if (group === 'g1') {
            const ref = new RefCurve(curve.params);
            const gen = randomPoints(g.inst, N, rng, r, (a) => ref.mul(curve.params.G1, a)!, g.formatSpec());
            ({ bytes, logs } = gen);
            mulG = (l) => {
              const P = ref.mul(curve.params.G1, l);
              return key(P ? { ...P, infinity: false } : { x: 0n, y: 0n, infinity: true });
            };
          } else {
            const ref = new RefG2(g2Params[name]);
            const gen = randomPoints(g.inst, N, rng, r, (a) => ref.mul(ref.G, a)!, g.formatSpec(), g2Io(g.inst));
            ({ bytes, logs } = gen);
            mulG = (l) => {
              const P = ref.mul(ref.G, l);
              return key(P ? { ...P, infinity: false } : { x: 0n, y: 0n, infinity: true });
            };
          }
          size = g.formatSpec().bytes;
          badPoint = outsideSubgroup(curve, group);
        });
        const want = (scalars: Uint8Array) => mulG(expectedLog(scalars, logs.slice(0, scalars.length / 32), curve.params.r));

        it('prepared bases: msm, msmSync, msmBatch (prefixes, an empty set) with and without a fixed-base table', async () => {
          const g = curve[group];
          const sets = [randomScalarBytes(N, makeRng(1)), randomScalarBytes(250, makeRng(2)), new Uint8Array(0), randomScalarBytes(1, makeRng(3))];
          for (const precompute of [false, { maxBytes: 64 * 2 ** 20 }]) {
            const bases = await g.prepare(bytes, { precompute });
            try {
              assert.equal(bases.n, N);
              assert.equal(bases.precomputed !== undefined, precompute !== false, 'table built when asked');
              assert.equal(key(await bases.msm(sets[0])), want(sets[0]), 'msm');
              assert.equal(key(bases.msmSync(sets[1])), want(sets[1]), 'msmSync');
              const all = await bases.msmBatch(sets, { threads: 2 });
              all.forEach((got, j) => assert.equal(key(got), want(sets[j]), `msmBatch set ${j}`));
              assert.equal(key(await g.msm(bytes, sets[0])), want(sets[0]), 'plain msm agrees');
            } finally {
              bases.dispose();
            }
          }
        });

        it('streamed: chunkPoints, iterables and async iterables of odd chunks; a budget too small is refused', async () => {
          const g = curve[group];
          const scalars = randomScalarBytes(N, makeRng(4));
          const w = want(scalars);
          const progress: { done: number; total: number }[] = [];
          let chunks = 0;
          assert.equal(key(await g.msm(bytes, scalars, { chunkPoints: 97, onProgress: (p) => progress.push(p), onStats: (s) => (chunks = s.streamedChunks ?? 0) })), w, 'chunkPoints');
          assert.equal(chunks, Math.ceil(N / 97), 'chunks');
          assert.ok(progress.length > 0 && progress.at(-1)!.done === progress.at(-1)!.total, 'progress ends at done === total');
          assert.equal(key(g.msmSync(chunked(bytes, [size * 3 + 5, 1, size * 50]), chunked(scalars, [31, 33 * 32]), { chunkPoints: 128 })), w, 'sync iterables');
          assert.equal(key(await g.msm(asyncChunked(bytes, [size * 7 + 1, size * 200]), asyncChunked(scalars, [64 * 32 + 3]))), w, 'async iterables');
          // a budget that cannot hold a streamed MSM's buckets is refused, naming the option
          await assert.rejects(g.msm(bytes, scalars, { maxMemoryBytes: 2 ** 20 }), (e: unknown) => e instanceof InvalidOptionError && e.option === 'maxMemoryBytes');
        });

        it('a point outside the subgroup is reported at its index by prepare and by a streamed MSM', async (t) => {
          const g = curve[group];
          if (!badPoint) return t.skip('cofactor 1: every point on the curve is in the subgroup');
          const bad = bytes.slice();
          bad.set(badPoint, 200 * size);
          const scalars = randomScalarBytes(N, makeRng(5));
          await assert.rejects(g.prepare(bad), (e) => e instanceof NotInSubgroupError && e.index === 200);
          await assert.rejects(g.msm(bad, scalars, { chunkPoints: 128 }), (e) => e instanceof NotInSubgroupError && e.index === 200);
          await assert.rejects(g.msm(bad, scalars), (e) => e instanceof NotInSubgroupError && e.index === 200);
        });
      });
    }
  }
});
