/**
 * What the browser-engine tests share: the checks page (test/engines/page.ts bundled with esbuild
 * into a temporary directory with an index.html), served from a loopback port with or without
 * COOP/COEP by demo/serve.mjs; a minimal driver interface that Chromium (playwright-core), Firefox
 * ESR (puppeteer-core over WebDriver BiDi) and WebKitGTK (WebKitWebDriver, W3C WebDriver over HTTP)
 * implement; and `runPage`, which loads the page and runs `window.pippinEngineChecks` there.
 * Timing (reported in the summary, never asserted), on cross-origin-isolated pages only:
 * PIPPIN_ENGINE_BENCH='{"sizes":[14,16],"threads":[1,2],"runs":3}' (what `npm run bench:engines`
 * passes: its --sizes, --threads, --runs; any key may be left out) or PIPPIN_ENGINE_TIME=1 (the
 * defaults of `benchMsm`, test/engines/checks.ts).
 * Every page also runs the pippin/kzg check against c-kzg's outputs (test/engines/kzg-fixture.ts,
 * made first when missing), which the page fetches from kzg-expected.json beside it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BenchOptions, CheckSummary, PageOptions } from '../../engines/checks.js';
import { kzgFixturePath } from '../../engines/kzg-fixture.js';
// @ts-expect-error plain .mjs helpers without type declarations
import { startServer } from '../../../demo/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export type PageSummary = CheckSummary & { lines: string[]; userAgent: string; crossOriginIsolated: boolean; sharedArrayBuffer: boolean };

/** One browser session: navigate, then run a function of one JSON argument in the page. */
export interface Driver {
  readonly label: string;
  goto(url: string): Promise<void>;
  /** runs `window.pippinEngineChecks(options)` in the page */
  checks(options: PageOptions): Promise<PageSummary>;
  close(): Promise<void>;
}

export interface Site {
  url: string;
  /** served with COOP/COEP */
  isolated: boolean;
  close(): Promise<void>;
}

let bundleDir: string | undefined;

/** Bundles the checks page once per process (≈ 1 s); the directory is removed at exit. */
async function bundle(): Promise<string> {
  if (bundleDir) return bundleDir;
  const dir = mkdtempSync(join(tmpdir(), 'pippin-engines-'));
  await build({
    entryPoints: [join(root, 'test', 'engines', 'page.ts')],
    outfile: join(dir, 'page.js'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    logLevel: 'warning',
  });
  // a classic inline script defines pippinEngineChecks at once, waiting for the module page.js
  // (3.2 MB) to replace it: a driver may find the page loaded before the module has run (WebKitGTK)
  const stub =
    'window.pippinEngineChecks = function stub(o) { var t0 = Date.now(); return new Promise(function (ok, no) { (function poll() {' +
    ' if (window.pippinEngineChecks !== stub) ok(window.pippinEngineChecks(o));' +
    " else if (Date.now() - t0 > 120000) no(new Error('page.js did not define pippinEngineChecks within 120 s'));" +
    ' else setTimeout(poll, 20); })(); }); };';
  writeFileSync(join(dir, 'kzg-expected.json'), readFileSync(await kzgFixturePath()));
  writeFileSync(join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><title>pippin engine checks</title><script>${stub}</script><script type="module" src="page.js"></script>\n`);
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  bundleDir = dir;
  return dir;
}

/** The checks page on an ephemeral loopback port; `isolation`: serve COOP/COEP (cross-origin isolated). */
export async function servePage(isolation: boolean): Promise<Site> {
  const dir = await bundle();
  const s = await startServer({ port: 0, isolation, root: dir });
  return { url: s.url, isolated: isolation, close: () => s.close() };
}

/**
 * The timing the pages run after their checks, from the environment: PIPPIN_ENGINE_BENCH (a JSON
 * object with optional `sizes` (log2, integers 0..20), `threads` (integers 1..64), `runs` (integer
 * 1..100)), else `{}` (benchMsm's defaults) when PIPPIN_ENGINE_TIME=1, else undefined (no timing).
 * Throws an Error naming the variable and the bad key on anything else.
 */
export function benchFromEnv(env: NodeJS.ProcessEnv = process.env): BenchOptions | undefined {
  const raw = env.PIPPIN_ENGINE_BENCH;
  if (raw === undefined || raw === '') return env.PIPPIN_ENGINE_TIME === '1' ? {} : undefined;
  const bad = (what: string): never => {
    throw new Error(`PIPPIN_ENGINE_BENCH=${raw}: ${what} (expected e.g. {"sizes":[14,16],"threads":[1,2],"runs":3})`);
  };
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    bad('not JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) bad('not a JSON object');
  const o = v as Record<string, unknown>;
  const ints = (key: string, min: number, max: number, list: boolean) => {
    const x = o[key];
    if (x === undefined) return;
    const xs = list ? x : [x];
    if (!Array.isArray(xs) || !xs.length || !xs.every((y) => Number.isInteger(y) && y >= min && y <= max)) bad(`${key}: ${list ? 'a non-empty array of integers' : 'an integer'} in ${min}..${max}`);
  };
  for (const k of Object.keys(o)) if (!['sizes', 'threads', 'runs'].includes(k)) bad(`unknown key ${k}`);
  ints('sizes', 0, 20, true);
  ints('threads', 1, 64, true);
  ints('runs', 1, 100, false);
  return o as BenchOptions;
}

/**
 * Loads the page in a fresh navigation and runs the checks; on an isolated site also the timing
 * `benchFromEnv()` asks for (non-isolated pages are never timed: they have no pool, and
 * bench/engines.ts reads the isolated rows only).
 */
export async function runPage(driver: Driver, site: Site, options: Omit<PageOptions, 'time'>): Promise<PageSummary> {
  const time = site.isolated ? benchFromEnv() : undefined;
  await driver.goto(site.url);
  const summary = await driver.checks({ ...options, ...(time ? { time } : {}) });
  const { lines, failures, ...rest } = summary;
  console.log(`# ${driver.label} ${site.url}\n${lines.map((l) => `#   ${l}`).join('\n')}\n# ${JSON.stringify(rest)}`);
  void failures;
  return summary;
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** The page-side call, as source for drivers that take a script string (WebDriver). */
export const CHECKS_ASYNC_SCRIPT =
  'const done = arguments[arguments.length - 1];' +
  'window.pippinEngineChecks(arguments[0]).then(done, (e) => done({ error: String(e && e.stack || e) }));';
