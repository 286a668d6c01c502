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
 *   test/engines/bench-run.ts;
 * - chromium (i32; wide64 with `--js-flags=--wasm-wide-arithmetic`), firefox (ESR: i32; wide64 with
 *   the pref `javascript.options.wasm_wide_arithmetic`), webkit (WebKitGTK: i32; 2 threads only with
 *   `JSC_useSharedArrayBuffer=1`): through the browser-engine tests
 *   (scripts/test-browser-engines.sh with PIPPIN_ENGINE_TIME=1, which also run every cross-engine
 *   check first); rows of the cross-origin-isolated pages. The browsers take the defaults of
 *   `benchMsm` (2^14, 2^16; 1, 2 threads; 3 runs): the harness passes no sizes to the page.
 * Engines run one after the other, each in its own process; a row's `ok` is false when any of its
 * results was wrong, and the bench exits 1 then (or when an engine failed).
 *
 *   npm run bench:engines -- [--sizes 14,16] [--threads 1,2] [--runs 3]
 *                            [--engines node,node22,node24,bun,deno,chromium,firefox,webkit] [--json]
 *
 * --json prints the rows `{engine, version, backend, setting, threads, logSize, medianMs, ok}`
 * (`setting`: the switch used, '' for the engine's default) on stdout, one per line, and the table
 * on stderr.
 */
import { execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { BenchRow } from '../test/engines/checks.js';

const RUNTIMES = ['node', 'node22', 'node24', 'bun', 'deno'] as const;
const BROWSERS = ['chromium', 'firefox', 'webkit'] as const;
const ALL: readonly string[] = [...RUNTIMES, ...BROWSERS];

function usage(msg: string): never {
  console.error(`bench:engines: ${msg}\nusage: npm run bench:engines -- [--sizes 14,16] [--threads 1,2] [--runs 3] [--engines ${ALL.join(',')}] [--json]`);
  process.exit(2);
}

const opts = { sizes: [14, 16], threads: [1, 2], runs: 3, engines: [...ALL], json: false };
{
  const argv = process.argv.slice(2);
  const ints = (flag: string, v: string | undefined, min: number, max: number) => {
    const xs = (v ?? '').split(',').map(Number);
    if (v === undefined || !xs.every((x) => Number.isInteger(x) && x >= min && x <= max)) usage(`${flag} ${v ?? ''}: comma-separated integers in ${min}..${max}`);
    return xs;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--sizes') opts.sizes = ints(a, argv[++i], 0, 20);
    else if (a === '--threads') opts.threads = ints(a, argv[++i], 1, 64);
    else if (a === '--runs') [opts.runs] = ints(a, argv[++i], 1, 100);
    else if (a === '--engines') {
      opts.engines = (argv[++i] ?? '').split(',').filter(Boolean);
      const bad = opts.engines.filter((e) => !ALL.includes(e));
      if (!opts.engines.length || bad.length) usage(`--engines: unknown ${bad.join(',') || '(empty)'} (${ALL.join(', ')})`);
    } else usage(`unknown argument ${a}`);
  }
}
const defaults = opts.sizes.join() === '14,16' && opts.threads.join() === '1,2' && opts.runs === 3;
if (!defaults && opts.engines.some((e) => (BROWSERS as readonly string[]).includes(e))) {
  console.error('bench:engines: the browsers run the defaults (2^14, 2^16; 1, 2 threads; 3 runs) whatever --sizes/--threads/--runs say');
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

/** Runs a command, its stdout and stderr captured (stderr also echoed when not --json); never rejects. */
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

const rows: Row[] = [];
const problems: string[] = [];
const log = (s: string) => console.error(s);

function addRows(engine: string, version: string, setting: string, bench: BenchRow[]): void {
  for (const r of bench) {
    if (rows.some((x) => x.engine === engine && x.version === version && x.backend === r.backend && x.setting === setting && x.threads === r.threads && x.logSize === r.logSize)) continue;
    rows.push({ engine, version, backend: r.backend, setting, threads: r.threads, logSize: r.logSize, medianMs: r.medianMs, ok: r.ok });
  }
}

async function runtime(name: (typeof RUNTIMES)[number]): Promise<void> {
  const S = 'test/engines/bench-run.ts';
  const B = 'node_modules/.bin';
  const flags = ['--sizes', opts.sizes.join(), '--threads', opts.threads.join(), '--runs', String(opts.runs)];
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
    log(`bench:engines: ${name}${setting ? ` ${setting}` : ''}: ${cmd} ${[...args, ...flags].join(' ')}`);
    const { code, out } = await run(cmd, [...args, ...flags]);
    const line = out.split('\n').find((l) => l.startsWith('{"engine"'));
    if (!line) {
      problems.push(`${name}${setting ? ` ${setting}` : ''}: no result (exit ${code}): ${out.trim().slice(-800)}`);
      continue;
    }
    const s = JSON.parse(line) as { engine: string; version: string; bench: BenchRow[] };
    if (code !== 0) problems.push(`${name}${setting ? ` ${setting}` : ''}: exit ${code}`);
    addRows(s.engine, s.version, setting, s.bench);
  }
}

/** The switch a browser page ran with, from the driver's label (test/browser/engines/*.browser.test.ts). */
function browserSetting(engine: string, label: string): string {
  if (engine === 'chromium') return label.includes('--wasm-wide-arithmetic') ? '--js-flags=--wasm-wide-arithmetic' : '';
  if (engine === 'firefox') return /wasm_wide_arithmetic true/.test(label) ? 'pref javascript.options.wasm_wide_arithmetic' : '';
  return /JSC_useSharedArrayBuffer 1/.test(label) ? 'JSC_useSharedArrayBuffer=1' : '';
}

const BROWSER_BINARIES: Record<string, string> = {
  chromium: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  firefox: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
  webkit: process.env.WEBKIT_WEBDRIVER ?? '/usr/bin/WebKitWebDriver',
};

async function browser(name: (typeof BROWSERS)[number]): Promise<void> {
  if (!existsSync(BROWSER_BINARIES[name])) return void problems.push(`${name}: not installed (${BROWSER_BINARIES[name]}; bash scripts/ensure-engines.sh ${name})`);
  log(`bench:engines: ${name}: PIPPIN_ENGINE_TIME=1 bash scripts/test-browser-engines.sh ${name} (every cross-engine check, then the timings)`);
  const { code, out } = await run('bash', ['scripts/test-browser-engines.sh', name], { ...process.env, PIPPIN_ENGINE_TIME: '1' });
  // runPage (test/browser/engines/harness.ts) prints "# <label> <url>", the log lines, "# <summary JSON>"
  let label = '';
  let found = 0;
  for (const raw of out.split('\n')) {
    const l = raw.trim();
    // the summary's keys come in any order (WebDriver returns them sorted)
    const m = /^# (\{.*"engine".*\})$/.exec(l);
    if (m) {
      const s = JSON.parse(m[1]) as { engine: string; version: string; crossOriginIsolated: boolean; bench?: BenchRow[] };
      // the full version from the driver (the user agent may carry a reduced one, Chrome/156.0.0.0)
      const version = /\b(\d+\.\d+\.\d+(?:\.\d+)?)/.exec(label)?.[1] ?? s.version;
      if (s.crossOriginIsolated && s.bench) addRows(s.engine, version, browserSetting(s.engine, label), s.bench), found++;
    } else if (/^# \S.* https?:\/\/\S+$/.test(l)) label = l;
  }
  if (code !== 0 || !found) problems.push(`${name}: browser tests exit ${code}, ${found} timed pages${code !== 0 ? `: ${out.trim().slice(-1500)}` : ''}`);
}

for (const e of opts.engines) {
  if ((BROWSERS as readonly string[]).includes(e)) await browser(e as (typeof BROWSERS)[number]);
  else await runtime(e as (typeof RUNTIMES)[number]);
}

const cpu = (() => {
  try {
    return /Model name:\s*(.*)/.exec(execSync('lscpu', { encoding: 'utf8' }))?.[1]?.trim() ?? '?';
  } catch {
    return '?';
  }
})();

/** the table: on stdout, or with --json on stderr (the rows on stdout) */
const out = opts.json ? (s: string) => console.error(s) : (s: string) => console.log(s);
if (opts.json) for (const r of rows) console.log(JSON.stringify(r));
{
  const sizes = [...new Set(rows.map((r) => r.logSize))].sort((a, b) => a - b);
  const keys: Row[] = [];
  for (const r of rows) if (!keys.some((k) => k.engine === r.engine && k.version === r.version && k.setting === r.setting && k.threads === r.threads)) keys.push(r);
  // per engine and version: the default first (stable otherwise)
  const group = (k: Row) => keys.findIndex((x) => x.engine === k.engine && x.version === k.version);
  keys.sort((a, b) => group(a) - group(b) || Number(a.setting !== '') - Number(b.setting !== ''));
  const head = ['engine', 'version', 'backend', 'switch', 'threads', ...sizes.map((s) => `2^${s} ms`)];
  const body = keys.map((k) => [
    k.engine, k.version, k.backend, k.setting || '(default)', String(k.threads),
    ...sizes.map((s) => {
      const r = rows.find((x) => x.engine === k.engine && x.version === k.version && x.setting === k.setting && x.threads === k.threads && x.logSize === s);
      return r ? `${r.medianMs.toFixed(0)}${r.ok ? '' : ' WRONG'}` : '—';
    }),
  ]);
  out(`BLS12-381 G1 g1.msm, validate on-curve, median of ${opts.runs} verified runs; ${cpu}`);
  out(`| ${head.join(' | ')} |\n|${head.map((_, i) => (i >= 4 ? '---:' : '---')).join('|')}|`);
  for (const b of body) out(`| ${b.join(' | ')} |`);
}
for (const p of problems) console.error(`bench:engines: ${p}`);
process.exit(problems.length || rows.some((r) => !r.ok) ? 1 : 0);
