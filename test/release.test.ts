/**
 * `curve.release()` (issue #24, item 2): memory back to the engine. In-process: calls already queued
 * finish with correct results (closed-form oracle), calls made after release() reject with
 * NotInitializedError, prepared bases are disposed (DisposedError, bytes 0), and after `init()` the
 * same `g1`/`g2` objects work again, on the calling thread and on the pool (whose workers that held
 * the memory were replaced), while another curve's job on the pool is not disturbed. In a child
 * process with `--expose-gc` (this file, run again with PIPPIN_RELEASE_CHILD=<threads>): a curve
 * that grew its memory by an MSM of 2^19 points keeps it after the MSM (Wasm memories only grow),
 * and after release() the WebAssembly.Memory is collected (a FinalizationRegistry fires, a WeakRef
 * clears) and the resident set size falls by at least half the Memory's size, on 1 and on 2 threads.
 * (`process.memoryUsage().arrayBuffers` does not count Wasm memories in Node 20–24, so the RSS is
 * the measure; arrayBuffers is reported beside it.)
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bls12_381, bn254, vesta, startThreads, stopThreads, threads, DisposedError, NotInitializedError } from '../src/index.js';
import type { G2Affine, PreparedBases } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { RefG2 } from '../src/reference/g2.js';
import { g2Params } from '../src/curves/index.js';
import { makeRng } from '../src/reference/rng.js';
import { fixture } from './helpers/msm-fixtures.js';

const CHILD = process.env.PIPPIN_RELEASE_CHILD;
const MiB = 2 ** 20;

/** What the child reports. */
interface ChildReport {
  threads: number;
  /** the Wasm memory's size after the big MSM */
  grown: number;
  finalized: boolean;
  cleared: boolean;
  rss: { start: number; held: number; released: number };
  arrayBuffers: { start: number; held: number; released: number };
  /** an MSM after init() again was right */
  again: boolean;
}

if (CHILD) await child(Number(CHILD));
else tests();

async function child(t: number): Promise<void> {
  if (t > 1) await startThreads(t);
  else stopThreads();
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  const settle = async () => {
    for (let i = 0; i < 4; i++) {
      gc();
      await pause();
    }
  };
  await bls12_381.init();
  let finalized = false;
  const registry = new FinalizationRegistry(() => (finalized = true));
  // in a function of its own, so that no local of this one holds the memory
  const ref = ((): WeakRef<WebAssembly.Memory> => {
    const memory = bls12_381.g1.inst.memory;
    registry.register(memory, 'memory');
    return new WeakRef(memory);
  })();
  // one MSM of 2^19 points at infinity: ≈ 100 MiB of Wasm memory in one piece (the default
  // maxMemoryBytes allows 256 MiB), fast (the points are compacted away); its inputs stay alive
  // to the end, so that the RSS differences are the Wasm memory's
  const n = 2 ** 19;
  const points = new Uint8Array(n * 96);
  for (let i = 0; i < n; i++) points[i * 96] = 0x40; // zcash: the infinity flag
  const scalars = new Uint8Array(n * 32);
  await settle();
  const start = process.memoryUsage();
  const r = await bls12_381.g1.msm(points, scalars, { threads: t });
  if (!r.infinity) throw new Error('the MSM of points at infinity is not infinity');
  const grown = bls12_381.g1.inst.memory.buffer.byteLength;
  await settle();
  const held = process.memoryUsage();
  await bls12_381.release();
  for (let i = 0; i < 100 && !finalized; i++) {
    gc();
    await pause();
  }
  await settle();
  const released = process.memoryUsage();
  const cleared = ref.deref() === undefined;
  await bls12_381.init();
  const G = bls12_381.params.G1;
  const sum = await bls12_381.g1.msm([G, G], [2n, 3n]);
  const want = new RefCurve(bls12_381.params).mulScalar(G, 5n)!;
  const report: ChildReport = {
    threads: t,
    grown,
    finalized,
    cleared,
    rss: { start: start.rss, held: held.rss, released: released.rss },
    arrayBuffers: { start: start.arrayBuffers, held: held.arrayBuffers, released: released.arrayBuffers },
    again: sum.x === want.x && sum.y === want.y,
  };
  void [registry, points, scalars]; // kept alive to here (the registry's callback is the observation)
  process.stdout.write(`${JSON.stringify(report)}\n`);
  stopThreads();
}

