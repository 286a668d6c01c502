/**
 * 'full' validation of G2 points through the batched subgroup check (src/msm/subgroup.ts over the G2
 * view), on every registry curve with a G2: the cofactor numbers the plan rests on (checked by independent trial
 * division), valid inputs give the closed form, and a non-G2 point hidden among valid ones — with a
 * component of each small prime order of h2, or a random point of E'(F_p²) — is always found with
 * its index, on msmSync and msm (1 and 2 threads), as objects and as bytes; the lowest of several;
 * progress counts the batched check's pass. Oracles: the bigint G2 reference (points with known logs,
 * RefG2.isInSubgroupSlow: [r]P = 0).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { curves, startThreads, stopThreads, NotInSubgroupError, type G2Affine } from '../src/index.js';
import type { MsmProgress } from '../src/msm/progress.js';
import { g2Params } from '../src/curves/index.js';
import { g2CurveNames } from './helpers/registry.js';
import { RefG2, type G2Affine as RefPoint } from '../src/reference/g2.js';
import { makeRng, type Rng } from '../src/reference/rng.js';
import { g2Io } from '../src/msm/random-inputs.js';
import { expectedLog, randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { coefficientBase, combinationsFor, MIN_POINTS_PER_COMBINATION, planSubgroupBatch } from '../src/msm/subgroup.js';
import { longOnly } from './helpers/long.js';

/** Points of prime order ℓ in E'(F_p²): [m]Q for random Q with m the part of h2·r prime to ℓ, then multiplied by ℓ until the next step gives 0. */
function pointOfOrder(ref: RefG2, ell: bigint, rng: Rng): RefPoint {
  let m = ref.params.h2 * ref.params.g1.r;
  assert.equal(m % ell, 0n, `ℓ = ${ell} divides #E'`);
  while (m % ell === 0n) m /= ell;
  for (let tries = 0; tries < 16; tries++) {
    let T = ref.mul(ref.pointFromX0(rng.nextBigint(64)), m);
    if (T === null) continue;
    for (let U = ref.mul(T, ell); U !== null; U = ref.mul(U, ell)) T = U;
    return T;
  }
  throw new Error(`no point of order ${ell}`);
}

/** The prime factors of h below `bound`, by trial division (independent of src/msm/subgroup.ts). */
function smallPrimeFactors(h: bigint, bound: bigint): bigint[] {
  const out: bigint[] = [];
  for (let d = 2n; d < bound; d++) {
    if (h % d !== 0n) continue;
    out.push(d);
    while (h % d === 0n) h /= d;
  }
  return out;
}

after(() => stopThreads());

