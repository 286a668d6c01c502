/**
 * Writes examples/kzg-4844/vectors.json: the commitments of the named blobs (examples/kzg-4844/blobs.ts)
 * as kzg-wasm@1.0.0 (c-kzg-4844 in Wasm) and micro-eth-signer compute them, after checking that the
 * two agree byte for byte. Both load the official setup from kzg-wasm's copy. Slow (≈ 30 s: the
 * peers' setup loading); the test suite reads the file instead of running them.
 *
 *   npx tsx scripts/make-kzg-vectors.ts
 */
import { writeFileSync } from 'node:fs';
import { BLOB_NAMES, namedBlob } from '../examples/kzg-4844/blobs.js';
import { loadPeers } from '../examples/kzg-4844/peers.js';

const peers = await loadPeers();
const cases = BLOB_NAMES.map((name) => {
  const blob = namedBlob(name);
  const [a, b] = peers.map((p) => p.commit(blob));
  if (a !== b) throw new Error(`${name}: ${peers[0].name} ${a} ≠ ${peers[1].name} ${b}`);
  return { blob: name, commitment: a };
});
const out = { note: 'blob_to_kzg_commitment by kzg-wasm@1.0.0 and micro-eth-signer (equal), scripts/make-kzg-vectors.ts', peers: peers.map((p) => p.name), cases };
writeFileSync(new URL('../examples/kzg-4844/vectors.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
console.log(`${cases.length} cases written`);
