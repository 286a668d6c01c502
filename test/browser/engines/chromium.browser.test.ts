/**
 * The cross-engine checks (test/engines/checks.ts) in Debian's Chromium (/usr/bin/chromium, or
 * CHROMIUM_PATH) through playwright-core, so that every browser runs the same checks: with and
 * without V8's wide-arithmetic flag (`--js-flags=--wasm-wide-arithmetic`: wide64, else i32), each
 * with COOP/COEP (cross-origin isolated: SharedArrayBuffer, 2 threads) and without (one thread,
 * the reason names cross-origin isolation). test/browser/msm.browser.test.ts and
 * wide64.browser.test.ts test the demo page and the field kernels there in more depth.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_PATH, launchChromium } from '../../../src/testing/wide-browser.js';
import { runPage, servePage, withTimeout, type Driver, type PageSummary, type Site } from './harness.js';

const sites: Record<'isolated' | 'plain', Site> = {} as never;
const browsers: Browser[] = [];

before(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: bash scripts/ensure-chromium.sh, or set CHROMIUM_PATH`);
  sites.isolated = await servePage(true);
  sites.plain = await servePage(false);
});
after(async () => {
  for (const b of browsers.splice(0)) await withTimeout(b.close(), 15_000, 'chromium close').catch(() => undefined);
  for (const s of Object.values(sites)) await s.close().catch(() => undefined);
});

async function chromium(wide: boolean): Promise<Driver> {
  const browser = await launchChromium(wide);
  browsers.push(browser);
  let page: Page | undefined;
  return {
    label: `Chromium ${browser.version()}${wide ? ' --js-flags=--wasm-wide-arithmetic' : ''}`,
    async goto(url) {
      await page?.close();
      page = await browser.newPage();
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
  test(`Chromium ${wide ? 'with' : 'without'} the wide-arithmetic flag: ${wide ? 'wide64' : 'i32'}; isolated and not`, { timeout: 600_000 }, async () => {
    const driver = await chromium(wide);
    try {
      for (const isolated of [true, false]) {
        const s = await runPage(driver, isolated ? sites.isolated : sites.plain, { expectThreads: isolated, threadsReason: 'not cross-origin isolated' });
        const what = `${driver.label}, ${isolated ? 'isolated' : 'not isolated'}`;
        assert.deepEqual(s.failures, [], `${what}: failed checks`);
        assert.equal(s.engine, 'chromium');
        assert.equal(s.crossOriginIsolated, isolated, `${what}: crossOriginIsolated`);
        assert.equal(s.wideArithmetic, wide, `${what}: the probe follows the flag`);
        assert.equal(s.backend, wide ? 'wide64' : 'i32', `${what}: backend`);
        assert.equal(s.threads, isolated, `${what}: threads`);
      }
    } finally {
      await withTimeout(driver.close(), 15_000, 'chromium close').catch(() => undefined);
    }
  });
}
