/**
 * The cross-engine checks (./checks.ts) in a browser page: bundled by test/browser/engines/page.ts
 * with esbuild, this defines `window.pippinEngineChecks(options)`, which the browser drivers
 * (Chromium, Firefox ESR, WebKitGTK) call once per page load; it resolves to the summary, with the
 * log lines in `lines`.
 */
import { runChecks, type CheckOptions, type CheckSummary } from './checks.js';

declare global {
  interface Window {
    pippinEngineChecks(options: Omit<CheckOptions, 'engine' | 'log'>): Promise<CheckSummary & { lines: string[]; userAgent: string; crossOriginIsolated: boolean; sharedArrayBuffer: boolean }>;
  }
}

window.pippinEngineChecks = async (options) => {
  const lines: string[] = [];
  const ua = navigator.userAgent;
  const m = /(Firefox|Chrome|Version)\/([\d.]+)/.exec(ua);
  const engine = { engine: m ? { Firefox: 'firefox', Chrome: 'chromium', Version: 'webkit' }[m[1]]! : 'browser', version: m ? m[2] : '?' };
  const summary = await runChecks({ ...options, engine, log: (l) => lines.push(l) });
  return { ...summary, lines, userAgent: ua, crossOriginIsolated: globalThis.crossOriginIsolated === true, sharedArrayBuffer: typeof SharedArrayBuffer !== 'undefined' };
};
