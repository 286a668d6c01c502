/**
 * The cross-engine checks (what test/engines/suite.ts runs in Node, Bun and Deno, and
 * test/engines/page.ts in the browsers): `runChecks(options)` runs them in order, logs one line per
 * check and resolves to a summary `{engine, version, backend, wideArithmetic, threads, pass, fail,
 * failures, ms}`. Every answer is checked against an independent oracle:
 * - backend: `init()` takes the backend asked for (or the engine's default), `info()` says so; where
 *   the engine validates wide arithmetic, the wide64 self-test (src/runtime/wide-selftest.ts) passes on
 *   every curve's shipped module with its native opcodes, through the public MSM as well;
 * - field kernels of the instance in use (Montgomery product, square, sum, difference, inverse) on
 *   carry-edge and random values, against BigInt arithmetic mod p (src/reference/field.ts);
 * - curve kernels: k·G (k ≤ 40, XYZZ small-scalar multiplication), P + P, P + (−P), against the
 *   bigint reference (src/reference/curve.ts);
 * - the MSM over the registry: G1 on every curve and G2 where built, random inputs with known logs
 *   (closed form Σ s_i·a_i·G, demo/msm-run.ts) at 2^0, 2^5, 2^8 (2 threads), and hand-picked edge
 *   inputs (infinity, P and −P, repeated points, scalars 0, 1, r − 1, r + 5 reduced);
 * - the pairing (BLS12-381, src/msm/pairing.ts on the instance in use): e(P, Q) against the bigint
 *   reference (src/reference/pairing.ts), a two-pair check that holds and a one-pair one that does not;
 * - point formats: every format of every group encodes k·G, the encoding goes back in as MSM input
 *   (scalar 1) and comes out as k·G; BLS12-381's compressed G1 generator is the zcash constant;
 * - threads: where expected (`expectThreads`, default true), `startThreads(2)` activates the pool
 *   and a 2-thread MSM runs on 2 threads and equals the 1-thread one; where not, the pool stays
 *   inactive with a reason matching `threadsReason`, and the MSMs fall back to one thread;
 * - `pippin/kzg` (given `kzg`: c-kzg's outputs from ./kzg-fixture.ts and ./kzg-check.ts; skipped
 *   otherwise): on one seeded random blob, the commitment, KZG proofs at a
 *   z outside and on the domain, the blob proof and the cells and cell proofs (FK20) on 1 thread and,
 *   with the pool, 2, byte for byte; a blob with an element ≥ r is a ScalarEncodingError with that
 *   element's index. ≈ 2.5 s (two loads and two FK20 table builds).
 * `time`: afterwards `benchMsm` (default: BLS12-381 G1 at 2^14 and 2^16, 1 and 2 threads, median of
 * 3, every run checked against the closed form), reported in `timing` and `bench`, never asserted;
 * `npm run bench:engines` (bench/engines.ts) collects these rows from every engine.
 */
import { curves, startThreads, stopThreads, threads, type Curve } from '../../src/index.js';
import { registry, curveNames, g2CurveNames } from '../../src/curves/index.js';
import { RefCurve } from '../../src/reference/curve.js';
import { RefField } from '../../src/reference/field.js';
import { RefG2 } from '../../src/reference/g2.js';
import { RefPairing } from '../../src/reference/pairing.js';
import { groupContextOf } from '../../src/api/group.js';
import type { G1AffineValue } from '../../src/msm/group.js';
import { Pairing } from '../../src/msm/pairing.js';
import { makeRng } from '../../src/reference/rng.js';
import { wideArithmeticSupported } from '../../src/runtime/wide-probe.js';
import { selfTestWide64 } from '../../src/runtime/wide-selftest.js';
import type { WideModule } from '../../src/runtime/instance.js';
import type { KzgExpected } from './kzg-check.js';
import { curveInfo, runMsm, useBackend, type CurveName } from '../../demo/msm-run.js';
import * as m381 from '../../src/wasm-generated/bls12_381.js';
import * as m254 from '../../src/wasm-generated/bn254.js';
import * as m377 from '../../src/wasm-generated/bls12_377.js';
import * as mPallas from '../../src/wasm-generated/pallas.js';
import * as mVesta from '../../src/wasm-generated/vesta.js';

const modules: Record<string, { wide64: WideModule }> = { 'bls12-381': m381, bn254: m254, 'bls12-377': m377, pallas: mPallas, vesta: mVesta };


