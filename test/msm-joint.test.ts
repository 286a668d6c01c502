/**
 * The joint reduction (src/msm/program.ts, `jointReduction`): one-thread MSMs of whole windows with
 * at most maxItems window × half items accumulate every window into its own buckets and reduce them
 * all in one msm_reduce_segments call. Oracles: the bigint reference (subgroup points) and, for
 * points outside the subgroup (validate 'none'), the per-window tiles (maxItems = 0) on the same
 * inputs. G1 and G2 of BLS12-381 and BN254 through the API, sizes around the Straus limit and the
 * maxItems boundary, hard scalars, infinity, P and −P, duplicates; async calls in flight together
 * with their Buffers refilled right after each call.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381, bn254, type Curve } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { RefG2 } from '../src/reference/g2.js';
import { g2Params, type G2CurveName } from '../src/curves/index.js';
import { makeRng } from '../src/reference/rng.js';
import { jointReduction, type MsmStats } from '../src/msm/program.js';
import { randomCurvePoint } from './helpers/curve-points.js';
import { groupUnderTest, type Pt, type RefLike } from './helpers/group-under-test.js';

const asInput = (P: Pt) => (P === null ? null : { x: P.x, y: P.y });
const asRef = (R: { x: unknown; y: unknown; infinity: boolean }): Pt => (R.infinity ? null : { x: R.x, y: R.y });
const shipped = jointReduction.maxItems;

/** Runs f with jointReduction.maxItems set to `maxItems` (0: the per-window tiles). */
function withMaxItems<T>(maxItems: number, f: () => T): T {
  jointReduction.maxItems = maxItems;
  try {
    return f();
  } finally {
    jointReduction.maxItems = shipped;
  }
}

for (const curve of [bls12_381, bn254] as Curve<string>[]) for (const group of ['g1', 'g2'] as const) {
  describe(`joint reduction on ${curve.name} ${group}`, async () => {
    await curve.init();
    const { grp, ctx, r, ref, G } = groupUnderTest(curve, group);
    const rng = makeRng(0x701 + curve.name.length + group.length);
    const hard = [0n, 1n, 2n, r - 1n, r, r + 1n, 2n * r - 1n, (1n << 256n) - 1n, curve.params.lambda, 1n << 127n, (1n << 128n) - 1n];
    // a few distinct points and their multiples: the reference sums with few scalar multiplications
    const base = Array.from({ length: 4 }, () => ref.mul(G, rng.nextBelow(r - 1n) + 1n));
    const pointAt = (i: number): Pt => (i % 23 === 5 ? null : i % 17 === 3 ? ref.neg(base[i % 4]!) : base[i % 4]!);
    let stats: MsmStats | undefined;
    const run = (points: Pt[], scalars: bigint[], options: object = {}) =>
      asRef(grp.msmSync(points.map(asInput), scalars, { validate: 'none', ...options, onStats: (s: MsmStats) => (stats = s) }));
    /** Σ s_i·P_i by the reference, grouping equal points (pointAt's few distinct ones). */
    const want = (points: Pt[], scalars: bigint[]) => {
      const by = new Map<Pt, bigint>();
      points.forEach((P, i) => by.set(P, (by.get(P) ?? 0n) + scalars[i]!));
      let sum: Pt = null;
      for (const [P, k] of by) if (P !== null) sum = ref.add(sum, ref.mul(P, ((k % r) + r) % r));
      return sum;
    };
    const check = (n: number, scalarAt: (i: number) => bigint, what: string) => {
      const points = Array.from({ length: n }, (_, i) => pointAt(i));
      const scalars = Array.from({ length: n }, (_, i) => scalarAt(i));
      const expected = want(points, scalars);
      const joint = run(points, scalars);
      if (n > ctx.strausMaxPoints) assert.equal(stats?.tiles, 1, `${what}: one joint task`);
      assert.ok(ref.eq(joint, expected), `${what}: joint = reference`);
      const tiles = withMaxItems(0, () => run(points, scalars, { windowBits: stats?.method === 'buckets' ? stats.plan.c : undefined }));
      assert.ok(ref.eq(tiles, expected), `${what}: tiles = reference`);
    };

    it('n = 0, 1, 2 with a fixed window (buckets), hard scalars; all dropped gives infinity', () => {
      assert.equal(run([], [], { windowBits: 5 }), null);
      assert.equal(stats?.method, 'buckets');
      for (const s of hard) {
        const got = run([base[0]!], [s], { windowBits: 5 });
        assert.equal(stats?.tiles, 1);
        assert.ok(ref.eq(got, ref.mul(base[0]!, s % r)), `s = 0x${s.toString(16)}`);
      }
      const P = base[1]!;
      assert.equal(run([P, ref.neg(P)], [7n, 7n], { windowBits: 6 }), null, 'P·7 + (−P)·7');
      assert.equal(run([P, null, P], [0n, 3n, r], { windowBits: 6 }), null, 'zero, infinity, r');
      assert.ok(ref.eq(run([P, P], [r - 1n, 2n], { windowBits: 6 }), P), 'P·(r − 1) + P·2 = P');
    });

    it('sizes around the Straus limit and 64, 128, 193: random and hard scalars, infinity, P and −P, duplicates', () => {
      const m = ctx.strausMaxPoints;
      for (const n of [m + 1, m + 2, 64, 128, 193]) {
        check(n, () => rng.nextBigint(256), `n = ${n}, random`);
        check(n, (i) => hard[(i * 7 + n) % hard.length]!, `n = ${n}, hard`);
      }
      check(100, () => 1n, 'n = 100, all scalars 1');
      check(100, (i) => (i % 2 ? r - 1n : 1n), 'n = 100, scalars 1 and r − 1');
    });

    it('maxItems boundary: windows × halves = maxItems runs joint, one more item runs tiles; same result', () => {
      const n = 90;
      const points = Array.from({ length: n }, (_, i) => pointAt(i));
      const scalars = points.map(() => rng.nextBigint(255));
      const expected = want(points, scalars);
      const first = run(points, scalars);
      assert.equal(stats?.method, 'buckets');
      const items = stats!.plan.windows * 2 * stats!.kept;
      const atLimit = withMaxItems(items, () => run(points, scalars));
      assert.equal(stats?.tiles, 1, 'at the limit: joint');
      const below = withMaxItems(items - 1, () => run(points, scalars));
      assert.equal(stats?.tiles, stats?.plan.windows, 'one item over: tiles');
      for (const got of [first, atLimit, below]) assert.ok(ref.eq(got, expected));
    });

    if (group === 'g1' && curve.params.h1 > 1n) {
      it("points outside the subgroup (validate 'none'): joint = tiles", () => {
        const refc = new RefCurve(curve.params);
        for (const n of [1, 60, 150]) {
          const points = Array.from({ length: n }, (_, i) => (i === 2 ? null : randomCurvePoint(refc, rng) as Pt));
          if (n > 4) points[4] = ref.neg(points[3]!);
          const scalars = points.map(() => rng.nextBigint(256));
          const c = n === 1 ? 5 : undefined;
          const joint = run(points, scalars, { windowBits: c });
          assert.equal(stats?.tiles, 1);
          const tiles = withMaxItems(0, () => run(points, scalars, { windowBits: stats!.plan.c }));
          assert.ok(stats!.tiles > 1);
          assert.ok(ref.eq(joint, tiles), `n = ${n}`);
        }
      });
    }
  });
}

