/**
 * Prepared bases (issue #11): `g1.prepare(points)` then `msm`, `msmSync`, `msmBatch` over them, on
 * every curve. Oracles: the closed form Σ s_i·a_i·G for points with known logs (test/helpers) and
 * the plain `g1.msm` on the same inputs. Covered: every point format and objects, the adversarial
 * families, scalar prefixes (0, 1, n − 1, n), too many scalars, options that belong elsewhere, a bad
 * point at prepare (typed error with its index, nothing kept), dispose (then use → DisposedError;
 * while an MSM is queued), two prepared sets beside plain MSMs on 1 and 2 threads, msmBatch with
 * k = 1…8 including empty and duplicate sets, and the arena's pinned blocks (memory back to its
 * previous level after dispose, holes reused).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  DisposedError, InvalidOptionError, LengthMismatchError, NotInSubgroupError, NotOnCurveError, PointEncodingError,
  startThreads, stopThreads, type G1Affine, type G1PointInput, type PreparedBases,
} from '../src/index.js';
import { curveNames } from '../src/curves/index.js';
import { makeRng } from '../src/reference/rng.js';
import { Arena } from '../src/runtime/memory.js';
import { fixedBaseTableBytes } from '../src/msm/fixed-base.js';
import { fixture, withIndex, type CurveFixture, type Pt } from './helpers/msm-fixtures.js';
import { families } from './helpers/families.js';
import { encodePoints, scalarBytes } from './helpers/encodings.js';
import { longOnly } from './helpers/long.js';

before(async () => {
  for (const name of curveNames) await fixture(name).api.init();
});

const arenaUsed = (f: CurveFixture) => f.api.g1.inst.arena.used;
/** Packed scalars are unsigned: negative bigints go in reduced. */
const packed = (f: CurveFixture, s: readonly bigint[], endian?: 'be') => scalarBytes(s.map((v) => (v < 0n ? f.mod(v) : v)), endian);

describe('prepared = closed form = plain MSM: adversarial families and prefixes (n = 96), objects', () => {
  for (const name of curveNames) {
    it(name, async () => {
      const f = fixture(name);
      const rng = makeRng(1101);
      const before = arenaUsed(f);
      for (const [label, make] of families) {
        const n = 96;
        const { P, A, s } = make(f, n, rng);
        using bases = await prepared(f, P);
        assert.equal(bases.n, n);
        assert.ok(bases.bytes >= n * 2 * f.api.g1.inst.fields.fp.info.elementBytes);
        for (const m of [n, n - 1, 1, 0]) {
          const want = f.closed(A.slice(0, m), s.slice(0, m));
          f.check(bases.msmSync(s.slice(0, m)), want, `${label}: msmSync, prefix ${m}`);
          if (m === n || m === 1) f.check(f.api.g1.msmSync(P.slice(0, m), s.slice(0, m)), want, `${label}: plain, prefix ${m}`);
        }
        f.check(await bases.msm(packed(f, s)), f.closed(A, s), `${label}: msm, packed scalars`);
        f.check(bases.msmSync(s, { windowBits: 3 }), f.closed(A, s), `${label}: msmSync, c = 3`);
      }
      assert.equal(arenaUsed(f), before, 'every set released (using)');
    });
  }
});

