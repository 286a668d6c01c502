/**
 * The memory ledger (issue #24, item 5): on every curve of the registry and each of its groups (G2
 * where the registry has one), after any sequence of calls — that succeed (plain, synchronous,
 * streamed, prepared, batched, with a fixed-base table), fail on bad input (malformed, off the
 * curve, outside the subgroup, length and option errors, in one piece, streamed and in prepare),
 * are aborted (before, during, queued; calling thread and pool) or dispose prepared bases (idle or
 * with an MSM pending) — the arena is back at its starting mark with no pinned block left, and the
 * Wasm memory is at most what the largest maxMemoryBytes used allows. Every call passes
 * maxMemoryBytes: LIMIT (prepared bases and their tables fit in it too). Successful results are
 * checked against the closed form: the points are i·G, so Σ s_i·P_i = (Σ i·s_i mod r)·G.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { curves, startThreads, stopThreads, PippinError, InvalidOptionError, LengthMismatchError, NotInSubgroupError } from '../src/index.js';
import type { Curve } from '../src/index.js';
import { curveNames, g2Params, type CurveName, type G2CurveName } from '../src/curves/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { RefG2 } from '../src/reference/g2.js';
import { makeRng } from '../src/reference/rng.js';
import { groupsOf } from './helpers/registry.js';
import { outsideSubgroup } from './helpers/outside-subgroup.js';

/** maxMemoryBytes of every call: the bound the memory must stay within. */
const LIMIT = 16 * 2 ** 20;
/** Points per call: from MIN_POINTS_FOR_THREADS (256, the pool) and past the batched subgroup checks' thresholds (162, 256). */
const N = 300;

type Pt = unknown;
/** The public group object, loosely typed (G1 and G2 alike). */
interface AnyGroup {
  inst: { arena: { mark(): number; used: number; pinnedBytes: number }; memory: WebAssembly.Memory };
  msm(points: unknown, scalars: unknown, options?: Record<string, unknown>): Promise<{ infinity: boolean }>;
  msmSync(points: unknown, scalars: unknown, options?: Record<string, unknown>): { infinity: boolean };
  prepare(points: unknown, options?: Record<string, unknown>): Promise<{
    msm(s: unknown, o?: Record<string, unknown>): Promise<{ infinity: boolean }>;
    msmSync(s: unknown, o?: Record<string, unknown>): { infinity: boolean };
    msmBatch(sets: unknown[], o?: Record<string, unknown>): Promise<{ infinity: boolean }[]>;
    dispose(): void;
    bytes: number;
  }>;
  toBytes(point: unknown, format?: string): Uint8Array;
  pointFormats: readonly { name: string; bytes: number }[];
}

/** One group of one curve: the API, points i·G (i = 1…N) as objects and bytes, and the oracle. */
function setup(curve: Curve<string>, name: CurveName, group: 'g1' | 'g2') {
  const api = curve[group] as unknown as AnyGroup;
  const r = curve.params.r;
  let objects: Pt[];
  let expect: (s: readonly bigint[]) => (got: unknown) => boolean;
  if (group === 'g1') {
    const ref = new RefCurve(curve.params);
    const pts = [ref.G];
    for (let i = 1; i < N; i++) pts.push(ref.add(pts[i - 1], ref.G)!);
    objects = pts;
    expect = (s) => {
      const want = ref.mulScalar(ref.G, s.reduce((acc, si, i) => (acc + si * BigInt(i + 1)) % r, 0n));
      return (got) => ref.eq((got as { infinity: boolean }).infinity ? null : (got as { x: bigint; y: bigint }), want);
    };
  } else {
    const ref = new RefG2(g2Params[name as G2CurveName]);
    const pts = [ref.G];
    for (let i = 1; i < N; i++) pts.push(ref.add(pts[i - 1], ref.G)!);
    objects = pts.map((P) => ({ x: [P!.x[0], P!.x[1]], y: [P!.y[0], P!.y[1]] }));
    expect = (s) => {
      const want = ref.mulScalar(ref.G, s.reduce((acc, si, i) => (acc + si * BigInt(i + 1)) % r, 0n));
      return (got) => ref.eq((got as { infinity: boolean }).infinity ? null : (got as { x: [bigint, bigint]; y: [bigint, bigint] }), want);
    };
  }
  const B = api.pointFormats[0].bytes;
  const bytes = new Uint8Array(N * B);
  objects.forEach((P, i) => bytes.set(api.toBytes(P), i * B));
  return { api, objects, bytes, B, expect, outside: outsideSubgroup(curve, group) };
}