// every curve of the registry with a G2 (BLS12-381: h2 has 13 and 23; BN254: 10069)
for (const name of g2CurveNames) {
  const curve = curves[name];
  const params = g2Params[name];
  const ref = new RefG2(params);
  const { r } = params.g1;
  /** the components planted: points of the two smallest prime orders dividing h2 */
  const ells = smallPrimeFactors(params.h2, 1n << 16n).slice(0, 2);
  /** the coefficient set the plan must pick: {0, 1} when 2 | h2, else {−1, 0, 1} */
  const base = ells[0] === 2n ? 2 : 3;

  describe(`${name}.g2 'full' validation, batched`, { timeout: 600_000, ...longOnly }, () => {
    it(`h2 is prime to r, has a prime factor below 2^16, and its smallest sets the coefficients (${combinationsFor(base)} combinations)`, () => {
      assert.notEqual(params.h2 % r, 0n);
      assert.ok(ells.length > 0, 'a small prime factor of h2 to plant');
      assert.equal(coefficientBase(params.h2), base);
      assert.equal(planSubgroupBatch(params.h2, 1 << 12).combinations, combinationsFor(base));
    });

    const n = 1 << 10; // above the batched threshold (2 points per combination: 162 for the ternary set)
    let inputs: { bytes: Uint8Array; objects: RefPoint[]; scalars: Uint8Array; want: RefPoint | null; size: number };
    before(async () => {
      await curve.init();
      await startThreads(2);
      assert.ok(n >= MIN_POINTS_PER_COMBINATION * combinationsFor(base));
      const g2 = curve.g2;
      const rng = makeRng(41);
      const gen = randomPoints(g2.inst, n, rng, r, (a) => ref.mul(ref.G, a)!, g2.formatSpec(), g2Io(g2.inst));
      const scalars = randomScalarBytes(n, rng);
      const want = ref.mul(ref.G, expectedLog(scalars, gen.logs, r));
      const objects = gen.logs.map((a) => ref.mul(ref.G, a)!);
      inputs = { bytes: gen.bytes, objects, scalars, want, size: g2.formatSpec().bytes };
    });
    const same = (got: G2Affine, want: RefPoint | null) => (want === null ? got.infinity : !got.infinity && ref.eq({ x: got.x, y: got.y }, want));

    it('valid points: the closed form on every path; progress counts one pass for the batched check', async () => {
      const g2 = curve.g2;
      const totals = { full: 0, 'on-curve': 0 };
      for (const validate of ['full', 'on-curve'] as const) {
        const got = g2.msmSync(inputs.bytes, inputs.scalars, { validate, onProgress: (p: MsmProgress) => (totals[validate] = p.total) });
        assert.ok(same(got, inputs.want), `msmSync, bytes, ${validate}`);
      }
      assert.equal(totals.full - totals['on-curve'], n, 'the subgroup pass: n units');
      assert.ok(same(await g2.msm(inputs.bytes, inputs.scalars), inputs.want), 'msm, 2 threads, bytes');
      assert.ok(same(await g2.msm(inputs.objects, inputs.scalars, { threads: 1 }), inputs.want), 'msm, 1 thread, objects');
    });

    it(`a bad point (order-${ells.join('/')} component, or a random curve point) among ${n} is found with its index`, async () => {
      const g2 = curve.g2;
      const rng = makeRng(7);
      const bads = [...ells.map((ell) => ({ what: `order ${ell}`, T: pointOfOrder(ref, ell, rng) })), { what: 'random point', T: null }];
      for (const { what, T } of bads) {
        for (const [path, run] of [
          ['msmSync, objects', (p: RefPoint[]) => Promise.resolve().then(() => g2.msmSync(p, inputs.scalars))],
          ['msm 2 threads, bytes', (p: RefPoint[], at: number) => {
            const bytes = inputs.bytes.slice();
            bytes.set(g2.toBytes(p[at]), at * inputs.size);
            return g2.msm(bytes, inputs.scalars);
          }],
          ['msm threads: 1, objects', (p: RefPoint[]) => g2.msm(p, inputs.scalars, { threads: 1 })],
        ] as const) {
          const at = rng.nextU32() % n;
          const bad = [...inputs.objects];
          bad[at] = T === null ? ref.pointFromX0(rng.nextBigint(64)) : (ref.add(bad[at], T) as RefPoint);
          assert.equal(ref.isInSubgroupSlow(bad[at]), false, 'the planted point is outside G2');
          await assert.rejects(run(bad, at), (e: unknown) => e instanceof NotInSubgroupError && e.index === at, `${what}, ${path}, index ${at}`);
        }
      }
      // several bad points: the lowest index wins; the instance works afterwards
      const T = pointOfOrder(ref, ells[0], rng);
      const bad = [...inputs.objects];
      for (const at of [700, 333, 901]) bad[at] = ref.add(bad[at], T) as RefPoint;
      await assert.rejects(g2.msm(bad, inputs.scalars), (e: unknown) => e instanceof NotInSubgroupError && e.index === 333, 'lowest of three');
      assert.throws(() => g2.msmSync(bad, inputs.scalars), (e: unknown) => e instanceof NotInSubgroupError && e.index === 333, 'lowest of three (sync)');
      assert.ok(same(await g2.msm(inputs.bytes, inputs.scalars), inputs.want), 'usable after the errors');
    });
  });
}