describe('joint reduction: msm calls in flight together, Buffers and subarrays refilled right after each call', () => {
  it('BLS12-381 and BN254 G1 and G2: every result the reference', async () => {
    const rng = makeRng(4402);
    for (const curve of [bls12_381, bn254] as Curve<string>[]) {
      await curve.init();
      for (const group of ['g1', 'g2'] as const) {
        const api = curve[group] as unknown as {
          msm(p: Uint8Array, s: Uint8Array, o?: object): Promise<{ x: unknown; y: unknown; infinity: boolean }>;
          toBytes(P: unknown): Uint8Array;
        };
        const ref = (group === 'g1' ? new RefCurve(curve.params) : new RefG2(g2Params[curve.name as G2CurveName])) as unknown as RefLike;
        const G = (group === 'g1' ? curve.params.G1 : g2Params[curve.name as G2CurveName].G2) as Pt;
        const r = curve.params.r;
        const base = [ref.mul(G, rng.nextBelow(r - 1n) + 1n), ref.mul(G, rng.nextBelow(r - 1n) + 1n)];
        const calls = [70, 129, 64].map((n) => {
          const points = Array.from({ length: n }, (_, i) => base[i % 2]!);
          const scalars = Array.from({ length: n }, () => rng.nextBigint(256));
          let k0 = 0n, k1 = 0n;
          scalars.forEach((s, i) => (i % 2 ? (k1 += s) : (k0 += s)));
          const want = ref.add(ref.mul(base[0]!, k0 % r), ref.mul(base[1]!, k1 % r));
          const pb = new Uint8Array(points.flatMap((P) => [...api.toBytes(asInput(P))]));
          const sb = new Uint8Array(scalars.flatMap((s) => Array.from({ length: 32 }, (_, k) => Number((s >> BigInt(8 * k)) & 0xffn))));
          return { pb, sb, want, n };
        });
        const kinds: [string, (b: Uint8Array) => Uint8Array][] = [
          ['Node Buffer', (b) => Buffer.from(b)],
          ['subarray at byteOffset 40', (b) => { const w = new Uint8Array(b.length + 77).fill(0x5a); w.set(b, 40); return w.subarray(40, 40 + b.length); }],
        ];
        for (const [kind, wrap] of kinds) {
          const pending = calls.map((c, i) => {
            const p = wrap(c.pb), s = wrap(c.sb);
            const out = api.msm(p, s, { scalarEndian: 'le', validate: 'none', threads: 1, onStats: (st: MsmStats) => assert.equal(st.tiles, 1, `${curve.name} ${group} call ${i}: joint`) });
            p.fill(0xff);
            s.fill(0xa5);
            return out;
          });
          const got = await Promise.all(pending);
          got.forEach((R, i) => assert.ok(ref.eq(asRef(R), calls[i]!.want), `${curve.name} ${group} ${kind}: call ${i} (n = ${calls[i]!.n})`));
        }
      }
    }
  });
});
