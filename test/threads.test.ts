/**
 * Threads (issue #4): the MSM on the worker pool against the closed-form oracle (points with known
 * discrete logs: Σ s_i·P_i = (Σ s_i·a_i mod r)·G, one bigint scalar multiplication), on every curve
 * and the adversarial families; tiles cut into ranges; the window-independent carry rule against
 * the sequential recoding; errors from parallel decoding name the lowest bad index; a worker that
 * throws or dies rejects the MSM with WorkerError and the pool recovers; concurrent calls; the
 * fallback without SharedArrayBuffer; a Node process with a started pool still exits by itself.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  bls12_381, bn254, curves as curveApis, startThreads, stopThreads, threads,
  NotInSubgroupError, NotOnCurveError, PointEncodingError, WorkerError,
} from '../src/index.js';
import type { G1Affine } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { makeRng } from '../src/reference/rng.js';
import { pointsWithLogs } from './helpers/known-logs.js';
import { curveNames, registry } from './helpers/registry.js';
import { carryInRule, carryIntoWindow } from '../src/abi/layout.js';
import { narrowFor, planTiles, windowAt, windowJob, windowsFor } from '../src/msm/plan.js';
import { WorkerPool, defaultWorker, type PoolWorker } from '../src/runtime/pool.js';
import type { Op } from '../src/runtime/interpreter.js';
import { runOnPool } from '../src/runtime/executor.js';
import { instantiateGenerated } from '../src/runtime/instance.js';
import * as bn254Module from '../src/wasm-generated/bn254.js';
import { allocInputs, msmProgram } from '../src/msm/program.js';
import { groupContext } from '../src/msm/group.js';
import { expectedLog, randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';

type Pt = { x: bigint; y: bigint } | null;
interface CurveApi {
  name: string;
  params: { r: bigint; p: bigint; G1: { x: bigint; y: bigint }; lambda: bigint };
  init(): Promise<void>;
  g1: {
    msm(points: Uint8Array | readonly Pt[], scalars: Uint8Array | readonly bigint[], options?: Record<string, unknown>): Promise<G1Affine>;
    msmSync(points: Uint8Array | readonly Pt[], scalars: Uint8Array | readonly bigint[], options?: Record<string, unknown>): G1Affine;
    toBytes(point: Pt, format?: string): Uint8Array;
    inst: import('../src/runtime/instance.js').Instance;
    formatSpec(): { name: string; code: number; bytes: number };
  };
}
/** every curve of the registry */
const curves = curveNames.map((name) => curveApis[name]) as unknown as CurveApi[];
/** one curve with a cofactor and one without (the decode and subgroup paths differ), read off the registry */
const cofactorPair = [curveNames.find((n) => registry[n].params.h1 !== 1n)!, curveNames.find((n) => registry[n].params.h1 === 1n)!].map((n) => curveApis[n]) as unknown as CurveApi[];
const root = fileURLToPath(new URL('..', import.meta.url));

/** Oracle helpers for one curve: points with known logs, the closed-form expected sum. */
function oracle(curve: CurveApi) {
  const ref = new RefCurve(curve.params as never);
  const { r, G1: G } = curve.params;
  const mod = (x: bigint) => ((x % r) + r) % r;
  const withLogs = (n: number, seed: number) => pointsWithLogs(ref, G, r, n, seed);
  const expect = (logs: bigint[], s: bigint[]) => ref.mulScalar(G, logs.reduce((acc, a, i) => mod(acc + a * mod(s[i])), 0n));
  const toPt = (res: G1Affine): Pt => (res.infinity ? null : { x: res.x, y: res.y });
  const check = (got: G1Affine, logs: bigint[], s: bigint[], what: string) => assert.ok(ref.eq(toPt(got), expect(logs, s)), `${curve.name}: ${what}`);
  return { ref, r, G, mod, withLogs, expect, check, toPt };
}

