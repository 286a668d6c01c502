/**
 * Issue #16 reproductions around the MSM core (inputs taken at the call: test/group-api.test.ts, for
 * both groups): a getter that re-enters the library cannot corrupt the outer call, a malformed
 * encoding's error says which part was wrong, the thread count is capped at 256 and a refused start is not remembered, a worker that cannot be sent a task
 * rejects the MSM (the pool stays usable), and an out-of-memory message states real sizes.
 * Oracle: points with known discrete logs (closed form by the bigint reference).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  bls12_381, bn254, startThreads, stopThreads, threads, InvalidOptionError, OutOfMemoryError, PointEncodingError, WorkerError,
} from '../src/index.js';
import type { G1Affine } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { defaultWorker, type PoolWorker } from '../src/runtime/pool.js';
import { pointsWithLogs } from './helpers/known-logs.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const within = <T>(p: Promise<T>, what: string, ms = 60_000): Promise<T> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error(`hung: ${what}`)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
};

function oracle(curve: typeof bls12_381 | typeof bn254) {
  const ref = new RefCurve(curve.params);
  const { r, G1: G } = curve.params;
  const mod = (x: bigint) => ((x % r) + r) % r;
  const expect = (logs: bigint[], s: bigint[]) => ref.mulScalar(G, logs.reduce((acc, a, i) => mod(acc + a * mod(s[i])), 0n));
  const check = (got: G1Affine, logs: bigint[], s: bigint[], what: string) =>
    assert.ok(ref.eq(got.infinity ? null : { x: got.x, y: got.y }, expect(logs, s)), `${curve.name}: ${what}`);
  return { ref, r, G, check, withLogs: (n: number, seed: number) => pointsWithLogs(ref, G, r, n, seed) };
}

// 'Inputs are taken at the call' (buffers zeroed and objects changed after msm(), bad inputs at the call)
// runs for both groups on every curve in test/group-api.test.ts.

describe('malformed encodings say which part was wrong', () => {
  before(() => bls12_381.init());
  const cases: [string, (b: Uint8Array) => void, RegExp][] = [
    ['compression flag on an uncompressed encoding', (b) => (b[0] |= 0x80), /flag bits/],
    ['x ≥ p', (b) => {
      b[0] = (b[0] & 0xe0) | 0x1f;
      b.fill(0xff, 1, 48);
    }, /not below p/],
    ['infinity flag with a non-zero byte', (b) => {
      b.fill(0);
      b[0] = 0x40;
      b[95] = 1;
    }, /infinity flag/],
  ];
  for (const [what, mutate, message] of cases) {
    it(what, () => {
      const o = oracle(bls12_381);
      const { pts } = o.withLogs(5, 7);
      const bytes = new Uint8Array(5 * 96);
      pts.forEach((p, i) => bytes.set(bls12_381.g1.toBytes(p), 96 * i));
      const bad = bytes.subarray(3 * 96, 4 * 96);
      mutate(bad);
      assert.throws(
        () => bls12_381.g1.msmSync(bytes, [1n, 2n, 3n, 4n, 5n]),
        (e: unknown) => e instanceof PointEncodingError && e.index === 3 && message.test((e as Error).message) && /point 3: malformed zcash encoding/.test((e as Error).message),
      );
    });
  }
  it('compressed: no square root, and the sort flag on y = 0 is a sign error (arkworks: YIsNegative flipped)', () => {
    const p = bls12_381.params.p;
    let x = 0n;
    const pow = (b: bigint, e: bigint) => {
      let r = 1n;
      for (b %= p; e > 0n; e >>= 1n, b = (b * b) % p) if (e & 1n) r = (r * b) % p;
      return r;
    };
    while (pow((x ** 3n + 4n) % p, (p - 1n) / 2n) === 1n) x++;
    const c = new Uint8Array(48);
    for (let i = 47, v = x; i >= 0; i--, v >>= 8n) c[i] = Number(v & 0xffn);
    c[0] |= 0x80;
    assert.throws(() => bls12_381.g1.msmSync(c, [1n]), (e: unknown) => e instanceof PointEncodingError && /no square root/.test((e as Error).message));
    const o = oracle(bls12_381);
    const P = o.withLogs(1, 8).pts[0];
    const ark = bls12_381.g1.toBytes(P, 'arkworks');
    ark[95] ^= 0x80;
    assert.throws(() => bls12_381.g1.msmSync(ark, [1n], { pointFormat: 'arkworks' }), (e: unknown) => e instanceof PointEncodingError && /y-sign flag/.test((e as Error).message));
  });
});

describe('threads: caps, refused starts, failed sends', { timeout: 300_000 }, () => {
  before(() => bn254.init());
  after(() => stopThreads());

  it('startThreads outside 1…256 rejects with InvalidOptionError; the pool and later MSMs are unaffected', async () => {
    const o = oracle(bn254);
    const { pts, logs } = o.withLogs(300, 9);
    const s = pts.map((_, i) => BigInt(3 * i + 1));
    for (const n of [0, 257, 384, 2.5, Number.NaN, '2' as unknown as number]) {
      await assert.rejects(startThreads(n), (e: unknown) => e instanceof InvalidOptionError && e.option === 'n', `startThreads(${String(n)})`);
    }
    o.check(await within(bn254.g1.msm(pts, s), 'after refused starts'), logs, s, 'after refused starts');
  });

  it('more than 256 logical cores: the default thread count is 256', () => {
    const out = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `
        const os = process.getBuiltinModule('node:os');
        os.availableParallelism = () => 384;
        const { defaultThreadCount } = await import('./src/runtime/pool.ts');
        console.log(JSON.stringify({ n: defaultThreadCount() }));
      `],
      { cwd: root, encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(out.status, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout.trim().split('\n').pop()!).n, 256);
  });

  it('a worker that cannot be sent a task rejects the MSM with WorkerError (nothing escapes); the next MSM is right', async () => {
    const o = oracle(bn254);
    const { pts, logs } = o.withLogs(600, 10);
    const s = pts.map((_, i) => BigInt(i + 7));
    const refusing = (): PoolWorker => {
      const w = defaultWorker();
      const post = w.postMessage.bind(w);
      w.postMessage = (m: unknown) => {
        if ((m as { t?: string }).t === 'run') throw new DOMException('could not clone', 'DataCloneError');
        post(m);
      };
      return w;
    };
    await startThreads(2, { createWorker: refusing });
    await assert.rejects(within(bn254.g1.msm(pts, s), 'refused send'), (e: unknown) => e instanceof WorkerError && /could not send/.test((e as Error).message));
    await startThreads(2, { createWorker: defaultWorker });
    assert.equal(threads.active, true);
    o.check(await within(bn254.g1.msm(pts, s), 'after a refused send'), logs, s, 'after a refused send');
  });
});

describe('without SharedArrayBuffer', () => {
  it('a point getter that re-enters msmSync and grows the memory does not corrupt the outer call', () => {
    const out = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `
        delete globalThis.SharedArrayBuffer;
        const { bn254 } = await import('./src/index.ts');
        const { RefCurve } = await import('./src/reference/curve.ts');
        await bn254.init();
        const ref = new RefCurve(bn254.params), G = bn254.params.G1;
        const pts = [], s = [];
        for (let i = 1; i <= 40; i++) { pts.push(ref.mul(G, BigInt(i))); s.push(BigInt(i)); }
        const big = Array.from({ length: 20000 }, (_, i) => (i % 2 ? G : null));
        const bigS = big.map(() => 1n);
        const before = bn254.g1.inst.memory.buffer.byteLength;
        let inner;
        const tricky = pts.map((P, i) => i !== 20 ? P : { get x() { inner = bn254.g1.msmSync(big, bigS, { validate: 'none' }); return P.x; }, y: P.y });
        const got = bn254.g1.msmSync(tricky, s);
        const want = ref.mul(G, BigInt(40 * 41 * 81 / 6));
        const wantInner = ref.mul(G, 10000n);
        console.log(JSON.stringify({ grew: bn254.g1.inst.memory.buffer.byteLength > before, shared: bn254.g1.inst.shared, ok: got.x === want.x && got.y === want.y, innerOk: inner.x === wantInner.x && inner.y === wantInner.y }));
      `],
      { cwd: root, encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(out.status, 0, out.stderr);
    const r = JSON.parse(out.stdout.trim().split('\n').pop()!);
    assert.equal(r.shared, false, 'plain memory');
    assert.equal(r.grew, true, 'the inner call grew the memory');
    assert.equal(r.innerOk, true, 'inner result');
    assert.equal(r.ok, true, 'outer result (Σ i²)·G');
  });
});

describe('out of memory', () => {
  it('the message states the sizes needed and held (no "0 MiB")', async () => {
    await bn254.init();
    const { arena } = bn254.g1.inst;
    const mark = arena.mark();
    assert.throws(
      () => arena.alloc(2 ** 32),
      (e: unknown) => e instanceof OutOfMemoryError && /needs 4\d{3} MiB/.test((e as Error).message) && !/\b0 MiB/.test((e as Error).message),
    );
    arena.release(mark);
  });
});