describe('precompute: fixed-base tables at several budgets = closed form (families, prefixes, msmBatch, windowBits)', longOnly, () => {
  for (const name of curveNames) {
    it(name, async () => {
      const f = fixture(name);
      const rng = makeRng(1106);
      const before = arenaUsed(f);
      const n = 96;
      const PB = 2 * f.api.g1.inst.fields.fp.info.elementBytes;
      const budgets: [number, number | undefined][] = [[2 ** 30, undefined], [fixedBaseTableBytes(n, 16, PB), 16], [fixedBaseTableBytes(n, 11, PB), 11], [fixedBaseTableBytes(n, 16, PB) - 1, undefined]];
      for (const [maxBytes, c] of budgets) {
        for (const [label, make] of families) {
          const { P, A, s } = make(f, n, rng);
          using bases = await prepared(f, P, { precompute: { maxBytes } });
          const table = bases.precomputed;
          if (maxBytes < fixedBaseTableBytes(n, 16, PB)) assert.equal(table, undefined, 'no window fits');
          else {
            assert.ok(table && table.bytes <= maxBytes && (c === undefined || table.windowBits === c), `${label}: table ${JSON.stringify(table)}`);
            assert.equal(bases.bytes, table.bytes + Math.ceil((n * PB + n) / 16) * 16);
          }
          const what = `${label}, budget ${maxBytes} (c = ${table?.windowBits})`;
          for (const m of [n, 1, 0]) f.check(bases.msmSync(s.slice(0, m)), f.closed(A.slice(0, m), s.slice(0, m)), `${what}: prefix ${m}`);
          if (c === 16 || c === undefined) {
            f.check(await bases.msm(packed(f, s, 'be'), { scalarEndian: 'be' }), f.closed(A, s), `${what}: BE`);
            f.check(bases.msmSync(s, { windowBits: 4 }), f.closed(A, s), `${what}: windowBits 4 (without the table)`);
            const sets = [s, [], s.slice(0, 7), s];
            (await bases.msmBatch(sets)).forEach((g, j) => f.check(g, f.closed(A.slice(0, sets[j].length), sets[j]), `${what}: batch set ${j}`));
          }
        }
      }
      assert.equal(arenaUsed(f), before, 'tables released');
    });
  }
  it('a bad precompute option → InvalidOptionError', async () => {
    const f = fixture('pallas');
    for (const bad of [{ maxBytes: -1 }, { maxBytes: 1.5 }, { bytes: 10 }, { maxBytes: 10, extra: 1 }, 'yes', 7]) {
      await assert.rejects(f.api.g1.prepare(f.withLogs(3).pts, { precompute: bad } as never), (e) => e instanceof InvalidOptionError && e.option === 'precompute', JSON.stringify(bad));
    }
  });
});

/** prepare, with `using` support checked (Symbol.dispose exists on Node ≥ 20.4). */
async function prepared(f: CurveFixture, P: readonly Pt[], options?: Record<string, unknown>): Promise<PreparedBases & Disposable> {
  const bases = await f.api.g1.prepare(P as G1PointInput[], options);
  assert.equal(typeof (bases as unknown as Disposable)[Symbol.dispose], 'function');
  return bases as PreparedBases & Disposable;
}
interface Disposable {
  [Symbol.dispose](): void;
}

describe('every point format (explicit and default), LE and BE scalars, n = 0, 1, 200', () => {
  for (const name of curveNames) {
    it(name, async () => {
      const f = fixture(name);
      const rng = makeRng(1102);
      for (const n of [0, 1, 200]) {
        const { pts, logs } = f.withLogs(n);
        const s = f.scalars(rng, n);
        const want = f.closed(logs, s);
        for (const format of f.formats) {
          const enc = encodePoints(f.p, format, pts);
          const options = [{ pointFormat: format }, ...(format === f.formats[0] || (f.isDefault(format) && n % 2 === 1) ? [undefined] : [])];
          for (const opt of options) {
            const bases = await f.api.g1.prepare(enc, opt);
            assert.equal(bases.n, n, `${format}: n`);
            f.check(bases.msmSync(scalarBytes(s)), want, `${format} ${opt ? '' : '(default) '}n = ${n}`);
            f.check(await bases.msm(scalarBytes(s, 'be'), { scalarEndian: 'be' }), want, `${format} BE, n = ${n}`);
            bases.dispose();
          }
        }
      }
    });
  }
});

