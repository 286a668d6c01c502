/**
 * Cancellation (`signal`, issue #14 item 3): an already aborted signal rejects before any work (and
 * msmSync throws); an abort during decoding/validation or during the tiles rejects with the signal's
 * reason on 1 and 2 threads; the workers are replaced and the memory released, so the next MSM is
 * right (closed form over points with known logs). Every await has a timeout (no hangs).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381, startThreads, stopThreads, threads, InvalidOptionError } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { makeRng } from '../src/reference/rng.js';
import { expectedLog, randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';

const within = <T>(p: Promise<T>, what: string, ms = 60_000): Promise<T> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error(`hung: ${what}`)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
};

describe('cancellation', { timeout: 300_000 }, () => {
  let inputs: { bytes: Uint8Array; scalars: Uint8Array; want: { x: bigint; y: bigint } | null };
  before(async () => {
    await bls12_381.init();
    await startThreads(2);
    const ref = new RefCurve(bls12_381.params);
    const rng = makeRng(41);
    const n = 1 << 16;
    const gen = randomPoints(bls12_381.g1.inst, n, rng, bls12_381.params.r, (a) => ref.mul(bls12_381.params.G1, a)!, bls12_381.g1.formatSpec());
    const scalars = randomScalarBytes(n, rng);
    inputs = { bytes: gen.bytes, scalars, want: ref.mulScalar(bls12_381.params.G1, expectedLog(scalars, gen.logs, bls12_381.params.r)) };
  });
  after(() => stopThreads());
  const right = (got: { x: bigint; y: bigint; infinity: boolean }) => !got.infinity && got.x === inputs.want!.x && got.y === inputs.want!.y;

  it('an already aborted signal rejects before any work (msm) and throws (msmSync), with its reason', async () => {
    const reason = new Error('stop now');
    let stats = 0;
    const onStats = () => stats++;
    await assert.rejects(bls12_381.g1.msm(inputs.bytes, inputs.scalars, { signal: AbortSignal.abort(reason), onStats }), (e) => e === reason);
    await assert.rejects(bls12_381.g1.msm(inputs.bytes, inputs.scalars, { signal: AbortSignal.abort() }), (e: unknown) => e instanceof DOMException && e.name === 'AbortError');
    assert.throws(() => bls12_381.g1.msmSync(inputs.bytes, inputs.scalars, { signal: AbortSignal.abort(reason), onStats }), (e) => e === reason);
    assert.equal(stats, 0, 'no MSM ran');
    assert.throws(() => bls12_381.g1.msmSync([], [], { signal: { aborted: false } as unknown as AbortSignal }), (e: unknown) => e instanceof InvalidOptionError && e.option === 'signal');
  });

  for (const t of [1, 2]) {
    for (const [phase, validate, delay] of [['decoding and validation', 'full', 20], ['the tiles', 'none', 250]] as const) {
      it(`an abort during ${phase} on ${t} thread(s) rejects with the reason; the next MSM is right`, async () => {
        const controller = new AbortController();
        const reason = new Error(`abort during ${phase}`);
        let finished = false;
        const running = bls12_381.g1.msm(inputs.bytes, inputs.scalars, { validate, threads: t, signal: controller.signal }).finally(() => (finished = true));
        await new Promise((res) => setTimeout(res, delay));
        assert.equal(finished, false, 'still running when aborted');
        controller.abort(reason);
        await assert.rejects(within(running, 'aborted MSM'), (e) => e === reason);
        assert.equal(threads.count, 2, 'pool size kept');
        assert.ok(right(await within(bls12_381.g1.msm(inputs.bytes, inputs.scalars, { validate: 'on-curve', threads: t }), 'next MSM')), 'next MSM right');
      });
    }
  }

  it('one thread: timers run during the MSM (kernels run in short slices), so an abort due mid-accumulation lands there', async () => {
    const controller = new AbortController();
    const reason = new Error('abort mid-accumulation');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    let accumulating = false;
    let finished = false;
    const running = bls12_381.g1.msm(inputs.bytes, inputs.scalars, {
      validate: 'none',
      threads: 1,
      signal: controller.signal,
      onProgress: (p) => {
        // the first report of the accumulation: abort from a timer, as an event would
        if (p.phase === 'accumulate' && !accumulating) {
          accumulating = true;
          setTimeout(() => controller.abort(reason), 0);
        }
      },
    }).finally(() => (finished = true));
    try {
      await assert.rejects(within(running, 'aborted MSM'), (e) => e === reason);
    } finally {
      clearInterval(ticker);
    }
    assert.ok(accumulating && finished, 'aborted during the accumulation');
    assert.ok(ticks > 0, 'the event loop ran during the MSM');
    assert.ok(right(await within(bls12_381.g1.msm(inputs.bytes, inputs.scalars, { validate: 'on-curve', threads: 1 }), 'next MSM')), 'next MSM right');
  });

  for (const t of [1, 2]) {
    it(`a streamed MSM (async iterable inputs) aborted mid-accumulation on ${t} thread(s): rejects, memory released, the next MSM is right`, async () => {
      const controller = new AbortController();
      const reason = new Error('abort the stream');
      const marks = bls12_381.g1.inst.arena.mark();
      async function* pieces(bytes: Uint8Array, size: number) {
        for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
      }
      let accumulating = false;
      const running = bls12_381.g1.msm(pieces(inputs.bytes, 96 * 5000), pieces(inputs.scalars, 32 * 7000), {
        validate: 'none',
        threads: t,
        chunkPoints: 1 << 13,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'accumulate' && !accumulating) {
            accumulating = true;
            setTimeout(() => controller.abort(reason), 0);
          }
        },
      });
      await assert.rejects(within(running, 'aborted streamed MSM'), (e) => e === reason);
      assert.ok(accumulating, 'aborted during the accumulation');
      assert.equal(bls12_381.g1.inst.arena.mark(), marks, 'memory released');
      assert.ok(right(await within(bls12_381.g1.msm(inputs.bytes, inputs.scalars, { validate: 'on-curve', threads: t, chunkPoints: 1 << 13 }), 'next MSM')), 'next MSM right');
    });
  }

  it('an MSM that finishes before the abort resolves normally; a later abort changes nothing', async () => {
    const controller = new AbortController();
    const got = await within(bls12_381.g1.msm(inputs.bytes, inputs.scalars, { validate: 'on-curve', signal: controller.signal }), 'MSM');
    controller.abort();
    assert.ok(right(got));
    assert.ok(right(await within(bls12_381.g1.msm(inputs.bytes, inputs.scalars, { validate: 'on-curve' }), 'MSM after')));
  });
});
