/**
 * Progress (`onProgress`, issue #14 item 2): on msmSync and msm (1 and 2 threads) the reports have
 * one fixed total, done never decreases and stays below total until the one last report (done ===
 * total, phase 'done'), reports before the last are ≥ 50 ms apart, every phase that ran appears,
 * and the result is still right (closed form). ProgressMeter itself against a fake clock.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381, bn254, startThreads, stopThreads, InvalidOptionError, type MsmProgress } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { makeRng } from '../src/reference/rng.js';
import { expectedLog, randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { MIN_INTERVAL_MS, ProgressMeter } from '../src/msm/progress.js';

interface Report extends MsmProgress {
  at: number;
}

function checkReports(reports: Report[], phases: readonly string[]): void {
  assert.ok(reports.length >= 2, `at least a first and a last report (got ${reports.length})`);
  const { total } = reports[0];
  const last = reports[reports.length - 1];
  assert.deepEqual({ done: last.done, total: last.total, phase: last.phase }, { done: total, total, phase: 'done' });
  for (let i = 0; i < reports.length; i++) {
    const r = reports[i];
    assert.equal(r.total, total, 'total fixed');
    assert.ok(Number.isInteger(r.done) && r.done >= 0, `done is a whole number (${r.done})`);
    if (i > 0) assert.ok(r.done >= reports[i - 1].done, `monotone: ${reports[i - 1].done} then ${r.done}`);
    if (i < reports.length - 1) {
      assert.ok(r.done < total && r.phase !== 'done', 'only the last report is complete');
      // at most every 50 ms (the timer may round down by a fraction of a millisecond)
      if (i > 0) assert.ok(r.at - reports[i - 1].at >= MIN_INTERVAL_MS - 1, `reports ${r.at - reports[i - 1].at} ms apart`);
    }
  }
  const seen = new Set(reports.map((r) => r.phase));
  for (const p of phases) assert.ok(seen.has(p as MsmProgress['phase']), `phase ${p} reported (saw ${[...seen].join(', ')})`);
}

describe('progress', { timeout: 300_000 }, () => {
  let inputs: { bytes: Uint8Array; scalars: Uint8Array; want: { x: bigint; y: bigint } | null; n: number };
  before(async () => {
    await bls12_381.init();
    await bn254.init();
    await startThreads(2);
    const ref = new RefCurve(bls12_381.params);
    const rng = makeRng(77);
    const n = 1 << 15;
    const gen = randomPoints(bls12_381.g1.inst, n, rng, bls12_381.params.r, (a) => ref.mul(bls12_381.params.G1, a)!, bls12_381.g1.formatSpec());
    const scalars = randomScalarBytes(n, rng);
    inputs = { n, bytes: gen.bytes, scalars, want: ref.mulScalar(bls12_381.params.G1, expectedLog(scalars, gen.logs, bls12_381.params.r)) };
  });
  after(() => stopThreads());
  const right = (got: { x: bigint; y: bigint; infinity: boolean }) => !got.infinity && got.x === inputs.want!.x && got.y === inputs.want!.y;
  const recorder = () => {
    const reports: Report[] = [];
    return { reports, onProgress: (p: MsmProgress) => reports.push({ ...p, at: performance.now() }) };
  };

  it('msmSync: monotone, ends at total, decode + subgroup + accumulate phases, right result', () => {
    const { reports, onProgress } = recorder();
    assert.ok(right(bls12_381.g1.msmSync(inputs.bytes, inputs.scalars, { onProgress })));
    checkReports(reports, ['decode', 'accumulate', 'done']);
    assert.ok(reports[0].total > inputs.n, 'total counts more than the decoding pass');
  });

  for (const threads of [1, 2]) {
    it(`msm on ${threads} thread(s): monotone, ends at total, right result`, async () => {
      const { reports, onProgress } = recorder();
      assert.ok(right(await bls12_381.g1.msm(inputs.bytes, inputs.scalars, { threads, onProgress })));
      checkReports(reports, ['decode', 'done']);
      const { reports: none, onProgress: onNone } = recorder();
      assert.ok(right(await bls12_381.g1.msm(inputs.bytes, inputs.scalars, { threads, onProgress: onNone, validate: 'none' })));
      checkReports(none, ['done']);
      assert.ok(none[0].total < reports[0].total, 'no subgroup pass without full validation');
    });
  }

  it('n = 0 and point objects on a curve without cofactor', async () => {
    const { reports, onProgress } = recorder();
    const got = await bn254.g1.msm(new Uint8Array(0), new Uint8Array(0), { onProgress });
    assert.ok(got.infinity);
    assert.deepEqual(reports.map(({ done, total, phase }) => ({ done, total, phase })).at(-1), { done: 0, total: 0, phase: 'done' });
    const { reports: objs, onProgress: onObjs } = recorder();
    bn254.g1.msmSync([{ x: 1n, y: 2n }, null], [3n, 4n], { onProgress: onObjs, validate: 'none' });
    checkReports(objs, ['done']);
  });

  it('a non-function onProgress is an InvalidOptionError naming it; a throwing one rejects the MSM', async () => {
    for (const v of [1, 'f', {}, null]) {
      await assert.rejects(bls12_381.g1.msm(inputs.bytes, inputs.scalars, { onProgress: v as never }), (e: unknown) => e instanceof InvalidOptionError && e.option === 'onProgress');
      assert.throws(() => bls12_381.g1.msmSync([], [], { onProgress: v as never }), (e: unknown) => e instanceof InvalidOptionError && e.option === 'onProgress');
    }
    const boom = new Error('progress callback failed');
    await assert.rejects(bls12_381.g1.msm(inputs.bytes, inputs.scalars, { onProgress: () => { throw boom; } }), (e) => e === boom);
    assert.ok(right(await bls12_381.g1.msm(inputs.bytes, inputs.scalars, {})), 'next MSM right');
  });

  it('ProgressMeter (fake clock): throttled, whole units, clamped below total until finish', () => {
    let now = 0;
    const seen: MsmProgress[] = [];
    const m = new ProgressMeter(10, (p) => seen.push(p), () => now);
    m.advance(0, 'decode');
    m.advance(2.5, 'decode'); // same instant: not reported
    now = 49;
    m.advance(1, 'decode');
    now = 50;
    m.advance(0, 'accumulate');
    now = 200;
    m.advance(100, 'accumulate'); // more than remains: clamped
    m.finish();
    m.finish(); // once only
    m.advance(1, 'decode'); // after the end: ignored
    assert.deepEqual(seen, [
      { done: 0, total: 10, phase: 'decode' },
      { done: 3, total: 10, phase: 'accumulate' },
      { done: 9, total: 10, phase: 'accumulate' },
      { done: 10, total: 10, phase: 'done' },
    ]);
  });
});