describe('carry rule and tile planning', () => {
  it('carryInRule equals the sequential signed-digit recoding for every window, c = 2…16', () => {
    const rng = makeRng(3);
    for (let c = 2; c <= 16; c++) {
      const K = windowsFor(c);
      const H = 1n << BigInt(c - 1);
      const cases = [0n, (1n << 127n) - 1n, H, H - 1n, H + 1n, ...Array.from({ length: 40 }, () => rng.nextBigint(127))];
      // halves made of windows equal to 2^(c−1) (carry iff the lower part carries) and runs of them
      let allHalf = 0n;
      for (let k = 0; k * c < 127; k++) allHalf |= H << BigInt(k * c);
      cases.push(allHalf & ((1n << 127n) - 1n), (allHalf + 1n) & ((1n << 127n) - 1n));
      for (const s of cases) {
        let carry = 0n;
        for (let k = 0; k < K; k++) {
          const { mask, threshold } = carryInRule(k * c, c);
          assert.equal((s & mask) > threshold ? 1n : 0n, carry, `c = ${c}, window ${k}, s = 0x${s.toString(16)}`);
          const digit = ((s >> BigInt(k * c)) & ((1n << BigInt(c)) - 1n)) + carry;
          carry = digit > H ? 1n : 0n;
        }
      }
    }
  });

  it('windows of two widths (narrowFor, windowAt): 128 bits where they can, each carry-in by carryIntoWindow, digits that rebuild the half', () => {
    const rng = makeRng(5);
    for (let c = 2; c <= 16; c++) {
      const plan = { c, narrow: narrowFor(c), segments: 16 };
      const K = windowsFor(c);
      const windows = Array.from({ length: K }, (_, w) => windowAt(plan, w));
      const bits = windows.reduce((sum, w) => sum + w.c, 0);
      assert.ok(bits >= 128, `c = ${c}: ${bits} bits`);
      if (K * (c - 1) <= 128) assert.equal(bits, 128, `c = ${c}: exactly 128 bits when widths c − 1 and c can make it`);
      windows.forEach((w, j) => {
        assert.equal(w.shift, windows.slice(0, j).reduce((sum, v) => sum + v.c, 0), `c = ${c}: window ${j} starts where the ones below end`);
        assert.ok(w.c === c || (w.c === c - 1 && j < plan.narrow), `c = ${c}: window ${j} is ${w.c} bits`);
        assert.equal(w.buckets, 2 ** (w.c - 1));
      });
      const cases = [0n, (1n << 127n) - 1n, ...Array.from({ length: 40 }, () => rng.nextBigint(127))];
      // every window at its half-range value (carry iff the lower part carries), and one above
      const allHalf = windows.reduce((acc, w) => acc | (1n << BigInt(w.shift + w.c - 1)), 0n) & ((1n << 127n) - 1n);
      cases.push(allHalf, (allHalf + 1n) & ((1n << 127n) - 1n));
      for (const s of cases) {
        let carry = 0n;
        let rebuilt = 0n;
        for (const [j, w] of windows.entries()) {
          const { mask, threshold } = carryIntoWindow(windows.slice(0, j).map((v) => v.c));
          assert.deepEqual(windowJob(plan, j), { shift: w.shift, c: w.c, carry: { mask, threshold } });
          assert.equal((s & mask) > threshold ? 1n : 0n, carry, `c = ${c}, window ${j}, s = 0x${s.toString(16)}`);
          let digit = ((s >> BigInt(w.shift)) & ((1n << BigInt(w.c)) - 1n)) + carry;
          carry = digit > BigInt(w.buckets) ? 1n : 0n;
          digit -= carry << BigInt(w.c);
          assert.ok(digit >= -BigInt(w.buckets) && digit <= BigInt(w.buckets), `c = ${c}, window ${j}: digit ${digit} within ±${w.buckets}`);
          rebuilt += digit << BigInt(w.shift);
        }
        assert.equal(carry, 0n, `c = ${c}: no carry out of the top window`);
        assert.equal(rebuilt, s, `c = ${c}: Σ digit·2^shift = s`);
      }
    }
  });

  it('planTiles covers every (window, half) once at even cuts; whole windows when they divide evenly, cut ones otherwise', () => {
    for (const [halves, K, L, slots, force] of [[2 ** 17, 10, 4096, 2], [2 ** 17, 10, 4096, 1], [5000, 4, 512, 8], [600, 16, 128, 2], [2 ** 19, 8, 32768, 3], [1000, 3, 16, 2, 7], [6, 2, 4, 2, 5]]) {
      const { ranges, tiles } = planTiles(halves, { windows: K, buckets: L }, slots, force);
      for (let w = 0; w < K; w++) {
        const parts = tiles.filter((t) => t.win === w).sort((a, b) => a.start - b.start);
        let at = 0;
        for (const t of parts) {
          assert.equal(t.start, at, `contiguous ranges (window ${w})`);
          assert.equal(t.start % 2, 0, `a tile starts at a point's first half (window ${w}, start ${t.start})`);
          at += t.count;
        }
        assert.equal(at, halves, `window ${w} covers all halves`);
      }
      if (slots === 1) assert.equal(ranges, 1, 'one thread: whole windows');
      if (K % slots === 0 && K >= slots && halves > 2 * L * slots) assert.equal(ranges, 1, `K = ${K} on ${slots} threads: whole windows`);
      if (K < slots) assert.ok(ranges > 1, `K = ${K} < ${slots} threads: windows are cut (got ${ranges})`);
    }
    // 9 windows on 2 threads: 8 whole (4 each), then the lowest cut in two, handed out last
    const { tiles } = planTiles(2 ** 17, { windows: 9, buckets: 16384 }, 2);
    assert.deepEqual(tiles.map((t) => [t.win, t.count]), [[8, 2 ** 17], [7, 2 ** 17], [6, 2 ** 17], [5, 2 ** 17], [4, 2 ** 17], [3, 2 ** 17], [2, 2 ** 17], [1, 2 ** 17], [0, 2 ** 16], [0, 2 ** 16]]);
    // 8 windows on 3 threads: 6 whole, the lowest 2 in thirds (cut at even halves)
    const three = planTiles(2 ** 19, { windows: 8, buckets: 32768 }, 3).tiles;
    assert.deepEqual(three.map((t) => t.win), [7, 6, 5, 4, 3, 2, 1, 1, 1, 0, 0, 0]);
  });
});

