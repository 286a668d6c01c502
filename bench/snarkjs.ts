/**
 * `npm run bench:snarkjs`: snarkjs prove times with ffjavascript's MSMs (stock) and with pippin's
 * (the engine), in one process, interleaved run by run, every proof verified by snarkjs with the stock
 * methods in place. Rows: Groth16 on Poseidon chains (≈ 2^12, 2^14, 2^15 constraints) and circomlib's
 * SHA-256 of one block (a witness of bits), PLONK on the 2^12 chain (scripts/snarkjs-fixtures.ts); the engine cold (cache cleared before the
 * proof: conversion, decode and validation included) and warm (bases cached); for Groth16 pippin's
 * whole prover with its key loaded once (`groth16.loadKey`, `key.prove`) and one-shot
 * (`groth16.prove(zkey, wtns)`: the key read and prepared on every proof, as snarkjs does); MSM time
 * per proof and a per-call table (stock vs engine on the same call).
 *
 *   npm run bench:snarkjs [-- --runs 5] [--only name,…] [--json] [--browser]
 *
 * --browser runs the same rows in headless Chromium (/usr/bin/chromium or CHROMIUM_PATH): snarkjs's
 * browser build, the engine and pippin's whole Groth16 prover on pippin's Web Worker pool, keys fetched
 * from a local server.
 *
 * Keys come from scripts/snarkjs-fixtures.ts (.cache/snarkjs; built when missing: the 2^14/2^15
 * powers of tau take minutes). Threads: ffjavascript uses one worker per core, pippin's pool too.
 */
import { execSync } from 'node:child_process';
import { cpus } from 'node:os';
import * as snarkjs from 'snarkjs';
import * as ffjavascript from 'ffjavascript';
import type { FfjsCurve, FfjsModule } from '../src/snarkjs/index.js';
import { benchProtocol, setupBench, type SnarkjsLike } from './snarkjs-run.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { groth16 } from '../src/snarkjs/index.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_FIXTURES, buildFixture, CACHE, terminateCurves, TEST_FIXTURES, type Fixture, type FixtureSpec, type Protocol } from '../scripts/snarkjs-fixtures.js';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const RUNS = Number(arg('runs') ?? 5);
const JSON_OUT = args.includes('--json');
const ONLY = arg('only')?.split(',');
const BROWSER = args.includes('--browser');

const DEFAULT_SPECS = BENCH_FIXTURES;
/** --only also takes the test fixtures (a quick run) */
const SPECS: readonly FixtureSpec[] = ONLY ? [...DEFAULT_SPECS, ...TEST_FIXTURES.filter((s) => s.prime === 'bn128')].filter((s) => ONLY.includes(s.name)) : DEFAULT_SPECS;

const ff = ffjavascript as unknown as FfjsModule & { buildBn128: () => Promise<FfjsCurve> };
const cpu = (() => {
  try {
    return execSync('lscpu', { encoding: 'utf8' }).match(/Model name:\s*(.+)/)?.[1]?.trim() ?? cpus()[0]?.model;
  } catch {
    return cpus()[0]?.model;
  }
})();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

/** Node: the engine and snarkjs in this process; keys read from the files by snarkjs. */
async function runNode(fixtures: Fixture[]): Promise<Row[]> {
  const b = await setupBench(ff);
  const rows: Row[] = [];
  for (const fx of fixtures) {
    for (const protocol of fx.spec.protocols as Protocol[]) {
      const key = protocol === 'groth16' ? await groth16.loadKey(fx.zkey.groth16!) : undefined;
      const witness = new Uint8Array(readFileSync(fx.wtns));
      // one-shot: groth16.prove reads the key's file and prepares it on every proof, as snarkjs does
      const oneShot = protocol === 'groth16' ? () => groth16.prove(fx.zkey.groth16!, witness) : undefined;
      const row = await benchProtocol(b, snarkjs as unknown as SnarkjsLike, protocol, () => fx.zkey[protocol], () => fx.wtns, fx.vkey[protocol], RUNS, fx.spec.name, key && (() => key.prove(witness)), oneShot);
      key?.dispose();
      rows.push({ engine: `Node ${process.version}`, circuit: fx.spec.name, constraints: fx.constraints, ...row });
      report(rows[rows.length - 1]);
    }
  }
  await b.engine.uninstall();
  return rows;
}

