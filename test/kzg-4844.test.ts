/**
 * pippin/kzg commitments against a second oracle: examples/kzg-4844/vectors.json, the commitments
 * kzg-wasm@1.0.0 and micro-eth-signer give (written by scripts/make-kzg-vectors.ts after checking
 * the two agree; their setup loading takes ≈ 30 s, so the suite reads the file — PIPPIN_KZG_LIVE=1
 * runs them here too), on edge blobs (zero, all r − 1, one non-zero element) and random ones. Live
 * and independent of all three: a blob with one non-zero element v at i commits to v·L[brp(i)],
 * computed by @noble/curves from the setup's Lagrange point. The example's main() runs.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bls12_381 as noble } from '@noble/curves/bls12-381.js';
import { loadKzg, type Kzg } from '../src/kzg/index.js';
import { parseTrustedSetup } from '../src/kzg/setup.js';
import { TRUSTED_SETUP_TEXT } from '../src/kzg/trusted-setup.js';
import { reverseBits } from '../src/kzg/fr.js';
import { BLOB_NAMES, blobOf, namedBlob } from '../examples/kzg-4844/blobs.js';

const vectors = JSON.parse(readFileSync(new URL('../examples/kzg-4844/vectors.json', import.meta.url), 'utf8')) as { cases: { blob: string; commitment: string }[] };
const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

describe('pippin/kzg commitments = kzg-wasm = micro-eth-signer (examples/kzg-4844)', { timeout: 300_000 }, () => {
  let kzg: Kzg;
  before(async () => {
    kzg = await loadKzg();
  });
  after(() => kzg.dispose());

  it('the vectors cover every named blob, and pippin/kzg gives their commitments', async () => {
    assert.deepEqual(vectors.cases.map((c) => c.blob), BLOB_NAMES);
    for (const { blob, commitment } of vectors.cases) assert.equal(hex(await kzg.blobToKzgCommitment(namedBlob(blob))), commitment, blob);
  });

  it('one non-zero element v at i commits to v·L[brp(i)] (@noble/curves on the setup point)', async () => {
    const lagrange = parseTrustedSetup(TRUSTED_SETUP_TEXT).g1Lagrange;
    for (const [i, v] of [[3, 7n], [100, noble.fields.Fr.ORDER - 2n], [4094, 0xdeadbeefn]] as const) {
      const j = reverseBits(i, 12);
      const L = noble.G1.Point.fromBytes(lagrange.subarray(48 * j, 48 * j + 48));
      assert.equal(hex(await kzg.blobToKzgCommitment(blobOf((k) => (k === i ? v : 0n)))), '0x' + L.multiply(v).toHex(true), `i = ${i}`);
    }
  });

  it('the example runs', async () => {
    const log = console.log;
    const lines: string[] = [];
    console.log = (s: string) => lines.push(s);
    try {
      await (await import('../examples/kzg-4844/kzg.js')).main();
    } finally {
      console.log = log;
    }
    assert.match(lines.join('\n'), /128 cells and 128 cell proofs/);
  });

  it('live against the peers (PIPPIN_KZG_LIVE=1; ≈ 30 s of setup loading)', { skip: process.env.PIPPIN_KZG_LIVE !== '1' }, async () => {
    const { loadPeers } = await import('../examples/kzg-4844/peers.js');
    const peers = await loadPeers();
    for (const name of BLOB_NAMES) {
      const blob = namedBlob(name);
      const mine = hex(await kzg.blobToKzgCommitment(blob));
      for (const p of peers) assert.equal(p.commit(blob), mine, `${name}: ${p.name}`);
    }
  });
});
