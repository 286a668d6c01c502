/**
 * The Chromium page of `npm run bench:snarkjs -- --browser`: snarkjs's browser build and the engine
 * on pippin's Web Worker pool (the page is served cross-origin isolated). `window.runSnarkjs` runs one
 * row of bench/snarkjs-run.ts on a fixture directory served beside the page.
 */
import * as snarkjs from 'snarkjs';
import * as ffjavascript from 'ffjavascript';
import { threads } from '../src/index.js';
import type { FfjsModule } from '../src/snarkjs/index.js';
import { benchProtocol, setupBench, type Bench, type SnarkjsLike } from './snarkjs-run.js';

let bench: Promise<Bench> | undefined;

async function bytes(url: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

(globalThis as Record<string, unknown>).runSnarkjs = async ({ dir, protocol, runs }: { dir: string; protocol: 'groth16' | 'plonk'; runs: number }) => {
  bench ??= setupBench(ffjavascript as unknown as FfjsModule);
  const b = await bench;
  const zkey = await bytes(`../${dir}/${protocol}.zkey`);
  const wtns = await bytes(`../${dir}/witness.wtns`);
  const vkey = await (await fetch(`../${dir}/${protocol}.vkey.json`)).json();
  // snarkjs reads { type: 'mem' } files from the buffer; a fresh object per proof
  const row = await benchProtocol(b, snarkjs as unknown as SnarkjsLike, protocol, () => ({ type: 'mem', data: zkey }), () => ({ type: 'mem', data: wtns }), vkey, runs, dir);
  return { ...row, crossOriginIsolated: globalThis.crossOriginIsolated, pippinThreads: threads.active ? threads.count : 1, cores: navigator.hardwareConcurrency, userAgent: navigator.userAgent };
};
(globalThis as Record<string, unknown>).snarkjsPageReady = true;
