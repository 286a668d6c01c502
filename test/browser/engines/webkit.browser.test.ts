/**
 * The cross-engine checks (test/engines/checks.ts) in WebKitGTK (JavaScriptCore, the engine of
 * Safari): Debian's WebKitWebDriver (webkit2gtk-driver) driving MiniBrowser over W3C WebDriver
 * (plain HTTP, no client library), on an Xvfb display (xvfb-run, unless DISPLAY is set);
 * scripts/ensure-engines.sh installs both. WebKitGTK 2.50's JavaScriptCore has no wide-arithmetic
 * instructions and no option for them (Bun's newer JSC has them on): i32 only, and the test says
 * so (a WebKitGTK that gains them fails here, so that docs/backends.md gets updated).
 * SharedArrayBuffer is off in the GTK port even on a cross-origin-isolated page;
 * `JSC_useSharedArrayBuffer=1` in the driver's environment (inherited by the web process) turns it
 * on. Four page loads: that variable unset and set, each with COOP/COEP and without:
 * - set + isolated: 2 threads; set + not isolated, unset + not isolated: one thread, the reason
 *   names cross-origin isolation;
 * - unset + isolated: one thread, and the reason must say that this engine has no
 *   SharedArrayBuffer although the page is isolated (not blame the headers).
 * A missing WebKitWebDriver or MiniBrowser fails the run (it does not skip).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { CHECKS_ASYNC_SCRIPT, runPage, servePage, withTimeout, type Driver, type PageSummary, type Site } from './harness.js';

const DRIVER = process.env.WEBKIT_WEBDRIVER ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER = process.env.WEBKIT_MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

const sites: Record<'isolated' | 'plain', Site> = {} as never;
const procs: ChildProcess[] = [];

before(async () => {
  for (const [what, path] of [['WebKitWebDriver', DRIVER], ['MiniBrowser', MINIBROWSER]] as const) {
    if (!existsSync(path)) throw new Error(`${what} not found at ${path}: bash scripts/ensure-engines.sh webkit (apt-get install -y webkit2gtk-driver xvfb)`);
  }
  sites.isolated = await servePage(true);
  sites.plain = await servePage(false);
});
after(async () => {
  for (const p of procs.splice(0)) killGroup(p);
  for (const s of Object.values(sites)) await s.close().catch(() => undefined);
});

/** Ends the driver and everything it started (xvfb-run, Xvfb, MiniBrowser, its web processes). */
function killGroup(p: ChildProcess): void {
  if (p.pid !== undefined && p.exitCode === null) {
    try {
      process.kill(-p.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** One W3C WebDriver command; the `value` of the reply, or an Error with the driver's message. */
async function wd(base: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await res.json()) as { value: any };
  if (!res.ok || (json.value && typeof json.value === 'object' && 'error' in json.value && json.value.stacktrace !== undefined)) {
    throw new Error(`WebDriver ${method} ${path}: ${res.status} ${JSON.stringify(json.value).slice(0, 500)}`);
  }
  return json.value;
}

async function webkit(sharedArrayBuffer: boolean): Promise<Driver> {
  const port = await freePort();
  const env = { ...process.env };
  if (sharedArrayBuffer) env.JSC_useSharedArrayBuffer = '1';
  else delete env.JSC_useSharedArrayBuffer;
  const [cmd, args] = process.env.DISPLAY ? [DRIVER, [`--port=${port}`]] : ['xvfb-run', ['-a', DRIVER, `--port=${port}`]];
  const proc = spawn(cmd, args, { env, detached: true, stdio: 'ignore' });
  procs.push(proc);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await wd(base, 'GET', '/status').then((v) => v.ready === true, () => false);
    if (ready) break;
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`WebKitWebDriver did not start on port ${port} (exit ${proc.exitCode})`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const session = await wd(base, 'POST', '/session', {
    capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } } },
  });
  const id = session.sessionId as string;
  const caps = session.capabilities as { browserName: string; browserVersion: string };
  await wd(base, 'POST', `/session/${id}/timeouts`, { script: 600_000, pageLoad: 60_000 });
  return {
    label: `${caps.browserName} (WebKitGTK ${caps.browserVersion}), JSC_useSharedArrayBuffer ${sharedArrayBuffer ? '1' : 'unset'}`,
    async goto(url) {
      await wd(base, 'POST', `/session/${id}/url`, { url });
      const ok = await wd(base, 'POST', `/session/${id}/execute/sync`, { script: "return typeof window.pippinEngineChecks === 'function'", args: [] });
      assert.equal(ok, true, `${url}: the checks page did not load`);
    },
    async checks(options) {
      const v = await wd(base, 'POST', `/session/${id}/execute/async`, { script: CHECKS_ASYNC_SCRIPT, args: [options] });
      if (v && typeof v === 'object' && 'error' in v) throw new Error(`in the page: ${v.error}`);
      return v as PageSummary;
    },
    async close() {
      await withTimeout(wd(base, 'DELETE', `/session/${id}`), 15_000, 'WebDriver session delete').catch(() => undefined);
      killGroup(proc);
    },
  };
}

/** `threads.reason` when the page is isolated but the engine has no SharedArrayBuffer. */
const NO_SAB = /no SharedArrayBuffer|SharedArrayBuffer is (missing|not available in this engine)/;
const isolatedNoSab: PageSummary[] = [];

for (const sab of [true, false]) {
  test(`WebKitGTK, JSC_useSharedArrayBuffer ${sab ? '=1' : 'unset'}: i32, isolated and not`, { timeout: 600_000 }, async () => {
    const driver = await webkit(sab);
    try {
      for (const isolated of [true, false]) {
        const threads = sab && isolated;
        // unset + isolated: the reason is asserted on its own below (threadsReason '' here matches any)
        const reason = !threads && isolated ? '' : 'not cross-origin isolated';
        const s = await runPage(driver, isolated ? sites.isolated : sites.plain, { expectThreads: threads, threadsReason: reason });
        const what = `${driver.label}, ${isolated ? 'isolated' : 'not isolated'}`;
        assert.deepEqual(s.failures, [], `${what}: failed checks`);
        assert.equal(s.engine, 'webkit');
        assert.equal(s.crossOriginIsolated, isolated, `${what}: crossOriginIsolated`);
        assert.equal(s.sharedArrayBuffer, sab, `${what}: SharedArrayBuffer present iff JSC_useSharedArrayBuffer=1`);
        assert.equal(s.wideArithmetic, false, `${what}: WebKitGTK 2.50 has no wide arithmetic (if it has now, update docs/backends.md)`);
        assert.equal(s.backend, 'i32', `${what}: backend`);
        assert.equal(s.threads, threads, `${what}: threads`);
        if (isolated && !sab) isolatedNoSab.push(s);
      }
    } finally {
      await driver.close();
    }
  });
}

test('WebKitGTK without SharedArrayBuffer on an isolated page: threads.reason says the engine lacks it, not the headers', async () => {
  assert.equal(isolatedNoSab.length, 1, 'the run above');
  const reason = isolatedNoSab[0].threadsReason ?? '';
  // the message comes from threadsUnavailableReason() in src/runtime/pool.ts
  assert.match(reason, NO_SAB);
  assert.doesNotMatch(reason, /not cross-origin isolated|Cross-Origin-Embedder-Policy/);
});
