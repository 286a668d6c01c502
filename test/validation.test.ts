/**
 * The batched subgroup check (src/msm/subgroup.ts) behind `validate: 'full'` on curves with a
 * cofactor (BLS12-381, BLS12-377): the soundness numbers against their formula, a non-subgroup
 * point hidden among valid ones always found with its index (components of each small prime order
 * of the cofactor, constructed from #E = h1·r), the lowest of several bad points, msm and msmSync
 * on 1 and 2 threads, and the instance usable afterwards. A weakened check (one combination) must
 * miss an order-3 component about a third of the time: the count is what makes the check sound.
 * Oracles: the bigint reference (points with known logs, closed form; RefCurve.isInSubgroup).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381, curves, startThreads, stopThreads, NotInSubgroupError, type G1Affine } from '../src/index.js';
import { registry, curveNames, type CurveParams } from '../src/curves/index.js';
import { RefCurve, type AffinePoint } from '../src/reference/curve.js';
import { makeRng } from '../src/reference/rng.js';
import { runLocal } from '../src/runtime/executor.js';
import { allocInputs } from '../src/msm/program.js';
import { groupContext } from '../src/msm/group.js';
import {
  SECURITY_BITS, bucketsFor, combinationsFor, planSubgroupBatch, randomGroupIndices, smallestPrimeFactor, subgroupBatchProgram,
} from '../src/msm/subgroup.js';
import { pointsWithLogs, type Pt } from './helpers/known-logs.js';
import { pointsOfOrder } from './helpers/curve-points.js';
import { longOnly } from './helpers/long.js';

/** the registry's curves with a cofactor (BLS12-381: h1 has 3 and 11; BLS12-377: 2 and 3) */
const cofactorCurves = curveNames.filter((n) => curves[n].params.h1 !== 1n).map((n) => curves[n]);
/** The two smallest prime factors of h, by trial division (independent of src/msm/subgroup.ts). */
function twoSmallestPrimes(h: bigint): bigint[] {
  const out: bigint[] = [];
  for (let d = 2n; out.length < 2 && d * d <= h; d++) {
    if (h % d !== 0n) continue;
    out.push(d);
    while (h % d === 0n) h /= d;
  }
  return out;
}

describe('soundness numbers', () => {
  it('combinations reach 2^−128 with the fewest combinations for the coefficient set', () => {
    for (const base of [2, 3] as const) {
      const k = combinationsFor(base);
      assert.ok(k * Math.log2(base) >= SECURITY_BITS, `${k} combinations of ${base} values reach ${SECURITY_BITS} bits`);
      assert.ok((k - 1) * Math.log2(base) < SECURITY_BITS, `${k - 1} would not`);
    }
    assert.equal(combinationsFor(3), 81);
    assert.equal(combinationsFor(2), 128);
  });

  it('each curve with a cofactor uses a coefficient set no larger than the smallest prime of h1', () => {
    for (const name of curveNames) {
      const { h1 } = registry[name].params;
      if (h1 === 1n) continue;
      const q = smallestPrimeFactor(h1);
      // the smallest prime factor, by an independent trial division
      let d = 2n;
      while (h1 % d !== 0n) d++;
      assert.equal(q, d, `${name}: smallest prime factor of h1`);
      const plan = planSubgroupBatch(h1, 1 << 16);
      assert.ok(BigInt(plan.base) <= q, `${name}: ${plan.base} coefficients, smallest prime ${q}`);
      assert.equal(plan.combinations, combinationsFor(plan.base));
      assert.equal(plan.groups, Math.ceil(plan.combinations / plan.groupSize));
      assert.ok(2 ** (plan.c - 1) > bucketsFor(plan.base, plan.groupSize), 'bucket indices fit the window (sign included)');
    }
    assert.equal(smallestPrimeFactor(registry['bls12-381'].params.h1), 3n);
    assert.equal(smallestPrimeFactor(registry['bls12-377'].params.h1), 2n);
  });

  it('group indices are uniform over the range and 0 for points at infinity', () => {
    for (const base of [2, 3] as const) {
      const g = 4;
      const span = base ** g;
      const inf = new Uint8Array(60_000);
      inf[7] = 1;
      const v = randomGroupIndices(base, g, inf);
      assert.equal(v[7], 0, 'infinity gets no bucket');
      const lo = base === 3 ? -(span - 1) / 2 : 0;
      const counts = new Map<number, number>();
      for (let i = 0; i < v.length; i++) if (i !== 7) counts.set(v[i], (counts.get(v[i]) ?? 0) + 1);
      assert.equal(counts.size, span, `every index of ${span} drawn`);
      for (const [x, c] of counts) {
        assert.ok(x >= lo && x < lo + span, `index ${x} in range`);
        assert.ok(Math.abs(c - v.length / span) < 6 * Math.sqrt(v.length / span), `index ${x}: ${c} draws`);
      }
    }
  });
});

