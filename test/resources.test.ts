/**
 * Issue #24: memory within its bound, the lowest bad index on every path, typed errors at any size.
 * - chunkPoints never sizes a chunk above the points there are, and an explicit chunkPoints whose
 *   workspace cannot fit maxMemoryBytes is an InvalidOptionError naming it (item 1);
 * - a point outside the subgroup at i and a malformed (or off-curve) point at j > i report i, above
 *   and below the batched check's threshold, for G1 and G2, bytes and objects, plain, prepared and
 *   streamed, on 1 and 2 threads (item 3);
 * - inputs whose copies cannot exist throw a PippinError (OutOfMemoryError before allocating, or the
 *   element error), never an engine RangeError (item 4).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { curves, startThreads, stopThreads, InvalidOptionError, LengthMismatchError, NotInSubgroupError, OutOfMemoryError, PippinError, PointEncodingError, type Curve } from '../src/index.js';
import { curveNames, g2CurveNames, g2Params, registry } from '../src/curves/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { RefG2 } from '../src/reference/g2.js';
import { makeRng } from '../src/reference/rng.js';
import { g2Io, randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { batchedCheckFrom } from '../src/msm/subgroup.js';
import { outsideSubgroup } from './helpers/outside-subgroup.js';

const api = (name: string) => curves[name as keyof typeof curves] as unknown as Curve<string>;

/** n valid points of the group (bytes in its primary format) and their objects. */
function validPoints(curve: Curve<string>, group: 'g1' | 'g2', n: number, seed: number): Uint8Array {
  const g = curve[group];
  const rng = makeRng(seed);
  if (group === 'g1') {
    const ref = new RefCurve(curve.params);
    return randomPoints(g.inst, n, rng, curve.params.r, (a) => ref.mul(curve.params.G1, a)!, g.formatSpec()).bytes;
  }
  const ref = new RefG2(g2Params[curve.name as 'bn254']);
  return randomPoints(g.inst, n, rng, curve.params.r, (a) => ref.mul(ref.G, a)!, g.formatSpec(), g2Io(g.inst)).bytes;
}

