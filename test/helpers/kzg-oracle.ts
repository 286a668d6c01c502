/**
 * c-kzg 4.1.0 (the native binding, the official setup) as the oracle of the pippin/kzg tests, with
 * its answers memoized by input (a blob's cells and proofs cost c-kzg ≈ 0.3 s): results as hex
 * strings, so a comparison never depends on who owns the bytes. Also the inputs those tests share —
 * a few seeded random canonical blobs, a z outside the domain and one on it — and the buffer kinds
 * a caller may pass (Uint8Array, Node Buffer, a subarray at an offset, SharedArrayBuffer-backed).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { randomBlob } from '../../examples/kzg-4844/blobs.js';
import * as fr from '../../src/kzg/fr.js';

const require = createRequire(import.meta.url);
const ckzg = require('c-kzg') as typeof import('c-kzg');

/** Lowercase hex of any byte view (its own bytes only, also for a subarray). */
export const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** `count` random canonical blobs (seeded: the same on every run). */
export const randomBlobs = (count: number, seed = 3100): Uint8Array[] => Array.from({ length: count }, (_, i) => randomBlob(seed + i));

/** Two evaluation points: one outside the blob's domain, one on it (c-kzg's special case). */
export const ZS: readonly Uint8Array[] = Object.freeze([fr.toBytesBE(0x2c3a5f0e9d1b4c7a6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5fn % fr.R), fr.toBytesBE(fr.roots()[2 * fr.reverseBits(1234, 12)])]);

let setupLoaded = false;

/** c-kzg's answers for the official setup, each computed once per input. */
export class CkzgOracle {
  private readonly memo = new Map<string, unknown>();

  constructor() {
    // c-kzg holds one setup per process: load it once, whoever asks first
    if (!setupLoaded) ckzg.loadTrustedSetup(0);
    setupLoaded = true;
  }

  private once<T>(key: string, f: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, f());
    return this.memo.get(key) as T;
  }

  private static key(...parts: Uint8Array[]): string {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return h.digest('hex');
  }

  /** Whether c-kzg refuses the blob (a field element ≥ r, a wrong length). */
  refusesBlob(blob: Uint8Array): boolean {
    try {
      ckzg.blobToKzgCommitment(blob);
      return false;
    } catch {
      return true;
    }
  }

  commitment(blob: Uint8Array): string {
    return this.once(`commit ${CkzgOracle.key(blob)}`, () => hex(ckzg.blobToKzgCommitment(blob)));
  }

  /** [proof, y] */
  kzgProof(blob: Uint8Array, z: Uint8Array): [string, string] {
    return this.once(`proof ${CkzgOracle.key(blob, z)}`, () => {
      const [proof, y] = ckzg.computeKzgProof(blob, z);
      return [hex(proof), hex(y)];
    });
  }

  blobProof(blob: Uint8Array, commitment: Uint8Array): string {
    return this.once(`blob proof ${CkzgOracle.key(blob, commitment)}`, () => hex(ckzg.computeBlobKzgProof(blob, commitment)));
  }

  cells(blob: Uint8Array): string[] {
    return this.once(`cells ${CkzgOracle.key(blob)}`, () => ckzg.computeCells(blob).map(hex));
  }

  /** [cells, proofs] */
  cellsAndProofs(blob: Uint8Array): [string[], string[]] {
    return this.once(`cells+proofs ${CkzgOracle.key(blob)}`, () => {
      const [cells, proofs] = ckzg.computeCellsAndKzgProofs(blob);
      return [cells.map(hex), proofs.map(hex)];
    });
  }

  /** [cells, proofs] of recoverCellsAndKzgProofs */
  recover(indices: readonly number[], cells: readonly Uint8Array[]): [string[], string[]] {
    const key = CkzgOracle.key(Uint8Array.from(indices.map((i) => Math.trunc(i))), ...cells);
    return this.once(`recover ${key}`, () => {
      const [out, proofs] = ckzg.recoverCellsAndKzgProofs([...indices], [...cells]);
      return [out.map(hex), proofs.map(hex)];
    });
  }

  /** Whether c-kzg refuses these recovery inputs (c-kzg throws; the error is not memoized). */
  refusesRecovery(indices: unknown, cells: unknown): boolean {
    try {
      ckzg.recoverCellsAndKzgProofs(indices as number[], cells as Uint8Array[]);
      return false;
    } catch {
      return true;
    }
  }
}

/** The byte buffers a caller may hand in: each makes a fresh buffer holding `bytes`. */
export const BUFFER_KINDS: readonly (readonly [string, (bytes: Uint8Array) => Uint8Array])[] = Object.freeze([
  ['Uint8Array', (b: Uint8Array) => Uint8Array.from(b)],
  ['Node Buffer', (b: Uint8Array) => Buffer.from(b)],
  [
    'subarray at byteOffset 40 of a larger buffer',
    (b: Uint8Array) => {
      const whole = new Uint8Array(b.length + 77).fill(0x5a);
      whole.set(b, 40);
      return whole.subarray(40, 40 + b.length);
    },
  ],
  [
    'SharedArrayBuffer-backed',
    (b: Uint8Array) => {
      const shared = new Uint8Array(new SharedArrayBuffer(b.length));
      shared.set(b);
      return shared;
    },
  ],
] as const);
