/**
 * The #3 MSM suite, run through the public API of every other curve (BN254, BLS12-377, Pallas,
 * Vesta; BLS12-381 has its own, larger file): every window size, planner windows, bytes in the
 * curve's formats, the adversarial families, larger n, typed errors. The oracle is the closed form:
 * points are built with known discrete logs a_i (P_i = a_i·G, by bigint additions), so
 * Σ s_i·P_i = (Σ s_i·a_i mod r)·G — one reference scalar multiplication per check.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_377, bn254, pallas, vesta, LengthMismatchError, NotInSubgroupError, NotOnCurveError, PointEncodingError, ScalarEncodingError } from '../src/index.js';
import type { G1Affine } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { makeRng } from '../src/reference/rng.js';
import { pointsWithLogs } from './helpers/known-logs.js';

type Pt = { x: bigint; y: bigint } | null;
interface CurveApi {
  name: string;
  params: { r: bigint; p: bigint; G1: { x: bigint; y: bigint }; lambda: bigint; h1: bigint };
  init(): Promise<void>;
  g1: {
    msmSync(points: Uint8Array | readonly Pt[], scalars: Uint8Array | readonly bigint[], options?: Record<string, unknown>): G1Affine;
    toBytes(point: Pt, format?: string): Uint8Array;
    pointFormats: readonly { name: string; bytes: number }[];
  };
}

for (const curve of [bn254, bls12_377, pallas, vesta] as unknown as CurveApi[]) {
  describe(`${curve.name}: MSM suite through the public API`, () => {
    const ref = new RefCurve(curve.params as never);
    const { r, G1: G } = curve.params;
    const rng = makeRng(77);
    const mod = (x: bigint) => ((x % r) + r) % r;
    /** n points with known logs (logs[i] = 0 ⇔ point at infinity). */
    const withLogs = (n: number, seed: number) => pointsWithLogs(ref, G, r, n, seed);
    const expect = (logs: bigint[], s: bigint[]) => ref.mulScalar(G, logs.reduce((acc, a, i) => mod(acc + a * mod(s[i])), 0n));
    const toPt = (res: G1Affine): Pt => (res.infinity ? null : { x: res.x, y: res.y });
    const check = (got: G1Affine, logs: bigint[], s: bigint[], what: string) => assert.ok(ref.eq(toPt(got), expect(logs, s)), `${curve.name}: ${what}`);
    const scalars = (n: number) => Array.from({ length: n }, () => rng.nextBigint(256));
    const base = withLogs(300, 5);

    before(async () => {
      await curve.init();
    });

    it('every window size 2..16 on n = 1, 2, 3, 17, 64', () => {
      for (const n of [1, 2, 3, 17, 64]) {
        const s = scalars(n);
        for (let c = 2; c <= 16; c++) check(curve.g1.msmSync(base.pts.slice(0, n), s, { windowBits: c }), base.logs.slice(0, n), s, `n = ${n}, c = ${c}`);
      }
    });

    it('planner windows up to 300 points; every byte format and big-endian scalars agree', () => {
      for (const n of [0, 1, 5, 31, 100, 255, 300]) {
        const s = scalars(n);
        const pts = base.pts.slice(0, n);
        const logs = base.logs.slice(0, n);
        check(curve.g1.msmSync(pts, s), logs, s, `objects n = ${n}`);
        for (const { name: format, bytes } of curve.g1.pointFormats) {
          const enc = new Uint8Array(bytes * n);
          pts.forEach((P, i) => enc.set(curve.g1.toBytes(P, format), bytes * i));
          const le = new Uint8Array(32 * n);
          const be = new Uint8Array(32 * n);
          s.forEach((v, i) => {
            for (let b = 0; b < 32; b++) le[32 * i + b] = be[32 * i + 31 - b] = Number((v >> BigInt(8 * b)) & 0xffn);
          });
          check(curve.g1.msmSync(enc, le, { pointFormat: format }), logs, s, `${format} n = ${n}`);
          check(curve.g1.msmSync(enc, be, { pointFormat: format, scalarEndian: 'be' }), logs, s, `${format} BE n = ${n}`);
        }
      }
    });

    it('adversarial families', () => {
      const n = 64;
      const P = base.pts.slice(0, n);
      const A = base.logs.slice(0, n);
      const fam: [string, Pt[], bigint[], bigint[]][] = [
        ['all-zero scalars', P, A, P.map(() => 0n)],
        ['scalars r − 1', P, A, P.map(() => r - 1n)],
        ['scalars r and r + 1', P, A, P.map((_, i) => (i % 2 ? r : r + 1n))],
        ['scalars ≥ 2^255 and negative', P, A, P.map((_, i) => (i % 2 ? (1n << 256n) - 1n - BigInt(i) : -BigInt(i + 1)))],
        ['all-equal scalars', P, A, P.map(() => 0x1234567890abcdef1234567890abcdefn)],
        ['all scalars 1', P, A, P.map(() => 1n)],
        ['repeated point', P.map(() => P[0]), A.map(() => A[0]), scalars(n)],
        ['P and −P, equal scalars', P.map((p, i) => (i % 2 ? ref.neg(P[i - 1]) : p)), A.map((a, i) => (i % 2 ? mod(-A[i - 1]) : a)), P.map((_, i) => BigInt(1000 + (i >> 1)))],
        ['P, P and −P', P.map((_, i) => (i % 3 === 2 ? ref.neg(P[0]) : P[0])), A.map((_, i) => (i % 3 === 2 ? mod(-A[0]) : A[0])), P.map(() => 5n)],
        ['infinity mixed in', P.map((p, i) => (i % 5 === 0 ? null : p)), A.map((a, i) => (i % 5 === 0 ? 0n : a)), scalars(n)],
        ['arithmetic progression G, 2G, …', P.map((_, i) => ref.mul(G, BigInt(i + 1))), A.map((_, i) => BigInt(i + 1)), P.map((_, i) => BigInt(n - i))],
        ['small scalars', P, A, P.map((_, i) => BigInt(i % 7))],
        ['GLV edges λ − 1, λ, λ + 1', P, A, P.map((_, i) => curve.params.lambda + BigInt((i % 3) - 1))],
      ];
      for (const [name, pts, logs, s] of fam) {
        for (const c of [undefined, 3, 8]) check(curve.g1.msmSync(pts, s, { windowBits: c, validate: 'full' }), logs, s, `${name}, c = ${c ?? 'auto'}`);
      }
    });

    it('larger n: 2^12 and sizes around it', () => {
      const big = withLogs(4097, 9);
      for (const n of [4096, 4097, 4095, 2048, 2049]) {
        const s = scalars(n);
        check(curve.g1.msmSync(big.pts.slice(0, n), s, { validate: 'on-curve' }), big.logs.slice(0, n), s, `n = ${n}`);
      }
    });

    it('typed errors with indices; n = 0', () => {
      const pts = base.pts.slice(0, 8);
      const s = scalars(8);
      assert.throws(() => curve.g1.msmSync(pts.slice(0, 7), s), LengthMismatchError, 'length mismatch');
      const bad = pts.slice();
      bad[5] = { x: pts[5]!.x, y: (pts[5]!.y + 1n) % curve.params.p };
      assert.throws(() => curve.g1.msmSync(bad, s), (e: unknown) => e instanceof NotOnCurveError && e.index === 5, 'off curve');
      assert.throws(() => curve.g1.msmSync([...pts.slice(0, 7), { x: curve.params.p, y: 1n }], s), (e: unknown) => e instanceof PointEncodingError && e.index === 7, 'x ≥ p');
      assert.throws(() => curve.g1.msmSync(pts, [...s.slice(0, 2), 3 as unknown as bigint, ...s.slice(3)]), (e: unknown) => e instanceof ScalarEncodingError && e.index === 2, 'bad scalar');
      const enc = new Uint8Array(curve.g1.toBytes(pts[0]).length * 8);
      const size = enc.length / 8;
      pts.forEach((P, i) => enc.set(curve.g1.toBytes(P), size * i));
      enc[size * 4 + 3] ^= 0x01; // corrupt point 4: off curve or malformed, never silently accepted
      assert.throws(() => curve.g1.msmSync(enc, new Uint8Array(32 * 8)), (e: unknown) => (e instanceof NotOnCurveError || e instanceof PointEncodingError) && (e as NotOnCurveError).index === 4, 'corrupted bytes');
      assert.deepEqual(curve.g1.msmSync([], []), { x: 0n, y: 0n, infinity: true }, 'n = 0');
      if (curve.params.h1 !== 1n) {
        // a curve point outside G1: rejected by 'full' with its index
        let x = 3n;
        let y: bigint | undefined;
        for (;; x++) {
          y = ref.Fp.sqrt(ref.Fp.add(ref.Fp.mul(ref.Fp.sqr(x), x), ref.b));
          if (y !== undefined && !ref.isInSubgroup({ x, y })) break;
        }
        const off = pts.slice();
        off[2] = { x, y: y! };
        assert.throws(() => curve.g1.msmSync(off, s), (e: unknown) => e instanceof NotInSubgroupError && e.index === 2, 'not in subgroup');
      }
    });
  });
}