/** Points with known logs, a closed-form expected sum, and bad points built from small-order components. */
function fixture(curve: { params: CurveParams }, n: number, seed: number) {
  const ref = new RefCurve(curve.params);
  const { r, G1: G } = curve.params;
  const { pts, logs } = pointsWithLogs(ref, G, r, n, seed);
  const s = pts.map((_, i) => BigInt(i) * 0x9e3779b97f4a7c15n + 3n);
  const want = ref.mulScalar(G, logs.reduce((acc, a, i) => (acc + a * s[i]) % r, 0n));
  const same = (got: G1Affine) => ref.eq(got.infinity ? null : { x: got.x, y: got.y }, want);
  return { ref, pts, logs, s, want, same };
}

describe('the batched check through the API', { timeout: 600_000, ...longOnly }, () => {
  before(async () => {
    await Promise.all(cofactorCurves.map((c) => c.init()));
    await startThreads(2);
  });
  after(() => stopThreads());

  for (const curve of cofactorCurves) {
    const ells = twoSmallestPrimes(curve.params.h1);
    it(`${curve.name}: a bad point hidden among 2^14 valid ones (components of order ${ells.join(', ')}) is found with its index; msm and msmSync, 1 and 2 threads`, async () => {
      const f = fixture(curve, 1 << 14, 5);
      const rng = makeRng(17);
      // valid inputs pass (and give the closed form) on every path
      assert.ok(f.same(curve.g1.msmSync(f.pts, f.s)), 'valid, msmSync');
      assert.ok(f.same(await curve.g1.msm(f.pts, f.s)), 'valid, msm on 2 threads');
      for (const ell of ells) {
        const T = pointsOfOrder(f.ref, ell, rng);
        assert.ok(T.length > 0, `${curve.name} has points of order ${ell}`);
        for (const [k, run] of [
          ['msmSync', (p: Pt[]) => Promise.resolve().then(() => curve.g1.msmSync(p, f.s))],
          ['msm, 2 threads', (p: Pt[]) => curve.g1.msm(p, f.s)],
          ['msm, threads: 1', (p: Pt[]) => curve.g1.msm(p, f.s, { threads: 1 })],
        ] as const) {
          const at = rng.nextU32() % f.pts.length;
          const bad = [...f.pts];
          bad[at] = f.ref.add(f.pts[at], T[rng.nextU32() % T.length]) as AffinePoint;
          assert.equal(f.ref.isInSubgroup(bad[at]!), false, 'the planted point is outside G1');
          await assert.rejects(run(bad), (e: unknown) => e instanceof NotInSubgroupError && e.index === at, `order ${ell}, ${k}, index ${at}`);
        }
      }
      // several bad points: the lowest index; then the instance works
      const T = pointsOfOrder(f.ref, ells[0], rng);
      const bad = [...f.pts];
      for (const at of [9000, 4321, 12000]) bad[at] = f.ref.add(f.pts[at], T[0]) as AffinePoint;
      await assert.rejects(curve.g1.msm(bad, f.s), (e: unknown) => e instanceof NotInSubgroupError && e.index === 4321, 'lowest of three');
      assert.throws(() => curve.g1.msmSync(bad, f.s), (e: unknown) => e instanceof NotInSubgroupError && e.index === 4321, 'lowest of three (sync)');
      assert.ok(f.same(await curve.g1.msm(f.pts, f.s)), 'usable after the errors');
    });

    it(`${curve.name}: packed bytes with a bad point at a random index among 2^16 are rejected with its index`, async () => {
      const n = 1 << 16;
      const f = fixture(curve, 1024, 6);
      const rng = makeRng(23);
      const size = curve.g1.formatSpec().bytes;
      const bytes = new Uint8Array(n * size);
      const enc = f.pts.map((p) => curve.g1.toBytes(p));
      for (let i = 0; i < n; i++) bytes.set(enc[i % enc.length], i * size);
      const s = Array.from({ length: n }, (_, i) => BigInt(i + 1));
      await curve.g1.msm(bytes, s); // valid
      const T = pointsOfOrder(f.ref, ells[0], rng);
      const at = 1 + (rng.nextU32() % (n - 1));
      const bad = bytes.slice();
      bad.set(curve.g1.toBytes(f.ref.add(f.pts[at % enc.length], T[0])), at * size);
      await assert.rejects(curve.g1.msm(bad, s), (e: unknown) => e instanceof NotInSubgroupError && e.index === at, `2 threads, index ${at}`);
      assert.throws(() => curve.g1.msmSync(bad, s), (e: unknown) => e instanceof NotInSubgroupError && e.index === at, `msmSync, index ${at}`);
    });
  }
});