describe('bad inputs and dispose', () => {
  it('too many scalars, options of prepare on msm and the reverse, bad point bytes length: typed errors', async () => {
    const f = fixture('bls12-381');
    const { pts } = f.withLogs(10);
    const bases = await f.api.g1.prepare(pts);
    assert.throws(() => bases.msmSync(Array(11).fill(1n)), (e) => e instanceof LengthMismatchError && /11 scalars for 10 prepared points/.test(e.message));
    await assert.rejects(bases.msm(new Uint8Array(11 * 32)), LengthMismatchError);
    await assert.rejects(bases.msmBatch([[1n], Array(11).fill(1n)]), withIndex(1, LengthMismatchError));
    await assert.rejects(bases.msm([1n], { validate: 'none' } as never), (e) => e instanceof InvalidOptionError && e.option === 'validate');
    await assert.rejects(bases.msm([1n], { pointFormat: 'zcash' } as never), (e) => e instanceof InvalidOptionError && e.option === 'pointFormat');
    await assert.rejects(f.api.g1.prepare(pts, { windowBits: 4 } as never), (e) => e instanceof InvalidOptionError && e.option === 'windowBits');
    await assert.rejects(f.api.g1.prepare(pts, { colour: 1 } as never), InvalidOptionError);
    await assert.rejects(f.api.g1.prepare(new Uint8Array(97)), LengthMismatchError);
    await assert.rejects(f.api.g1.prepare(new Uint8Array(100), { pointFormat: 'zcash-compressed' }), LengthMismatchError);
    await assert.rejects(f.api.g1.prepare('points' as never), PointEncodingError);
    // nothing is streamed over prepared bases: a memory budget or chunk size is refused, not ignored
    for (const option of ['maxMemoryBytes', 'chunkPoints'] as const) {
      const value = option === 'chunkPoints' ? 4 : 2 ** 24;
      await assert.rejects(bases.msm([1n], { [option]: value } as never), (e) => e instanceof InvalidOptionError && e.option === option, `msm ${option}`);
      assert.throws(() => bases.msmSync([1n], { [option]: value } as never), (e) => e instanceof InvalidOptionError && e.option === option, `msmSync ${option}`);
      await assert.rejects(f.api.g1.prepare(pts, { [option]: value } as never), (e) => e instanceof InvalidOptionError && e.option === option, `prepare ${option}`);
    }
    await assert.rejects(f.api.g1.prepare(pts, { onProgress: () => {} } as never), (e) => e instanceof InvalidOptionError && e.option === 'onProgress');
    f.check(bases.msmSync([3n]), f.ref.mulScalar(pts[0], 3n), 'still usable after the errors');
    bases.dispose();
  });

  it('onProgress on prepared MSMs: monotone, advancing during the MSM, ending at done === total (table and plain, msm, msmSync, msmBatch)', async () => {
    await startThreads(2);
    const f = fixture('bls12-381');
    // 2^14 points (300 with known logs, repeated): long enough on one thread for reports between the start and the end
    const n = 1 << 14;
    const known = f.withLogs(300);
    const pts = Array.from({ length: n }, (_, i) => known.pts[i % 300]);
    const logs = Array.from({ length: n }, (_, i) => known.logs[i % 300]);
    const rng = makeRng(5);
    const sets = [0, n, 1000].map((m) => Array.from({ length: m }, () => rng.nextBigint(255) % f.r));
    for (const precompute of [false, true]) {
      const bases = await f.api.g1.prepare(pts, { precompute });
      for (const [entry, run] of [
        ['msm', (o: object) => bases.msm(sets[1], o).then((r) => [r])],
        ['msmSync', (o: object) => Promise.resolve([bases.msmSync(sets[1], o)])],
        ['msmBatch', (o: object) => bases.msmBatch(sets, o)],
      ] as const) {
        const reports: { done: number; total: number; phase: string }[] = [];
        const got = await run({ threads: 1, onProgress: (p: { done: number; total: number; phase: string }) => reports.push({ ...p }) });
        const want = entry === 'msmBatch' ? sets : [sets[1]];
        got.forEach((r, j) => f.check(r, f.closed(logs.slice(0, want[j].length), want[j]), `${entry} result ${j}`));
        const last = reports.at(-1)!;
        assert.equal(last.phase, 'done', `${entry}: ends with done`);
        assert.equal(last.done, last.total);
        assert.ok(reports.every((p, i) => i === 0 || (p.done >= reports[i - 1].done && p.total === last.total)), `${entry}: monotone, fixed total`);
        assert.ok(reports.slice(0, -1).every((p) => p.phase === 'accumulate' && p.done < p.total));
        assert.ok(reports.some((p) => p.done > 0 && p.done < p.total), `${entry}, precompute ${precompute}: a report between start and end (${reports.length} reports)`);
      }
      bases.dispose();
    }
  });

  for (const name of curveNames) {
    it(`${name}: a bad point → its typed error and index, nothing kept (objects and bytes; n = 300 uses the batched subgroup check)`, async () => {
      const f = fixture(name);
      const { pts } = f.withLogs(300);
      const before = arenaUsed(f);
      const offCurve = { x: 5n, y: 7n };
      await assert.rejects(f.api.g1.prepare(pts.map((P, i) => (i === 237 ? offCurve : P))), withIndex(237, NotOnCurveError));
      assert.equal(arenaUsed(f), before, 'not on the curve: nothing kept');
      const enc = encodePoints(f.p, f.formats[0], pts);
      const size = enc.length / 300;
      enc.fill(0xff, 123 * size, 124 * size);
      await assert.rejects(f.api.g1.prepare(enc, { pointFormat: f.formats[0] }), withIndex(123, PointEncodingError, NotOnCurveError));
      assert.equal(arenaUsed(f), before, 'malformed: nothing kept');
      if (f.hasCofactor) {
        const outside = f.curvePoint(1000n, true);
        for (const at of [0, 211, 299]) {
          await assert.rejects(f.api.g1.prepare(pts.map((P, i) => (i === at ? outside : P))), withIndex(at, NotInSubgroupError));
        }
        const ok = await f.api.g1.prepare(pts.map((P, i) => (i === 211 ? outside : P)), { validate: 'on-curve' });
        ok.dispose();
        assert.equal(arenaUsed(f), before, 'outside the subgroup: nothing kept');
      }
    });
  }

  it('dispose then use → DisposedError (every entry); dispose is idempotent; dispose while an MSM is queued lets it finish', async () => {
    const f = fixture('bn254');
    const { pts, logs } = f.withLogs(40);
    const s = f.scalars(makeRng(1103), 40);
    const before = arenaUsed(f);
    const bases = await f.api.g1.prepare(pts);
    const queued = bases.msm(s);
    bases.dispose();
    assert.equal(bases.bytes, 0);
    f.check(await queued, f.closed(logs, s), 'the MSM queued before dispose');
    assert.equal(arenaUsed(f), before, 'freed after the queued MSM');
    assert.throws(() => bases.msmSync(s), (e) => e instanceof DisposedError && /disposed/.test(e.message));
    await assert.rejects(bases.msm(s), DisposedError);
    await assert.rejects(bases.msmBatch([s]), DisposedError);
    bases.dispose();
    assert.equal(arenaUsed(f), before);
  });
});