export interface CheckOptions {
  /** the backend to ask `init()` for; default: the engine's choice */
  backend?: 'wide64' | 'i32';
  /** whether the worker pool must start here (default true) */
  expectThreads?: boolean;
  /** when threads are not expected: a pattern (RegExp source) `threads.reason` must match */
  threadsReason?: string;
  /** time verified BLS12-381 G1 MSMs afterwards (`true`: the defaults of `benchMsm`) */
  time?: boolean | BenchOptions;
  /** where the lines go (default console.log) */
  log?: (line: string) => void;
  /** engine name and version for the summary */
  engine: { engine: string; version: string; vm?: string };
  /**
   * the pippin/kzg check: c-kzg's outputs (./kzg-fixture.ts) and `checkKzg` of ./kzg-check.ts
   * (passed in: ./suite.ts imports it, ./page.ts loads it when asked); without it the check is skipped
   */
  kzg?: { expected: KzgExpected; check: (want: KzgExpected, twoThreads: boolean) => Promise<void> };
}


/** What a browser page takes (JSON); the KZG check's expected values it fetches itself (./page.ts). */
export type PageOptions = Omit<CheckOptions, 'engine' | 'log' | 'kzg'>;

export interface CheckSummary {
  engine: string;
  version: string;
  vm?: string;
  backend: string;
  wideArithmetic: boolean;
  threads: boolean;
  /** `threads.reason` when the pool did not start */
  threadsReason?: string;
  pass: number;
  fail: number;
  failures: string[];
  ms: number;
  timing?: Record<string, number>;
  /** the rows of `benchMsm` when `time` was asked for */
  bench?: BenchRow[];
}

export interface BenchOptions {
  /** log2 of the MSM sizes (default [14, 16]) */
  sizes?: number[];
  /** thread counts (default [1, 2]); counts above 1 are left out where the pool is inactive */
  threads?: number[];
  /** timed runs per size and thread count, after one untimed verified run (default 3) */
  runs?: number;
}

