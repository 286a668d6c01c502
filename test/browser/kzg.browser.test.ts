/**
 * `pippin/kzg` in Chromium (part of `npm test`): test/browser/kzg-page.js imports the entry by its
 * package name (the root dist/, through package.json "exports"), bundled by esbuild minified with
 * split chunks (the setup text and the FK20 columns are dynamic imports: chunks of their own) and
 * served by demo/serve.mjs. On one fixed random blob the page computes blobToKzgCommitment,
 * computeKzgProof (z outside the domain, z = 1 and z a root of unity of the domain),
 * computeBlobKzgProof and computeCellsAndKzgProofs — cross-origin isolated with 1 and with 2
 * threads, and not isolated with loadKzg()'s defaults (no SharedArrayBuffer: one thread, the
 * reason in threads.reason); every byte is compared with c-kzg 4.1.0 native, run here in Node. Before that, on the same Kzg, a blob with
 * one element ≥ r (r itself; 2^256 − 1) must make every entry throw ScalarEncodingError with that
 * element's index. A missing Chromium, or a dist/ older than src/, fails the run.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
// @ts-expect-error plain .mjs helpers without type declarations
import { startServer } from '../../demo/serve.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ckzg = createRequire(import.meta.url)('c-kzg') as {
  loadTrustedSetup(precompute: number): void;
  blobToKzgCommitment(blob: Uint8Array): Uint8Array;
  computeKzgProof(blob: Uint8Array, z: Uint8Array): [Uint8Array, Uint8Array];
  computeBlobKzgProof(blob: Uint8Array, commitment: Uint8Array): Uint8Array;
  computeCellsAndKzgProofs(blob: Uint8Array): [Uint8Array[], Uint8Array[]];
  recoverCellsAndKzgProofs(cellIndices: number[], cells: Uint8Array[]): [Uint8Array[], Uint8Array[]];
};

const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const be32 = (v: bigint) => v.toString(16).padStart(64, '0');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const pow = (b: bigint, e: bigint) => {
  let r = 1n;
  for (b %= R; e > 0n; e >>= 1n, b = (b * b) % R) if (e & 1n) r = (r * b) % R;
  return r;
};

/** The fixed random blob: element i = SHA-256("pippin kzg browser" ‖ i) mod r; element 0 = r − 1, element 1 = 0. */
function testBlob(): Uint8Array {
  const blob = new Uint8Array(4096 * 32);
  for (let i = 0; i < 4096; i++) {
    const v = BigInt(`0x${createHash('sha256').update(`pippin kzg browser ${i}`).digest('hex')}`) % R;
    blob.set(Buffer.from(be32(i === 0 ? R - 1n : i === 1 ? 0n : v), 'hex'), 32 * i);
  }
  return blob;
}
const BLOB = testBlob();
const ZS = [
  be32(BigInt(`0x${createHash('sha256').update('pippin kzg browser z').digest('hex')}`) % R), // outside the domain
  be32(1n), // ω^0, a point of the domain
  be32(pow(pow(7n, (R - 1n) / 4096n), 1234n)), // ω₄₀₉₆^1234, a point of the domain
];
const BAD = [
  { index: 2345, value: be32(R) },
  { index: 4095, value: 'f'.repeat(64) },
];

interface PageResult {
  errors: { entry: string; at: number; threw: boolean; typed?: boolean; pippin?: boolean; index?: number; name?: string; message?: string }[];
  commitment: string;
  kzgProofs: [string, string][];
  blobProof: string;
  cells: string[];
  proofs: string[];
  recoveredCells: string[];
  recoveredProofs: string[];
  crossOriginIsolated: boolean;
  threadsActive: boolean;
  threadsCount: number;
  threadsReason?: string;
}

let browser: Browser | undefined;
type Site = { url: string; close(): Promise<void> };
const sites = new Map<boolean, Site>(); // by isolation
let dir: string | undefined;
let want: Omit<PageResult, 'errors' | 'crossOriginIsolated' | 'threadsActive' | 'threadsCount' | 'threadsReason'>;
const got = new Map<string, PageResult>();

