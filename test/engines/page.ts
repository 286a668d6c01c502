/**
 * The cross-engine checks (./checks.ts) in a browser page: bundled by test/browser/engines/page.ts
 * with esbuild, this defines `window.pippinEngineChecks(options)`, which the browser drivers
 * (Chromium, Firefox ESR, WebKitGTK) call once per page load; it resolves to the summary, with the
 * log lines in `lines`. Where ./kzg-expected.json is served beside it (c-kzg's outputs, written by
 * the harness in Node from ./kzg-fixture.ts), it runs the pippin/kzg check too (./kzg-check.ts).
 */
import { runChecks, type CheckSummary, type PageOptions } from './checks.js';
import type { KzgExpected } from './kzg-check.js';

declare global {
  interface Window {
    pippinEngineChecks(options: PageOptions): Promise<CheckSummary & { lines: string[]; userAgent: string; crossOriginIsolated: boolean; sharedArrayBuffer: boolean }>;
  }
}

window.pippinEngineChecks = async (options) => {
  const lines: string[] = [];
  const ua = navigator.userAgent;
  const m = /(Firefox|Chrome|Version)\/([\d.]+)/.exec(ua);
  const engine = { engine: m ? { Firefox: 'firefox', Chrome: 'chromium', Version: 'webkit' }[m[1]]! : 'browser', version: m ? m[2] : '?' };
  // c-kzg's outputs, written beside the page by the harness (none: the KZG check is skipped);
  // pippin/kzg and its setup (1.9 MB of the bundle) are evaluated only when that check runs
  const expected = (await fetch('./kzg-expected.json').then((r) => (r.ok ? r.json() : undefined), () => undefined)) as KzgExpected | undefined;
  const check = (want: KzgExpected, two: boolean) => import('./kzg-check.js').then((m) => m.checkKzg(want, two));
  const summary = await runChecks({ ...options, engine, log: (l) => lines.push(l), ...(expected ? { kzg: { expected, check } } : {}) });
  return { ...summary, lines, userAgent: ua, crossOriginIsolated: globalThis.crossOriginIsolated === true, sharedArrayBuffer: typeof SharedArrayBuffer !== 'undefined' };
};
