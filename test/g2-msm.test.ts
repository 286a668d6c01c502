/**
 * G2 kernels and the G2 MSM (the shipped module of every registry curve with a G2) against the
 * bigint reference (src/reference/g2.ts) and @noble/curves' G2 (where noble has the curve): XYZZ arithmetic with its exceptional cases, the
 * on-curve and ψ subgroup tests (points on the twist outside G2 must fail), and the MSM on random
 * and adversarial families (equal points, P and −P, infinity, duplicates, scalars 0, 1, r − 1, ≥ r,
 * n = 0 and 1, all points in one bucket), with forced small windows, cut tiles and segments.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { instantiateGenerated } from '../src/runtime/instance.js';
import { runLocal } from '../src/runtime/executor.js';
import { g2Params } from '../src/curves/index.js';
import { g2CurveNames, generatedModule, nobleOf, registry } from './helpers/registry.js';
import { RefG2, type G2Point } from '../src/reference/g2.js';
import { makeRng } from '../src/reference/rng.js';
import { allocInputs, msmProgram } from '../src/msm/program.js';
import { groupContext } from '../src/msm/group.js';

type G2AffineValue = { readonly x: readonly [bigint, bigint]; readonly y: readonly [bigint, bigint] };
import type { G2Kernels } from '../src/wasm-generated/kernels.js';

// every curve of the registry with a G2; @noble/curves' G2 where noble has the curve
for (const name of g2CurveNames) {
  const noble = nobleOf(name)?.G2;
  const params = g2Params[name];
  const ref = new RefG2(params);
  const r = params.g1.r;
  const rng = makeRng(name.length);
  const randomScalar = () => rng.nextBigint(256) % r;
  const randomPoint = (): G2Point => ref.mul(ref.G, randomScalar());

  if (noble) describe(`G2 reference (${name}) against @noble/curves`, () => {
    it('generator, b\', sums and products agree', () => {
      const toNoble = (P: G2Point) => (P === null ? noble.ZERO : noble.fromAffine({ x: { c0: P.x[0], c1: P.x[1] }, y: { c0: P.y[0], c1: P.y[1] } }));
      const fromNoble = (Q: InstanceType<typeof noble>): G2Point => {
        if (Q.is0()) return null;
        const a = Q.toAffine();
        return { x: [a.x.c0, a.x.c1], y: [a.y.c0, a.y.c1] };
      };
      assert.ok(ref.eq(fromNoble(noble.BASE), ref.G));
      for (let t = 0; t < 4; t++) {
        const k = randomScalar();
        const P = randomPoint();
        assert.ok(ref.eq(ref.mul(P, k), fromNoble(toNoble(P).multiply(k))));
        const Q = randomPoint();
        assert.ok(ref.eq(ref.add(P, Q), fromNoble(toNoble(P).add(toNoble(Q)))));
      }
    });
  });

  describe(`G2 kernels and MSM (${name})`, async () => {
    const module = await generatedModule(name);
    const inst = await instantiateGenerated(module, { shared: false });
    const k = inst.k as unknown as G2Kernels;
    const ctx = groupContext('g2', { inst, scratchBytes: module.scratchBytes, windowTable: registry[name].tuning.msmWindow.table, cofactor: params.h2 });
    const readG2Affine = (_: unknown, ptr: number) => ctx.readAffine(ptr);
    const E = inst.fields.fp.info.elementBytes;
    const scratch = inst.arena.alloc(64 * 2 * E);
    const A = inst.arena.alloc(8 * 2 * E);
    const write = (ptr: number, P: G2AffineValue) => [P.x[0], P.x[1], P.y[0], P.y[1]].forEach((c, j) => inst.fields.fp.write(ptr + j * E, c));

    it('on-curve and ψ subgroup tests: G2 points pass, twist points outside G2 and off-curve points fail', () => {
      for (let t = 0; t < 4; t++) {
        const P = randomPoint()!;
        write(A, P);
        assert.equal(k.g2_is_on_curve(A, scratch), 1);
        assert.equal(k.g2_is_in_subgroup(A, scratch), 1);
        k.g2_psi(A + 4 * E, A, scratch);
        assert.deepEqual(readG2Affine(inst, A + 4 * E), ref.psi(P));
      }
      for (let x0 = 1n, found = 0; found < 4; x0++) {
        const N = ref.pointFromX0(x0);
        x0 = N.x[0];
        assert.equal(ref.isInSubgroupSlow(N), false);
        write(A, N);
        assert.equal(k.g2_is_on_curve(A, scratch), 1);
        assert.equal(k.g2_is_in_subgroup(A, scratch), 0, `non-G2 point x0 = ${x0}`);
        // a non-G2 point plus a G2 point is still outside G2; an off-curve point fails on-curve
        write(A, { x: N.x, y: [N.y[0], (N.y[1] + 1n) % params.g1.p] });
        assert.equal(k.g2_is_on_curve(A, scratch), 0);
        found++;
      }
    });

    it('XYZZ add, double, to_affine against the reference (incl. P + P, P + (−P), infinity)', () => {
      const P = randomPoint()!, Q = randomPoint()!;
      const X = (j: number) => A + j * 8 * E; // XYZZ slots: 8·E bytes each
      const aff = inst.arena.alloc(4 * E);
      const check = (slot: number, want: G2Point) => {
        const inf = k.g2_xyzz_to_affine(aff, slot, scratch);
        if (want === null) assert.equal(inf, 1);
        else {
          assert.equal(inf, 0);
          assert.deepEqual(readG2Affine(inst, aff), want);
        }
      };
      const setAffine = (slot: number, R: G2AffineValue) => {
        write(aff, R);
        k.g2_xyzz_from_affine(slot, aff);
      };
      setAffine(X(0), P);
      setAffine(X(1), Q);
      k.g2_xyzz_add(X(0), X(1), scratch);
      check(X(0), ref.add(P, Q));
      setAffine(X(0), P);
      write(aff, P);
      k.g2_xyzz_add_affine(X(0), aff, scratch);
      check(X(0), ref.double(P));
      setAffine(X(0), P);
      write(aff, ref.neg(P)!);
      k.g2_xyzz_add_affine(X(0), aff, scratch);
      check(X(0), null);
      k.g2_xyzz_set_inf(X(0));
      write(aff, Q);
      k.g2_xyzz_add_affine(X(0), aff, scratch);
      check(X(0), Q);
      k.g2_xyzz_double(X(0), scratch);
      check(X(0), ref.double(Q));
      k.g2_xyzz_mul_small(X(0), 1000003, scratch);
      check(X(0), ref.mul(Q, 2n * 1000003n));
    });

    it('Jacobian add_affine and double against the reference (P + P, P + (−P), O + Q, 2·Q)', () => {
      const P = randomPoint()!, Q = randomPoint()!;
      const J = A; // Jacobian X, Y, Z (2·E bytes each); read back through XYZZ: ZZ = Z², ZZZ = Z³
      const aff = inst.arena.alloc(4 * E);
      const T = inst.arena.alloc(2 * E);
      const check = (want: G2Point, what: string) => {
        k.fp2_sqr(T, J + 4 * E);
        k.fp2_mul(J + 6 * E, T, J + 4 * E);
        k.fp2_copy(J + 4 * E, T);
        const inf = k.g2_xyzz_to_affine(aff, J, scratch);
        if (want === null) assert.equal(inf, 1, what);
        else {
          assert.equal(inf, 0, what);
          assert.deepEqual(readG2Affine(inst, aff), want, what);
        }
      };
      const setJac = (R: G2AffineValue | null) => {
        if (R === null) return k.fp2_set_zero(J + 4 * E);
        write(aff, R);
        k.g2_xyzz_from_affine(J, aff); // X, Y, 1 (, 1)
      };
      for (const [R, S, want, what] of [[P, Q, ref.add(P, Q), 'P + Q'], [P, P, ref.double(P), 'P + P'], [P, ref.neg(P)!, null, 'P + (−P)'], [null, Q, Q, 'O + Q']] as const) {
        setJac(R);
        write(aff, S!);
        k.g2_jac_add_affine(J, aff, scratch);
        check(want, what);
      }
      setJac(Q);
      k.g2_jac_double(J, scratch);
      k.g2_jac_double(J, scratch);
      check(ref.mul(Q, 4n), '4·Q');
      setJac(Q);
      write(aff, P);
      k.g2_jac_add_affine(J, aff, scratch);
      k.g2_jac_add_affine(J, aff, scratch);
      check(ref.add(Q, ref.double(P)), 'Q + P + P (Z ≠ 1)');
    });

    const msm = (points: G2Point[], scalars: bigint[], opts: { windowBits?: number; ranges?: number; segments?: number } = {}) => {
      const n = points.length;
      const mark = inst.arena.mark();
      try {
        const regions = allocInputs(ctx, n);
        points.forEach((P, i) => {
          new Uint8Array(inst.memory.buffer)[regions.inf + i] = P === null ? 1 : 0;
          if (P !== null) ctx.writeAffine(regions.points + i * 4 * E, [...P.x, ...P.y]);
        });
        const bytes = new Uint8Array(inst.memory.buffer, regions.scalars, 32 * n);
        scalars.forEach((s, i) => {
          let v = ((s % r) + r) % r; // the API reduces mod r before packing 32 bytes
          for (let j = 0; j < 32; j++, v >>= 8n) bytes[32 * i + j] = Number(v & 0xffn);
        });
        return runLocal(inst, msmProgram(ctx, regions, n, { scalarsBigEndian: false, threads: 1, ...opts })).result;
      } finally {
        inst.arena.release(mark);
      }
    };
    const agree = (points: G2Point[], scalars: bigint[], opts = {}) => {
      const got = msm(points, scalars, opts);
      const want = ref.msmNaive(points, scalars);
      assert.ok(ref.eq(got, want), `n = ${points.length} ${JSON.stringify(opts)}`);
    };

    it('n = 0 and n = 1 (scalars 0, 1, r − 1, r, r + 5, 2^256 − 1)', () => {
      agree([], []);
      const P = randomPoint();
      for (const s of [0n, 1n, r - 1n, r, r + 5n, (1n << 256n) - 1n]) agree([P], [s]);
      agree([null], [7n]);
    });

    it('random points and scalars, forced windows, cut tiles and segments', () => {
      const n = 70;
      const points = Array.from({ length: n }, randomPoint);
      const scalars = Array.from({ length: n }, randomScalar);
      agree(points, scalars);
      agree(points, scalars, { windowBits: 4, ranges: 3, segments: 2 });
      agree(points, scalars, { windowBits: 7 });
    });

    it('adversarial: equal points, P and −P, infinity, duplicates, one bucket, scalars 0/1/r−1', () => {
      const P = randomPoint()!, Q = randomPoint()!;
      const negP = ref.neg(P);
      const same = Array.from({ length: 40 }, () => P);
      agree(same, same.map(() => 1n), { windowBits: 4 });
      agree(same, same.map((_, i) => BigInt(i)), { windowBits: 5 });
      const mixed: G2Point[] = [P, negP, P, null, Q, Q, negP, P, null, Q];
      agree(mixed, mixed.map(() => 3n), { windowBits: 4 });
      agree(mixed, [1n, 1n, r - 1n, 5n, 0n, r - 1n, 2n, 1n, 9n, 1n], { windowBits: 4, segments: 2 });
      agree([P, negP], [5n, 5n]);
      agree([P, P], [r - 1n, 1n]);
    });

    if (noble) it('agrees with @noble/curves on a random batch', () => {
      const n = 24;
      const points = Array.from({ length: n }, randomPoint);
      const scalars = Array.from({ length: n }, randomScalar);
      const got = msm(points, scalars);
      const want = points
        .map((P, i) => (scalars[i] === 0n ? noble.ZERO : noble.fromAffine({ x: { c0: P!.x[0], c1: P!.x[1] }, y: { c0: P!.y[0], c1: P!.y[1] } }).multiply(scalars[i])))
        .reduce((a, b) => a.add(b))
        .toAffine();
      assert.deepEqual(got, { x: [want.x.c0, want.x.c1], y: [want.y.c0, want.y.c1] });
    });
  });
}