describe('msmBatch: k = 1…8 with empty, duplicate and prefix sets', () => {
  for (const name of curveNames) {
    it(name, async () => {
      const f = fixture(name);
      const rng = makeRng(1104);
      const n = 120;
      const { pts, logs } = f.withLogs(n);
      const bases = await f.api.g1.prepare(pts);
      const pool = [f.scalars(rng, n), [], f.scalars(rng, n).slice(0, 1), Array(n).fill(f.r - 1n), f.scalars(rng, n).slice(0, 77), Array(n).fill(0n)];
      for (let k = 1; k <= 8; k++) {
        const sets = Array.from({ length: k }, (_, j) => pool[(j * 5 + k) % pool.length]); // repeats sets from k = 7
        if (k === 3) sets[2] = sets[0]; // the same array twice
        const got = await bases.msmBatch(k % 2 ? sets : sets.map((s) => scalarBytes(s)), { windowBits: k === 4 ? 5 : undefined });
        assert.equal(got.length, k);
        got.forEach((g, j) => f.check(g, f.closed(logs.slice(0, sets[j].length), sets[j]), `k = ${k}, set ${j} (${sets[j].length} scalars)`));
      }
      assert.deepEqual(await bases.msmBatch([]), []);
      bases.dispose();
    });
  }
});

