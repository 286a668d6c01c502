// Runs a built example app in Node: reads <dist>/index.html, loads the scripts it references with a
// minimal `document` stub, waits for the app to write its result into #result and checks it.
// Usage: node smoke.mjs <dist-dir>
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const dist = resolve(process.argv[2] ?? 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<script\b([^>]*)>/g)]
  .map(([, attrs]) => ({
    src: /\bsrc=(?:"([^"]+)"|'([^']+)'|([^\s"'>]+))/.exec(attrs)?.slice(1).find(Boolean),
    module: /\btype=["']?module\b/.test(attrs),
  }))
  .filter((s) => s.src);
if (scripts.length === 0) throw new Error(`no <script src> in ${dist}/index.html`);

const files = scripts.map((s) => join(dist, s.src.replace(/^\.?\//, '')));
const code = files.map((f) => readFileSync(f, 'utf8')).join('\n');
// the Wasm travels inside the JS as base64: "\0asm" + version 1 encodes as "AGFzbQEAAAA"
if (!code.includes('AGFzbQEAAAA')) throw new Error('no embedded base64 Wasm module in the bundle');

const result = { textContent: '', dataset: { status: 'running' } };
globalThis.document = {
  getElementById: (id) => (id === 'result' ? result : null),
  querySelector: (sel) => (sel === '#result' ? result : null),
  querySelectorAll: () => [],
  createElement: () => ({ relList: { supports: () => true } }), // Vite's modulepreload polyfill: not needed
  currentScript: null,
};
globalThis.window = globalThis;
globalThis.self = globalThis;

for (const [i, s] of scripts.entries()) {
  if (s.module) await import(pathToFileURL(files[i]).href);
  else vm.runInThisContext(readFileSync(files[i], 'utf8'), { filename: files[i] });
}

const deadline = Date.now() + 60_000;
while (result.dataset.status === 'running' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
console.log(result.textContent);
// 5G on BLS12-381 (affine x), independently computed with @noble/curves
const x5G = '10e7791fb972fe014159aa33a98622da3cdc98ff707965e536d8636b5fcc5ac7a91a8c46e59a00dca575af0f18fb13dc';
if (result.dataset.status === 'ok' && !result.textContent.includes(`x = 0x${x5G}`)) result.dataset.status = 'wrong 5G';
// in Node the pool can always start: the 300-point MSM must have run on worker threads
if (result.dataset.status === 'ok' && result.dataset.threads !== 'true') result.dataset.status = 'no worker threads in Node';
if (result.dataset.status !== 'ok') {
  console.error(`FAIL: ${dist}: status ${result.dataset.status}`);
  process.exit(1);
}
console.log(`ok: ${dist} (${files.map((f) => f.slice(dist.length + 1)).join(', ')}, ${code.length} chars of JS)`);