function tests(): void {
  const bls = fixture('bls12-381');
  const G2 = new RefG2(g2Params['bls12-381']);
  const g2Point = (P: { x: readonly bigint[]; y: readonly bigint[] }): G2Affine => ({ x: [P.x[0], P.x[1]], y: [P.y[0], P.y[1]], infinity: false });

  describe('curve.release()', () => {
    after(() => stopThreads());

    it('on a curve never initialized: resolves, and the curve initializes afterwards', async () => {
      await vesta.release();
      assert.throws(() => vesta.g1, (e) => e instanceof NotInitializedError && /must be awaited/.test(e.message));
      await vesta.init();
      const G = vesta.params.G1;
      const r = await vesta.g1.msm([G], [7n]);
      assert.ok(new RefCurve(vesta.params).eq({ x: r.x, y: r.y }, new RefCurve(vesta.params).mulScalar(G, 7n)));
      await vesta.release();
      assert.throws(() => vesta.g1, (e) => e instanceof NotInitializedError && /released/.test(e.message));
    });

    for (const t of [1, 2]) {
      it(`${t} thread${t > 1 ? 's' : ''}: queued calls finish, later ones and prepared bases fail typed, init() revives the same groups`, async () => {
        if (t > 1) await startThreads(t);
        else stopThreads();
        await bls12_381.init();
        const { g1, g2 } = bls12_381;
        const inst = g1.inst;
        const n = 300; // ≥ MIN_POINTS_FOR_THREADS: on the pool with 2 threads
        const { pts, logs } = bls.withLogs(n);
        const scalars = bls.scalars(makeRng(7 + t), n);
        const points = pts.map((P) => P ?? null);
        const want = bls.closed(logs, scalars);
        const bases = await g1.prepare(points);
        const g2Bases: PreparedBases<G2Affine> = await g2.prepare([g2Point(G2.G)]);
        assert.ok(bases.bytes > 0);

        // queued before release(): these run, with right results
        const queued = g1.msm(points, scalars);
        const queuedPrepared = bases.msm(scalars);
        const released = bls12_381.release();
        assert.equal(bls12_381.release(), released, 'a second release() while pending: the same promise');
        // after release(): in the queue behind it, then NotInitializedError / DisposedError
        const late = g1.msm(points, scalars);
        const latePrepared = bases.msm(scalars);
        bls.check(await queued, want, 'MSM queued before release()');
        bls.check(await queuedPrepared, want, 'prepared MSM queued before release()');
        await released;
        await assert.rejects(late, NotInitializedError);
        await assert.rejects(latePrepared, DisposedError);

        assert.equal(inst.released, true);
        assert.throws(() => inst.memory, NotInitializedError, 'the released instance holds no memory');
        for (const get of [() => bls12_381.g1, () => bls12_381.g2, () => bls12_381.info()]) {
          assert.throws(get, (e) => e instanceof NotInitializedError && /released/.test(e.message));
        }
        // group objects taken before: typed errors (async ones reject, never throw)
        const pending = g1.msm(points, scalars);
        assert.ok(pending instanceof Promise);
        await assert.rejects(pending, NotInitializedError);
        await assert.rejects(g2.msm([g2Point(G2.G)], [1n]), NotInitializedError);
        assert.throws(() => g1.msmSync(points, scalars), NotInitializedError);
        assert.throws(() => g1.toBytes({ ...bls.G, infinity: false }), NotInitializedError);
        // prepared bases: disposed
        assert.equal(bases.bytes, 0);
        assert.equal(g2Bases.bytes, 0);
        assert.throws(() => bases.msmSync(scalars), DisposedError);
        await assert.rejects(bases.msmBatch([scalars]), DisposedError);
        await assert.rejects(g2Bases.msm([1n]), DisposedError);
        bases.dispose();
        bases.dispose();
        g2Bases.dispose();
        await bls12_381.release(); // nothing left to release

        // init() again: the same group objects, a fresh instance
        await bls12_381.init();
        assert.equal(bls12_381.g1, g1);
        assert.equal(bls12_381.g2, g2);
        assert.notEqual(g1.inst, inst);
        assert.equal(g1.inst.arena.pinnedBytes, 0);
        bls.check(await g1.msm(points, scalars), want, 'MSM after init() again');
        bls.check(g1.msmSync(points, scalars), want, 'msmSync after init() again');
        const again = await g1.prepare(points);
        bls.check(await again.msm(scalars), want, 'prepared MSM after init() again');
        again.dispose();
        const r2 = await g2.msm([g2Point(G2.G), g2Point(G2.G)], [5n, 6n]);
        assert.ok(G2.eq({ x: r2.x, y: r2.y }, G2.mulScalar(G2.G, 11n)), 'G2 after init() again');
        assert.equal(threads.active, t > 1);
      });
    }

    it('init() while release() is pending waits for it; a job of another curve on the pool is not disturbed', async () => {
      await startThreads(2);
      await Promise.all([bls12_381.init(), bn254.init()]);
      const bn = fixture('bn254');
      const n = 2048;
      const { pts, logs } = bn.withLogs(n);
      const scalars = bn.scalars(makeRng(3), n);
      const other = bn254.g1.msm(pts.map((P) => P ?? null), scalars); // on the pool while bls12-381 is released
      const { pts: bpts, logs: blogs } = bls.withLogs(300);
      const bscalars = bls.scalars(makeRng(4), 300);
      const busy = bls12_381.g1.msm(bpts.map((P) => P ?? null), bscalars);
      const released = bls12_381.release();
      const reinit = bls12_381.init();
      await released;
      await reinit;
      bls.check(await busy, bls.closed(blogs, bscalars), 'queued before release()');
      bn.check(await other, bn.closed(logs, scalars), 'another curve\'s MSM during the release');
      bls.check(await bls12_381.g1.msm(bpts.map((P) => P ?? null), bscalars), bls.closed(blogs, bscalars), 'after init() during release()');
    });
  });

  describe('memory back to the engine (child process, --expose-gc)', () => {
    const self = fileURLToPath(import.meta.url);
    const reports: ChildReport[] = [];
    before(() => stopThreads());
    for (const t of [1, 2]) {
      it(`${t} thread${t > 1 ? 's' : ''}: the Wasm memory is collected and the RSS falls back`, () => {
        const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self], {
          env: { ...process.env, PIPPIN_RELEASE_CHILD: String(t) },
          encoding: 'utf8',
          timeout: 180_000,
        });
        assert.equal(run.status, 0, `child failed: ${run.stderr}`);
        const report = JSON.parse(run.stdout.trim().split('\n').pop()!) as ChildReport;
        reports.push(report);
        const mib = (b: number) => `${(b / MiB).toFixed(0)} MiB`;
        const { rss } = report;
        const note = `memory ${mib(report.grown)}; rss ${mib(rss.start)} → ${mib(rss.held)} (after the MSM) → ${mib(rss.released)} (after release)`;
        assert.ok(report.grown >= 64 * MiB, `the MSM grew the memory to ${mib(report.grown)}`);
        // the control: the MSM's memory stays resident after it ended
        assert.ok(rss.held - rss.start >= report.grown / 2, `memory held after the MSM: ${note}`);
        assert.ok(report.finalized && report.cleared, `WebAssembly.Memory collected after release(): ${note}`);
        // the measure: release() gives the Memory's resident pages back (77–86 MiB of 99–110 here;
        // 3–6 MiB with the Memory kept alive). Compared with the RSS just before release(), not with
        // the start: V8 and malloc keep up to 40 MiB more of the call's transient memory resident in
        // some runs (Node 20 and 22).
        assert.ok(rss.held - rss.released >= report.grown / 2, `RSS back down after release(): ${note}`);
        assert.ok(report.again, 'an MSM after init() again is right');
      });
    }
    after(() => {
      for (const r of reports) console.log(`# release, ${r.threads} thread(s): ${JSON.stringify(r)}`);
    });
  });
}
