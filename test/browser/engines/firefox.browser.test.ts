/**
 * The cross-engine checks (test/engines/checks.ts) in Debian's Firefox ESR (/usr/bin/firefox-esr,
 * or FIREFOX_PATH; scripts/ensure-engines.sh installs it), driven headless over WebDriver BiDi by
 * puppeteer-core (which needs Node ≥ 22.12: scripts/test-browser-engines.sh runs this file on the
 * pinned Node 22). Four page loads:
 * - the pref `javascript.options.wasm_wide_arithmetic` off (stock ESR 153) and on: off, the probe
 *   says no and `init()` takes i32; on, it takes wide64, whose self-test passes with the native
 *   opcodes and whose kernels and MSMs pass every check;
 * - each with COOP/COEP (cross-origin isolated: SharedArrayBuffer, 2 threads) and without (no
 *   SharedArrayBuffer: one thread, and `threads.reason` names cross-origin isolation).
 * A missing Firefox fails the run (it does not skip).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'puppeteer-core';
import { runPage, servePage, withTimeout, type Driver, type PageSummary, type Site } from './harness.js';

const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
/** SpiderMonkey's switch for the Wasm wide-arithmetic proposal (off in ESR 153, on from Firefox 155) */
const WIDE_PREF = 'javascript.options.wasm_wide_arithmetic';

const sites: Record<'isolated' | 'plain', Site> = {} as never;
const browsers: Browser[] = [];

before(async () => {
  if (!existsSync(FIREFOX)) throw new Error(`Firefox not found at ${FIREFOX}: bash scripts/ensure-engines.sh firefox (apt-get install -y firefox-esr), or set FIREFOX_PATH`);
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 12)) throw new Error(`puppeteer-core needs Node ≥ 22.12 (this is ${process.version}): run bash scripts/test-browser-engines.sh`);
  sites.isolated = await servePage(true);
  sites.plain = await servePage(false);
});
after(async () => {
  for (const b of browsers.splice(0)) await withTimeout(b.close(), 15_000, 'firefox close').catch(() => b.process()?.kill('SIGKILL'));
  for (const s of Object.values(sites)) await s.close().catch(() => undefined);
});

async function firefox(wide: boolean): Promise<Driver> {
  const puppeteer = (await import('puppeteer-core')).default;
  const browser = await withTimeout(
    puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, timeout: 60_000, protocolTimeout: 600_000, extraPrefsFirefox: { [WIDE_PREF]: wide } }),
    90_000,
    'firefox launch',
  );
  browsers.push(browser);
  const version = await browser.version();
  let page: Page | undefined;
  return {
    label: `${version}, ${WIDE_PREF} ${wide}`,
    async goto(url) {
      page ??= await browser.newPage();
      page.setDefaultTimeout(600_000);
      const resp = await page.goto(url, { waitUntil: 'load' });
      assert.ok(resp?.ok(), `load ${url}: ${resp?.status()}`);
      await page.waitForFunction(() => typeof (window as any).pippinEngineChecks === 'function');
    },
    checks: (options) => page!.evaluate((o) => (window as any).pippinEngineChecks(o), options) as Promise<PageSummary>,
    close: () => browser.close(),
  };
}

for (const wide of [false, true]) {
  test(`Firefox ESR, ${WIDE_PREF} = ${wide}: ${wide ? 'wide64' : 'i32'}; with and without SharedArrayBuffer`, { timeout: 600_000 }, async () => {
    const driver = await firefox(wide);
    try {
      for (const isolated of [true, false]) {
        const s = await runPage(driver, isolated ? sites.isolated : sites.plain, { expectThreads: isolated, threadsReason: 'not cross-origin isolated' });
        const what = `${driver.label}, ${isolated ? 'isolated' : 'not isolated'}`;
        assert.deepEqual(s.failures, [], `${what}: failed checks`);
        assert.equal(s.engine, 'firefox');
        assert.equal(s.crossOriginIsolated, isolated, `${what}: crossOriginIsolated`);
        assert.equal(s.sharedArrayBuffer, isolated, `${what}: SharedArrayBuffer present`);
        assert.equal(s.wideArithmetic, wide, `${what}: the probe follows the pref`);
        assert.equal(s.backend, wide ? 'wide64' : 'i32', `${what}: backend`);
        assert.equal(s.threads, isolated, `${what}: threads`);
      }
    } finally {
      await withTimeout(driver.close(), 15_000, 'firefox close').catch(() => undefined);
    }
  });
}
