/**
 * The exact per-point subgroup test for many points at once (g1_subgroup_check_batch, batch-affine)
 * against the bigint reference (r·P = O) and the XYZZ per-point kernel, on mixed sets: G1 points,
 * points with a component of order 2, 3, 4, 7, 11 (where the cofactor has it), points of those
 * orders themselves (y = 0 for order 2), h1-torsion and random curve points, infinity, duplicates,
 * P and −P in one chunk; then through the API (small n with validate 'full', and the locating pass
 * after a failed batch), msm and msmSync, 1 and 2 threads.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { curves, startThreads, stopThreads, NotInSubgroupError, NotOnCurveError } from '../src/index.js';
import { RefCurve, type AffinePoint } from '../src/reference/curve.js';
import { makeRng, type Rng } from '../src/reference/rng.js';
import { PointError, STATUS_SHIFT, Check } from '../src/abi/codes.js';
import { subgroupBatchScratchBytes } from '../src/abi/layout.js';
import { pointsOfOrder, randomCurvePoint } from './helpers/curve-points.js';
import { curveNames } from './helpers/registry.js';

type Api = (typeof curves)[keyof typeof curves];
/** the registry's curves with a cofactor (their G1 is a proper subgroup), and those without */
const cofactorCurves = curveNames.filter((n) => curves[n].params.h1 !== 1n).map((n) => curves[n] as Api);
const cofactorOne = curveNames.filter((n) => curves[n].params.h1 === 1n).map((n) => curves[n] as Api);

await Promise.all([...cofactorCurves, ...cofactorOne].map((c) => c.init()));

/** A point of order exactly ℓ^e (e ≥ 1), undefined when ℓ^e ∤ #E. */
function pointOfPrimePowerOrder(ref: RefCurve, ell: bigint, e: number, rng: Rng): AffinePoint | undefined {
  const order = ell ** BigInt(e);
  let m = ref.params.h1 * ref.params.r;
  if (m % order !== 0n) return undefined;
  while (m % ell === 0n) m /= ell;
  for (let tries = 0; tries < 64; tries++) {
    let T = ref.mul(randomCurvePoint(ref, rng), m);
    if (T === null) continue;
    // T has order ℓ^j: step down to order exactly ℓ^e, if j ≥ e
    while (ref.mul(T, order) !== null) T = ref.mul(T, ell) as AffinePoint;
    if (e === 1 || ref.mul(T, order / ell) !== null) return T;
  }
  return undefined;
}

const smallOrder = new Map<string, { name: string; T: AffinePoint }[]>();

/** Mixed points: G1 multiples, G1 + small-order components, small-order points, h1-torsion, random points, with duplicates and negatives. */
function mixedSet(ref: RefCurve, rng: Rng, n: number, badShare: number): { pts: (AffinePoint | null)[]; kinds: string[] } {
  const G = ref.params.G1;
  let small = smallOrder.get(ref.params.name);
  if (!small) {
    small = [];
    for (const ell of [2n, 3n, 7n, 11n]) {
      const T = pointsOfOrder(ref, ell, rng);
      for (const P of T.slice(0, 4)) small.push({ name: `order ${ell}`, T: P });
    }
    const T4 = pointOfPrimePowerOrder(ref, 2n, 2, rng);
    if (T4) small.push({ name: 'order 4', T: T4 }, { name: 'order 4', T: ref.neg(T4) as AffinePoint });
    smallOrder.set(ref.params.name, small);
  }
  const pts: (AffinePoint | null)[] = [];
  const kinds: string[] = [];
  const g1 = () => {
    const P = ref.mul(G, rng.nextBigint(64) + 1n) as AffinePoint;
    multiplesOfG.add(`${ref.params.name}:${P.x}`);
    return P;
  };
  while (pts.length < n) {
    const u = rng.nextBigint(16);
    const roll = Number(u % 1000n) / 1000;
    const pick = Number(u >> 10n);
    if (roll < 0.06) {
      pts.push(null);
      kinds.push('infinity');
    } else if (roll < 0.14 && pts.length > 0) {
      // a duplicate or the negative of an earlier point (possibly in the same chunk)
      const j = pick % pts.length;
      const Q = pts[j];
      const neg = (pick & 1) === 1;
      pts.push(Q === null ? null : neg ? (ref.neg(Q) as AffinePoint) : Q);
      kinds.push(`${neg ? 'negative' : 'duplicate'} of ${j}`);
    } else if (roll < 0.14 + badShare) {
      const s = small[pick % small.length];
      const k = pick % 4;
      if (k === 0) {
        pts.push(s.T);
        kinds.push(s.name);
      } else if (k === 1) {
        pts.push(ref.add(g1(), s.T) as AffinePoint);
        kinds.push(`G1 + ${s.name}`);
      } else if (k === 2) {
        pts.push(ref.mul(randomCurvePoint(ref, rng), ref.params.r) ?? s.T);
        kinds.push('h1-torsion');
      } else {
        pts.push(randomCurvePoint(ref, rng));
        kinds.push('random curve point');
      }
    } else {
      pts.push(g1());
      kinds.push('G1');
    }
  }
  return { pts, kinds };
}

