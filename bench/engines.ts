/**
 * The same verified MSMs on every engine present: BLS12-381 G1 (`g1.msm`, validate 'on-curve',
 * seeded inputs with known logs), per size and thread count one untimed run checked against the
 * closed form (Σ s_i·a_i)·G, then `--runs` timed runs, each checked too, and their median
 * (`benchMsm` in test/engines/checks.ts). Each engine on its default backend and, where it has a
 * switch, on the other one:
 * - node (the machine's, CI: 20), node22, node24 (PyPI wheels, scripts/node-wheel.sh): i32 only
 *   (V8 12–13 has no wide-arithmetic flag);
 * - bun (JavaScriptCore, wide64 by default) and `--backend i32`; deno (i32) and
 *   `--v8-flags=--experimental-wasm-wide-arithmetic` (wide64); both from node_modules/.bin, through
 *   test/engines/bench-run.ts, which gets --sizes/--threads/--runs as arguments;
 * - chromium (i32; wide64 with `--js-flags=--wasm-wide-arithmetic`), firefox (ESR: i32; wide64 with
 *   the pref `javascript.options.wasm_wide_arithmetic`), webkit (WebKitGTK: i32; 2 threads only with
 *   `JSC_useSharedArrayBuffer=1`): through the browser-engine tests (scripts/test-browser-engines.sh,
 *   which first pass every cross-engine check on each page), with --sizes/--threads/--runs as JSON
 *   in PIPPIN_ENGINE_BENCH, which test/browser/engines/harness.ts (`runPage`) hands to the
 *   cross-origin-isolated pages; their rows are the browser rows.
 * Every engine and setting runs the same sizes, thread counts (above 1 only where the engine has a
 * pool: not WebKitGTK without SharedArrayBuffer) and runs, each engine in its own process, one after
 * the other. `--rounds N` repeats that sequence N times, every other round in reverse order, so slow
 * drifts of a shared host fall on every engine alike; a row's median is then over the timed runs of
 * all rounds. A row's `ok` is false when any of its results was wrong; the bench exits 1 then, when
 * an engine failed or ran other sizes or thread counts than asked.
 *
 *   npm run bench:engines -- [--sizes 14,16] [--threads 1,2] [--runs 3] [--rounds 1]
 *                            [--engines node,node22,node24,bun,deno,chromium,firefox,webkit] [--json]
 *
 * --json prints the rows `{engine, version, backend, setting, threads, logSize, medianMs, ok}`
 * (`setting`: the switch used, '' for the engine's default) on stdout, one per line, and the table
 * on stderr.
 */
import { execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { intFlag, intListFlag, listFlag, parseFlags, runCli } from '../src/cli-args.js';
import type { BenchRow } from '../test/engines/checks.js';

export const RUNTIMES = ['node', 'node22', 'node24', 'bun', 'deno'] as const;
export const BROWSERS = ['chromium', 'firefox', 'webkit'] as const;
const ALL: readonly string[] = [...RUNTIMES, ...BROWSERS];
const USAGE = `usage: npm run bench:engines -- [--sizes 14,16] [--threads 1,2] [--runs 3] [--rounds 1] [--engines ${ALL.join(',')}] [--json]`;

export interface Options {
  sizes: number[];
  threads: number[];
  runs: number;
  rounds: number;
  engines: string[];
  json: boolean;
}

/** The command line (src/cli-args.ts); throws a UsageError naming the bad flag, HelpRequested on --help. */
export function parseArgs(argv: string[]): Options {
  const { values: v } = parseFlags(argv, {
    sizes: { type: 'string' },
    threads: { type: 'string' },
    runs: { type: 'string' },
    rounds: { type: 'string' },
    engines: { type: 'string' },
    json: { type: 'boolean' },
  });
  return {
    sizes: intListFlag('sizes', v.sizes, [14, 16], 0, 20),
    threads: intListFlag('threads', v.threads, [1, 2], 1, 64),
    runs: intFlag('runs', v.runs, 3, 1, 100),
    rounds: intFlag('rounds', v.rounds, 1, 1, 20),
    engines: listFlag('engines', v.engines, ALL, ALL),
    json: v.json === true,
  };
}

/** What a runtime's bench-run.ts gets: the same sizes, threads and runs as arguments. */
export function runtimeFlags(opts: Options): string[] {
  return ['--sizes', opts.sizes.join(), '--threads', opts.threads.join(), '--runs', String(opts.runs)];
}

/**
 * The browser tests' environment: the same sizes, threads and runs as JSON for harness.ts
 * `benchFromEnv`; without NODE_TEST_CONTEXT (set when this runs under `node --test`, it would turn
 * the browser tests' own `node --test` into a silent subtest whose pages print nothing here).
 */
export function browserEnv(opts: Options, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { PIPPIN_ENGINE_TIME: _, NODE_TEST_CONTEXT: __, ...rest } = env;
  return { ...rest, PIPPIN_ENGINE_BENCH: JSON.stringify({ sizes: opts.sizes, threads: opts.threads, runs: opts.runs }) };
}

export interface Row {
  engine: string;
  version: string;
  backend: string;
  /** the switch this row ran with ('' = the engine's default) */
  setting: string;
  threads: number;
  logSize: number;
  medianMs: number;
  ok: boolean;
}

/** The rows of one engine setting (one process or page) as the engine reported them. */
export interface Result {
  engine: string;
  version: string;
  setting: string;
  /** whether the engine had a worker pool (rows above 1 thread are expected only then) */
  pool: boolean;
  bench: BenchRow[];
}

/** The switch a browser page ran with, from the driver's label (test/browser/engines/*.browser.test.ts). */
function browserSetting(engine: string, label: string): string {
  if (engine === 'chromium') return label.includes('--wasm-wide-arithmetic') ? '--js-flags=--wasm-wide-arithmetic' : '';
  if (engine === 'firefox') return /wasm_wide_arithmetic true/.test(label) ? 'pref javascript.options.wasm_wide_arithmetic' : '';
  return /JSC_useSharedArrayBuffer 1/.test(label) ? 'JSC_useSharedArrayBuffer=1' : '';
}

/**
 * The timed pages in the output of the browser tests: runPage (harness.ts) prints "# <label> <url>",
 * the log lines, "# <summary JSON>" (its keys in any order: WebDriver returns them sorted); the
 * pages with `bench` rows (the cross-origin-isolated ones) are the results.
 */
export function browserResults(out: string): Result[] {
  const results: Result[] = [];
  let label = '';
  for (const raw of out.split('\n')) {
    const l = raw.trim();
    const m = /^# (\{.*"engine".*\})$/.exec(l);
    if (m) {
      const s = JSON.parse(m[1]) as { engine: string; version: string; crossOriginIsolated: boolean; threads: boolean; bench?: BenchRow[] };
      // the full version from the driver's label (the user agent may carry a reduced one, Chrome/156.0.0.0)
      const version = /\b(\d+\.\d+\.\d+(?:\.\d+)?)/.exec(label)?.[1] ?? s.version;
      if (s.crossOriginIsolated && s.bench) results.push({ engine: s.engine, version, setting: browserSetting(s.engine, label), pool: s.threads, bench: s.bench });
    } else if (/^# \S.* https?:\/\/\S+$/.test(l)) label = l;
  }
  return results;
}

/** What is wrong with a result against the options: rows not asked for, rows missing. */
export function coverage(r: Result, opts: Options): string[] {
  const what = `${r.engine} ${r.version}${r.setting ? ` ${r.setting}` : ''}`;
  const bad: string[] = [];
  for (const b of r.bench) {
    if (!opts.sizes.includes(b.logSize) || !opts.threads.includes(b.threads)) bad.push(`${what}: ran 2^${b.logSize} on ${b.threads} thread(s), not asked for`);
    if (b.runsMs.length !== opts.runs) bad.push(`${what}: 2^${b.logSize}, ${b.threads} thread(s): ${b.runsMs.length} timed runs, not ${opts.runs}`);
  }
  for (const s of opts.sizes) {
    for (const t of opts.threads) {
      if ((t === 1 || r.pool) && !r.bench.some((b) => b.logSize === s && b.threads === t)) bad.push(`${what}: no row for 2^${s} on ${t} thread(s)`);
    }
  }
  return bad;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Rows of several rounds: one per engine, version, setting, backend, threads, size; runs pooled. */
export function mergeRows(results: Result[]): Row[] {
  const acc: { row: Row; runs: number[] }[] = [];
  for (const r of results) {
    for (const b of r.bench) {
      const key = { engine: r.engine, version: r.version, backend: b.backend, setting: r.setting, threads: b.threads, logSize: b.logSize };
      const a = acc.find((x) => (Object.keys(key) as (keyof typeof key)[]).every((k) => x.row[k] === key[k]));
      if (!a) acc.push({ row: { ...key, medianMs: b.medianMs, ok: b.ok }, runs: [...b.runsMs] });
      else {
        a.runs.push(...b.runsMs);
        a.row.ok &&= b.ok;
        a.row.medianMs = median(a.runs);
      }
    }
  }
  return acc.map((a) => a.row);
}

/** The Markdown table: a line per engine, version, setting and thread count (the default first), a column per size. */
export function table(rows: Row[], title: string): string {
  const sizes = [...new Set(rows.map((r) => r.logSize))].sort((a, b) => a - b);
  const keys: Row[] = [];
  for (const r of rows) if (!keys.some((k) => k.engine === r.engine && k.version === r.version && k.setting === r.setting && k.threads === r.threads)) keys.push(r);
  const group = (k: Row) => keys.findIndex((x) => x.engine === k.engine && x.version === k.version);
  keys.sort((a, b) => group(a) - group(b) || Number(a.setting !== '') - Number(b.setting !== '') || a.setting.localeCompare(b.setting) || a.threads - b.threads);
  const head = ['engine', 'version', 'backend', 'switch', 'threads', ...sizes.map((s) => `2^${s} ms`)];
  const lines = [`${title}`, `| ${head.join(' | ')} |`, `|${head.map((_, i) => (i >= 4 ? '---:' : '---')).join('|')}|`];
  for (const k of keys) {
    const cells = sizes.map((s) => {
      const r = rows.find((x) => x.engine === k.engine && x.version === k.version && x.setting === k.setting && x.threads === k.threads && x.logSize === s);
      return r ? `${r.medianMs.toFixed(0)}${r.ok ? '' : ' WRONG'}` : '—';
    });
    lines.push(`| ${[k.engine, k.version, k.backend, k.setting || '(default)', String(k.threads), ...cells].join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Runs a command, its stdout and stderr captured together; never rejects. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 1_800_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => p.kill('SIGTERM'), timeoutMs);
    p.on('error', (e) => ((out += String(e)), resolve({ code: -1, out })));
    p.on('close', (code) => (clearTimeout(timer), resolve({ code, out })));
  });
}

const BROWSER_BINARIES: Record<string, string> = {
  chromium: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  firefox: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
  webkit: process.env.WEBKIT_WEBDRIVER ?? '/usr/bin/WebKitWebDriver',
};

async function main(opts: Options): Promise<number> {
  const results: Result[] = [];
  const problems: string[] = [];
  const log = (s: string) => console.error(s);
  const take = (r: Result) => (results.push(r), problems.push(...coverage(r, opts)));

  async function runtime(name: (typeof RUNTIMES)[number]): Promise<void> {
    const S = 'test/engines/bench-run.ts';
    const B = 'node_modules/.bin';
    let configs: [setting: string, cmd: string, args: string[]][];
    if (name === 'bun') configs = [['', `${B}/bun`, [S]], ['--backend i32', `${B}/bun`, [S, '--backend', 'i32']]];
    else if (name === 'deno') {
      const d = ['run', '-A', '--sloppy-imports'];
      configs = [['', `${B}/deno`, [...d, S]], ['--v8-flags=--experimental-wasm-wide-arithmetic', `${B}/deno`, [...d, '--v8-flags=--experimental-wasm-wide-arithmetic', S, '--backend', 'wide64']]];
    } else {
      let node = process.execPath;
      if (name !== 'node') {
        const w = await run('bash', ['scripts/node-wheel.sh', name.slice(4)]);
        if (w.code !== 0) return void problems.push(`${name}: scripts/node-wheel.sh failed: ${w.out.trim()}`);
        node = w.out.trim().split('\n').pop()!;
      }
      configs = [['', node, ['--import', 'tsx', S]]];
    }
    for (const [setting, cmd, args] of configs) {
      const what = `${name}${setting ? ` ${setting}` : ''}`;
      log(`bench:engines: ${what}: ${cmd} ${[...args, ...runtimeFlags(opts)].join(' ')}`);
      const { code, out } = await run(cmd, [...args, ...runtimeFlags(opts)]);
      const line = out.split('\n').find((l) => l.startsWith('{"engine"'));
      if (!line) return void problems.push(`${what}: no result (exit ${code}): ${out.trim().slice(-800)}`);
      const s = JSON.parse(line) as { engine: string; version: string; bench: BenchRow[] };
      if (code !== 0) problems.push(`${what}: exit ${code}`);
      take({ engine: s.engine, version: s.version, setting, pool: true, bench: s.bench });
    }
  }

  async function browser(name: (typeof BROWSERS)[number]): Promise<void> {
    if (!existsSync(BROWSER_BINARIES[name])) return void problems.push(`${name}: not installed (${BROWSER_BINARIES[name]}; bash scripts/ensure-engines.sh ${name})`);
    const env = browserEnv(opts);
    log(`bench:engines: ${name}: PIPPIN_ENGINE_BENCH='${env.PIPPIN_ENGINE_BENCH}' bash scripts/test-browser-engines.sh ${name} (every cross-engine check, then the timings)`);
    const { code, out } = await run('bash', ['scripts/test-browser-engines.sh', name], env);
    const found = browserResults(out);
    for (const r of found) take(r);
    if (code !== 0 || !found.length) problems.push(`${name}: browser tests exit ${code}, ${found.length} timed pages${code !== 0 ? `: ${out.trim().slice(-1500)}` : ''}`);
  }

  for (let round = 0; round < opts.rounds; round++) {
    const order = round % 2 ? [...opts.engines].reverse() : opts.engines;
    if (opts.rounds > 1) log(`bench:engines: round ${round + 1} of ${opts.rounds}: ${order.join(', ')}`);
    for (const e of order) {
      if ((BROWSERS as readonly string[]).includes(e)) await browser(e as (typeof BROWSERS)[number]);
      else await runtime(e as (typeof RUNTIMES)[number]);
    }
  }

  let cpu = '?';
  try {
    cpu = /Model name:\s*(.*)/.exec(execSync('lscpu', { encoding: 'utf8' }))?.[1]?.trim() ?? '?';
  } catch {
    // no lscpu
  }
  const rows = mergeRows(results);
  if (opts.json) for (const r of rows) console.log(JSON.stringify(r));
  const rounds = opts.rounds > 1 ? ` (${opts.runs} in each of ${opts.rounds} rounds)` : '';
  const title = `BLS12-381 G1 g1.msm, validate on-curve, median of ${opts.runs * opts.rounds} verified runs${rounds}; ${cpu}; ${new Date().toISOString().slice(0, 10)}`;
  (opts.json ? console.error : console.log)(table(rows, title));
  for (const p of problems) console.error(`bench:engines: ${p}`);
  return problems.length || rows.some((r) => !r.ok) ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCli('bench:engines', USAGE, async () => main(parseArgs(process.argv.slice(2))));
}