export interface BenchRow {
  backend: string;
  threads: number;
  logSize: number;
  /** median of the timed runs (the `g1.msm` call only), ms */
  medianMs: number;
  runsMs: number[];
  /** the untimed first run and every timed run equal the closed form (Σ s_i·a_i)·G */
  ok: boolean;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Times BLS12-381 G1 MSMs (`g1.msm`, validate 'on-curve', seeded inputs with known logs, demo/msm-run.ts)
 * on the backend the curve is initialised with (`useBackend`): per size and thread count one untimed
 * run checked against the closed form, then `runs` timed runs, each checked too; the median. Thread
 * counts above 1 need the pool (started here if SharedArrayBuffer allows); without it they are left
 * out. Cost: (runs + 1) MSMs per row, plus the input generation once per size (≈ n scalar mults).
 */
export async function benchMsm(options: BenchOptions = {}): Promise<BenchRow[]> {
  const { sizes = [14, 16], threads: counts = [1, 2], runs = 3 } = options;
  const backend = (await curveInfo('bls12-381')).backend;
  const rows: BenchRow[] = [];
  if (Math.max(...counts) > 1 && !threads.active) await startThreads(Math.max(...counts)).catch(() => undefined);
  for (const logSize of sizes) {
    for (const t of counts) {
      if (t > 1 && !(threads.active && threads.count >= t)) continue;
      const run = () => runMsm({ curve: 'bls12-381', logSize, seed: 16, threads: t, validate: 'on-curve' });
      const first = await run();
      let ok = first.ok && first.threadsUsed === t;
      const ms: number[] = [];
      for (let i = 0; i < runs; i++) {
        const r = await run();
        ok &&= r.ok && r.threadsUsed === t;
        ms.push(r.ms);
      }
      rows.push({ backend, threads: t, logSize, medianMs: Math.round(median(ms) * 10) / 10, runsMs: ms.map(Math.round), ok });
    }
  }
  return rows;
}

export async function runChecks(options: CheckOptions): Promise<CheckSummary> {
  const { backend: asked, expectThreads = true, threadsReason, log = (l: string) => console.log(l), engine } = options;
  let pass = 0;
  const failures: string[] = [];
  async function check(name: string, f: () => void | Promise<void>): Promise<void> {
    const t = performance.now();
    try {
      await f();
      pass++;
      log(`ok   ${name} (${(performance.now() - t).toFixed(0)} ms)`);
    } catch (e) {
      failures.push(name);
      log(`FAIL ${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }
  function eq<T>(got: T, want: T, what: string): void {
    const s = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `0x${x.toString(16)}` : x));
    if (s(got) !== s(want)) throw new Error(`${what}: got ${s(got)}, want ${s(want)}`);
  }
  function ok(cond: unknown, what: string): asserts cond {
    if (!cond) throw new Error(what);
  }

  const curveOf = (name: string) => (curves as Record<string, Curve<string>>)[name];
  const t0 = performance.now();
  useBackend(asked);
  const wide = wideArithmeticSupported();
  let chosen = '';

  await check(`backend: init(${asked ? `{ backend: '${asked}' }` : ''}) on every curve, info() agrees`, async () => {
    for (const name of curveNames) {
      const curve = curveOf(name);
      await curve.init(asked ? { backend: asked } : undefined);
      const info = curve.info();
      eq(info.wideArithmetic, wide, `${name} info().wideArithmetic`);
      eq(info.backend, asked ?? (wide ? 'wide64' : 'i32'), `${name} info().backend (reason: ${(info as { reason?: string }).reason})`);
      eq(info.limbBits === 64, info.backend === 'wide64', `${name} limb width ${info.limbBits}`);
      chosen = info.backend;
    }
  });

  if (wide) {
    await check('wide64 self-test passes on every curve with this engine’s native opcodes (kernels, and the public MSM when on wide64)', async () => {
      for (const name of curveNames) {
        const curve = curveOf(name);
        const onWide = curve.info().backend === 'wide64';
        const why = await selfTestWide64(modules[name].wide64, registry[name].params, onWide ? { instance: curve.g1.inst, msm: (_i, pts, s) => curve.g1.msm(pts, s, { threads: 1 }) } : {});
        eq(why, undefined, `${name} self-test`);
      }
    });
  }

  await check('field kernels (mul, sqr, add, sub, inv) of the instance in use = BigInt mod p, carry-edge and random values', () => {
    for (const name of curveNames) {
      const fp = curveOf(name).g1.inst.fields.fp;
      const { p } = fp.info;
      const ref = new RefField(p);
      const rng = makeRng(5);
      const vals = [0n, 1n, 2n, p - 1n, p - 2n, p >> 1n, (1n << 64n) - 1n, 1n << 64n, (1n << 128n) + 1n, (1n << BigInt(p.toString(2).length - 1)) - 1n];
      while (vals.length < 40) vals.push(ref.mod(rng.nextBigint(p.toString(2).length)));
      // released afterwards: a live per-call allocation would make a later prepare() (pinned) throw
      const arena = curveOf(name).g1.inst.arena;
      const mark = arena.mark();
      const [x, y, z] = [fp.alloc(), fp.alloc(), fp.alloc()];
      try {
        for (let i = 0; i < vals.length; i++) {
          const [a, b] = [vals[i], vals[(i * 7 + 3) % vals.length]];
          fp.write(x, a);
          fp.write(y, b);
          const run: [string, () => void, bigint][] = [
            ['mul', () => fp.op('mul')(z, x, y), ref.mul(a, b)],
            ['sqr', () => fp.op('sqr')(z, x), ref.sqr(a)],
            ['add', () => fp.op('add')(z, x, y), ref.add(a, b)],
            ['sub', () => fp.op('sub')(z, x, y), ref.sub(a, b)],
            ['inv', () => fp.op('inv')(z, x), a === 0n ? 0n : ref.inv(a)],
          ];
          for (const [op, f, want] of run) {
            f();
            eq(fp.read(z), want, `${name} fp_${op}(0x${a.toString(16)}, 0x${b.toString(16)})`);
          }
        }
      } finally {
        arena.release(mark);
      }
    }
  });

  await check('curve kernels: k·G (k ≤ 40), P + P, P + (−P), infinity = the bigint reference', () => {
    for (const name of curveNames) {
      const inst = curveOf(name).g1.inst;
      const fp = inst.fields.fp;
      const k = inst.k;
      const EB = fp.info.elementBytes;
      const ref = new RefCurve(registry[name].params);
      const mark = inst.arena.mark();
      try {
        const scratch = inst.arena.alloc(4096);
        const [G, acc, b, aff] = [inst.arena.alloc(2 * EB), inst.arena.alloc(4 * EB), inst.arena.alloc(4 * EB), inst.arena.alloc(2 * EB)];
        fp.write(G, ref.G.x);
        fp.write(G + EB, ref.G.y);
        const read = (ptr: number) => (k.g1_xyzz_to_affine(aff, ptr, scratch) !== 0 ? null : { x: fp.read(aff), y: fp.read(aff + EB) });
        let want = null as ReturnType<RefCurve['add']>;
        for (let m = 1; m <= 40; m++) {
          want = ref.add(want, ref.G);
          k.g1_xyzz_from_affine(acc, G);
          k.g1_xyzz_mul_small(acc, m, scratch);
          eq(read(acc), want, `${name} ${m}·G`);
        }
        // P + P (doubling through the general addition), P + (−P) = infinity, infinity + P = P
        k.g1_xyzz_from_affine(acc, G);
        k.g1_xyzz_mul_small(acc, 7, scratch);
        k.g1_xyzz_from_affine(b, G);
        k.g1_xyzz_mul_small(b, 7, scratch);
        k.g1_xyzz_add(acc, b, scratch);
        eq(read(acc), ref.mul(ref.G, 14n), `${name} 7·G + 7·G`);
        k.g1_xyzz_neg(b);
        k.g1_xyzz_add(acc, b, scratch);
        k.g1_xyzz_add(acc, b, scratch);
        eq(read(acc), null, `${name} 14·G − 7·G − 7·G`);
        k.g1_xyzz_add(acc, b, scratch);
        eq(read(acc), ref.neg(ref.mul(ref.G, 7n)), `${name} infinity + (−7·G)`);
      } finally {
        inst.arena.release(mark);
      }
    }
  });

  await check('pairing (BLS12-381, the backend in use): e(P, Q) = the bigint reference; e(aP, Q)·e(−P, aQ) = 1 (one G2 point prepared); e(P, Q) ≠ 1', () => {
    const desc = registry['bls12-381'];
    const ref = new RefPairing(desc.g2, desc.g2.pairing!);
    const g1 = new RefCurve(desc.params);
    const g2 = new RefG2(desc.g2);
    const pr = new Pairing(groupContextOf<G1AffineValue>(curveOf('bls12-381').g1), desc.g2.pairing!);
    const a = 0x1234567n;
    const P = g1.mul(desc.params.G1, 0xabcdefn)!, Q = g2.mul(g2.G, 0x7654321n)!;
    eq(ref.eq(pr.pairing(P, Q), ref.pairing(P, Q)), true, 'e(P, Q)');
    eq(pr.pairingCheck([[g1.mul(P, a), Q], [g1.neg(P), pr.prepareG2(g2.mul(Q, a))]]), true, 'e(aP, Q)·e(−P, aQ) = 1');
    eq(pr.pairingCheck([[P, Q]]), false, 'e(P, Q) ≠ 1');
  });

  await check(expectThreads ? 'threads: startThreads(2) activates the pool' : `threads: startThreads(2) leaves the pool inactive, threads.reason matches /${threadsReason ?? ''}/`, async () => {
    await startThreads(2);
    if (expectThreads) {
      ok(threads.active, `threads.active is false: ${threads.reason}`);
      eq(threads.count, 2, 'threads.count');
    } else {
      ok(!threads.active, 'threads.active is true where no threads were expected');
      ok(new RegExp(threadsReason ?? '').test(threads.reason ?? ''), `threads.reason ${JSON.stringify(threads.reason)} does not match /${threadsReason}/`);
    }
  });
  const threadsOn = threads.active;
  /** threads an MSM asking for n runs on: n with a pool, else the calling thread */
  const used = (n: number) => (threadsOn ? n : 1);

  const groups = (name: string) => (g2CurveNames as readonly string[]).includes(name) ? (['g1', 'g2'] as const) : (['g1'] as const);
  for (const name of curveNames) {
    for (const group of groups(name)) {
      await check(`${name} ${group} MSM, random inputs with known logs, 2^0, 2^5 (1 thread), 2^8 (2 threads) = closed form`, async () => {
        for (const [logSize, n] of [[0, 1], [5, 1], [8, 2]] as const) {
          const r = await runMsm({ curve: name as CurveName, group, logSize, seed: 7 + logSize, threads: n, validate: 'full' });
          ok(r.ok, `${name} ${group} 2^${logSize}: result ≠ closed form`);
          eq(r.threadsUsed, used(n), `${name} ${group} 2^${logSize}: threads used`);
        }
      });
    }
  }

  await check('G1 MSM edge inputs on every curve: infinity, P and −P, repeated points, scalars 0, 1, r − 1, ≥ r', async () => {
    for (const name of curveNames) {
      const curve = curveOf(name);
      const ref = new RefCurve(registry[name].params);
      const { r } = ref.params;
      const P = (m: bigint) => ref.mul(ref.G, m)!;
      const logs = [3n, 3n, r - 3n, 5n, 0n, 11n, 11n, 2n];
      const pts = logs.map((a) => (a === 0n ? { infinity: true as const } : { ...P(a) }));
      const scalars = [1n, r - 1n, 7n, 0n, 9n, 1n, 1n, r - 1n];
      const want = ref.mulScalar(ref.G, logs.reduce((acc, a, i) => (acc + a * scalars[i]) % r, 0n));
      for (const t of [1, 2]) {
        const got = await curve.g1.msm(pts, scalars, { threads: t, validate: 'full' });
        eq(got.infinity ? null : { x: got.x, y: got.y }, want, `${name} edge MSM on ${t} thread(s)`);
      }
      // everything cancels: P + (−P)
      const zero = await curve.g1.msm([P(9n), ref.neg(P(9n))!], [5n, 5n]);
      ok(zero.infinity, `${name}: 5·P + 5·(−P) is not infinity`);
    }
  });

  await check('point formats: every G1/G2 format round-trips k·G through the MSM; BLS12-381 G1 compressed generator = zcash constant', async () => {
    for (const name of curveNames) {
      const curve = curveOf(name);
      const ref = new RefCurve(registry[name].params);
      const P = ref.mul(ref.G, 1234567n)!;
      for (const f of curve.g1.pointFormats) {
        const bytes = curve.g1.toBytes({ x: P.x, y: P.y }, f.name);
        eq(bytes.length, f.bytes, `${name} g1 ${f.name} length`);
        const got = await curve.g1.msm(bytes, [1n], { pointFormat: f.name });
        eq({ x: got.x, y: got.y }, { x: P.x, y: P.y }, `${name} g1 ${f.name} round trip`);
      }
    }
    const hex = Array.from(curveOf('bls12-381').g1.toBytes(registry['bls12-381'].params.G1, 'zcash-compressed' as never), (b) => b.toString(16).padStart(2, '0')).join('');
    eq(hex, '97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb', 'BLS12-381 compressed G');
    for (const name of g2CurveNames) {
      const curve = curveOf(name);
      const r = await runMsm({ curve: name as CurveName, group: 'g2', logSize: 0, seed: 3, threads: 1 });
      ok(r.ok, `${name} g2 base point`);
      const g2 = curve.g2;
      const [x, y] = [r.x, r.y].map((s) => s.slice(1, -1).split(', ').map(BigInt) as [bigint, bigint]);
      for (const f of g2.pointFormats) {
        const bytes = g2.toBytes({ x, y }, f.name);
        eq(bytes.length, f.bytes, `${name} g2 ${f.name} length`);
        const got = await g2.msm(bytes, [1n], { pointFormat: f.name });
        eq({ x: got.x, y: got.y }, { x, y }, `${name} g2 ${f.name} round trip`);
      }
    }
  });

  await check(`threads: a 2-thread MSM (2^10, BLS12-381 G1) equals the 1-thread one, ran on ${used(2)} thread(s)`, async () => {
    const one = await runMsm({ curve: 'bls12-381', logSize: 10, seed: 42, threads: 1 });
    const two = await runMsm({ curve: 'bls12-381', logSize: 10, seed: 42, threads: 2 });
    ok(one.ok && two.ok, 'closed form');
    eq([two.x, two.y], [one.x, one.y], '2 threads = 1 thread');
    eq(two.threadsUsed, used(2), 'threads used');
  });

  if (!options.kzg) log('skip pippin/kzg = c-kzg: no expected values given (./kzg-fixture.ts, ./kzg-check.ts)');
  else {
    const { expected: want, check: checkKzg } = options.kzg;
    await check(`pippin/kzg = c-kzg ${want.cKzg} (seeded blob ${want.seed}): commitment, KZG proofs (z outside, on the domain), blob proof, cells and proofs on 1 thread${threadsOn ? ' and on 2' : ''}, recovery; element ≥ r → ScalarEncodingError; the four verifiers' outcomes (${Object.keys(want.verify).length} cases, async and sync)`, () => checkKzg(want, threadsOn));
  }

  let timing: Record<string, number> | undefined;
  let bench: BenchRow[] | undefined;
  if (options.time) {
    bench = await benchMsm(options.time === true ? {} : options.time);
    timing = {};
    for (const r of bench) {
      if (!r.ok) failures.push(`timing 2^${r.logSize} ${r.threads}t: wrong result`);
      timing[`2^${r.logSize} ${r.threads}t ms`] = Math.round(r.medianMs);
    }
  }

  const [threadsActive, reason] = [threads.active, threads.reason];
  stopThreads();
  return { ...engine, backend: chosen, wideArithmetic: wide, threads: threadsActive, ...(reason ? { threadsReason: reason } : {}), pass, fail: failures.length, failures, ms: Math.round(performance.now() - t0), ...(timing ? { timing, bench } : {}) };
}