describe('resources and errors (#24)', { timeout: 600_000 }, () => {
  before(() => startThreads(2));
  after(() => stopThreads());

  it('chunkPoints above the point count does not grow memory; an explicit chunkPoints beyond maxMemoryBytes is refused', async () => {
    const curve = api('bls12-381');
    await curve.init();
    const n = 4096;
    const bytes = validPoints(curve, 'g1', n, 1);
    const scalars = randomScalarBytes(n, makeRng(2));
    const want = curve.g1.msmSync(bytes, scalars, { validate: 'on-curve' });
    const before = curve.g1.inst.memory.buffer.byteLength;
    let chunk: number | undefined;
    assert.deepEqual(curve.g1.msmSync(bytes, scalars, { validate: 'on-curve', chunkPoints: 2 ** 24, onStats: (s) => (chunk = s.chunkPoints) }), want);
    assert.equal(chunk, n, 'the chunk holds the points there are');
    const grew = curve.g1.inst.memory.buffer.byteLength - before;
    assert.ok(grew <= 48 * 2 ** 20, `memory grew by ${grew} bytes for a 4096-point MSM`);
    // iterables: the count is unknown, so 2^24 points per chunk must fit the budget: refused, naming both
    const chunks = () => [bytes.subarray(0, 96 * 100), bytes.subarray(96 * 100)];
    assert.throws(
      () => curve.g1.msmSync(chunks(), [scalars.subarray(0, 3200), scalars.subarray(3200)], { chunkPoints: 2 ** 24 }),
      (e: unknown) => e instanceof InvalidOptionError && e.option === 'chunkPoints' && /maxMemoryBytes/.test(e.message),
    );
    await assert.rejects(curve.g1.msm(bytes, scalars, { chunkPoints: 4000, maxMemoryBytes: 2 ** 20 }), (e: unknown) => e instanceof InvalidOptionError && e.option === 'chunkPoints');
    assert.deepEqual(await curve.g1.msm(chunks(), [scalars.subarray(0, 3200), scalars.subarray(3200)], { chunkPoints: 1000 }), want, 'a chunkPoints that fits');
  });

  // every curve and group with a cofactor: the subgroup check may run (G1 of BN254, Pallas, Vesta has none)
  const cases = [
    ...curveNames.filter((name) => registry[name].params.h1 > 1n).map((name) => ({ name, group: 'g1' as const })),
    ...g2CurveNames.map((name) => ({ name, group: 'g2' as const })),
  ];
  for (const { name, group } of cases) {
    it(`${name} ${group}: the lowest bad index wins (outside the subgroup before a malformed point), every path`, async () => {
      const curve = api(name);
      await curve.init();
      const g = curve[group];
      const size = g.formatSpec().bytes;
      const bad = outsideSubgroup(curve, group)!;
      const cofactor = group === 'g1' ? registry[name].params.h1 : g2Params[name as 'bn254'].h2;
      const from = batchedCheckFrom(cofactor);
      // below and above the batched check's threshold
      for (const n of [Math.max(100, Math.floor(from / 2)), from + 140]) {
        const bytes = validPoints(curve, group, n, 7).slice();
        const scalars = randomScalarBytes(n, makeRng(8));
        bytes.set(bad, 20 * size);
        bytes.fill(0xff, 80 * size, 81 * size); // malformed in every format (flags, or a coordinate ≥ p)
        const lowest = (e: unknown) => e instanceof NotInSubgroupError && e.index === 20;
        for (const threads of [1, 2]) {
          await assert.rejects(g.msm(bytes, scalars, { threads }), lowest, `msm n = ${n}, ${threads} threads`);
          await assert.rejects(g.msm(bytes, scalars, { threads, chunkPoints: 64 }), lowest, `streamed n = ${n}`);
          await assert.rejects(g.prepare(bytes, { threads }), lowest, `prepare n = ${n}`);
        }
        assert.throws(() => g.msmSync(bytes, scalars), lowest, `msmSync n = ${n}`);
        // the malformed point before the bad one: its error
        const swapped = validPoints(curve, group, n, 7).slice();
        swapped.fill(0xff, 20 * size, 21 * size);
        swapped.set(bad, 80 * size);
        await assert.rejects(g.msm(swapped, scalars), (e: unknown) => e instanceof PointEncodingError && e.index === 20, `malformed first, n = ${n}`);
      }
    });
  }

  it('inputs whose copies cannot exist: a PippinError (OutOfMemoryError before allocating, or the element error), never an engine RangeError', async () => {
    for (const name of curveNames) {
      const curve = api(name);
      await curve.init();
      const holes = new Array(2 ** 28);
      const isOom = (e: unknown) => e instanceof OutOfMemoryError && e instanceof PippinError;
      await assert.rejects(curve.g1.msm(holes, holes), isOom, `${name} msm`);
      assert.throws(() => curve.g1.msmSync(holes, holes), isOom, `${name} msmSync`);
      await assert.rejects(curve.g1.prepare(holes), isOom, `${name} prepare`);
      // an input that fits: the first hole is the error
      const some = new Array(2 ** 20);
      await assert.rejects(curve.g1.prepare(some), (e: unknown) => e instanceof PointEncodingError && e.index === 0, `${name} a hole`);
      await assert.rejects(curve.g1.msm([], some), (e: unknown) => e instanceof PippinError && !(e instanceof OutOfMemoryError), `${name} scalar hole`);
      await assert.rejects(curve.g1.msm(new Uint8Array(0), holes), (e: unknown) => e instanceof PippinError, `${name} bytes + holes`);
    }
    const bls = api('bls12-381');
    await assert.rejects(bls.g2.prepare(new Array(2 ** 27)), (e: unknown) => e instanceof OutOfMemoryError, 'g2 prepare');
    await assert.rejects(bls.g2.msm(new Array(2 ** 20), new Array(2 ** 20).fill(1n)), (e: unknown) => e instanceof PointEncodingError && e.index === 0, 'g2 hole');
    assert.throws(() => bls.g1.msmSync(new Uint8Array(10), [1n]), LengthMismatchError);
  });
});
