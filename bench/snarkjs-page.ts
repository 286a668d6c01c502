/**
 * The Chromium page of `npm run bench:snarkjs -- --browser`: snarkjs's browser build and the engine
 * on pippin's Web Worker pool (the page is served cross-origin isolated), and for Groth16 pippin's whole
 * prover (`groth16.loadKey` once per row, then `key.prove` on the same pool). `window.runSnarkjs` runs
 * one row of bench/snarkjs-run.ts on a fixture directory served beside the page.
 */
import * as snarkjs from 'snarkjs';
import * as ffjavascript from 'ffjavascript';
import { threads } from '../src/index.js';
import { groth16, type FfjsModule } from '../src/snarkjs/index.js';
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
  // pippin's whole prover: the key read and its bases prepared once, as the Node path does
  const key = protocol === 'groth16' ? await groth16.loadKey(zkey) : undefined;
  // snarkjs reads { type: 'mem' } files from the buffer; a fresh object per proof
  const row = await benchProtocol(b, snarkjs as unknown as SnarkjsLike, protocol, () => ({ type: 'mem', data: zkey }), () => ({ type: 'mem', data: wtns }), vkey, runs, dir, key && (() => key.prove(wtns)), protocol === 'groth16' ? () => groth16.prove(zkey, wtns) : undefined).finally(() => key?.dispose());
  return { ...row, crossOriginIsolated: globalThis.crossOriginIsolated, pippinThreads: threads.active ? threads.count : 1, cores: navigator.hardwareConcurrency, userAgent: navigator.userAgent };
};
(globalThis as Record<string, unknown>).snarkjsPageReady = true;