describe('MSM on the worker pool', { timeout: 300_000 }, () => {
  /** a pool of the tests' own (the kernel-task level); the public API uses the realm's pool */
  const testPool = new WorkerPool();
  before(async () => {
    await Promise.all(curves.map((c) => c.init()));
    const state = await startThreads(2);
    assert.equal(state.active, true, `threads start in Node (reason: ${state.reason})`);
    testPool.resize(2);
  });
  after(() => {
    stopThreads();
    testPool.resize(0);
  });

  for (const curve of curves) {
    it(`${curve.name}: random inputs and the adversarial families on 2 threads, bytes and objects`, async () => {
      const o = oracle(curve);
      const rng = makeRng(11);
      const n = 600;
      const base = o.withLogs(n, 21);
      const P = base.pts;
      const A = base.logs;
      const rand = () => Array.from({ length: n }, () => rng.nextBigint(256));
      const { r, mod, ref } = o;
      const fam: [string, Pt[], bigint[], bigint[]][] = [
        ['random', P, A, rand()],
        ['all-zero scalars', P, A, P.map(() => 0n)],
        ['scalars r − 1, r, r + 1, ≥ 2^255, negative', P, A, P.map((_, i) => [r - 1n, r, r + 1n, (1n << 256n) - 1n - BigInt(i), -BigInt(i + 1)][i % 5])],
        ['all-equal scalars', P, A, P.map(() => 0x1234567890abcdef1234567890abcdefn)],
        ['repeated point', P.map(() => P[0]), A.map(() => A[0]), rand()],
        ['P and −P, equal scalars', P.map((p, i) => (i % 2 ? ref.neg(P[i - 1]) : p)), A.map((a, i) => (i % 2 ? mod(-A[i - 1]) : a)), P.map((_, i) => BigInt(1000 + (i >> 1)))],
        ['P, P and −P', P.map((_, i) => (i % 3 === 2 ? ref.neg(P[0]) : P[0])), A.map((_, i) => (i % 3 === 2 ? mod(-A[0]) : A[0])), P.map(() => 5n)],
        ['infinity mixed in', P.map((p, i) => (i % 5 === 0 ? null : p)), A.map((a, i) => (i % 5 === 0 ? 0n : a)), rand()],
        ['all points at infinity', P.map(() => null), A.map(() => 0n), rand()],
        ['GLV edges λ − 1, λ, λ + 1', P, A, P.map((_, i) => curve.params.lambda + BigInt((i % 3) - 1))],
      ];
      for (const [name, pts, logs, s] of fam) {
        let used = 0;
        const got = await curve.g1.msm(pts, s, { onStats: (st: { threads: number }) => (used = st.threads) });
        o.check(got, logs, s, `${name} (objects)`);
        assert.equal(used, 2, `${name}: ran on 2 threads`);
      }
      // bytes in the curve's default format, with full validation (decoding runs on the workers)
      const bytes = new Uint8Array(n * curve.g1.formatSpec().bytes);
      P.forEach((p, i) => bytes.set(curve.g1.toBytes(p), i * curve.g1.formatSpec().bytes));
      const s = rand();
      o.check(await curve.g1.msm(bytes, s, { validate: 'full' }), A, s, 'bytes, full validation');
      // forced small windows: more windows than tiles per thread, c from 3 to 16
      for (const c of [3, 7, 16]) o.check(await curve.g1.msm(P, s, { windowBits: c }), A, s, `c = ${c}`);
    });
  }

  it('n = 0, 1 and sizes around the thread threshold give the closed form', async () => {
    const o = oracle(bls12_381 as unknown as CurveApi);
    const base = o.withLogs(300, 8);
    const rng = makeRng(9);
    assert.deepEqual(await bls12_381.g1.msm([], []), { x: 0n, y: 0n, infinity: true }, 'n = 0');
    for (const n of [1, 255, 256, 257, 300]) {
      const s = Array.from({ length: n }, () => rng.nextBigint(256));
      o.check(await bls12_381.g1.msm(base.pts.slice(0, n), s), base.logs.slice(0, n), s, `n = ${n}`);
    }
  });

  it('tiles cut into ranges of halves (1…5 per window, 1 and 2 threads) give the same sum', async () => {
    for (const curve of cofactorPair) {
      const inst = curve.g1.inst;
      const o = oracle(curve);
      const EB = inst.fields.fp.info.elementBytes;
      const rng = makeRng(31);
      const n = 1500;
      const spec = curve.g1.formatSpec();
      const gen = randomPoints(inst, n, rng, o.r, (a) => o.ref.mul(o.G, a)!, spec);
      const scalars = randomScalarBytes(n, rng);
      const want = o.ref.mulScalar(o.G, expectedLog(scalars, gen.logs, o.r));
      const ctx = { ...groupContext('g1', { inst, scratchBytes: {}, windowTable: [], cofactor: 1n }), packedBytes: undefined };
      for (const threads of [1, 2]) {
        for (const ranges of [1, 2, 3, 5]) {
          const mark = inst.arena.mark();
          const regions = allocInputs(ctx, n);
          const staging = inst.arena.alloc(gen.bytes.length);
          const scratch = inst.arena.alloc(64 * EB);
          new Uint8Array(inst.memory.buffer).set(gen.bytes, staging);
          assert.equal(inst.k.g1_decode_batch(regions.points, regions.inf, staging, n, spec.code, 1, scratch), -1, 'decode');
          new Uint8Array(inst.memory.buffer).set(scalars, regions.scalars);
          const { result, stats } = await runOnPool(inst, msmProgram(ctx, regions, n, { scalarsBigEndian: false, threads, ranges }), testPool, threads);
          inst.arena.release(mark);
          assert.equal(stats.tiles, stats.plan.windows * ranges, 'tile count');
          assert.ok(o.ref.eq(result, want), `${curve.name}: ${threads} thread(s), ${ranges} range(s) per window`);
        }
      }
    }
  });

  it('errors from parallel decoding and validation name the lowest bad index', async () => {
    const o = oracle(bls12_381 as unknown as CurveApi);
    const n = 2000;
    const base = o.withLogs(n, 4);
    const s = Array.from({ length: n }, (_, i) => BigInt(i + 1));
    const size = 96;
    const bytes = new Uint8Array(n * size);
    base.pts.forEach((p, i) => bytes.set(bls12_381.g1.toBytes(p), i * size));
    // off-curve points in two different chunks: the earlier index is reported
    const bad = bytes.slice();
    for (const i of [1700, 733]) bad[i * size + 95] ^= 1;
    await assert.rejects(bls12_381.g1.msm(bad, s), (e: unknown) => e instanceof NotOnCurveError && e.index === 733, 'lowest off-curve index');
    const bad2 = bytes.slice();
    bad2[1999 * size] |= 0x20; // sort flag on an uncompressed encoding: malformed
    await assert.rejects(bls12_381.g1.msm(bad2, s), (e: unknown) => e instanceof PointEncodingError && e.index === 1999, 'malformed, last point');
    // a point on the curve but outside G1 (x = 4 is on E(Fp) for BLS12-381? search one) among objects
    const ref = o.ref;
    let x = 1n;
    let off: Pt = null;
    while (!off) {
      x++;
      const y2 = (x ** 3n + 4n) % bls12_381.params.p;
      const y = sqrtMod(y2, bls12_381.params.p);
      if (y !== undefined && !ref.isInSubgroup({ x, y })) off = { x, y };
    }
    const objs = [...base.pts];
    objs[1234] = off;
    await assert.rejects(bls12_381.g1.msm(objs, s), (e: unknown) => e instanceof NotInSubgroupError && e.index === 1234, 'not in subgroup, objects');
    const objs2 = [...base.pts];
    objs2[600] = { x: 1n, y: 1n };
    objs2[1500] = { x: 1n, y: 1n };
    await assert.rejects(bls12_381.g1.msm(objs2, s), (e: unknown) => e instanceof NotOnCurveError && e.index === 600, 'not on curve, objects');
    // and the instance is fine afterwards
    o.check(await bls12_381.g1.msm(base.pts, s), base.logs, s, 'after errors');
  });

  it('a worker whose module load ends after its job ended (the other worker did all the tasks) serves later jobs', async () => {
    // each fresh instance is a module no worker has loaded: both workers load it for a job of two
    // tiny tasks, which the faster one often finishes alone; then every worker must serve the module
    const within = <T>(p: Promise<T>, what: string) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error(`hung: ${what}`)), 20_000)));
      return Promise.race([p, late]).finally(() => clearTimeout(timer));
    };
    for (let trial = 0; trial < 12; trial++) {
      const inst = await instantiateGenerated(bn254Module);
      const zero: Op[] = [['@zero', 2048, 16]];
      await within(testPool.run(inst, [() => zero, () => zero], 2, () => {}), `trial ${trial}: first job`);
      await within(testPool.run(inst, [() => zero], 1, () => {}), `trial ${trial}: worker 0 alone`);
      let used = 0;
      await within(testPool.run(inst, Array.from({ length: 8 }, () => () => zero), 2, () => used++), `trial ${trial}: both workers`);
      assert.equal(used, 8, 'all tasks done');
    }
  });

  it('concurrent MSMs on one curve and on two curves all give their own results', async () => {
    const a = oracle(bls12_381 as unknown as CurveApi);
    const b = oracle(bn254 as unknown as CurveApi);
    const ba = a.withLogs(700, 1);
    const bb = b.withLogs(700, 2);
    const rng = makeRng(5);
    const sc = () => Array.from({ length: 700 }, () => rng.nextBigint(255));
    const s1 = sc();
    const s2 = sc();
    const s3 = sc();
    const [r1, r2, r3] = await Promise.all([bls12_381.g1.msm(ba.pts, s1), bn254.g1.msm(bb.pts, s2), bls12_381.g1.msm(ba.pts, s3)]);
    a.check(r1, ba.logs, s1, 'concurrent 1');
    b.check(r2, bb.logs, s2, 'concurrent 2');
    a.check(r3, ba.logs, s3, 'concurrent 3');
  });

  it('a worker that traps rejects with WorkerError; one that dies (exit, or terminated mid-MSM) is replaced; later MSMs are right', async () => {
    const inst = bls12_381.g1.inst;
    // a kernel trap (an unknown format code reaches (unreachable)): the worker reports it and stays
    const trap: Op[] = [['g1_decode_batch', 4096, 4096, 4096, 1, 99, 0, 4096]];
    await assert.rejects(testPool.run(inst, [() => trap], 2, () => {}), (e: unknown) => e instanceof WorkerError && /unreachable/.test((e as Error).message), 'trap');
    // workers made by a factory the test controls: terminating one is a death the pool must survive
    const made: PoolWorker[] = [];
    let killOnRun = false;
    const createWorker = (): PoolWorker => {
      const w = defaultWorker();
      const post = w.postMessage.bind(w);
      w.postMessage = (m: unknown) => {
        post(m);
        if (killOnRun && (m as { t?: string }).t === 'run') {
          killOnRun = false;
          w.terminate();
        }
      };
      made.push(w);
      return w;
    };
    const deadPool = new WorkerPool(createWorker);
    deadPool.resize(2);
    killOnRun = true;
    const zero: Op[] = [['@zero', 2048, 16]];
    await assert.rejects(deadPool.run(inst, [() => zero, () => zero], 2, () => {}), (e: unknown) => e instanceof WorkerError && /died/.test((e as Error).message), 'exit');
    assert.equal(deadPool.size, 2, 'pool size kept');
    let ran = 0;
    await deadPool.run(inst, Array.from({ length: 6 }, () => () => zero), 2, () => ran++);
    assert.equal(ran, 6, 'the pool works after a death');
    deadPool.resize(0);
    // the same through the public API: threads made by createWorker, one terminated while the MSM runs
    await startThreads(2, { createWorker });
    const o = oracle(bls12_381 as unknown as CurveApi);
    const rng = makeRng(12);
    const n = 2 ** 14;
    const gen = randomPoints(inst, n, rng, o.r, (x) => o.ref.mul(o.G, x)!, bls12_381.g1.formatSpec());
    const scalars = randomScalarBytes(n, rng);
    const want = o.ref.mulScalar(o.G, expectedLog(scalars, gen.logs, o.r));
    killOnRun = true;
    await assert.rejects(bls12_381.g1.msm(gen.bytes, scalars, { validate: 'on-curve' }), (e: unknown) => e instanceof WorkerError && /died/.test((e as Error).message), 'terminated mid-MSM');
    // a worker that dies between jobs is replaced before the next one
    made[made.length - 1].terminate();
    await new Promise((res) => setTimeout(res, 50));
    for (let i = 0; i < 2; i++) {
      const got = await bls12_381.g1.msm(gen.bytes, scalars, { validate: 'on-curve' });
      assert.ok(o.ref.eq(o.toPt(got), want), `MSM after the failure, run ${i}`);
    }
    await startThreads(2, { createWorker: defaultWorker });
  });

  it('stopThreads: later MSMs run on the calling thread (and say so); startThreads again: on workers', async () => {
    const o = oracle(bn254 as unknown as CurveApi);
    const base = o.withLogs(400, 3);
    const s = base.pts.map((_, i) => BigInt(i * 7919 + 1));
    stopThreads();
    assert.equal(threads.active, false);
    assert.match(threads.reason ?? '', /stopped/);
    let used = 0;
    o.check(await bn254.g1.msm(base.pts, s, { onStats: (st: { threads: number }) => (used = st.threads) }), base.logs, s, 'stopped');
    assert.equal(used, 1, 'calling thread after stopThreads');
    // stopped while one MSM runs and another waits: the running job finishes on its workers, later
    // phases and the queued MSM run on the calling thread, and both are right (nothing rejects)
    await startThreads(2);
    const big = o.withLogs(3000, 6);
    const sBig = big.pts.map((_, i) => BigInt(i + 1));
    const running = [bn254.g1.msm(big.pts, sBig, { validate: 'full' }), bn254.g1.msm(big.pts, sBig)];
    await new Promise((res) => setTimeout(res, 5));
    stopThreads();
    for (const [i, p] of running.entries()) o.check(await p, big.logs, sBig, `MSM ${i} under way at stopThreads()`);
    // resized to one worker while an MSM runs: it keeps its workers and is right
    await startThreads(2);
    const resized = bn254.g1.msm(big.pts, sBig);
    await new Promise((res) => setTimeout(res, 5));
    await startThreads(1);
    o.check(await resized, big.logs, sBig, 'startThreads(1) during an MSM');
    o.check(await bn254.g1.msm(big.pts, sBig), big.logs, sBig, 'after a stop mid-MSM');
    await startThreads(2);
    assert.equal(threads.active, true);
    o.check(await bn254.g1.msm(base.pts, s, { onStats: (st: { threads: number }) => (used = st.threads) }), base.logs, s, 'restarted');
    assert.equal(used, 2, 'workers after startThreads');
    o.check(await bn254.g1.msm(base.pts, s, { threads: 1, onStats: (st: { threads: number }) => (used = st.threads) }), base.logs, s, 'threads: 1');
    assert.equal(used, 1, 'threads: 1 option');
  });
});

