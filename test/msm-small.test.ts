/**
 * Small MSMs (msm_straus, src/codegen/msm-straus.ts): up to the group's strausMaxPoints an MSM is one
 * interleaved wNAF pass instead of buckets. Its oracle is the bigint reference (points in the
 * subgroup) and the bucket method on the same inputs (windowBits forces it; also for points outside
 * the subgroup, where both must give the same Σ k1·P + k2·φ(P)). Every curve's G1, G2 of BLS12-381
 * and BN254, the i32 modules through the API and the 64-bit-limb (wide64) layout through msmProgram.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381, bn254, bls12_377, pallas, vesta, type Curve } from '../src/index.js';
import { groupContextOf } from '../src/api/group.js';
import { RefCurve } from '../src/reference/curve.js';
import { RefG2 } from '../src/reference/g2.js';
import { g2Params, registry, type G2CurveName, type CurveName } from '../src/curves/index.js';
import { makeRng } from '../src/reference/rng.js';
import { devCurveModule } from '../src/testing/dev-instance.js';
import { groupContext } from '../src/msm/group.js';
import { allocInputs, msmProgram, type MsmStats } from '../src/msm/program.js';
import { runLocal } from '../src/runtime/executor.js';
import { randomCurvePoint } from './helpers/curve-points.js';
import { groupUnderTest, type Pt, type RefLike } from './helpers/group-under-test.js';
import { STRAUS_WNAF_WIDTH } from '../src/abi/layout.js';

const asInput = (P: Pt) => (P === null ? null : { x: P.x, y: P.y });
const asRef = (R: { x: unknown; y: unknown; infinity: boolean }): Pt => (R.infinity ? null : { x: R.x, y: R.y });

const curves: [Curve<string>, ('g1' | 'g2')[]][] = [[bls12_381, ['g1', 'g2']], [bn254, ['g1', 'g2']], [bls12_377, ['g1']], [pallas, ['g1']], [vesta, ['g1']]];

for (const [curve, groups] of curves) for (const group of groups) {
  describe(`small MSMs (msm_straus) on ${curve.name} ${group}`, async () => {
    await curve.init();
    const { grp, ctx, r, ref, G } = groupUnderTest(curve, group);
    const rng = makeRng(0x5a11 + curve.name.length);
    const max = ctx.strausMaxPoints;
    const lambda = curve.params.lambda;
    const hard = [0n, 1n, 2n, r - 1n, r, r + 1n, 2n * r - 1n, (1n << 256n) - 1n, lambda, lambda - 1n, lambda + 1n, r - lambda, 1n << 127n, (1n << 128n) - 1n, -1n];
    const randomScalar = () => rng.nextBigint(256);
    const randomPoint = () => ref.mul(G, rng.nextBelow(r - 1n) + 1n);
    let stats: MsmStats | undefined;
    const run = (points: Pt[], scalars: (bigint | number)[] | Uint8Array, options: object = {}) =>
      asRef(grp.msmSync(scalars instanceof Uint8Array ? points.map(asInput) : points.map(asInput), scalars instanceof Uint8Array ? scalars : scalars.map(BigInt), { ...options, onStats: (s: MsmStats) => (stats = s) }));
    const check = (points: Pt[], scalars: bigint[], what: string) => {
      const want = ref.msmNaive(points, scalars.map((s) => ((s % r) + r) % r));
      const got = run(points, scalars);
      assert.equal(stats?.method, points.length <= max ? 'straus' : 'buckets', `${what}: method`);
      assert.ok(ref.eq(got, want), `${what}: straus = reference`);
      const buckets = run(points, scalars, { windowBits: 4 });
      assert.equal(stats?.method, 'buckets');
      assert.ok(ref.eq(buckets, want), `${what}: buckets = reference`);
    };

    it('runs for up to strausMaxPoints kept points (at least 8), buckets above; stats say which', () => {
      assert.ok(max >= 8, `strausMaxPoints ${max}`);
      const P = randomPoint();
      run([P], [5n]);
      assert.equal(stats?.method, 'straus');
      assert.equal(stats?.plan.c, STRAUS_WNAF_WIDTH);
      assert.equal(stats?.plan.windows, 0);
      assert.equal(stats?.kept, 1);
      const many = Array.from({ length: max + 1 }, () => P);
      run(many, many.map(() => 3n));
      assert.equal(stats?.method, 'buckets');
      run([P], [5n], { windowBits: 5 });
      assert.equal(stats?.method, 'buckets', 'windowBits asks for buckets');
    });

    it('n = 0 and all-dropped inputs (zero scalars, infinity, r) give infinity', () => {
      assert.equal(run([], []), null);
      assert.equal(stats?.method, 'straus');
      const P = randomPoint();
      assert.equal(run([P, null, P], [0n, 7n, r]), null);
      assert.equal(stats?.kept, 0);
      assert.equal(run([null], [1n]), null);
    });

    it('one point: scalars 0, 1, 2, r − 1, r, r + 1, 2r − 1, 2^256 − 1, λ, λ ± 1, r − λ, 2^127, 2^128 − 1, −1', () => {
      const P = randomPoint();
      for (const s of hard) check([P], [s], `s = 0x${s.toString(16)}`);
      check([G], [r - 1n], 'the generator, r − 1');
    });

    it('packed scalars: 32 bytes of 0xff (2^256 − 1, reduced mod r by the split), little- and big-endian', () => {
      const P = randomPoint();
      const want = ref.mul(P, ((1n << 256n) - 1n) % r);
      const bytes = new Uint8Array(32).fill(0xff);
      assert.ok(ref.eq(run([P], bytes), want));
      assert.equal(stats?.method, 'straus');
      assert.ok(ref.eq(run([P], bytes, { scalarEndian: 'be' }), want));
    });

    it('P and −P: equal scalars cancel to infinity, other scalars give their difference; duplicates; infinity among points', () => {
      const P = randomPoint();
      const nP = ref.neg(P);
      assert.equal(run([P, nP], [12345n, 12345n]), null);
      check([P, nP], [12345n, 345n], 'P, −P');
      check([P, nP], [r - 1n, 1n], 'P·(r − 1) + (−P)·1 = −2P');
      check([P, P, P, P], [1n, 2n, 3n, r - 6n], 'duplicates summing to 0');
      check([P, P, nP, P, P], [randomScalar(), randomScalar(), randomScalar(), 1n, r - 1n], 'duplicates and −P');
      check([P, null, nP, null], [5n, 6n, 5n, 7n], 'infinity among points');
      check([P, ref.add(P, P), ref.mul(P, 3n)], [3n, r - 1n, 2n], '3P − 2P − ... collisions of the accumulator with table entries');
    });

    it('random inputs at n = 2, 3, 5, 8 and strausMaxPoints, random and hard scalars', () => {
      for (const n of [2, 3, 5, 8, max]) {
        const points = Array.from({ length: n }, () => randomPoint());
        check(points, points.map(() => randomScalar()), `n = ${n}, random`);
        check(points, points.map((_, i) => hard[(i * 5 + n) % hard.length]), `n = ${n}, hard`);
      }
    });

    if (group === 'g1' && curve.params.h1 > 1n) {
      it('points outside the subgroup (validate on-curve): the same point as the bucket method', () => {
        const refc = new RefCurve(curve.params);
        for (const n of [1, 2, 5]) {
          const points = Array.from({ length: n }, () => randomCurvePoint(refc, rng) as Pt);
          const scalars = points.map(() => randomScalar());
          const got = run(points, scalars, { validate: 'on-curve' });
          assert.equal(stats?.method, 'straus');
          const buckets = run(points, scalars, { validate: 'on-curve', windowBits: 4 });
          assert.ok(ref.eq(got, buckets), `n = ${n}`);
        }
      });
    }
  });
}

// the 64-bit-limb layout of the wide64 modules (dev modules: the same kernels over w = 64)
for (const name of ['bls12-381', 'bn254'] as CurveName[]) {
  describe(`msm_straus on ${name} G1 with 64-bit limbs`, async () => {
    const params = registry[name].params;
    const inst = await devCurveModule({ curve: registry[name], fp: { w: 64, mul: 'cios-loop' } });
    const ctx = groupContext('g1', { inst, scratchBytes: {}, windowTable: [], cofactor: params.h1 });
    const ref = new RefCurve(params);
    const fp = inst.fields.fp;
    const EB = fp.info.elementBytes;
    const rng = makeRng(77);
    const msm = (points: ({ x: bigint; y: bigint } | null)[], scalars: bigint[], force: object) => {
      const mark = inst.arena.mark();
      try {
        const regions = allocInputs(ctx, points.length);
        const mem = new Uint8Array(inst.memory.buffer);
        points.forEach((P, i) => {
          mem[regions.inf + i] = P === null ? 1 : 0;
          if (P) ctx.writeAffine(regions.points + i * 2 * EB, [P.x, P.y]);
        });
        scalars.forEach((s, i) => {
          let v = s;
          for (let b = 0; b < 32; b++, v >>= 8n) mem[regions.scalars + 32 * i + b] = Number(v & 0xffn);
        });
        let stats: MsmStats | undefined;
        const { result, stats: st } = runLocal(inst, msmProgram(ctx, regions, points.length, { scalarsBigEndian: false, threads: 1, ...force }));
        stats = st;
        return { result, method: stats.method };
      } finally {
        inst.arena.release(mark);
      }
    };
    it('equals the reference and the bucket method', () => {
      const r = params.r;
      for (const n of [1, 2, 7]) {
        const points = Array.from({ length: n }, () => ref.mul(params.G1, rng.nextBelow(r - 1n) + 1n) as { x: bigint; y: bigint });
        if (n > 1) points[1] = ref.neg(points[0]) as { x: bigint; y: bigint };
        const scalars = points.map((_, i) => (i === 2 ? r - 1n : rng.nextBigint(255)));
        const want = ref.msmNaive(points, scalars);
        const a = msm(points, scalars, {});
        assert.equal(a.method, 'straus');
        assert.ok(ref.eq(a.result, want), `n = ${n}: straus`);
        const b = msm(points, scalars, { windowBits: 4 });
        assert.equal(b.method, 'buckets');
        assert.ok(ref.eq(b.result, want), `n = ${n}: buckets`);
      }
    });
  });
}

describe('small-MSM path: msm calls in flight together, inputs refilled right after each call', () => {
  it('G1 and G2 of BLS12-381 and BN254, point and scalar bytes as Uint8Array, Node Buffer and offset subarray: every result the reference', async () => {
    const rng = makeRng(3301);
    const kinds: [string, (b: Uint8Array) => Uint8Array][] = [
      ['Uint8Array', (b) => Uint8Array.from(b)],
      ['Node Buffer', (b) => Buffer.from(b)],
      ['subarray at byteOffset 40', (b) => { const w = new Uint8Array(b.length + 77).fill(0x5a); w.set(b, 40); return w.subarray(40, 40 + b.length); }],
    ];
    for (const curve of [bls12_381, bn254] as Curve<string>[]) {
      await curve.init();
      for (const group of ['g1', 'g2'] as const) {
        const api = curve[group] as unknown as {
          msm(p: Uint8Array, s: Uint8Array, o?: object): Promise<{ x: unknown; y: unknown; infinity: boolean }>;
          msmSync(p: Uint8Array, s: Uint8Array, o?: object): { x: unknown; y: unknown; infinity: boolean };
          toBytes(P: unknown): Uint8Array;
        };
        const ref = (group === 'g1' ? new RefCurve(curve.params) : new RefG2(g2Params[curve.name as G2CurveName])) as unknown as RefLike;
        const G = (group === 'g1' ? curve.params.G1 : g2Params[curve.name as G2CurveName].G2) as Pt;
        const calls: { pts: Uint8Array; scs: Uint8Array; want: Pt; n: number }[] = [];
        for (const n of [1, 2, 7, 20, 1, 33]) { // 33: buckets on G2 (strausMaxPoints 20)
          const points = Array.from({ length: n }, () => ref.mul(G, rng.nextBelow(curve.params.r - 1n) + 1n));
          const scalars = Array.from({ length: n }, () => rng.nextBigint(256));
          let want: Pt = null;
          points.forEach((P, i) => (want = ref.add(want, ref.mul(P, scalars[i]! % curve.params.r))));
          const pb = new Uint8Array(points.flatMap((P) => [...api.toBytes(asInput(P))]));
          const sb = new Uint8Array(scalars.flatMap((s) => Array.from({ length: 32 }, (_, k) => Number((s >> BigInt(8 * k)) & 0xffn))));
          calls.push({ pts: pb, scs: sb, want, n });
        }
        for (const [kind, wrap] of kinds) {
          const inputs = calls.map((c) => [wrap(c.pts), wrap(c.scs)] as const);
          const pending = inputs.map(([p, s], i) => {
            const method = calls[i]!.n <= groupContextOf(curve[group] as never).strausMaxPoints ? 'straus' : 'buckets';
            const out = api.msm(p, s, { scalarEndian: 'le', onStats: (st: MsmStats) => assert.equal(st.method, method, `${curve.name} ${group} call ${i}`) });
            p.fill(0xff);
            s.fill(0xa5);
            return out;
          });
          const got = await Promise.all(pending);
          got.forEach((R, i) => assert.deepEqual(asRef(R), calls[i]!.want, `${curve.name} ${group} ${kind}: call ${i} (n = ${calls[i]!.n})`));
        }
      }
    }
  });
});
