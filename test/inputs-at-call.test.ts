/**
 * Inputs are taken at the call: the core's asynchronous calls (g1.msm, g1.prepare, prepared msm and
 * msmBatch) give the result of the inputs as they were when called, whatever the caller writes into
 * its buffers right after — a Uint8Array, a Node Buffer (whose slice() is a view), a subarray at an
 * offset, a SharedArrayBuffer-backed array. Oracle: the same MSM on fresh copies, and the bigint
 * reference's closed form over points with known logs.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381, startThreads, stopThreads } from '../src/index.js';
import { makeRng } from '../src/reference/rng.js';
import { expectedLog, randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { RefCurve } from '../src/reference/curve.js';

const N = 300;

type Wrap = (bytes: Uint8Array) => Uint8Array;
const wrappers: [string, Wrap][] = [
  ['Uint8Array', (b) => b.slice()],
  ['Buffer', (b) => Buffer.from(b)],
  ['subarray at an offset', (b) => {
    const big = new Uint8Array(b.length + 37);
    big.set(b, 13);
    return big.subarray(13, 13 + b.length);
  }],
  ['SharedArrayBuffer', (b) => {
    const s = new Uint8Array(new SharedArrayBuffer(b.length));
    s.set(b);
    return s;
  }],
];

describe('core: inputs taken at the call', { timeout: 300_000 }, () => {
  it('g1.msm, g1.prepare, prepared msm/msmBatch: buffers refilled right after the call do not change the result', async () => {
    await bls12_381.init();
    const rng = makeRng(31);
    const { r, G1 } = bls12_381.params;
    const ref = new RefCurve(bls12_381.params);
    const { bytes: points, logs } = randomPoints(bls12_381.g1.inst, N, rng, r, (a) => ref.mul(G1, a)!, bls12_381.g1.formatSpec());
    const scalars = randomScalarBytes(N, rng);
    const closed = ref.mul(G1, expectedLog(scalars, logs, r));
    const expected = { x: closed?.x ?? 0n, y: closed?.y ?? 0n, infinity: closed === null };
    const key = (p: { x: bigint; y: bigint; infinity: boolean }) => (p.infinity ? 'inf' : `${p.x}:${p.y}`);
    // every kind at once: calls in flight together, each buffer refilled right after its call
    const together = wrappers.map(([, wrap]) => {
      const [pts, sc] = [wrap(points), wrap(scalars)];
      const call = bls12_381.g1.msm(pts, sc, { validate: 'none' });
      pts.fill(0);
      sc.fill(0xff);
      return call;
    });
    (await Promise.all(together)).forEach((S, i) => assert.equal(key(S), key(expected), `${wrappers[i][0]}: msm in flight together`));
    for (const [name, wrap] of wrappers) {
      const [pts, sc] = [wrap(points), wrap(scalars)];
      const call = bls12_381.g1.msm(pts, sc, { validate: 'none' });
      pts.fill(0);
      sc.fill(0xff);
      assert.equal(key(await call), key(expected), `${name}: msm`);
      const [pts2, sc2] = [wrap(points), wrap(scalars)];
      const preparing = bls12_381.g1.prepare(pts2, { validate: 'none' });
      pts2.fill(0);
      const bases = await preparing;
      try {
        const one = bases.msm(sc2);
        const both = bases.msmBatch([sc2, sc2.subarray(0, 32 * 10)]);
        sc2.fill(7);
        assert.equal(key(await one), key(expected), `${name}: prepared msm`);
        const [full, prefix] = await both;
        assert.equal(key(full), key(expected), `${name}: msmBatch`);
        const prefixLog = ref.mul(G1, expectedLog(scalars.subarray(0, 32 * 10), logs.slice(0, 10), r));
        const prefixExpected = { x: prefixLog?.x ?? 0n, y: prefixLog?.y ?? 0n, infinity: prefixLog === null };
        assert.equal(key(prefix), key(prefixExpected), `${name}: msmBatch prefix`);
      } finally {
        bases.dispose();
      }
    }
  });

  it('windows of two widths, tiles cut for the threads, a window narrowed for maxMemoryBytes: calls in flight together, buffers refilled', async () => {
    await bls12_381.init();
    const state = await startThreads(2);
    assert.equal(state.active, true, `threads (reason: ${state.reason})`);
    after(() => stopThreads());
    const n = 20_000;
    const rng = makeRng(37);
    const { r, G1 } = bls12_381.params;
    const ref = new RefCurve(bls12_381.params);
    const { bytes: points, logs } = randomPoints(bls12_381.g1.inst, n, rng, r, (a) => ref.mul(G1, a)!, bls12_381.g1.formatSpec());
    const scalars = randomScalarBytes(n, rng);
    const closed = ref.mul(G1, expectedLog(scalars, logs, r))!;
    type Stats = { plan: { c: number; windows: number; narrow: number }; streamedChunks?: number; tiles: number };
    // a budget whose table window leaves no room for streamed chunks, so a narrower one streams
    let base: Stats | undefined;
    bls12_381.g1.msmSync(points, scalars, { validate: 'none', onStats: (s: Stats) => (base = s) });
    const budget = [16, 14, 12, 11, 10].map((mib) => mib * 2 ** 20).find((maxMemoryBytes) => {
      let s: Stats | undefined;
      bls12_381.g1.msmSync(points, scalars, { validate: 'none', maxMemoryBytes, onStats: (t: Stats) => (s = t) });
      return s!.streamedChunks! > 0 && s!.plan.c < base!.plan.c;
    });
    assert.ok(budget !== undefined, 'some budget narrows the window');
    const variants: [string, Record<string, unknown>, (s: Stats) => boolean][] = [
      ['c = 15 (7 windows of 14 bits, 2 of 15) on 2 threads, the ninth cut in two', { windowBits: 15, threads: 2 }, (s) => s.plan.narrow === 7 && s.tiles === 10],
      ['narrowed for maxMemoryBytes, streamed', { maxMemoryBytes: budget }, (s) => s.streamedChunks! > 0 && s.plan.c < base!.plan.c],
      ['the table window, one piece', {}, (s) => s.plan.c === base!.plan.c && !s.streamedChunks],
    ];
    const calls = variants.flatMap(([what, options, shape]) => wrappers.map(([name, wrap]) => {
      const [pts, sc] = [wrap(points), wrap(scalars)];
      let stats: Stats | undefined;
      const call = bls12_381.g1.msm(pts, sc, { validate: 'none', ...options, onStats: (s: Stats) => (stats = s) });
      pts.fill(0);
      sc.fill(0xff);
      return call.then((S) => ({ S, what: `${what}, ${name}`, shaped: shape(stats!) }));
    }));
    for (const { S, what, shaped } of await Promise.all(calls)) {
      assert.ok(shaped, `${what}: the plan it names`);
      assert.deepEqual([S.infinity, S.x, S.y], [false, closed.x, closed.y], what);
    }
  });
});
