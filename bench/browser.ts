/**
 * MSM benchmark inside headless Chromium: the demo page (bundled from demo/, served cross-origin
 * isolated on a loopback port) runs pippin's MSM on 1 and more threads (Web Workers on a shared
 * WebAssembly.Memory), driven by playwright-core through the page's `window.runMsm` hook.
 *
 *   npm run bench:browser -- [--curve bls12-381|bn254|bls12-377|pallas|vesta] [--sizes 12,14,16]
 *                            [--threads 1,2] [--runs 5] [--seed 1] [--validate on-curve] [--json]
 *                            [--backend wide64|i32|both]
 *
 * --backend launches Chromium with --js-flags=--wasm-wide-arithmetic and one page per backend
 * (`?backend=…`, forced through `init({ backend })`), runs interleaved across backends and thread
 * counts; without it the page runs on whatever `init()` picks in a plain Chromium (i32 today).
 *
 * Per size: Node generates the same seeded inputs as the page (demo/msm-run.ts) and the expected
 * point in closed form, (Σ s_i·a_i mod r)·G with the known discrete logs; the page generates its
 * inputs once (untimed), then every thread count gets a warm-up run whose result must equal the
 * Node point before any timing, then `--runs` timed runs, interleaved across thread counts, each
 * result checked again. The time is the page's `await g1.msm(…)` call (input decoding and
 * `--validate`, default 'on-curve' like bench:msm, included); the table gives the median.
 * Chromium: /usr/bin/chromium or CHROMIUM_PATH, headless, --no-sandbox.
 *
 * Exit code 0 iff every row is ok.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { curveNames, expectedPoint, makeInputs, type CurveName, type RunResult } from '../demo/msm-run.js';
import type { Validation } from '../src/index.js';
import { MAX_THREADS, VALIDATIONS } from '../src/api/options.js';
// @ts-expect-error plain .mjs helpers without type declarations
import { buildDemo } from '../demo/build.mjs';
// @ts-expect-error plain .mjs helpers without type declarations
import { startServer } from '../demo/serve.mjs';
import { choiceFlag, intFlag, intListFlag, parseFlags, runCli } from '../src/cli-args.js';
import { WIDE_FLAG } from '../src/testing/wide-browser.js';

const USAGE = `usage: npm run bench:browser -- [--curve ${curveNames.join('|')}] [--sizes 12,14,16 (0…22)] [--threads 1,2 (1…${MAX_THREADS})]
                                [--runs 5] [--seed 1] [--validate full|on-curve|none] [--json] [--backend wide64|i32|both]`;
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Row {
  impl: string;
  backend: string;
  threads: number;
  threadsUsed: number | undefined;
  logSize: number;
  medianMs: number;
  timesMs: number[];
  ok: boolean;
  note?: string;
}

type PageRun = RunResult & { crossOriginIsolated: boolean };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const implName = (t: number, backend?: string) => `${t === 1 ? 'pippin' : `pippin-${t}t`}${backend ? `[${backend}]` : ''}`;

function formatTable(rows: Row[]): string {
  const cells = [['impl', 'threads', 'logSize', 'medianMs', 'ok', 'checked against / note']];
  for (const r of rows) {
    cells.push([
      r.impl,
      r.threadsUsed === undefined || r.threadsUsed === r.threads ? String(r.threads) : `${r.threads}→${r.threadsUsed}`,
      String(r.logSize),
      Number.isNaN(r.medianMs) ? 'failed' : r.medianMs.toFixed(1),
      r.ok ? 'ok' : 'FAIL',
      r.ok ? 'closed form in Node (known discrete logs), every run' : (r.note ?? ''),
    ]);
  }
  const widths = cells[0].map((_, c) => Math.max(...cells.map((row) => row[c].length)));
  return cells
    .map((row) => row.map((cell, c) => (c === 1 || c === 3 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd())
    .join('\n');
}

async function main(): Promise<number> {
  const { values } = parseFlags(process.argv.slice(2), {
    curve: { type: 'string' },
    sizes: { type: 'string' },
    threads: { type: 'string' },
    runs: { type: 'string' },
    seed: { type: 'string' },
    validate: { type: 'string' },
    json: { type: 'boolean' },
    backend: { type: 'string' },
  });
  const backendFlag = values.backend === undefined ? undefined : choiceFlag('backend', values.backend, 'both', ['wide64', 'i32', 'both'] as const);
  const backends: (string | undefined)[] = backendFlag === undefined ? [undefined] : backendFlag === 'both' ? ['wide64', 'i32'] : [backendFlag];
  const json = values.json === true;
  const curve = choiceFlag<CurveName>('curve', values.curve, 'bls12-381', curveNames);
  const sizes = intListFlag('sizes', values.sizes, [12, 14, 16], 0, 22);
  const threadCounts = intListFlag('threads', values.threads, [1, 2], 1, MAX_THREADS);
  const runs = intFlag('runs', values.runs, 5, 1, 1000);
  const seed = intFlag('seed', values.seed, 1, 0, Number.MAX_SAFE_INTEGER);
  const validate = choiceFlag<Validation>('validate', values.validate, 'on-curve', VALIDATIONS);
  const log = json ? () => {} : (s: string) => process.stderr.write(`${s}\n`);
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  }
  await buildDemo({ quiet: true });
  const server = await startServer({ port: 0, isolation: true });
  let browser: Browser | undefined;
  const rows: Row[] = [];
  try {
    browser = await chromium.launch({
      executablePath,
      headless: true,
      timeout: 30_000,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...(backendFlag ? [WIDE_FLAG] : [])],
    });
    const errors: string[] = [];
    // one page per backend (the curve objects pick their backend once per page)
    const pages = new Map<string | undefined, Page>();
    const used_backend = new Map<string | undefined, string>();
    for (const b of backends) {
      const pg = await browser.newPage();
      pg.setDefaultTimeout(600_000);
      pg.on('pageerror', (e) => errors.push(String(e)));
      await pg.goto(b ? `${server.url}?backend=${b}` : server.url, { waitUntil: 'load', timeout: 30_000 });
      await pg.waitForFunction(() => (window as any).pippinDemoReady === true, undefined, { timeout: 30_000 });
      const info = (await pg.evaluate((c) => (window as any).pippinCurveInfo(c), curve)) as { backend: string };
      if (b && info.backend !== b) throw new Error(`page asked for backend ${b} runs on ${info.backend}`);
      pages.set(b, pg);
      used_backend.set(b, info.backend);
    }
    const page: Page = pages.get(backends[0])!;
    const state = (await page.evaluate(() => (window as any).pippinThreads())) as { active: boolean; count: number; reason?: string; crossOriginIsolated: boolean; hardwareConcurrency: number };
    if (!state.crossOriginIsolated) throw new Error('the demo page is not cross-origin isolated (COOP/COEP headers missing?)');
    if (threadCounts.some((t) => t > 1) && !state.active) throw new Error(`threads unavailable in the page: ${state.reason}`);
    const header = `Chromium ${browser.version()} (headless${backendFlag ? `, ${WIDE_FLAG}` : ''}), crossOriginIsolated, navigator.hardwareConcurrency = ${state.hardwareConcurrency}; curve ${curve}, validate '${validate}', seed ${seed}, backend ${[...used_backend.values()].join(' + ')}`;
    log(header);

    // a lane = one backend's page × one thread count; runs are interleaved across lanes
    const lanes = backends.flatMap((b) => threadCounts.map((t) => ({ key: `${b ?? ''}/${t}`, b, t, impl: implName(t, b) })));
    const run = (lane: (typeof lanes)[number], logSize: number) =>
      pages.get(lane.b)!.evaluate((p) => (window as any).runMsm(p), { curve, logSize, seed, validate, threads: lane.t, verify: false }) as Promise<PageRun>;

    for (const logSize of sizes) {
      const t0 = performance.now();
      const want = expectedPoint(await makeInputs(curve, logSize, seed));
      log(`2^${logSize}: expected point computed in Node (${(performance.now() - t0).toFixed(0)} ms)`);
      const bad = new Map<string, string>();
      const check = (key: string, r: PageRun, what: string) => {
        if (r.x !== want.x || r.y !== want.y || r.infinity !== want.infinity) {
          bad.set(key, `${what}: page point ${r.x.slice(0, 18)}… ≠ Node closed form ${want.x.slice(0, 18)}…`);
        }
      };
      const used = new Map<string, number>();
      // warm-up (also generates the page's inputs once): verified before anything is timed
      for (const lane of lanes) {
        const r = await run(lane, logSize);
        used.set(lane.key, r.threadsUsed);
        check(lane.key, r, 'warm-up');
        log(`2^${logSize} ${lane.impl}: warm-up ${r.ms.toFixed(1)} ms on ${r.threadsUsed} thread(s), ${bad.has(lane.key) ? 'MISMATCH' : 'equals the Node point'}`);
      }
      const times = new Map<string, number[]>(lanes.map((l) => [l.key, []]));
      for (let i = 0; i < runs; i++) {
        for (const lane of lanes) {
          if (bad.has(lane.key)) continue;
          const r = await run(lane, logSize);
          check(lane.key, r, `run ${i + 1}`);
          if (r.threadsUsed !== used.get(lane.key)) bad.set(lane.key, `run ${i + 1} used ${r.threadsUsed} threads, the warm-up ${used.get(lane.key)}`);
          times.get(lane.key)!.push(r.ms);
        }
      }
      for (const lane of lanes) {
        const ts = times.get(lane.key)!;
        const threadsUsed = used.get(lane.key);
        const t = lane.t;
        const note = bad.get(lane.key) ?? (threadsUsed !== t ? `ran on ${threadsUsed} thread(s), not ${t}` : undefined);
        rows.push({ impl: lane.impl, backend: used_backend.get(lane.b)!, threads: t, threadsUsed, logSize, medianMs: ts.length ? median(ts) : NaN, timesMs: ts, ok: !bad.has(lane.key) && ts.length === runs && threadsUsed === t, note });
        log(`2^${logSize} ${lane.impl}: ${ts.map((x) => x.toFixed(0)).join(', ')} ms`);
      }
    }
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);

    if (json) {
      console.log(JSON.stringify(rows.map((r) => ({ ...r, curve, validate, environment: 'chromium', chromium: browser!.version() })), null, 2));
    } else {
      console.log(`\n${header}\n${runs} timed run(s) after 1 verified warm-up, interleaved across thread counts, median in ms\n`);
      console.log(formatTable(rows));
      if (threadCounts.length > 1 && threadCounts.includes(1)) {
        console.log('\nspeed-up over 1 thread (median on 1 thread / median on N threads):');
        for (const b of backends) for (const logSize of sizes) {
          const mine = rows.filter((r) => r.backend === used_backend.get(b) && r.logSize === logSize);
          const one = mine.find((r) => r.threads === 1 && r.ok);
          const parts = mine.filter((r) => r.threads > 1).map((r) => (r.ok && one ? `${r.impl} ${(one.medianMs / r.medianMs).toFixed(2)}×` : `${r.impl} -`));
          console.log(`  2^${logSize}: ${one ? `${one.impl} ${one.medianMs.toFixed(1)} ms` : '1 thread not ok'}  ${parts.join('  ')}`);
        }
      }
      if (backends.length === 2) {
        console.log('\nwide64 over i32 (median i32 / median wide64), same thread count:');
        for (const logSize of sizes) for (const t of threadCounts) {
          const w = rows.find((r) => r.backend === 'wide64' && r.logSize === logSize && r.threads === t && r.ok);
          const i = rows.find((r) => r.backend === 'i32' && r.logSize === logSize && r.threads === t && r.ok);
          console.log(`  2^${logSize}, ${t} thread(s): ${w && i ? `${(i.medianMs / w.medianMs).toFixed(2)}× (${i.medianMs.toFixed(1)} → ${w.medianMs.toFixed(1)} ms)` : '-'}`);
        }
      }
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await server.close();
  }
  return rows.every((r) => r.ok) ? 0 : 1;
}

runCli('bench:browser', USAGE, main, true);