describe('environments', { timeout: 300_000 }, () => {
  const run = (code: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8', timeout: 120_000 });

  it('without SharedArrayBuffer: threads inactive with a reason, the MSM still right on the calling thread', () => {
    const out = run(`
      delete globalThis.SharedArrayBuffer;
      const { bn254, threads, startThreads } = await import('./src/index.ts');
      const { RefCurve } = await import('./src/reference/curve.ts');
      await bn254.init();
      const state = await startThreads(2);
      const G = bn254.params.G1, ref = new RefCurve(bn254.params);
      const pts = [], s = [];
      for (let i = 1; i <= 300; i++) { pts.push(ref.mul(G, BigInt(i))); s.push(BigInt(i)); }
      let used = 0;
      const got = await bn254.g1.msm(pts, s, { onStats: (st) => (used = st.threads) });
      const want = ref.mul(G, BigInt(300 * 301 * 601 / 6));
      console.log(JSON.stringify({ active: state.active, reason: threads.reason, used, ok: got.x === want.x && got.y === want.y, shared: bn254.g1.inst.shared }));
    `);
    assert.equal(out.status, 0, `child failed: ${out.stderr}`);
    const r = JSON.parse(out.stdout.trim().split('\n').pop()!);
    assert.equal(r.active, false, 'inactive');
    assert.match(r.reason, /SharedArrayBuffer/, 'reason names SharedArrayBuffer');
    assert.equal(r.used, 1, 'ran on the calling thread');
    assert.equal(r.shared, false, 'plain memory');
    assert.equal(r.ok, true, 'result = (Σ i²)·G');
  });

  it('a process that used the pool without stopThreads() exits by itself', () => {
    const t = performance.now();
    const out = run(`
      const { bls12_381, threads } = await import('./src/index.ts');
      const { RefCurve } = await import('./src/reference/curve.ts');
      await bls12_381.init();
      const ref = new RefCurve(bls12_381.params), G = bls12_381.params.G1;
      const pts = [], s = [];
      for (let i = 1; i <= 300; i++) { pts.push(ref.mul(G, BigInt(i))); s.push(1n); }
      const got = await bls12_381.g1.msm(pts, s);
      const want = ref.mul(G, 300n * 301n / 2n);
      console.log(JSON.stringify({ active: threads.active, ok: got.x === want.x && got.y === want.y }));
    `);
    assert.equal(out.status, 0, `child failed or timed out: ${out.stderr}`);
    const r = JSON.parse(out.stdout.trim().split('\n').pop()!);
    assert.equal(r.active, true, 'lazily started pool');
    assert.equal(r.ok, true, 'result');
    assert.ok(performance.now() - t < 110_000, 'exited before the timeout');
  });

  // idle workers no job has run on yet: the pool's fresh ones, and those release() put in place of the
  // workers that held the curve's memory
  it('a process whose pool has idle workers exits by itself: after startThreads(), after release()', () => {
    const out = run(`
      const { bls12_381, startThreads, threads } = await import('./src/index.ts');
      const { RefCurve } = await import('./src/reference/curve.ts');
      await startThreads(2);
      await bls12_381.init();
      const ref = new RefCurve(bls12_381.params), G = bls12_381.params.G1;
      const pts = [], s = [];
      for (let i = 1; i <= 300; i++) { pts.push(ref.mul(G, BigInt(i))); s.push(1n); }
      let used = 0;
      const got = await bls12_381.g1.msm(pts, s, { onStats: (st) => (used = st.threads) });
      const want = ref.mul(G, 300n * 301n / 2n);
      await bls12_381.release();
      console.log(JSON.stringify({ active: threads.active, used, ok: got.x === want.x && got.y === want.y }));
    `);
    assert.equal(out.status, 0, `child failed or timed out after release(): ${out.stderr}`);
    const r = JSON.parse(out.stdout.trim().split('\n').pop()!);
    assert.deepEqual(r, { active: true, used: 2, ok: true }, 'the MSM ran on the pool and was right');
    const fresh = run(`
      const { startThreads } = await import('./src/index.ts');
      const state = await startThreads(2);
      console.log(JSON.stringify({ active: state.active }));
    `);
    assert.equal(fresh.status, 0, `child failed or timed out after startThreads(): ${fresh.stderr}`);
    assert.equal(JSON.parse(fresh.stdout.trim().split('\n').pop()!).active, true, 'the pool started');
  });
});

/** Square root mod p (p ≡ 3 mod 4 for BLS12-381), or undefined. */
function sqrtMod(a: bigint, p: bigint): bigint | undefined {
  const pow = (b: bigint, e: bigint) => {
    let r = 1n;
    b %= p;
    for (; e > 0n; e >>= 1n, b = (b * b) % p) if (e & 1n) r = (r * b) % p;
    return r;
  };
  const y = pow(a, (p + 1n) / 4n);
  return (y * y) % p === a % p ? y : undefined;
}
