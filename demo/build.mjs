// Bundles demo/main.ts (and the library from ../src) into demo/dist/main.js: ESM, es2022.
// Usage: node demo/build.mjs   (or import { buildDemo } from './build.mjs')
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));

export async function buildDemo({ quiet = false } = {}) {
  const result = await build({
    entryPoints: [join(here, 'main.ts')],
    outfile: join(here, 'dist', 'main.js'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    sourcemap: true,
    logLevel: quiet ? 'warning' : 'info',
    metafile: false,
  });
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildDemo();
}
