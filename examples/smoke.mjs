// Runs a built example app in Node: reads <dist>/index.html, loads the scripts it references with a
// minimal `document` stub, waits for the app to write its result into #result and checks it:
// the MSM against 5G (from @noble/curves) on worker threads, and the blob KZG results byte for byte
// against c-kzg 4.1.0 native (the root's devDependency) on the app's blob.
// Chunks loaded at run time (the KZG setup and FK20 columns are dynamic imports): Vite's are ES
// modules (import() of file URLs works as is); webpack's are classic scripts that its runtime
// appends to document.head, which the stub runs from <dist> as a browser would.
// Usage: node smoke.mjs <dist-dir>
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

const loaded = new Set(); // the classic scripts run (entry and webpack chunks)
/** A classic script run in this realm, as document.currentScript while it runs (webpack's publicPath). */
function runClassic(file) {
  if (!file.startsWith(dist + sep)) throw new Error(`script outside ${dist}: ${file}`);
  const el = scriptElement();
  el.src = pathToFileURL(file).href;
  document.currentScript = el;
  try {
    vm.runInThisContext(readFileSync(file, 'utf8'), { filename: file });
  } finally {
    document.currentScript = null;
  }
  loaded.add(file);
}
function scriptElement() {
  const attrs = {};
  return { tagName: 'SCRIPT', src: '', setAttribute: (k, v) => (attrs[k] = String(v)), getAttribute: (k) => attrs[k] ?? null };
}

const result = { textContent: '', dataset: { status: 'running' } };
globalThis.document = {
  getElementById: (id) => (id === 'result' ? result : null),
  querySelector: (sel) => (sel === '#result' ? result : null),
  querySelectorAll: () => [],
  getElementsByTagName: () => [],
  createElement: (tag) => (tag === 'script' ? scriptElement() : { relList: { supports: () => true } }), // Vite's modulepreload polyfill: not needed
  // webpack's chunk loader: <script src> appended here runs asynchronously, then onload / onerror
  head: {
    appendChild(el) {
      setTimeout(() => {
        try {
          runClassic(fileURLToPath(el.src));
        } catch (e) {
          console.error(`chunk ${el.src}: ${e && e.stack ? e.stack : e}`);
          el.onerror?.({ type: 'error', target: el });
          return;
        }
        el.onload?.({ type: 'load', target: el });
      });
      return el;
    },
  },
  currentScript: null,
};
globalThis.window = globalThis;
globalThis.self = globalThis;

for (const [i, s] of scripts.entries()) {
  if (s.module) await import(pathToFileURL(files[i]).href);
  else runClassic(files[i]);
}

const deadline = Date.now() + 120_000;
while (result.dataset.status === 'running' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
console.log(result.textContent);
const fail = (why) => {
  console.error(`FAIL: ${dist}: ${why}`);
  process.exit(1);
};
if (result.dataset.status !== 'ok') fail(`status ${result.dataset.status}`);
// 5G on BLS12-381 (affine x), independently computed with @noble/curves
const x5G = '10e7791fb972fe014159aa33a98622da3cdc98ff707965e536d8636b5fcc5ac7a91a8c46e59a00dca575af0f18fb13dc';
if (!result.textContent.includes(`x = 0x${x5G}`)) fail('wrong 5G');
// in Node the pool can always start: the 300-point MSM must have run on worker threads
if (result.dataset.threads !== 'true') fail('no worker threads in Node');

// blob KZG: every byte as c-kzg's on the same blob (a random one: its 4096 elements all distinct)
const { blob, commitment, cells, proofs } = result.kzg ?? fail('no KZG result on #result');
const hex = (b) => Buffer.from(b).toString('hex');
if (new Set(Array.from({ length: 4096 }, (_, i) => hex(blob.subarray(32 * i, 32 * i + 32)))).size !== 4096) fail('the blob is not a random one');
const ckzg = createRequire(import.meta.url)('c-kzg');
ckzg.loadTrustedSetup(0); // ≈ 1.7 s
if (hex(commitment) !== hex(ckzg.blobToKzgCommitment(blob))) fail('blob commitment differs from c-kzg');
const [wantCells, wantProofs] = ckzg.computeCellsAndKzgProofs(blob);
if (cells.length !== 128 || proofs.length !== 128) fail(`${cells.length} cells, ${proofs.length} proofs`);
for (let i = 0; i < 128; i++) {
  if (hex(cells[i]) !== hex(wantCells[i])) fail(`cell ${i} differs from c-kzg`);
  if (hex(proofs[i]) !== hex(wantProofs[i])) fail(`cell proof ${i} differs from c-kzg`);
}
// the setup and the FK20 columns came from chunks of their own (Vite: imported; webpack: appended scripts)
const chunks = readdirSync(dist, { recursive: true }).filter((f) => f.endsWith('.js') && !files.includes(join(dist, f)));
if (chunks.length < 2) fail(`expected the setup and FK20 columns in chunks of their own, got: ${chunks.join(', ') || 'none'}`);
if (scripts.every((s) => !s.module) && !chunks.every((f) => loaded.has(join(dist, f)))) fail(`chunks not loaded: ${chunks.filter((f) => !loaded.has(join(dist, f))).join(', ')}`);
console.log(`ok: ${dist} (${files.map((f) => f.slice(dist.length + 1)).join(', ')}, ${code.length} chars of JS; chunks ${chunks.join(', ')}); commitment, 128 cells and proofs equal c-kzg's`);
