/**
 * The KZG libraries pippin/kzg is checked and measured against, on the same official setup:
 * c-kzg 4.1.0 (the native Node binding of c-kzg-4844), @crate-crypto/node-eth-kzg 0.10.0 (rust-eth-kzg,
 * native), kzg-wasm@1.0.0 (c-kzg-4844 compiled to Wasm) and micro-eth-signer (noble, pure JS; the
 * setup from kzg-wasm's copy). Each takes blobs as bytes and returns lowercase hex with 0x.
 */
import { createRequire } from 'node:module';
import { loadKZG } from 'kzg-wasm';
import { KZG } from 'micro-eth-signer/kzg.js';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface PeerKzg {
  name: string;
  /** time to load (and check) the setup, ms */
  loadMs: number;
  commit(blob: Uint8Array): string;
  blobProof(blob: Uint8Array, commitment: string): string;
  cellsAndProofs(blob: Uint8Array): [string[], string[]];
  /** recover_cells_and_kzg_proofs: [cells, proofs] from the cells (hex) at these indices */
  recover(indices: number[], cells: string[]): [string[], string[]];
}

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');
const unhex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/^0x/, ''), 'hex'));

/** c-kzg's native binding; `precompute` its FK20 table window (0 = none; c-kzg loads once per process). */
export function loadCkzg(precompute = 0): PeerKzg {
  const require = createRequire(import.meta.url);
  const ckzg = require('c-kzg') as typeof import('c-kzg');
  const t0 = performance.now();
  ckzg.loadTrustedSetup(precompute);
  const loadMs = performance.now() - t0;
  return {
    name: precompute ? `c-kzg native (precompute ${precompute})` : 'c-kzg native',
    loadMs,
    commit: (blob) => hex(ckzg.blobToKzgCommitment(blob)),
    blobProof: (blob, c) => hex(ckzg.computeBlobKzgProof(blob, unhex(c))),
    cellsAndProofs: (blob) => {
      const [cells, proofs] = ckzg.computeCellsAndKzgProofs(blob);
      return [cells.map(hex), proofs.map(hex)];
    },
    recover: (indices, cells) => {
      const [out, proofs] = ckzg.recoverCellsAndKzgProofs(indices, cells.map(unhex));
      return [out.map(hex), proofs.map(hex)];
    },
  };
}

/**
 * rust-eth-kzg's Node binding (@crate-crypto/node-eth-kzg 0.10.0, native), with or without its
 * precomputed fixed-base tables (`usePrecomp`). It uses RAYON_NUM_THREADS threads (all cores
 * unless that variable is set before its first call).
 */
/** The slice of @crate-crypto/node-eth-kzg 0.10.0's API used here. */
interface DasContext {
  blobToKzgCommitment(blob: Uint8Array): Uint8Array;
  computeBlobKzgProof(blob: Uint8Array, commitment: Uint8Array): Uint8Array;
  computeCellsAndKzgProofs(blob: Uint8Array): { cells: Uint8Array[]; proofs: Uint8Array[] };
  recoverCellsAndKzgProofs(indices: bigint[] | number[], cells: Uint8Array[]): { cells: Uint8Array[]; proofs: Uint8Array[] };
}

/** How to get rust-eth-kzg: not a devDependency (the registry this project installs from lacks its other platforms' packages, so npm ci could not lock it). */
export const RUST_ETH_KZG_INSTALL = 'npm install --no-save @crate-crypto/node-eth-kzg@0.10.0';

/** Whether @crate-crypto/node-eth-kzg can be loaded here. */
export function hasRustEthKzg(): boolean {
  try {
    createRequire(import.meta.url).resolve('@crate-crypto/node-eth-kzg');
    return true;
  } catch {
    return false;
  }
}

export function loadRustEthKzg(usePrecomp: boolean): PeerKzg {
  const require = createRequire(import.meta.url);
  if (!hasRustEthKzg()) throw new Error(`rust-eth-kzg: @crate-crypto/node-eth-kzg is not installed (${RUST_ETH_KZG_INSTALL})`);
  const { DasContextJs } = require('@crate-crypto/node-eth-kzg') as { DasContextJs: { create(o: { usePrecomp: boolean }): DasContext } };
  const t0 = performance.now();
  const ctx = DasContextJs.create({ usePrecomp });
  const loadMs = performance.now() - t0;
  return {
    name: usePrecomp ? 'rust-eth-kzg native (usePrecomp)' : 'rust-eth-kzg native',
    loadMs,
    commit: (blob) => hex(ctx.blobToKzgCommitment(blob)),
    blobProof: (blob, c) => hex(ctx.computeBlobKzgProof(blob, unhex(c))),
    cellsAndProofs: (blob) => {
      const { cells, proofs } = ctx.computeCellsAndKzgProofs(blob);
      return [cells.map(hex), proofs.map(hex)];
    },
    recover: (indices, cells) => {
      const out = ctx.recoverCellsAndKzgProofs(indices, cells.map(unhex));
      return [out.cells.map(hex), out.proofs.map(hex)];
    },
  };
}

export async function loadKzgWasm(): Promise<PeerKzg> {
  const t0 = performance.now();
  const kzg = await loadKZG();
  const loadMs = performance.now() - t0;
  return {
    name: 'kzg-wasm@1.0.0',
    loadMs,
    commit: (blob) => kzg.blobToKZGCommitment(hex(blob)).toLowerCase(),
    blobProof: (blob, c) => kzg.computeBlobKZGProof(hex(blob), c).toLowerCase(),
    cellsAndProofs: (blob) => {
      const { cells, proofs } = kzg.computeCellsAndKZGProofs(hex(blob));
      return [cells.map((c) => c.toLowerCase()), proofs.map((p) => p.toLowerCase())];
    },
    recover: (indices, cells) => {
      const [out, proofs] = kzg.recoverCellsAndProofs(indices, cells);
      return [out.map((c) => c.toLowerCase()), proofs.map((p) => p.toLowerCase())];
    },
  };
}

export async function loadMicroEthSigner(): Promise<PeerKzg> {
  const dir = new URL('.', import.meta.resolve('kzg-wasm'));
  const source = await readFile(fileURLToPath(new URL('trustedSetup.js', dir)), 'utf8');
  const field = (name: string, width: number) => /"([0-9a-f]+)"/.exec(source.slice(source.indexOf(`"${name}"`) + name.length + 2))![1].match(new RegExp(`.{${width}}`, 'g'))!.map((x) => '0x' + x);
  const t0 = performance.now();
  const kzg = new KZG({ g1_lagrange: field('g1_lagrange', 96), g2_monomial: field('g2_monomial', 192), g1_monomial: field('g1_monomial', 96) });
  const loadMs = performance.now() - t0;
  return {
    name: 'micro-eth-signer',
    loadMs,
    commit: (blob) => kzg.blobToKzgCommitment(hex(blob)),
    blobProof: (blob, c) => kzg.computeBlobProof(hex(blob), c),
    cellsAndProofs: (blob) => kzg.computeCellsAndProofs(hex(blob)),
    recover: (indices, cells) => kzg.recoverCellsAndProofs(indices, cells),
  };
}

/** kzg-wasm and micro-eth-signer (scripts/make-kzg-vectors.ts). */
export async function loadPeers(): Promise<PeerKzg[]> {
  return [await loadKzgWasm(), await loadMicroEthSigner()];
}
