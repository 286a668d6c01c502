/**
 * What the browser-engine tests share: the checks page (test/engines/page.ts bundled with esbuild
 * into a temporary directory with an index.html), served from a loopback port with or without
 * COOP/COEP by demo/serve.mjs; a minimal driver interface that Chromium (playwright-core), Firefox
 * ESR (puppeteer-core over WebDriver BiDi) and WebKitGTK (WebKitWebDriver, W3C WebDriver over HTTP)
 * implement; and `runPage`, which loads the page and runs `window.pippinEngineChecks` there.
 * PIPPIN_ENGINE_TIME=1 adds the 2^16 timing (reported in the summary, never asserted).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { CheckOptions, CheckSummary } from '../../engines/checks.js';
// @ts-expect-error plain .mjs helpers without type declarations
import { startServer } from '../../../demo/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export type PageSummary = CheckSummary & { lines: string[]; userAgent: string; crossOriginIsolated: boolean; sharedArrayBuffer: boolean };

/** One browser session: navigate, then run a function of one JSON argument in the page. */
export interface Driver {
  readonly label: string;
  goto(url: string): Promise<void>;
  /** runs `window.pippinEngineChecks(options)` in the page */
  checks(options: Omit<CheckOptions, 'engine' | 'log'>): Promise<PageSummary>;
  close(): Promise<void>;
}

export interface Site {
  url: string;
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
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>pippin engine checks</title><script type="module" src="page.js"></script>\n');
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  bundleDir = dir;
  return dir;
}

/** The checks page on an ephemeral loopback port; `isolation`: serve COOP/COEP (cross-origin isolated). */
export async function servePage(isolation: boolean): Promise<Site> {
  const dir = await bundle();
  const s = await startServer({ port: 0, isolation, root: dir });
  return { url: s.url, close: () => s.close() };
}

/** Loads the page in a fresh navigation and runs the checks; the time option from PIPPIN_ENGINE_TIME. */
export async function runPage(driver: Driver, site: Site, options: Omit<CheckOptions, 'engine' | 'log' | 'time'>): Promise<PageSummary> {
  await driver.goto(site.url);
  const summary = await driver.checks({ ...options, time: process.env.PIPPIN_ENGINE_TIME === '1' });
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
