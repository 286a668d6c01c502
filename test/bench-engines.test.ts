/**
 * `npm run bench:engines` (bench/engines.ts) hands the same --sizes, --threads and --runs to every
 * engine: the runtimes as arguments, the browsers as JSON in PIPPIN_ENGINE_BENCH, which the browser
 * harness (test/browser/engines/harness.ts, `benchFromEnv`, `runPage`) passes to the isolated pages.
 * Here without a browser: the command line, the round trip through the environment, what `runPage`
 * gives a (fake) page, and how the bench reads, checks and merges the pages' rows. The same with a
 * real Chromium: test/browser/bench-engines.browser.test.ts.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../src/cli-args.js';
import { browserEnv, browserResults, coverage, mergeRows, parseArgs, runtimeFlags, table, type Result } from '../bench/engines.js';
import { benchFromEnv, runPage, type Driver, type PageSummary } from './browser/engines/harness.js';
import type { BenchRow } from './engines/checks.js';

const NON_DEFAULT = ['--sizes', '10', '--runs', '1', '--threads', '1'];

describe('bench:engines command line', () => {
  it('defaults: 2^14, 2^16; 1, 2 threads; 3 runs; 1 round; every engine', () => {
    const o = parseArgs([]);
    assert.deepEqual([o.sizes, o.threads, o.runs, o.rounds, o.json], [[14, 16], [1, 2], 3, 1, false]);
    assert.deepEqual(o.engines, ['node', 'node22', 'node24', 'bun', 'deno', 'chromium', 'firefox', 'webkit']);
  });
  it('--sizes 10 --runs 1 --threads 1 reaches the runtimes and the browsers alike', () => {
    const o = parseArgs([...NON_DEFAULT, '--engines', 'chromium,node', '--json']);
    assert.deepEqual([o.sizes, o.threads, o.runs, o.engines, o.json], [[10], [1], 1, ['chromium', 'node'], true]);
    assert.deepEqual(runtimeFlags(o), ['--sizes', '10', '--threads', '1', '--runs', '1']);
    const env = browserEnv(o, { PATH: '/bin', PIPPIN_ENGINE_TIME: '1', NODE_TEST_CONTEXT: 'child-v8' });
    assert.equal(env.PIPPIN_ENGINE_BENCH, '{"sizes":[10],"threads":[1],"runs":1}');
    assert.equal(env.PATH, '/bin');
    assert.equal(env.PIPPIN_ENGINE_TIME, undefined, 'the older switch (defaults) is dropped');
    assert.equal(env.NODE_TEST_CONTEXT, undefined, 'the browser tests run as their own test run');
    // the harness reads back exactly what was asked for
    assert.deepEqual(benchFromEnv(env), { sizes: [10], threads: [1], runs: 1 });
    const many = parseArgs(['--sizes', '12,14,16', '--threads', '1,2,4', '--runs', '5', '--rounds', '2']);
    assert.deepEqual(benchFromEnv(browserEnv(many, {})), { sizes: [12, 14, 16], threads: [1, 2, 4], runs: 5 });
    assert.equal(many.rounds, 2);
  });
  it('bad flags are UsageErrors naming the flag', () => {
    const cases: [string[], RegExp][] = [
      [['--sizes', ''], /--sizes: ''/],
      [['--sizes', '10,21'], /--sizes: '10,21'.*0…20/],
      [['--threads', '0'], /--threads: '0'/],
      [['--runs', '0'], /--runs: '0'/],
      [['--rounds', 'x'], /--rounds: 'x'/],
      [['--engines', 'node,safari'], /--engines: 'safari' is not one of/],
      [['--size', '10'], /unknown flag --size/],
    ];
    for (const [argv, message] of cases) assert.throws(() => parseArgs(argv), (e: unknown) => e instanceof UsageError && message.test(e.message), argv.join(' '));
  });
  it('the script exits 2 on a bad flag before running any engine', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/engines.ts', '--runs', '0'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /^bench:engines: --runs: '0'.*\nusage: npm run bench:engines/);
    assert.doesNotMatch(r.stderr, /bench:engines: (node|chromium)/, 'no engine ran');
  });
});

describe('harness: PIPPIN_ENGINE_BENCH', () => {
  it('absent: no timing; PIPPIN_ENGINE_TIME=1: the defaults of benchMsm', () => {
    assert.equal(benchFromEnv({}), undefined);
    assert.equal(benchFromEnv({ PIPPIN_ENGINE_TIME: '0' }), undefined);
    assert.deepEqual(benchFromEnv({ PIPPIN_ENGINE_TIME: '1' }), {});
    assert.deepEqual(benchFromEnv({ PIPPIN_ENGINE_BENCH: '{}' }), {});
    assert.deepEqual(benchFromEnv({ PIPPIN_ENGINE_BENCH: '{"runs":7}', PIPPIN_ENGINE_TIME: '1' }), { runs: 7 }, 'the JSON wins');
  });
  it('malformed values are refused, naming the variable and the key', () => {
    const cases: [string, RegExp][] = [
      ['{sizes:[10]}', /not JSON/],
      ['[10]', /not a JSON object/],
      ['null', /not a JSON object/],
      ['{"sizes":[]}', /sizes: a non-empty array/],
      ['{"sizes":[21]}', /sizes: .*0\.\.20/],
      ['{"sizes":10}', /sizes: a non-empty array/],
      ['{"threads":[0]}', /threads: .*1\.\.64/],
      ['{"runs":0}', /runs: an integer in 1\.\.100/],
      ['{"runs":[1]}', /runs: an integer/],
      ['{"runs":1.5}', /runs: an integer/],
      ['{"size":[10]}', /unknown key size/],
    ];
    for (const [raw, message] of cases) {
      assert.throws(() => benchFromEnv({ PIPPIN_ENGINE_BENCH: raw }), (e: unknown) => e instanceof Error && e.message.startsWith(`PIPPIN_ENGINE_BENCH=${raw}: `) && message.test(e.message), raw);
    }
  });

  const saved = { bench: process.env.PIPPIN_ENGINE_BENCH, time: process.env.PIPPIN_ENGINE_TIME };
  after(() => {
    for (const [k, v] of [['PIPPIN_ENGINE_BENCH', saved.bench], ['PIPPIN_ENGINE_TIME', saved.time]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  it('runPage hands the options to isolated pages only', async () => {
    const calls: { url: string; options: Parameters<Driver['checks']>[0] }[] = [];
    let url = '';
    const summary = { engine: 'chromium', version: '1', backend: 'i32', wideArithmetic: false, threads: true, pass: 1, fail: 0, failures: [], ms: 1, lines: ['a check'], userAgent: 'x', crossOriginIsolated: true, sharedArrayBuffer: true } satisfies PageSummary;
    const driver: Driver = {
      label: 'Fake 1.2.3',
      goto: async (u) => void (url = u),
      checks: async (options) => (calls.push({ url, options }), summary),
      close: async () => undefined,
    };
    const site = (isolated: boolean) => ({ url: `http://127.0.0.1:1/${isolated ? 'iso' : 'plain'}/`, isolated, close: async () => undefined });
    process.env.PIPPIN_ENGINE_BENCH = browserEnv(parseArgs(NON_DEFAULT), {}).PIPPIN_ENGINE_BENCH;
    delete process.env.PIPPIN_ENGINE_TIME;
    await runPage(driver, site(true), { expectThreads: true });
    await runPage(driver, site(false), { expectThreads: false, threadsReason: 'not cross-origin isolated' });
    delete process.env.PIPPIN_ENGINE_BENCH;
    await runPage(driver, site(true), { expectThreads: true });
    assert.deepEqual(calls, [
      { url: 'http://127.0.0.1:1/iso/', options: { expectThreads: true, time: { sizes: [10], threads: [1], runs: 1 } } },
      { url: 'http://127.0.0.1:1/plain/', options: { expectThreads: false, threadsReason: 'not cross-origin isolated' } },
      { url: 'http://127.0.0.1:1/iso/', options: { expectThreads: true } },
    ]);
    process.env.PIPPIN_ENGINE_BENCH = '{"runs":0}';
    await assert.rejects(runPage(driver, site(true), {}), /PIPPIN_ENGINE_BENCH=\{"runs":0\}: runs/);
    assert.equal(calls.length, 3, 'a bad value stops before the page runs');
  });
});

const row = (logSize: number, threads: number, runsMs: number[], ok = true, backend = 'i32'): BenchRow => {
  const s = [...runsMs].sort((a, b) => a - b);
  return { backend, threads, logSize, medianMs: s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2, runsMs, ok };
};

describe('bench:engines: reading the browser pages and checking the rows', () => {
  it('browserResults: the isolated pages with timing, the version and switch from the driver label', () => {
    const page = (label: string, s: object) => `# ${label} http://127.0.0.1:4242/\n#   ok   a check\n# ${JSON.stringify(s)}\n`;
    const out =
      'test-browser-engines: v22.20.0\n' +
      page('Chromium 156.0.8078.108', { engine: 'chromium', version: '156.0.0.0', crossOriginIsolated: true, threads: true, bench: [row(10, 1, [20])] }) +
      page('Chromium 156.0.8078.108', { engine: 'chromium', version: '156.0.0.0', crossOriginIsolated: false, threads: false }) +
      page('Chromium 156.0.8078.108 --js-flags=--wasm-wide-arithmetic', { engine: 'chromium', version: '156.0.0.0', crossOriginIsolated: true, threads: true, bench: [row(10, 1, [10], true, 'wide64')] }) +
      // WebDriver sorts the keys
      page('MiniBrowser (WebKitGTK 2.50.6), JSC_useSharedArrayBuffer unset', { bench: [row(10, 1, [30])], crossOriginIsolated: true, engine: 'webkit', threads: false, version: '605.1.15' });
    const rs = browserResults(out);
    assert.deepEqual(rs.map((r) => [r.engine, r.version, r.setting, r.pool, r.bench.length]), [
      ['chromium', '156.0.8078.108', '', true, 1],
      ['chromium', '156.0.8078.108', '--js-flags=--wasm-wide-arithmetic', true, 1],
      ['webkit', '2.50.6', '', false, 1],
    ]);
  });
  it('coverage: rows not asked for, a wrong number of runs and missing rows are problems', () => {
    const o = parseArgs(NON_DEFAULT);
    const r = (bench: BenchRow[], pool = true): Result => ({ engine: 'firefox', version: '153.7.0', setting: '', pool, bench });
    assert.deepEqual(coverage(r([row(10, 1, [5])]), o), []);
    // what the browsers did before PIPPIN_ENGINE_BENCH: benchMsm's defaults whatever was asked
    const defaults = [14, 16].flatMap((s) => [1, 2].map((t) => row(s, t, [1, 2, 3])));
    const bad = coverage(r(defaults), o);
    assert.ok(bad.includes('firefox 153.7.0: ran 2^14 on 2 thread(s), not asked for'), bad.join('\n'));
    assert.ok(bad.includes('firefox 153.7.0: 2^16, 1 thread(s): 3 timed runs, not 1'), bad.join('\n'));
    assert.ok(bad.includes('firefox 153.7.0: no row for 2^10 on 1 thread(s)'), bad.join('\n'));
    const two = parseArgs(['--sizes', '10', '--threads', '1,2', '--runs', '1']);
    assert.deepEqual(coverage(r([row(10, 1, [5])]), two), ['firefox 153.7.0: no row for 2^10 on 2 thread(s)']);
    assert.deepEqual(coverage(r([row(10, 1, [5])], false), two), [], 'no pool: no 2-thread row expected');
  });
  it('mergeRows: one row per engine setting, backend, threads and size; runs of all rounds pooled; ok only if every round was', () => {
    const a = (bench: BenchRow[], setting = ''): Result => ({ engine: 'bun', version: '1.4.5', setting, pool: true, bench });
    const rows = mergeRows([
      a([row(10, 1, [10, 11, 30]), row(10, 2, [6, 7, 8])]),
      a([row(10, 1, [12, 40, 41], true, 'i32')], '--backend i32'),
      a([row(10, 1, [9, 12, 13]), row(10, 2, [6, 7, 8], false)]),
    ]);
    assert.deepEqual(rows, [
      { engine: 'bun', version: '1.4.5', backend: 'i32', setting: '', threads: 1, logSize: 10, medianMs: 11.5, ok: true },
      { engine: 'bun', version: '1.4.5', backend: 'i32', setting: '', threads: 2, logSize: 10, medianMs: 7, ok: false },
      { engine: 'bun', version: '1.4.5', backend: 'i32', setting: '--backend i32', threads: 1, logSize: 10, medianMs: 40, ok: true },
    ]);
    const t = table(rows, 'title').split('\n');
    assert.deepEqual(t.slice(1), [
      '| engine | version | backend | switch | threads | 2^10 ms |',
      '|---|---|---|---|---:|---:|',
      '| bun | 1.4.5 | i32 | (default) | 1 | 12 |',
      '| bun | 1.4.5 | i32 | (default) | 2 | 7 WRONG |',
      '| bun | 1.4.5 | i32 | --backend i32 | 1 | 40 |',
    ]);
  });
});
