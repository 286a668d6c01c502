/**
 * `kzg.sync` on the main thread of a page in headless Chromium: how long one synchronous call holds
 * the page (no rendering, no input handling meanwhile). The page (a tiny entry importing
 * src/kzg/index.ts, bundled by esbuild, served by demo/serve.mjs without cross-origin isolation:
 * one thread, as most pages) loads the official setup, then per run (a new seeded random blob each,
 * a warm-up run first) times kzg.sync.blobToKzgCommitment, computeBlobKzgProof and
 * computeCellsAndKzgProofs (the first cells call, which builds FK20's tables, timed apart), each
 * call in a task of its own (a timer callback); the page also reports the longest 'longtask' entry
 * Chromium recorded in the run (the main thread busy that long: no frame, no input meanwhile). Every result is compared here
 * with c-kzg 4.1.0 native. Prints medians.
 *
 *   npx tsx bench/kzg-sync-page.ts [--runs 5] [--json]
 * Chromium: /usr/bin/chromium or CHROMIUM_PATH, headless, --no-sandbox.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { intFlag, parseFlags, runCli } from '../src/cli-args.js';
import { randomBlob } from '../examples/kzg-4844/blobs.js';
// @ts-expect-error plain .mjs helpers without type declarations
import { startServer } from '../demo/serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const USAGE = 'usage: npx tsx bench/kzg-sync-page.ts [--runs 5] [--json]';
const ckzg = createRequire(import.meta.url)('c-kzg') as typeof import('c-kzg');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

const PAGE = `
import { loadKzg } from ${JSON.stringify(join(root, 'src/kzg/index.ts'))};
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const bytes = (h) => Uint8Array.from(h.match(/../g), (x) => parseInt(x, 16));
let longest = 0;
new PerformanceObserver((l) => { for (const e of l.getEntries()) longest = Math.max(longest, e.duration); }).observe({ type: 'longtask', buffered: true });
const kzg = await loadKzg();
// each call in a task of its own (a timer callback), as an app's event handler would run it
const time = (f) => new Promise((resolve) => setTimeout(() => { const t0 = performance.now(); const v = f(); resolve([v, performance.now() - t0]); }));
window.runSync = async (blobHex) => {
  const blob = bytes(blobHex);
  longest = 0;
  const [c, commitMs] = await time(() => kzg.sync.blobToKzgCommitment(blob));
  const [p, proofMs] = await time(() => kzg.sync.computeBlobKzgProof(blob, c));
  const [[cells, proofs], cellsMs] = await time(() => kzg.sync.computeCellsAndKzgProofs(blob));
  await new Promise((r) => setTimeout(r, 100)); // let the observer report
  return { commitMs, proofMs, cellsMs, longestTaskMs: longest, commitment: hex(c), proof: hex(p), cells: hex(cells[5]) + hex(cells[127]), proofs: proofs.map(hex).join('') };
};
window.ready = true;
`;

async function main(): Promise<number> {
  const { values } = parseFlags(process.argv.slice(2), { runs: { type: 'string' }, json: { type: 'boolean' } });
  const runs = intFlag('runs', values.runs, 5, 1, 100);
  if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath} (CHROMIUM_PATH)`);
  const dir = mkdtempSync(join(tmpdir(), 'pippin-kzg-sync-page-'));
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const site = await startServer({ port: 0, isolation: false, root: dir });
  try {
    writeFileSync(join(dir, 'entry.js'), PAGE);
    await build({ entryPoints: [join(dir, 'entry.js')], outdir: join(dir, 'out'), bundle: true, splitting: true, minify: true, format: 'esm', target: 'es2022', platform: 'browser', logLevel: 'error' });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>kzg.sync</title><script type="module" src="out/entry.js"></script>\n');
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(site.url);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true, undefined, { timeout: 60_000 });
    const version = browser.version();
    ckzg.loadTrustedSetup(0);
    type R = { commitMs: number; proofMs: number; cellsMs: number; longestTaskMs: number; commitment: string; proof: string; cells: string; proofs: string };
    const rows: R[] = [];
    let firstCellsMs = NaN;
    let ok = true;
    for (let run = 0; run <= runs; run++) {
      const blob = randomBlob(2000 + run);
      const r = (await page.evaluate((b) => (window as unknown as { runSync(b: string): Promise<unknown> }).runSync(b), hex(blob))) as R;
      const c = ckzg.blobToKzgCommitment(blob);
      const [cells, proofs] = ckzg.computeCellsAndKzgProofs(blob);
      const same = r.commitment === hex(c) && r.proof === hex(ckzg.computeBlobKzgProof(blob, c)) && r.cells === hex(cells[5]) + hex(cells[127]) && r.proofs === proofs.map(hex).join('');
      ok &&= same;
      if (!values.json) console.error(`run ${run}${run === 0 ? ' (warm-up; its cells call builds FK20 tables)' : ''}: commit ${r.commitMs.toFixed(1)} ms, blob proof ${r.proofMs.toFixed(1)} ms, cells + proofs ${r.cellsMs.toFixed(1)} ms, longest task ${r.longestTaskMs.toFixed(0)} ms, ${same ? '= c-kzg' : 'DIFFERS from c-kzg'}`);
      if (run === 0) firstCellsMs = r.cellsMs;
      else rows.push(r);
    }
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    const median = (k: keyof R) => {
      const a = rows.map((r) => r[k] as number).sort((x, y) => x - y);
      return a[(a.length - 1) >> 1];
    };
    const out = { chromium: version, runs, commitMs: median('commitMs'), blobProofMs: median('proofMs'), cellsProofsMs: median('cellsMs'), firstCellsProofsMs: firstCellsMs, longestTaskMs: median('longestTaskMs'), ok };
    if (values.json) console.log(JSON.stringify(out, null, 2));
    else
      console.log(
        `Chromium ${version}, page main thread, kzg.sync, median of ${runs}: commitment ${out.commitMs.toFixed(1)} ms, blob proof ${out.blobProofMs.toFixed(1)} ms, ` +
          `cells + cell proofs ${out.cellsProofsMs.toFixed(1)} ms (first call, building FK20's tables: ${firstCellsMs.toFixed(0)} ms); longest task per run ${out.longestTaskMs.toFixed(0)} ms; ` +
          `results ${ok ? 'equal to c-kzg' : 'DIFFER from c-kzg'}`,
      );
    return ok ? 0 : 1;
  } finally {
    await browser.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runCli('bench:kzg-sync-page', USAGE, main);