/** Chromium: the page bundle (snarkjs's browser build, the engine, pippin's groth16) served with the fixtures, cross-origin isolated. */
async function runBrowser(fixtures: Fixture[]): Promise<Row[]> {
  const { build } = await import('esbuild');
  const { chromium } = await import('playwright-core');
  // @ts-expect-error plain .mjs helper without type declarations
  const { startServer } = await import('../demo/serve.mjs');
  const pageDir = join(CACHE, 'page');
  mkdirSync(pageDir, { recursive: true });
  await build({ entryPoints: [fileURLToPath(new URL('./snarkjs-page.ts', import.meta.url))], outfile: join(pageDir, 'page.js'), bundle: true, format: 'esm', target: 'es2022', platform: 'browser', logLevel: 'warning' });
  writeFileSync(join(pageDir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>pippin snarkjs bench</title><script type="module" src="page.js"></script>\n');
  const server = await startServer({ port: 0, root: CACHE });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  const rows: Row[] = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.goto(`${server.url}page/index.html`);
    await page.waitForFunction(() => (globalThis as Record<string, unknown>).snarkjsPageReady === true, undefined, { timeout: 60_000 });
    const version = browser.version();
    for (const fx of fixtures) {
      for (const protocol of fx.spec.protocols as Protocol[]) {
        const row = await page.evaluate((a) => (globalThis as unknown as { runSnarkjs(x: unknown): Promise<Row> }).runSnarkjs(a), { dir: fx.spec.name, protocol, runs: RUNS });
        rows.push({ engine: `Chromium ${version}`, circuit: fx.spec.name, constraints: fx.constraints, ...row });
        report(rows[rows.length - 1]);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

function report(r: Row) {
  if (JSON_OUT) {
    const { calls, ...rest } = r;
    console.log(JSON.stringify({ kind: 'prove', cpu, ...rest }));
    for (const c of calls) console.log(JSON.stringify({ kind: 'call', engine: r.engine, circuit: r.circuit, protocol: r.protocol, ...c }));
  } else console.error(`${r.engine} ${r.circuit} ${r.protocol}: stock ${r.stockMs.toFixed(0)} ms, engine warm ${r.warmMs.toFixed(0)} ms (${r.speedupWarm.toFixed(2)}×), cold ${r.coldMs.toFixed(0)} ms (${r.speedupCold.toFixed(2)}×)${r.wholeMs !== undefined ? `, pippin groth16 ${r.wholeMs.toFixed(0)} ms (${r.speedupWhole.toFixed(2)}×)` : ''}${r.oneShotMs !== undefined ? `, one-shot groth16.prove ${r.oneShotMs.toFixed(0)} ms (${r.speedupOneShot.toFixed(2)}×)` : ''}`);
}

async function main() {
  const fixtures: Fixture[] = [];
  for (const spec of SPECS) fixtures.push(await buildFixture(spec));
  const rows = BROWSER ? await runBrowser(fixtures) : await runNode(fixtures);
  if (!JSON_OUT) {
    console.log(`\nsnarkjs 0.7.6 prove, stock ffjavascript 0.3.1 vs the pippin engine — ${cpu}, ${rows[0]?.engine}, ${cpus().length} cores (both sides use all of them), medians of ${RUNS} interleaved runs (warm: ${2 * RUNS}), every proof verified by stock snarkjs${rows[0]?.crossOriginIsolated !== undefined ? `; page crossOriginIsolated: ${rows[0].crossOriginIsolated}, pippin threads: ${rows[0].pippinThreads}` : ''}\n`);
    console.log('| circuit | protocol | constraints | stock ms (MSM) | pippin groth16 ms (key loaded) | speed-up | one-shot groth16.prove ms | speed-up | engine warm ms (MSM) | speed-up | engine cold ms (MSM) | speed-up |');
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      const whole = r.wholeMs !== undefined ? `${r.wholeMs.toFixed(0)} | ${r.speedupWhole.toFixed(2)}×` : ' | ';
      const oneShot = r.oneShotMs !== undefined ? `${r.oneShotMs.toFixed(0)} | ${r.speedupOneShot.toFixed(2)}×` : ' | ';
      console.log(`| ${r.circuit} | ${r.protocol} | ${r.constraints} | ${r.stockMs.toFixed(0)} (${r.stockMsmMs.toFixed(0)}) | ${whole} | ${oneShot} | ${r.warmMs.toFixed(0)} (${r.warmMsmMs.toFixed(0)}) | ${r.speedupWarm.toFixed(2)}× | ${r.coldMs.toFixed(0)} (${r.coldMsmMs.toFixed(0)}) | ${r.speedupCold.toFixed(2)}× |`);
    }
    console.log('\nper call, warm (medians):\n');
    console.log('| circuit | protocol | call | group | points | zeros | ones | stock ms | engine ms | stock/engine |');
    console.log('|---|---|---|---|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      for (const c of r.calls as Row[]) console.log(`| ${r.circuit} | ${r.protocol} | ${c.call} | ${c.group} | ${c.points} | ${c.zeros ?? ''} | ${c.ones ?? ''} | ${c.stockMs.toFixed(1)} | ${c.engineMs.toFixed(1)} | ${c.ratio.toFixed(2)} |`);
    }
  }
  await terminateCurves();
}

await main();
process.exit(0);
