/**
 * The JavaScript KZG libraries pippin's commitments are checked and measured against, on the same
 * official setup (kzg-wasm's copy): kzg-wasm@1.0.0 (c-kzg-4844 compiled to Wasm) and
 * micro-eth-signer (noble). Each commits to a blob given as bytes and returns lowercase hex with 0x.
 */
import { loadKZG } from 'kzg-wasm';
import { KZG } from 'micro-eth-signer/kzg.js';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface PeerKzg {
  name: string;
  /** time to load (and check) the setup, ms */
  loadMs: number;
  commit(blob: Uint8Array): string;
}

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

export async function loadKzgWasm(): Promise<PeerKzg> {
  const t0 = performance.now();
  const kzg = await loadKZG();
  const loadMs = performance.now() - t0;
  return { name: 'kzg-wasm@1.0.0', loadMs, commit: (blob) => kzg.blobToKZGCommitment(hex(blob)).toLowerCase() };
}

export async function loadMicroEthSigner(): Promise<PeerKzg> {
  const dir = new URL('.', import.meta.resolve('kzg-wasm'));
  const source = await readFile(fileURLToPath(new URL('trustedSetup.js', dir)), 'utf8');
  const field = (name: string, width: number) => /"([0-9a-f]+)"/.exec(source.slice(source.indexOf(`"${name}"`) + name.length + 2))![1].match(new RegExp(`.{${width}}`, 'g'))!.map((x) => '0x' + x);
  const t0 = performance.now();
  const kzg = new KZG({ g1_lagrange: field('g1_lagrange', 96), g2_monomial: field('g2_monomial', 192) });
  const loadMs = performance.now() - t0;
  return { name: 'micro-eth-signer', loadMs, commit: (blob) => kzg.blobToKzgCommitment(hex(blob)) };
}

export async function loadPeers(): Promise<PeerKzg[]> {
  return [await loadKzgWasm(), await loadMicroEthSigner()];
}
