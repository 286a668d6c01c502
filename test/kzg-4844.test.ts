/**
 * The EIP-4844 example (examples/kzg-4844): blob_to_kzg_commitment over prepared bases with the
 * official setup, byte for byte against the commitments kzg-wasm@1.0.0 and micro-eth-signer give
 * (examples/kzg-4844/vectors.json, written by scripts/make-kzg-vectors.ts after checking the two
 * agree; their setup loading takes ≈ 30 s, so the suite reads the file — PIPPIN_KZG_LIVE=1 runs
 * them here too), on edge blobs (zero, all r − 1, one non-zero element) and random ones; one,
 * many (msmBatch) and on the calling thread. Live and independent of both: a blob with one non-zero
 * element v at i commits to v·L[reverse(i)], computed by @noble/curves from the setup's point.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bls12_381 as noble } from '@noble/curves/bls12-381.js';
import { LengthMismatchError, ScalarEncodingError } from '../src/index.js';
import { BYTES_PER_BLOB, kzgWasmLagrangePoints, loadTrustedSetup, reverseBits, type BlobCommitter } from '../examples/kzg-4844/kzg.js';
import { BLOB_NAMES, blobOf, namedBlob } from '../examples/kzg-4844/blobs.js';

const vectors = JSON.parse(readFileSync(new URL('../examples/kzg-4844/vectors.json', import.meta.url), 'utf8')) as { cases: { blob: string; commitment: string }[] };
const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

describe('EIP-4844 blob commitments (examples/kzg-4844)', { timeout: 300_000 }, () => {
  let kzg: BlobCommitter;
  let setupPoints: Uint8Array;
  before(async () => {
    setupPoints = await kzgWasmLagrangePoints();
    kzg = await loadTrustedSetup({ points: setupPoints });
  });
  after(() => kzg.dispose());

  it('the vectors cover every named blob', () => {
    assert.deepEqual(vectors.cases.map((c) => c.blob), BLOB_NAMES);
  });

  it('one blob at a time, async and on the calling thread, = kzg-wasm = micro-eth-signer', async () => {
    for (const { blob, commitment } of vectors.cases) {
      assert.equal(hex(await kzg.commit(namedBlob(blob))), commitment, blob);
      if (blob.startsWith('random') || blob === 'r-1') assert.equal(hex(kzg.commitSync(namedBlob(blob))), commitment, `${blob} (sync)`);
    }
  });

  it('all blobs in one msmBatch, and the 6 of a block (with a repeat)', async () => {
    const all = await kzg.commitMany(vectors.cases.map((c) => namedBlob(c.blob)));
    assert.deepEqual(all.map(hex), vectors.cases.map((c) => c.commitment));
    const six = [5, 6, 7, 8, 1, 6].map((j) => vectors.cases[j]);
    assert.deepEqual((await kzg.commitMany(six.map((c) => namedBlob(c.blob)))).map(hex), six.map((c) => c.commitment));
  });

  it('one non-zero element v at i commits to v·L[reverse(i)] (@noble/curves on the setup point)', async () => {
    for (const [i, v] of [[3, 7n], [100, noble.fields.Fr.ORDER - 2n], [4094, 0xdeadbeefn]] as const) {
      const j = reverseBits(i, 12);
      const L = noble.G1.Point.fromHex(Buffer.from(setupPoints.subarray(48 * j, 48 * j + 48)).toString('hex'));
      assert.equal(hex(await kzg.commit(blobOf((k) => (k === i ? v : 0n)))), '0x' + L.multiply(v).toHex(true), `i = ${i}`);
    }
  });

  it('bad blobs: a field element ≥ r (with its index), the wrong length', async () => {
    const r = noble.fields.Fr.ORDER;
    for (const [at, v] of [[0, r], [17, r + 1n], [4095, (1n << 256n) - 1n]] as const) {
      await assert.rejects(kzg.commit(blobOf((k) => (k === at ? v : 1n))), (e) => e instanceof ScalarEncodingError && e.index === at, `${at}`);
    }
    await assert.rejects(kzg.commit(new Uint8Array(BYTES_PER_BLOB - 32)), LengthMismatchError);
    assert.equal(hex(await kzg.commit(blobOf((k) => (k === 9 ? r - 1n : 0n)))).length, 98, 'r − 1 is accepted');
  });

  it('live against the peers (PIPPIN_KZG_LIVE=1; ≈ 30 s of setup loading)', { skip: process.env.PIPPIN_KZG_LIVE !== '1' }, async () => {
    const { loadPeers } = await import('../examples/kzg-4844/peers.js');
    const peers = await loadPeers();
    for (const name of BLOB_NAMES) {
      const blob = namedBlob(name);
      const mine = hex(await kzg.commit(blob));
      for (const p of peers) assert.equal(p.commit(blob), mine, `${name}: ${p.name}`);
    }
  });
});