describe('memory ledger: every curve and group, after calls that succeed, fail, are aborted or dispose', () => {
  before(() => startThreads(2));
  after(() => stopThreads());

  for (const name of curveNames) {
    for (const group of groupsOf(name)) {
      it(`${name} ${group}`, async () => {
        const curve = curves[name] as Curve<string>;
        await curve.init();
        const { api, objects, bytes, B, expect, outside } = setup(curve, name, group);
        const { arena, memory } = api.inst;
        const start = arena.mark();
        const startUsed = arena.used;
        const rng = makeRng(24);
        const s = Array.from({ length: N }, () => rng.nextBigint(256) % curve.params.r);
        const right = expect(s);
        const opts = { maxMemoryBytes: LIMIT };
        // iterables of unknown length are planned for the longest chunk: a small window keeps them within LIMIT
        const streamed = { ...opts, windowBits: 8 };
        const pageUp = (b: number) => Math.ceil(b / 65536) * 65536;
        const steps: string[] = [];
        const ledger = (step: string) => {
          steps.push(step);
          assert.equal(arena.mark(), start, `${name} ${group}: arena mark after ${step}`);
          assert.equal(arena.used, startUsed, `${name} ${group}: arena in use after ${step}`);
          assert.equal(arena.pinnedBytes, 0, `${name} ${group}: pinned bytes after ${step}`);
          assert.ok(memory.buffer.byteLength <= pageUp(LIMIT), `${name} ${group}: ${memory.buffer.byteLength} bytes of Wasm memory after ${step} (maxMemoryBytes ${LIMIT})`);
        };
        const typed = (e: unknown) => e instanceof PippinError;
        const bad = (i: number, kind: 'ff' | 'flip') => {
          const b = bytes.slice();
          if (kind === 'ff') b.fill(0xff, i * B, (i + 1) * B);
          else b[i * B + B - 1] ^= 1;
          return b;
        };
        const chunks = function* (b: Uint8Array, size: number) {
          for (let i = 0; i < b.length; i += size * B) yield b.subarray(i, Math.min(b.length, i + size * B));
        };

        ledger('init');
        // succeed
        assert.ok(right(await api.msm(bytes, s, opts)), 'msm, bytes, pool');
        assert.ok(right(await api.msm(objects, s, { ...opts, threads: 1 })), 'msm, objects, calling thread');
        assert.ok(right(api.msmSync(bytes, s, opts)), 'msmSync');
        assert.ok(right(await api.msm(chunks(bytes, 64), s, streamed)), 'msm, streamed');
        // an explicit chunkPoints far above n: the workspace is sized by the points, or the option refused (#24 item 1)
        assert.ok(right(await api.msm(bytes, s, { ...opts, chunkPoints: 2 ** 20 })), 'msm, chunkPoints 2^20');
        assert.ok(right(api.msmSync(bytes, s, { ...opts, chunkPoints: 2 ** 20 })), 'msmSync, chunkPoints 2^20');
        await assert.rejects(api.msm(chunks(bytes, 64), s, { ...streamed, chunkPoints: 2 ** 20 }), InvalidOptionError);
        ledger('successful calls');
        // fail on bad input
        for (const kind of ['ff', 'flip'] as const) {
          await assert.rejects(api.msm(bad(170, kind), s, opts), typed);
          await assert.rejects(api.msm(bad(170, kind), s, { ...opts, threads: 1 }), typed);
          assert.throws(() => api.msmSync(bad(170, kind), s, opts), typed);
          await assert.rejects(api.msm(chunks(bad(170, kind), 64), s, streamed), typed);
        }
        if (outside) {
          const b = bytes.slice();
          b.set(outside, 200 * B);
          await assert.rejects(api.msm(b, s, opts), NotInSubgroupError);
          await assert.rejects(api.msm(chunks(b, 50), s, streamed), NotInSubgroupError);
        }
        await assert.rejects(api.msm(bytes, s.slice(1), opts), LengthMismatchError);
        await assert.rejects(api.msm(bytes, s, { ...opts, windowBits: 99 }), InvalidOptionError);
        await assert.rejects(api.msm(bytes, s, { maxMemoryBytes: 4096 }), InvalidOptionError);
        assert.throws(() => api.toBytes(group === 'g1' ? { x: 1n, y: 1n } : { x: [1n, 0n], y: [1n, 0n] }), typed);
        ledger('calls failing on bad input');
        // aborted: before, during (at the first progress report: after the first allocations), while queued, streamed
        for (const threads of [1, 2]) {
          const pre = new AbortController();
          pre.abort();
          await assert.rejects(api.msm(bytes, s, { ...opts, threads, signal: pre.signal }));
          const during = new AbortController();
          await assert.rejects(api.msm(bytes, s, { ...opts, threads, signal: during.signal, onProgress: () => during.abort() }));
          const queued = new AbortController();
          const first = api.msm(bytes, s, { ...opts, threads });
          const second = api.msm(bytes, s, { ...opts, threads, signal: queued.signal });
          queued.abort();
          assert.ok(right(await first));
          await assert.rejects(second);
          const midStream = new AbortController();
          const abortingChunks = function* () {
            let k = 0;
            for (const c of chunks(bytes, 64)) {
              if (k++ === 2) midStream.abort();
              yield c;
            }
          };
          await assert.rejects(api.msm(abortingChunks(), s, { ...streamed, threads, signal: midStream.signal }));
        }
        ledger('aborted calls');
        // prepared bases: used, then disposed (idle, and with an MSM pending); failing and aborted preparations
        const bases = await api.prepare(bytes);
        const table = await api.prepare(objects, { precompute: { maxBytes: 4 * 2 ** 20 } });
        assert.ok(right(await bases.msm(s)), 'prepared msm');
        assert.ok(right(bases.msmSync(s)), 'prepared msmSync');
        const [a, b2] = await table.msmBatch([s, s.slice(0, 10)]);
        assert.ok(right(a), 'prepared msmBatch with a table');
        assert.ok(expect(s.slice(0, 10))(b2), 'prepared msmBatch, a prefix');
        await assert.rejects(bases.msm(s.concat([1n])), LengthMismatchError);
        const aborted = new AbortController();
        const abortedMsm = table.msm(s, { signal: aborted.signal, onProgress: () => aborted.abort() });
        await assert.rejects(abortedMsm);
        const pending = bases.msm(s);
        bases.dispose();
        table.dispose();
        assert.ok(right(await pending), 'prepared msm pending at dispose');
        await assert.rejects(api.prepare(bad(170, 'ff')), typed);
        if (outside) {
          const b = bytes.slice();
          b.set(outside, 200 * B);
          await assert.rejects(api.prepare(b), NotInSubgroupError);
        }
        const cancel = new AbortController();
        const preparing = api.prepare(bytes, { signal: cancel.signal, precompute: { maxBytes: 4 * 2 ** 20 } });
        setImmediate(() => cancel.abort());
        await preparing.then((p) => p.dispose(), () => undefined); // aborted, or done before the abort: disposed
        ledger('prepared bases disposed');
        // and the group still works
        assert.ok(right(await api.msm(bytes, s, opts)), 'msm after the sequence');
        ledger('a last MSM');
      });
    }
  }
});