describe('two prepared sets beside plain MSMs, interleaved, on 1 and 2 threads', { timeout: 300_000 }, () => {
  before(async () => {
    const state = await startThreads(2);
    assert.equal(state.active, true, `threads start in Node (reason: ${state.reason})`);
  });
  after(() => stopThreads());
  for (const name of curveNames) {
    it(name, async () => {
      const f = fixture(name);
      const rng = makeRng(1105);
      const before = arenaUsed(f);
      const { pts, logs } = f.withLogs(600);
      const A = { pts: pts.slice(0, 300), logs: logs.slice(0, 300) };
      const B = { pts: pts.slice(300).reverse(), logs: logs.slice(300).reverse() };
      const [a, b] = await Promise.all([f.api.g1.prepare(A.pts), f.api.g1.prepare(encodePoints(f.p, f.formats[0], B.pts), { threads: 1, precompute: true })]);
      assert.ok(b.precomputed, 'b has a table');
      for (const threads of [1, 2]) {
        const sa = f.scalars(rng, 300);
        const sb = f.scalars(rng, 290);
        const calls: [Promise<G1Affine>, ReturnType<typeof f.closed>, string][] = [
          [a.msm(sa, { threads }), f.closed(A.logs, sa), 'a'],
          [f.api.g1.msm(B.pts.slice(0, 290), sb, { threads }), f.closed(B.logs.slice(0, 290), sb), 'plain b'],
          [b.msm(sb, { threads }), f.closed(B.logs.slice(0, 290), sb), 'b'],
          [b.msmBatch([sa, sb], { threads }).then((r) => r[1]), f.closed(B.logs.slice(0, 290), sb), 'b batch'],
          [f.api.g1.msm(A.pts, sa, { threads }), f.closed(A.logs, sa), 'plain a'],
        ];
        f.check(a.msmSync(sa.slice(0, 10)), f.closed(A.logs.slice(0, 10), sa.slice(0, 10)), 'a sync between async calls');
        for (const [got, want, what] of calls) f.check(await got, want, `${what}, ${threads} thread(s)`);
      }
      // dispose the lower set first: its block is a hole until b goes, then all returns
      a.dispose();
      const c = await f.api.g1.prepare(A.pts.slice(0, 100)); // fits in a's hole
      f.check(await c.msm(Array(100).fill(2n)), f.closed(A.logs.slice(0, 100), Array(100).fill(2n)), 'c in a’s hole');
      f.check(await b.msm([5n]), f.closed(B.logs.slice(0, 1), [5n]), 'b after a was disposed');
      b.dispose();
      c.dispose();
      assert.equal(arenaUsed(f), before, 'memory back to its previous level');
    });
  }
});

describe('Arena pinned blocks', () => {
  it('blocks below the per-call stack, first-fit holes, trimmed when the stack is empty', () => {
    const arena = new Arena(new WebAssembly.Memory({ initial: 1 }));
    arena.alloc(10);
    arena.keep();
    const base = arena.used;
    const p1 = arena.allocPinned(100);
    const p2 = arena.allocPinned(1000);
    assert.equal(p2 - p1, 112);
    const mark = arena.mark();
    const tmp = arena.alloc(64);
    assert.ok(tmp >= p2 + 1000);
    assert.throws(() => arena.allocPinned(5000), /per-call allocations are alive/);
    arena.freePinned(p2); // the stack is not empty: trimmed at the release
    assert.equal(arena.allocPinned(500), p2, 'a hole is reused while the stack is alive');
    arena.freePinned(p2);
    arena.release(mark);
    assert.equal(arena.mark(), p1 + 112, 'p2 trimmed at the release');
    assert.throws(() => arena.release(mark - 200), /bad mark/);
    arena.freePinned(p1);
    assert.equal(arena.used, base);
    assert.throws(() => arena.freePinned(p1), /not a live pinned block/);
  });
});
