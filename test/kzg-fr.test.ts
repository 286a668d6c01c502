/**
 * pippin/kzg with its F_r work on the engine's Wasm kernels (src/kzg/fr-wasm.ts): the work arrays
 * are shared by the calls of one Kzg, so calls in flight together — KZG proofs outside and inside
 * the domain, blob proofs, cells, cells and proofs, one of them failing on an element ≥ r — must
 * each give c-kzg 4.1.0's bytes (the oracle, native binding).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { ScalarEncodingError } from '../src/index.js';
import { loadKzg, type Kzg } from '../src/kzg/index.js';
import * as fr from '../src/kzg/fr.js';
import { kzgBlobs } from '../examples/kzg-4844/blobs.js';

const require = createRequire(import.meta.url);
const ckzg = require('c-kzg') as typeof import('c-kzg');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('pippin/kzg F_r on Wasm: concurrent calls on one Kzg = c-kzg', { timeout: 300_000 }, () => {
  let kzg: Kzg;
  before(async () => {
    ckzg.loadTrustedSetup(0);
    kzg = await loadKzg({ threads: 1 });
  });
  after(() => kzg.dispose());

  it('proofs, blob proofs, cells and cell proofs started together, one failing, each equal to c-kzg', async () => {
    const blobs = kzgBlobs().filter(([name]) => ['random-1', 'random-2', 'r-1', 'low-degree'].includes(name)).map(([, b]) => b);
    assert.equal(blobs.length, 4);
    const inDomain = fr.toBytesBE(fr.roots()[2 * fr.reverseBits(4095, 12)]);
    const outside = fr.toBytesBE(fr.R - 5n);
    const commitments = blobs.map((b) => ckzg.blobToKzgCommitment(b));
    const bad = blobs[0].slice();
    fr.toBytesBE(fr.R, bad, 32 * 2049);
    const calls: [string, Promise<unknown>, () => unknown][] = [
      ['cells+proofs 0', kzg.computeCellsAndKzgProofs(blobs[0]), () => ckzg.computeCellsAndKzgProofs(blobs[0])],
    ];
    // started between the others (its error is caught at once, checked below)
    const failing = kzg.computeKzgProof(bad, outside).then(() => undefined, (e: unknown) => e);
    calls.push(
      ['proof 1 outside', kzg.computeKzgProof(blobs[1], outside), () => ckzg.computeKzgProof(blobs[1], outside)],
      ['proof 2 in domain', kzg.computeKzgProof(blobs[2], inDomain), () => ckzg.computeKzgProof(blobs[2], inDomain)],
      ['blob proof 3', kzg.computeBlobKzgProof(blobs[3], commitments[3]), () => ckzg.computeBlobKzgProof(blobs[3], commitments[3])],
      ['cells 1', kzg.computeCells(blobs[1]), () => ckzg.computeCells(blobs[1])],
      ['cells+proofs 3', kzg.computeCellsAndKzgProofs(blobs[3]), () => ckzg.computeCellsAndKzgProofs(blobs[3])],
      ['proof 0 in domain', kzg.computeKzgProof(blobs[0], inDomain), () => ckzg.computeKzgProof(blobs[0], inDomain)],
    );
    const norm = (v: unknown): unknown => (v instanceof Uint8Array ? hex(v) : Array.isArray(v) ? v.map(norm) : v);
    const got = await Promise.all(calls.map(([, p]) => p));
    calls.forEach(([name, , oracle], i) => assert.deepEqual(norm(got[i]), norm(oracle()), name));
    // F_r's pinned tables only (8194 twiddles + 4096 evaluation points, 36 or 40 bytes each): every call's work arrays were released
    const held = kzg.bytes.fr;
    assert.ok(held === 12290 * 36 || held === 12290 * 40, `kzg.bytes.fr = ${held}`);
    const e = await failing;
    assert.ok(e instanceof ScalarEncodingError && e.index === 2049 && /computeKzgProof: blob field element 2049 is not below/.test(e.message), String(e));
  });
});