describe('a weakened check misses', () => {
  it('one combination misses an order-3 component about a third of the time; the planned count never does', async () => {
    await bls12_381.init();
    const inst = bls12_381.g1.inst;
    const EB = inst.fields.fp.info.elementBytes;
    const fp = inst.fields.fp;
    const scratchBytes = { g1_xyzz_add_affine: 4096, g1_xyzz_to_affine: 4096, g1_validate_batch: 4096 };
    const ctx = { ...groupContext('g1', { inst, scratchBytes, windowTable: [], cofactor: bls12_381.params.h1 }), packedBytes: undefined };
    const f = fixture(bls12_381, 64, 8);
    const T = pointsOfOrder(f.ref, 3n, makeRng(3));
    const pts = [...f.pts];
    pts[10] = f.ref.add(pts[10], T[0]) as AffinePoint;
    const m = bls12_381.g1.inst;
    const h1 = bls12_381.params.h1;
    const run = (combinations: number) => {
      const mark = m.arena.mark();
      try {
        const regions = allocInputs(ctx, pts.length);
        pts.forEach((P, i) => {
          fp.write(regions.points + i * 2 * EB, P!.x);
          fp.write(regions.points + i * 2 * EB + EB, P!.y);
        });
        new Uint8Array(m.memory.buffer).fill(0, regions.inf, regions.inf + pts.length);
        return runLocal(m, subgroupBatchProgram(ctx, regions.points, regions.inf, pts.length, 1, planSubgroupBatch(h1, pts.length, combinations)));
      } finally {
        m.arena.release(mark);
      }
    };
    let misses = 0;
    const trials = 90;
    for (let t = 0; t < trials; t++) if (run(1)) misses++;
    // Binomial(90, 1/3): mean 30, σ ≈ 4.5; outside [10, 50] has probability < 10^−5
    assert.ok(misses >= 10 && misses <= 50, `one combination: ${misses} misses in ${trials}`);
    for (let t = 0; t < 10; t++) assert.equal(run(planSubgroupBatch(h1, pts.length).combinations), false, 'the full count finds it');
  });
});
