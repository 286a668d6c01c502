/**
 * `pippin/snarkjs` groth16, the whole prover, in Chromium (part of `npm test`): test/browser/groth16-page.js
 * imports the entry by its package name (the root dist/, through package.json "exports"), bundled by
 * esbuild and served by demo/serve.mjs with COOP/COEP beside the BN254 and BLS12-381 test keys and
 * witnesses of scripts/snarkjs-fixtures.ts. In the cross-origin isolated page, on pippin's pool of 2
 * Web Workers, it proves each with `groth16.prove(zkeyUrl, wtnsUrl)` (a URL string and a URL object:
 * fetched by pippin), with bytes, and with a loaded key (`loadKey` → `key.prove`), that one together
 * with a proof of a witness with one private value changed. Oracle, here in Node: stock
 * `snarkjs.groth16.verify` accepts every proof and rejects the wrong witness's; public signals equal
 * stock `snarkjs.groth16.prove`'s; proofs differ from each other (fresh r, s). A missing Chromium,
 * or a dist/ older than src/, fails the run.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import * as snarkjs from 'snarkjs';
import { buildFixture, terminateCurves, TEST_FIXTURES, type Fixture } from '../../scripts/snarkjs-fixtures.js';
// @ts-expect-error plain .mjs helpers without type declarations
import { startServer } from '../../demo/serve.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Proof {
  pi_a: string[];
  pi_b: string[][];
  pi_c: string[];
  protocol: string;
  curve: string;
}
interface Result {
  proof: Proof;
  publicSignals: string[];
}
interface PageResult {
  proofs: Record<'byUrl' | 'byUrlObject' | 'byBytes' | 'byKey', Result>;
  wrong: Result;
  missing: { threw: boolean; name?: string; message?: string; fileFormat?: boolean };
  stats: { read: number; abc: number; fft: number; msm: { all: number }; assemble: number }[];
  ms: number;
  crossOriginIsolated: boolean;
  threadsActive: boolean;
  threadsCount: number;
  threadsReason?: string;
  startedCount: number;
}

let browser: Browser | undefined;
let site: { url: string; close(): Promise<void> } | undefined;
let dir: string | undefined;
const fixtures: { fixture: Fixture; stockSignals: string[] }[] = [];

before(async () => {
  if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}: apt-get install -y chromium, or CHROMIUM_PATH`);
  // the page bundles the root dist/ (tsc output): it must not be older than the sources
  const newest = (d: string): number =>
    Math.max(...readdirSync(d, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(join(d, e.name)) : statSync(join(d, e.name)).mtimeMs)));
  const built = join(root, 'dist', 'snarkjs', 'groth16', 'index.js');
  if (!existsSync(built) || statSync(built).mtimeMs < newest(join(root, 'src'))) {
    throw new Error('dist/ is missing or older than src/: run `npm run build` (npm ci does it) before the browser tests');
  }
  dir = mkdtempSync(join(tmpdir(), 'pippin-groth16-page-'));
  for (const spec of TEST_FIXTURES) {
    const fixture = await buildFixture(spec);
    const stock = await snarkjs.groth16.prove(fixture.zkey.groth16!, fixture.wtns);
    fixtures.push({ fixture, stockSignals: stock.publicSignals as string[] });
    mkdirSync(join(dir, spec.name));
    copyFileSync(fixture.zkey.groth16!, join(dir, spec.name, 'groth16.zkey'));
    copyFileSync(fixture.wtns, join(dir, spec.name, 'witness.wtns'));
  }
  assert.deepEqual(fixtures.map((f) => f.fixture.spec.prime).sort(), ['bls12381', 'bn128'], 'a BN254 and a BLS12-381 fixture');
  await build({
    entryPoints: [join(root, 'test', 'browser', 'groth16-page.js')],
    outdir: dir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    logLevel: 'warning',
  });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>pippin/snarkjs groth16</title><script type="module" src="groth16-page.js"></script>\n');
  site = await startServer({ port: 0, isolation: true, root: dir });
  browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
});

after(async () => {
  await browser?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await terminateCurves();
});

for (const spec of TEST_FIXTURES) {
  test(`groth16 in Chromium (cross-origin isolated, 2 workers), ${spec.name}: proofs by URL, bytes and a loaded key verify with stock snarkjs; a wrong witness's does not`, { timeout: 120_000 }, async () => {
    const { fixture, stockSignals } = fixtures.find((f) => f.fixture.spec.name === spec.name)!;
    const vkey = fixture.vkey.groth16;
    const page = await browser!.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    try {
      await page.goto(site!.url);
      await page.waitForFunction(() => (window as unknown as { groth16PageReady?: boolean }).groth16PageReady === true, undefined, { timeout: 30_000 });
      const r = (await page.evaluate((a) => (window as unknown as { runGroth16(a: unknown): Promise<unknown> }).runGroth16(a), { dir: spec.name })) as PageResult;

      assert.equal(r.crossOriginIsolated, true, 'the page is cross-origin isolated');
      assert.equal(r.startedCount, 2, 'startThreads(2) started 2 workers');
      assert.ok(r.threadsActive, `pippin's threads active in the page (reason: ${r.threadsReason})`);
      assert.equal(r.threadsCount, 2, 'pippin runs on 2 workers');
      assert.equal(r.stats.length, 1, 'onStats called once for the proof');
      assert.ok(r.stats[0].msm.all > 0 && r.stats[0].abc >= 0 && r.stats[0].fft >= 0, `stats of a proof: ${JSON.stringify(r.stats[0])}`);

      const proofs = Object.entries(r.proofs);
      for (const [how, res] of proofs) {
        assert.equal(res.proof.protocol, 'groth16', `${how}: protocol`);
        assert.equal(res.proof.curve, spec.prime, `${how}: curve`);
        assert.deepEqual(res.publicSignals, stockSignals, `${how}: public signals as stock snarkjs's`);
        assert.equal(await snarkjs.groth16.verify(vkey, res.publicSignals, res.proof), true, `${how}: stock snarkjs.groth16.verify accepts the page's proof`);
      }
      // fresh r and s per proof: no two proofs alike
      const distinct = new Set(proofs.map(([, res]) => JSON.stringify(res.proof.pi_a)));
      assert.equal(distinct.size, proofs.length, 'every proof differs (fresh r, s)');

      assert.deepEqual(r.wrong.publicSignals, stockSignals, 'the wrong witness changes a private value only');
      assert.equal(await snarkjs.groth16.verify(vkey, r.wrong.publicSignals, r.wrong.proof), false, "stock snarkjs rejects the wrong witness's proof");
      // and a good proof with the wrong public signals is rejected as well (the oracle can say no)
      const otherSignals = [...stockSignals];
      otherSignals[otherSignals.length - 1] = String(BigInt(otherSignals[otherSignals.length - 1]) + 1n);
      assert.equal(await snarkjs.groth16.verify(vkey, otherSignals, r.proofs.byBytes.proof), false, 'a proof does not verify with other public signals');

      assert.ok(r.missing.threw, 'a URL that is not there rejects');
      assert.match(r.missing.message ?? '', /HTTP 404/, `the error names the HTTP status: ${r.missing.message}`);
      assert.deepEqual(pageErrors, [], 'no page errors');
      console.log(`# ${spec.name}: 5 proofs (one a wrong witness) and 2 key reads in the page in ${r.ms.toFixed(0)} ms; first proof ${JSON.stringify(r.stats[0])}`);
    } finally {
      await page.close();
    }
  });
}
