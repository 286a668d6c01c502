/**
 * Browser test of the demo (`npm run test:browser`, and part of `npm test`): bundles demo/, serves
 * it on an ephemeral loopback port, drives Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH)
 * headless through playwright-core and checks that `window.runMsm` in the page gives the same point
 * as the same seed in Node (on the calling thread there), verified:
 * - with COOP/COEP (cross-origin isolated): threads are active and the MSM runs on 2 workers;
 * - without: the page says threads are unavailable and why, and the MSM falls back to one thread.
 * A missing Chromium fails the run (it does not skip).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { runMsm, type CurveName, type Group, type RunResult } from '../../demo/msm-run.js';
// @ts-expect-error plain .mjs helpers without type declarations
import { buildDemo } from '../../demo/build.mjs';
// @ts-expect-error plain .mjs helpers without type declarations
import { startServer } from '../../demo/serve.mjs';

interface Served {
  url: string;
  close(): Promise<void>;
}

const SEED = 20240607;
/** threads: what the page is asked for (1 = the page's own thread) */
const CASES: { curve: CurveName; group?: Group; logSize: number; threads: number }[] = [
  { curve: 'bls12-381', logSize: 10, threads: 1 },
  { curve: 'bls12-381', logSize: 12, threads: 2 },
  { curve: 'bls12-381', logSize: 14, threads: 2 },
  { curve: 'bn254', logSize: 10, threads: 1 },
  { curve: 'bn254', logSize: 12, threads: 2 },
  { curve: 'bn254', logSize: 14, threads: 2 },
  { curve: 'bls12-381', group: 'g2', logSize: 8, threads: 2 },
  { curve: 'bn254', group: 'g2', logSize: 9, threads: 1 },
];
const key = (c: { curve: CurveName; group?: Group; logSize: number }) => `${c.curve}/${c.group ?? 'g1'}/${c.logSize}`;
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

let browserServer: BrowserServer | undefined;
let browser: Browser | undefined;
const servers: Served[] = [];
const expected = new Map<string, { x: string; y: string; infinity: boolean; ok: boolean }>();

before(async () => {
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium not found at ${executablePath}: the browser tests need Debian's Chromium (apt-get install -y chromium), or CHROMIUM_PATH pointing at a Chromium binary`,
    );
  }
  await withTimeout(buildDemo({ quiet: true }), 60_000, 'esbuild bundle');
  for (const c of CASES) {
    const r = await withTimeout(runMsm({ curve: c.curve, group: c.group, logSize: c.logSize, seed: SEED, threads: 1 }), 60_000, `node runMsm ${key(c)}`);
    assert.ok(r.ok, `Node result for ${key(c)} fails its closed-form check`);
    expected.set(key(c), { x: r.x, y: r.y, infinity: r.infinity, ok: r.ok });
  }
  // launchServer (not launch) so the Chromium process is at hand to kill if closing hangs
  browserServer = await withTimeout(
    chromium.launchServer({
      executablePath,
      headless: true,
      timeout: 30_000,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    }),
    40_000,
    'chromium launch',
  );
  browser = await withTimeout(chromium.connect(browserServer.wsEndpoint(), { timeout: 15_000 }), 20_000, 'connect to chromium');
});

after(async () => {
  if (browser) await withTimeout(browser.close(), 10_000, 'browser.close').catch(() => undefined);
  browser = undefined;
  if (browserServer) {
    const bs = browserServer;
    browserServer = undefined;
    await withTimeout(bs.close(), 10_000, 'browserServer.close').catch(async () => {
      await withTimeout(bs.kill(), 5_000, 'browserServer.kill').catch(() => bs.process().kill('SIGKILL'));
    });
  }
  for (const s of servers.splice(0)) await withTimeout(s.close(), 5_000, 'server.close').catch(() => undefined);
});

