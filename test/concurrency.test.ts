/**
 * One call discipline per curve instance (issue #23): any mix of G1 and G2 calls — plain, prepared
 * (msm and msmBatch), streamed — asynchronous and synchronous, with and without a signal that may
 * abort, on 1 and 2 threads, started together on one curve, gives every result right (closed form
 * over points with known logs, computed with the bigint reference) or the abort's reason, and leaves
 * each instance's arena where it found it. Random interleavings by fast-check.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bls12_381, bn254, startThreads, stopThreads, type Curve } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { RefG2 } from '../src/reference/g2.js';
import { g2CurveNames, g2Params, type G2CurveName } from '../src/curves/index.js';
import { makeRng } from '../src/reference/rng.js';
import { expectedLog, g2Io, randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';

const N = 320; // above the smallest MSM that goes to the pool (256)

interface GroupInputs {
  bytes: Uint8Array;
  size: number;
  logs: bigint[];
  /** the reference: l·G, G the group's generator, as comparable strings */
  mulG(l: bigint): string;
}

const key = (p: { x: unknown; y: unknown; infinity: boolean }) => (p.infinity ? 'inf' : JSON.stringify([p.x, p.y], (_, v) => (typeof v === 'bigint' ? v.toString(16) : v)));

const curvesUnderTest = { 'bls12-381': bls12_381, bn254 } as Record<G2CurveName, Curve<string>>;

describe('concurrent G1 and G2 calls on one curve', { timeout: 600_000 }, () => {
  const inputs = new Map<string, { g1: GroupInputs; g2: GroupInputs }>();
  before(async () => {
    await startThreads(2);
    for (const name of g2CurveNames) {
      const curve = curvesUnderTest[name];
      await curve.init();
      const r = curve.params.r;
      const ref1 = new RefCurve(curve.params);
      const ref2 = new RefG2(g2Params[name]);
      const rng = makeRng(23);
      const gen1 = randomPoints(curve.g1.inst, N, rng, r, (a) => ref1.mul(curve.params.G1, a)!, curve.g1.formatSpec());
      const gen2 = randomPoints(curve.g2.inst, N, rng, r, (a) => ref2.mul(ref2.G, a)!, curve.g2.formatSpec(), g2Io(curve.g2.inst));
      const mul1 = (l: bigint) => {
        const P = ref1.mul(curve.params.G1, l);
        return key(P ? { ...P, infinity: false } : { x: 0n, y: 0n, infinity: true });
      };
      const mul2 = (l: bigint) => {
        const P = ref2.mul(ref2.G, l);
        return key(P ? { ...P, infinity: false } : { x: 0n, y: 0n, infinity: true });
      };
      inputs.set(name, {
        g1: { bytes: gen1.bytes, size: curve.g1.formatSpec().bytes, logs: gen1.logs, mulG: mul1 },
        g2: { bytes: gen2.bytes, size: curve.g2.formatSpec().bytes, logs: gen2.logs, mulG: mul2 },
      });
    }
  });
  after(() => stopThreads());

  const callArb = fc.record({
    group: fc.constantFrom('g1' as const, 'g2' as const),
    kind: fc.constantFrom('plain' as const, 'prepared' as const, 'batch' as const, 'streamed' as const),
    sync: fc.boolean(),
    threads: fc.constantFrom(1, 2),
    abortAfterMs: fc.option(fc.constantFrom(0, 1, 5), { nil: undefined }),
    n: fc.constantFrom(0, 1, 17, N),
    seed: fc.integer({ min: 1, max: 1 << 30 }),
  });

  for (const name of g2CurveNames) {
    it(`${name}: random interleavings of g1/g2 × plain/prepared/batch/streamed × msm/msmSync × abort`, async () => {
      const curve = curvesUnderTest[name];
      const data = inputs.get(name)!;
      const marks = { g1: curve.g1.inst.arena.used, g2: curve.g2.inst.arena.used };
      await fc.assert(
        fc.asyncProperty(fc.array(callArb, { minLength: 2, maxLength: 6 }), async (calls) => {
          const prepared = await Promise.all((['g1', 'g2'] as const).map((g) => curve[g].prepare(data[g].bytes)));
          try {
            const runs = calls.map(async (c) => {
              const group = curve[c.group];
              const d = data[c.group];
              const scalars = randomScalarBytes(c.n, makeRng(c.seed));
              const want = d.mulG(expectedLog(scalars, d.logs.slice(0, c.n), curve.params.r));
              const points = d.bytes.subarray(0, c.n * d.size);
              const controller = c.abortAfterMs === undefined || c.sync ? undefined : new AbortController();
              if (controller) setTimeout(() => controller.abort(), c.abortAfterMs);
              const opts = { threads: c.threads, ...(controller ? { signal: controller.signal } : {}) };
              const bases = prepared[c.group === 'g1' ? 0 : 1];
              let got: Promise<{ x: unknown; y: unknown; infinity: boolean }>;
              if (c.sync) {
                const value =
                  c.kind === 'plain' ? group.msmSync(points, scalars)
                  : c.kind === 'streamed' ? group.msmSync([points.subarray(0, 7 * d.size), points.subarray(7 * d.size)].filter((b) => b.length > 0), scalars, { chunkPoints: 64 })
                  : bases.msmSync(scalars);
                got = Promise.resolve(value);
              } else {
                got =
                  c.kind === 'plain' ? group.msm(points, scalars, opts)
                  : c.kind === 'streamed' ? group.msm(points, scalars, { ...opts, chunkPoints: 64 })
                  : c.kind === 'prepared' ? bases.msm(scalars, opts)
                  : bases.msmBatch([scalars, scalars.subarray(0, 32 * Math.min(c.n, 3))], opts).then((r) => r[0]);
              }
              try {
                const value = await got;
                assert.equal(key(value), want, `${c.group} ${c.kind} n = ${c.n}`);
              } catch (e) {
                // only an abort may fail a call, with the signal's reason
                if (!controller?.signal.aborted || e !== controller.signal.reason) throw e;
              }
            });
            await Promise.all(runs);
          } finally {
            prepared.forEach((b) => b.dispose());
          }
          assert.equal(curve.g1.inst.arena.used, marks.g1, 'G1 arena back at its mark');
          assert.equal(curve.g2.inst.arena.used, marks.g2, 'G2 arena back at its mark');
        }),
        { numRuns: 12, seed: 2311 },
      );
    });
  }

  it('the scenario of the issue: g1.msm and g2.msm together (pool; threads: 1 with a signal), both right', async () => {
    for (const name of g2CurveNames) {
      const curve = curvesUnderTest[name];
      const d = inputs.get(name)!;
      const scalars = randomScalarBytes(N, makeRng(5));
      for (const opts of [{}, { threads: 1, signal: new AbortController().signal }]) {
        const [a, b] = await Promise.all([curve.g1.msm(d.g1.bytes, scalars, opts), curve.g2.msm(d.g2.bytes, scalars, opts)]);
        assert.equal(key(a), d.g1.mulG(expectedLog(scalars, d.g1.logs, curve.params.r)), `${name} g1 ${JSON.stringify(opts)}`);
        assert.equal(key(b), d.g2.mulG(expectedLog(scalars, d.g2.logs, curve.params.r)), `${name} g2 ${JSON.stringify(opts)}`);
      }
    }
  });
});
