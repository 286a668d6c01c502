/**
 * The bundler examples in a real browser (part of `npm test`): the Vite and webpack builds of
 * examples/*\/src/main.js are served from a loopback port and opened in Debian's Chromium
 * (/usr/bin/chromium or CHROMIUM_PATH) through playwright-core. Each page runs 2G + 3G = 5G, a
 * 300-point MSM and `pippin/kzg` (a blob commitment, whose bytes examples/smoke.mjs checks against
 * c-kzg, and its 128 cells and cell proofs); the test reads the page's result:
 * - served with COOP/COEP: cross-origin isolated, the 300-point MSM runs on worker threads that the
 *   bundle started from its inline source (no worker file for the bundler to resolve);
 * - served without: the same result on one thread, the page names the reason.
 * The examples are rebuilt by examples/build.sh from the root dist/ (which `npm ci` builds; a
 * dist/ older than src/ fails the run). A missing Chromium fails the run.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const EXAMPLES = ['vite', 'webpack'];
// 5G on BLS12-381 (affine x), computed independently with @noble/curves (as in examples/smoke.mjs)
/** the commitment of the examples' fixed blob (c-kzg 4.1.0's, checked by examples/smoke.mjs) */
const KZG_COMMITMENT = '88a7fa7c8e5ff9becd34aba80f6616091945d95e974bd51ea0357fc1e8e06094cc81c21d2b69debb4c30fcc8d40e1033';
const X_5G = '10e7791fb972fe014159aa33a98622da3cdc98ff707965e536d8636b5fcc5ac7a91a8c46e59a00dca575af0f18fb13dc';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

let browser: Browser | undefined;
const servers: Server[] = [];

/** Serves `dir` on an ephemeral port, with or without the cross-origin isolation headers. */
async function serve(dir: string, isolated: boolean): Promise<string> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(dir, path);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const headers: Record<string, string> = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
    if (isolated) Object.assign(headers, { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' });
    res.writeHead(200, headers).end(readFileSync(file));
  });
  servers.push(server);
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const addr = server.address();
  if (!addr || typeof addr === 'string') throw new Error('no port');
  return `http://127.0.0.1:${addr.port}/`;
}

before(async () => {
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}: the browser tests need Debian's Chromium (apt-get install -y chromium), or CHROMIUM_PATH`);
  }
  // the examples bundle the root dist/ (tsc output): it must not be older than the sources
  const built = join(root, 'dist', 'index.js');
  const newest = (dir: string): number =>
    Math.max(...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)));
  if (!existsSync(built) || statSync(built).mtimeMs < newest(join(root, 'src'))) {
    throw new Error('dist/ is missing or older than src/: run `npm run build` (npm ci does it) before the browser tests');
  }
  // rebuild the example apps from it (a few seconds; the lockfiles pin the bundlers)
  execFileSync('bash', [join(root, 'examples', 'build.sh')], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
  browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
});

after(async () => {
  await browser?.close();
  for (const s of servers) s.close();
});

for (const ex of EXAMPLES) {
  for (const isolated of [true, false]) {
    test(`examples/${ex} build in Chromium, ${isolated ? 'cross-origin isolated: worker threads' : 'not isolated: one thread, with the reason'}`, async () => {
      const url = await serve(join(root, 'examples', ex, 'dist'), isolated);
      const page = await browser!.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.goto(url);
        await page.waitForFunction(() => document.getElementById('result')?.dataset.status !== 'running', undefined, { timeout: 60_000 });
        const got = await page.evaluate(() => {
          const el = document.getElementById('result')!;
          return { status: el.dataset.status, threads: el.dataset.threads, text: el.textContent ?? '', isolated: crossOriginIsolated };
        });
        assert.equal(got.status, 'ok', `page result: ${got.text} ${errors.join('; ')}`);
        assert.ok(got.text.includes(`x = 0x${X_5G}`), `5G x coordinate in: ${got.text}`);
        assert.ok(got.text.includes(`blob commitment = 0x${KZG_COMMITMENT}`), `KZG commitment in: ${got.text}`);
        assert.equal(got.isolated, isolated, 'crossOriginIsolated');
        if (isolated) {
          assert.equal(got.threads, 'true', `threads active in an isolated page: ${got.text}`);
          assert.match(got.text, /\(\d+ threads\)/, 'the MSM ran on workers');
        } else {
          assert.equal(got.threads, 'false', 'no threads without isolation');
          assert.match(got.text, /1 thread \(SharedArrayBuffer is unavailable/, 'the page names the reason');
        }
      } finally {
        await page.close();
      }
    });
  }
}