/** Multiples of G built by mixedSet: in G1 by construction (a few are checked against r·P = O in the test). */
const multiplesOfG = new Set<string>();
const membership = new Map<string, boolean>();
/** The bigint reference (r·P = O; −P shares P's answer), except for multiples of G. */
function inG1(ref: RefCurve, P: AffinePoint): boolean {
  const key = `${ref.params.name}:${P.x}`;
  if (multiplesOfG.has(key)) return true;
  let v = membership.get(key);
  if (v === undefined) membership.set(key, (v = ref.isInSubgroup(P)));
  return v;
}

for (const api of cofactorCurves) {
  const ref = new RefCurve(api.params);
  const { name } = api.params;
  describe(`${name}: g1_subgroup_check_batch`, () => {
    const inst = api.g1.inst;
    const k = inst.k;
    const fp = inst.fields.fp;
    const EB = fp.info.elementBytes;
    const PB = 2 * EB;

    /** Runs the kernel on the points (null = infinity, garbage coordinates); returns its raw status. */
    const runKernel = (pts: readonly (AffinePoint | null)[], rng: Rng, kernel: 'batch' | 'xyzz' = 'batch'): number => {
      const mark = inst.arena.mark();
      try {
        const n = pts.length;
        const points = inst.arena.alloc(Math.max(16, n * PB));
        const inf = inst.arena.alloc(Math.max(16, n));
        const mem = new Uint8Array(inst.memory.buffer);
        pts.forEach((P, i) => {
          mem[inf + i] = P === null ? 1 : 0;
          fp.write(points + i * PB, P === null ? ref.Fp.random(rng) : P.x);
          fp.write(points + i * PB + EB, P === null ? ref.Fp.random(rng) : P.y);
        });
        if (kernel === 'xyzz') {
          const scratch = inst.arena.alloc(64 * EB); // g1_validate_batch needs 24 elements
          return k.g1_validate_batch(points, inf, n, Check.subgroup, scratch);
        }
        const scratch = inst.arena.alloc(subgroupBatchScratchBytes(n, EB));
        // garbage in the scratch: nothing may depend on its contents
        mem.fill(0xa5, scratch, scratch + subgroupBatchScratchBytes(n, EB));
        return k.g1_subgroup_check_batch(points, inf, n, scratch);
      } finally {
        inst.arena.release(mark);
      }
    };
    const expectStatus = (index: number) => (index < 0 ? -1 : (index << STATUS_SHIFT) | PointError.notInSubgroup);

    it('the test points have the orders they are built for', () => {
      const rng = makeRng(1);
      for (const ell of [2n, 3n, 7n, 11n]) {
        const has = api.params.h1 % ell === 0n;
        const T = pointsOfOrder(ref, ell, rng);
        assert.equal(T.length > 0, has, `order ${ell} ${has ? 'exists' : 'does not exist'}`);
        for (const P of T) assert.equal(ref.mul(P, ell), null);
        if (ell === 2n) for (const P of T) assert.equal(P.y, 0n, 'order 2: y = 0');
      }
      const T4 = pointOfPrimePowerOrder(ref, 2n, 2, rng);
      assert.equal(T4 !== undefined, api.params.h1 % 4n === 0n);
      if (T4) assert.ok(ref.mul(T4, 4n) === null && ref.mul(T4, 2n) !== null, 'order 4');
    });

    it('every bad point of mixed sets is found in index order; G1 points and infinity pass (bigint reference, XYZZ kernel agree)', () => {
      const rng = makeRng(name.length * 1000 + 17);
      let bad = 0;
      const kindsSeen = new Set<string>();
      for (const [n, share] of [[1, 0.5], [2, 0.5], [5, 0.4], [40, 0.3], [150, 0.08]] as const) {
        for (let round = 0; round < (n < 10 ? 8 : 3); round++) {
          const { pts, kinds } = mixedSet(ref, rng, n, share);
          // the multiples of G are in G1 for the reference too (a few of them)
          pts.filter((P, i) => P !== null && kinds[i] === 'G1').slice(0, 2).forEach((P) => assert.ok(ref.isInSubgroup(P), 'reference: r·P = O'));
          const work = [...pts];
          // repeatedly: the lowest bad index, then mask it as infinity and look again
          for (let guard = 0; guard <= n; guard++) {
            const want = work.findIndex((P) => P !== null && !inG1(ref, P));
            const got = runKernel(work, rng);
            assert.equal(got, expectStatus(want), `n = ${n}: lowest bad index ${want} (${kinds[want]}), got status ${got}`);
            assert.equal(runKernel(work, rng, 'xyzz'), got, 'the XYZZ kernel agrees');
            if (want < 0) break;
            kindsSeen.add(kinds[want].replace(/ of \d+$/, ''));
            bad++;
            work[want] = null;
          }
        }
      }
      assert.ok(bad > 40, `${bad} bad points found`);
      for (const kind of ['random curve point', 'h1-torsion', 'order 3', 'G1 + order 3']) assert.ok(kindsSeen.has(kind), `covers ${kind}`);
      if (api.params.h1 % 2n === 0n) for (const kind of ['order 2', 'order 4', 'order 7', 'G1 + order 2', 'G1 + order 7']) assert.ok(kindsSeen.has(kind), `covers ${kind}`);
      else for (const kind of ['order 11', 'G1 + order 11']) assert.ok(kindsSeen.has(kind), `covers ${kind}`);
    });

    it('n = 0, all infinity, one point; P, −P, P, 2P in one chunk', () => {
      const rng = makeRng(5);
      assert.equal(runKernel([], rng), -1);
      assert.equal(runKernel([null, null, null], rng), -1);
      const G = api.params.G1;
      assert.equal(runKernel([G], rng), -1);
      const P = ref.mul(G, 12345n) as AffinePoint;
      const set = [P, ref.neg(P), P, ref.double(P), null, ref.neg(P)];
      assert.equal(runKernel(set as AffinePoint[], rng), -1);
      const T = pointsOfOrder(ref, 3n, rng)[0];
      const bad = ref.add(P, T) as AffinePoint;
      assert.equal(runKernel([...set, bad, ref.neg(bad), bad], rng), expectStatus(set.length));
      assert.equal(runKernel([T, ref.neg(T), ...set], rng), expectStatus(0));
      assert.equal(runKernel([null, ref.neg(T)], rng), expectStatus(1));
    });
  });

  describe(`${name}: the exact test in the API`, () => {
    after(() => stopThreads());
    const rng = makeRng(name.length * 7 + 3);
    const G = api.params.G1;
    const T3 = pointsOfOrder(ref, 3n, rng)[0];

    it('small n with validate full: the lowest bad index, NotInSubgroupError; malformed / off-curve before it wins, after it not', async () => {
      for (const threads of [1, 2]) {
        stopThreads();
        if (threads === 2) startThreads(2);
        for (const n of [1, 3, 60, 150]) {
          const pts = Array.from({ length: n }, (_, i) => (i % 9 === 4 ? null : (ref.mul(G, BigInt(i + 2)) as AffinePoint)));
          const scalars = pts.map((_, i) => BigInt(i * 7 + 1));
          const bad = Math.floor(n / 2);
          const input = pts.map((P) => (P === null ? null : { x: P.x, y: P.y }));
          input[bad] = ref.add(ref.mul(G, 99n), T3) as AffinePoint;
          if (bad + 1 < n) input[n - 1] = ref.add(ref.mul(G, 5n), T3) as AffinePoint;
          for (const entry of ['msm', 'msmSync'] as const) {
            const call = () => (entry === 'msm' ? api.g1.msm(input, scalars, { threads }) : Promise.resolve().then(() => api.g1.msmSync(input, scalars)));
            await assert.rejects(call(), (e: unknown) => e instanceof NotInSubgroupError && e.index === bad, `${entry} n = ${n} threads ${threads}`);
          }
          // an off-curve point after the bad one: the subgroup error (lower index) still wins; before it: the off-curve one
          if (bad + 1 < n) {
            const later = [...input];
            later[bad + 1] = { x: 1n, y: 1n };
            await assert.rejects(api.g1.msm(later, scalars, { threads }), (e: unknown) => e instanceof NotInSubgroupError && e.index === bad);
          }
          if (bad > 0) {
            const earlier = [...input];
            earlier[bad - 1] = { x: 1n, y: 1n };
            await assert.rejects(api.g1.msm(earlier, scalars, { threads }), (e: unknown) => e instanceof NotOnCurveError && e.index === bad - 1);
          }
          // valid again: the instance still works, the result matches the reference
          input[bad] = pts[bad] ?? null;
          if (bad + 1 < n) input[n - 1] = pts[n - 1] ?? null;
          const want = ref.msmNaive(pts, scalars);
          const got = await api.g1.msm(input, scalars, { threads });
          assert.deepEqual(got.infinity ? null : { x: got.x, y: got.y }, want);
        }
      }
    });

    it('bytes input: small n decoded with on-curve checks, then the exact test (lowest index)', () => {
      const n = 50;
      const pts = Array.from({ length: n }, (_, i) => ref.mul(G, BigInt(3 * i + 1)) as AffinePoint);
      const bytes = new Uint8Array(pts.flatMap((P) => [...api.g1.toBytes(P)]));
      const scalars = pts.map(() => 1n);
      assert.doesNotThrow(() => api.g1.msmSync(bytes, scalars));
      const badAt = 17;
      const bad = api.g1.toBytes(ref.add(pts[badAt], T3) as AffinePoint);
      const withBad = bytes.slice();
      withBad.set(bad, badAt * bad.length);
      assert.throws(() => api.g1.msmSync(withBad, scalars), (e: unknown) => e instanceof NotInSubgroupError && e.index === badAt);
    });
  });
}

describe('cofactor 1: g1_subgroup_check_batch accepts every point', () => {
  for (const api of cofactorOne) {
    it(`${api.params.name}: → −1`, () => {
      const inst = api.g1.inst;
      assert.equal(inst.k.g1_subgroup_check_batch(0, 0, 10, 0), -1);
    });
  }
});