before(async () => {
  if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}: apt-get install -y chromium, or CHROMIUM_PATH`);
  // the page bundles the root dist/ (tsc output): it must not be older than the sources
  const newest = (d: string): number =>
    Math.max(...readdirSync(d, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(join(d, e.name)) : statSync(join(d, e.name)).mtimeMs)));
  const built = join(root, 'dist', 'kzg', 'index.js');
  if (!existsSync(built) || statSync(built).mtimeMs < newest(join(root, 'src'))) {
    throw new Error('dist/ is missing or older than src/: run `npm run build` (npm ci does it) before the browser tests');
  }
  dir = mkdtempSync(join(tmpdir(), 'pippin-kzg-page-'));
  await build({
    entryPoints: [join(root, 'test', 'browser', 'kzg-page.js')],
    outdir: dir,
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    logLevel: 'warning',
  });
  const chunks = readdirSync(dir).filter((f) => f !== 'kzg-page.js');
  assert.ok(chunks.some((f) => f.startsWith('trusted-setup')) && chunks.some((f) => f.startsWith('fk20-columns')), `setup and FK20 columns in chunks of their own: ${chunks.join(', ')}`);
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>pippin/kzg</title><script type="module" src="kzg-page.js"></script>\n');
  for (const isolation of [true, false]) sites.set(isolation, await startServer({ port: 0, isolation, root: dir }));

  ckzg.loadTrustedSetup(0);
  const commitment = ckzg.blobToKzgCommitment(BLOB);
  const [cells, proofs] = ckzg.computeCellsAndKzgProofs(BLOB);
  const odd = cells.map((_, i) => i).filter((i) => i % 2 === 1);
  const [recoveredCells, recoveredProofs] = ckzg.recoverCellsAndKzgProofs(odd, odd.map((i) => cells[i]));
  want = {
    commitment: hex(commitment),
    kzgProofs: ZS.map((z) => ckzg.computeKzgProof(BLOB, Buffer.from(z, 'hex')).map(hex) as [string, string]),
    blobProof: hex(ckzg.computeBlobKzgProof(BLOB, commitment)),
    cells: cells.map(hex),
    proofs: proofs.map(hex),
    recoveredCells: recoveredCells.map(hex),
    recoveredProofs: recoveredProofs.map(hex),
  };
  browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
});

after(async () => {
  await browser?.close();
  for (const s of sites.values()) await s.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the bad elements are bad for c-kzg too', () => {
  for (const { index, value } of BAD) {
    const b = BLOB.slice();
    b.set(Buffer.from(value, 'hex'), 32 * index);
    assert.throws(() => ckzg.blobToKzgCommitment(b), `c-kzg rejects element ${index} = 0x${value}`);
  }
});

/** threads: what loadKzg is given (null: its default) */
const CASES = [
  { isolated: true, threads: 1 },
  { isolated: true, threads: 2 },
  { isolated: false, threads: null },
];
for (const { isolated, threads } of CASES) {
  const how = isolated ? `cross-origin isolated, threads: ${threads}` : 'not isolated, default options (one thread)';
  test(`pippin/kzg in Chromium, ${how}: every byte as c-kzg's; an element ≥ r is a ScalarEncodingError with its index`, { timeout: 120_000 }, async () => {
    const page = await browser!.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    try {
      await page.goto(sites.get(isolated)!.url);
      await page.waitForFunction(() => (window as unknown as { kzgPageReady?: boolean }).kzgPageReady === true, undefined, { timeout: 30_000 });
      const r = (await page.evaluate(
        (args) => (window as unknown as { runKzg(a: unknown): Promise<unknown> }).runKzg(args),
        { blob: hex(BLOB), zs: ZS, bad: BAD, threads },
      )) as PageResult;
      got.set(how, r);
      assert.equal(r.crossOriginIsolated, isolated, 'crossOriginIsolated');
      if (threads === 2) assert.ok(r.threadsActive && r.threadsCount >= 2, `worker threads active in the page (count ${r.threadsCount})`);
      if (!isolated) {
        assert.equal(r.threadsActive, false, 'no worker threads without isolation');
        assert.match(r.threadsReason ?? '', /SharedArrayBuffer is unavailable/, 'threads.reason says why');
      }

      assert.equal(r.errors.length, BAD.length * 5);
      for (const e of r.errors) {
        const what = `${e.entry} with element ${e.at} ≥ r`;
        assert.ok(e.threw, `${what} throws`);
        assert.ok(e.typed && e.pippin, `${what}: ScalarEncodingError (a PippinError), got ${e.name}: ${e.message}`);
        assert.equal(e.index, e.at, `${what}: index`);
        assert.ok(e.message!.includes(`${e.entry}: blob field element ${e.at} `), `${what}: the message names the entry and the element: ${e.message}`);
      }

      assert.equal(r.commitment, want.commitment, 'blobToKzgCommitment');
      ZS.forEach((z, i) => assert.deepEqual(r.kzgProofs[i], want.kzgProofs[i], `computeKzgProof at z = 0x${z}: [proof, y]`));
      assert.equal(r.blobProof, want.blobProof, 'computeBlobKzgProof');
      assert.equal(r.cells.length, 128);
      assert.equal(r.proofs.length, 128);
      for (let i = 0; i < 128; i++) {
        assert.equal(r.cells[i], want.cells[i], `cell ${i}`);
        assert.equal(r.proofs[i], want.proofs[i], `cell proof ${i}`);
      }
      assert.deepEqual(r.recoveredCells, want.recoveredCells, 'recoverCellsAndKzgProofs from the odd cells: cells');
      assert.deepEqual(r.recoveredProofs, want.recoveredProofs, 'recoverCellsAndKzgProofs from the odd cells: proofs');
      assert.deepEqual(pageErrors, [], 'no page errors');
    } finally {
      await page.close();
    }
  });
}

test('error names survive a minifying bundler', () => {
  const r = got.values().next().value;
  assert.ok(r, 'a page ran');
  for (const e of r.errors) assert.equal(e.name, 'ScalarEncodingError', `${e.entry}: error name`);
});