for (const isolation of [true, false]) {
  test(`demo page in Chromium ${isolation ? 'with' : 'without'} COOP/COEP matches Node`, { timeout: 180_000 }, async () => {
    assert.ok(browser, 'browser was launched in before()');
    const server: Served = await withTimeout(startServer({ port: 0, isolation }), 5_000, 'server start');
    servers.push(server);
    const context = await withTimeout(browser.newContext(), 10_000, 'newContext');
    try {
      const page = await withTimeout(context.newPage(), 10_000, 'newPage');
      page.setDefaultTimeout(60_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const resp = await withTimeout(page.goto(server.url, { waitUntil: 'load', timeout: 30_000 }), 35_000, 'page.goto');
      assert.ok(resp && resp.ok(), `page load status ${resp?.status()}`);
      const coep = resp.headers()['cross-origin-embedder-policy'];
      assert.equal(coep, isolation ? 'require-corp' : undefined, 'COEP header as configured');
      await withTimeout(page.waitForFunction(() => (window as any).pippinDemoReady === true, undefined, { timeout: 30_000 }), 35_000, 'demo ready');
      const coi = await withTimeout(page.evaluate(() => globalThis.crossOriginIsolated), 10_000, 'crossOriginIsolated');
      assert.equal(coi, isolation, `crossOriginIsolated should be ${isolation}`);
      const state = await withTimeout(page.evaluate(() => (window as any).pippinThreads()), 10_000, 'pippinThreads') as { active: boolean; count: number; reason?: string; crossOriginIsolated: boolean };
      assert.equal(state.crossOriginIsolated, isolation, 'pippinThreads().crossOriginIsolated');
      const banner = (await page.textContent('#threadsBanner')) ?? '';
      const threadsControl = page.locator('#threads');
      if (isolation) {
        assert.equal(state.active, true, `threads.active on the isolated page (reason: ${state.reason})`);
        assert.equal(state.reason, undefined, 'no threads.reason while active');
        assert.match(banner, /threads active/, 'banner says threads are active');
        assert.equal(await threadsControl.isDisabled(), false, 'threads control enabled');
      } else {
        assert.equal(state.active, false, 'threads.active is false without isolation');
        assert.match(state.reason ?? '', /cross-origin isolated/, 'threads.reason names cross-origin isolation');
        assert.match(banner, /threads unavailable: .*cross-origin isolated.*; running on 1 thread/, 'banner says why threads are off');
        assert.equal(await threadsControl.isDisabled(), true, 'threads control disabled');
      }
      for (const c of CASES) {
        const what = `${key(c)}, ${c.threads} thread(s) asked`;
        const got = (await withTimeout(
          page.evaluate((p) => (window as any).runMsm(p), { curve: c.curve, group: c.group, logSize: c.logSize, threads: c.threads, seed: SEED }),
          60_000,
          `page runMsm ${what}`,
        )) as RunResult & { crossOriginIsolated: boolean };
        const want = expected.get(key(c))!;
        assert.ok(got.ok === true, `page result for ${what} fails its closed-form check`);
        assert.ok(typeof got.ms === 'number' && got.ms >= 0, `page reports a time for ${what}`);
        assert.deepEqual({ x: got.x, y: got.y, infinity: got.infinity }, { x: want.x, y: want.y, infinity: want.infinity }, `page point equals Node point for ${what}`);
        assert.equal(got.crossOriginIsolated, isolation, `crossOriginIsolated reported with ${what}`);
        assert.equal(got.threadsRequested, c.threads, `threads asked for ${what}`);
        if (c.threads === 1) {
          assert.equal(got.threadsUsed, 1, `one thread used for ${what}`);
          assert.equal(got.fallback, false, `asking for 1 thread is no fallback (${what})`);
        } else if (isolation) {
          assert.equal(got.threadsActive, true, `threads.active after ${what}`);
          assert.equal(got.fallback, false, `no fallback for ${what}`);
          assert.equal(got.threadsUsed, 2, `the MSM ran on 2 threads for ${what}`);
          assert.ok(got.tiles >= 2, `several tiles for ${what} (got ${got.tiles})`);
        } else {
          assert.equal(got.fallback, true, `fallback flag set for ${what}`);
          assert.equal(got.threadsActive, false, `threads.active false for ${what}`);
          assert.equal(got.threadsUsed, 1, `fell back to 1 thread for ${what}`);
          assert.match(got.threadsReason ?? '', /cross-origin isolated/, `fallback reason names cross-origin isolation (${what})`);
        }
      }
      assert.ok(errors.length === 0, `no page errors (got: ${errors.join('; ')})`);
    } finally {
      await withTimeout(context.close(), 10_000, 'context.close').catch(() => undefined);
    }
  });
}
