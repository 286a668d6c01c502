/**
 * `kzg.sync` in the two libraries that build blob transactions in JavaScript, as devDependencies
 * (issue 31): viem 2.57 (`defineKzg(kzg.sync)`: toBlobSidecars from data, blobsToCommitments /
 * blobsToProofs, and an account-signed EIP-4844 transaction with blobs) and ethers 6.17 (a type-3
 * `Transaction` with `tx.kzg = kzg.sync` and raw blobs, signed by a `Wallet`; and an EIP-7594
 * network wrapper with the cell proofs of `kzg.sync.computeCellsAndKzgProofs`). Every serialized
 * transaction (the network form: blobs, commitments, proofs) must equal the one the same client
 * makes with c-kzg 4.1.0's functions (the oracle, native binding); c-kzg also verifies the proofs
 * that reach the sidecars. Two seeded random blobs per transaction; a c-kzg wrapper that flips one
 * byte of the second blob's proof must give other bytes (the comparison sees both blobs' proofs).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { blobsToCommitments, blobsToProofs, bytesToHex, defineKzg, toBlobSidecars, toBlobs, type Kzg as ViemKzg } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Transaction, Wallet, concat, hexlify, type KzgLibraryLike } from 'ethers';
import { loadKzg, BYTES_PER_BLOB, type Kzg } from '../src/kzg/index.js';
import { makeRng } from '../src/reference/rng.js';
import { randomBlob } from '../examples/kzg-4844/blobs.js';

const require = createRequire(import.meta.url);
const ckzg = require('c-kzg') as typeof import('c-kzg');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** The methods viem and ethers call (c-kzg's names). */
type BlobKzg = ViemKzg & KzgLibraryLike;

/** c-kzg with one byte of the proof of the second blob proved (the `nth` call, from 0) flipped. */
function flippedProof(nth = 1): BlobKzg {
  let calls = 0;
  return {
    blobToKzgCommitment: (blob: Uint8Array) => ckzg.blobToKzgCommitment(blob),
    computeBlobKzgProof: (blob: Uint8Array, commitment: Uint8Array) => {
      const proof = Uint8Array.from(ckzg.computeBlobKzgProof(blob, commitment));
      if (calls++ === nth) proof[17] ^= 0x01;
      return proof;
    },
  };
}

describe('kzg.sync in viem and ethers = c-kzg', { timeout: 120_000 }, () => {
  let kzg: Kzg;
  const rng = makeRng(0x31c11e);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => rng.nextU32() & 0xff);
  // raw blobs: every field element random below r (seeded)
  const blobs = [randomBlob(3101), randomBlob(3102)];
  // a private key from the same seed (any 32 bytes below the secp256k1 order; this one is)
  const privateKey = bytesToHex(Uint8Array.of(0x3f, ...bytes(31)));
  const to = bytesToHex(bytes(20));

  before(async () => {
    ckzg.loadTrustedSetup(0);
    kzg = await loadKzg();
  });
  after(() => kzg.dispose());

  it('the blobs are what they should be: two, full-sized, different, non-trivial', () => {
    assert.equal(blobs.length, 2);
    for (const b of blobs) {
      assert.equal(b.length, BYTES_PER_BLOB);
      assert.ok(b.filter((x) => x !== 0).length > BYTES_PER_BLOB * 0.9);
    }
    assert.notEqual(hex(blobs[0]), hex(blobs[1]));
  });

  it('viem: toBlobSidecars (data → 2 blobs), blobsToCommitments, blobsToProofs with defineKzg(kzg.sync)', () => {
    // random data for two nearly full blobs (viem's encoding: 31 bytes per field element, 0x80 at the end)
    const data = bytes(2 * 4096 * 31 - 1000);
    assert.equal(toBlobs({ data }).length, 2);
    const ours = toBlobSidecars({ data, kzg: defineKzg(kzg.sync) });
    const theirs = toBlobSidecars({ data, kzg: defineKzg(ckzg) });
    assert.equal(ours.length, 2);
    const flat = (s: typeof ours) => s.map(({ blob, commitment, proof }) => [blob, commitment, proof].map(hex).join(':'));
    assert.deepEqual(flat(ours), flat(theirs));
    // viem's blobs are not pippin's: c-kzg verifies pippin's proofs
    assert.equal(ckzg.verifyBlobKzgProofBatch(ours.map((s) => s.blob), ours.map((s) => s.commitment), ours.map((s) => s.proof)), true);
    const wrong = toBlobSidecars({ data, kzg: defineKzg(flippedProof()) });
    assert.equal(flat(wrong)[0], flat(theirs)[0]);
    assert.notEqual(flat(wrong)[1], flat(theirs)[1]);

    // the same two calls on raw blobs, kzg.sync passed as it is (it is viem's Kzg type)
    const commitments = blobsToCommitments({ blobs, kzg: kzg.sync });
    const proofs = blobsToProofs({ blobs, commitments, kzg: kzg.sync });
    const commitmentsC = blobsToCommitments({ blobs, kzg: ckzg });
    assert.deepEqual(commitments.map(hex), commitmentsC.map(hex));
    assert.deepEqual(proofs.map(hex), blobsToProofs({ blobs, commitments: commitmentsC, kzg: ckzg }).map(hex));
  });

  it('viem: an EIP-4844 transaction with blobs signed by a local account (network form with sidecars)', async () => {
    const account = privateKeyToAccount(privateKey);
    const sign = (k: ViemKzg) =>
      account.signTransaction({
        type: 'eip4844',
        chainId: 1,
        nonce: 7,
        to,
        value: 0n,
        gas: 21_000n,
        maxFeePerGas: 30_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
        maxFeePerBlobGas: 2_000_000_000n,
        blobs,
        kzg: k,
      });
    const ours = await sign(defineKzg(kzg.sync));
    const theirs = await sign(defineKzg(ckzg));
    // the wrapper holds both blobs (2 × 131 072 bytes as hex), not only their versioned hashes
    assert.ok(ours.length > 2 * 2 * BYTES_PER_BLOB, `serialized: ${ours.length} hex characters`);
    assert.ok(ours.includes(hex(blobs[1])));
    assert.equal(ours, theirs);
    assert.notEqual(await sign(flippedProof()), theirs);
  });

  it('ethers: a type-3 Transaction with tx.kzg = kzg.sync and raw blobs, signed by a Wallet', async () => {
    const wallet = new Wallet(privateKey);
    const fields = {
      type: 3,
      chainId: 1n,
      nonce: 7,
      to,
      value: 0n,
      gasLimit: 21_000n,
      maxFeePerGas: 30_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      maxFeePerBlobGas: 2_000_000_000n,
    };
    const build = (k: KzgLibraryLike) => {
      const tx = Transaction.from(fields);
      tx.kzg = k; // before the blobs: ethers computes commitments and proofs when raw blobs are set
      tx.blobs = blobs;
      tx.signature = wallet.signingKey.sign(tx.unsignedHash);
      return tx;
    };
    const ours = build(kzg.sync);
    const theirs = build(ckzg);
    assert.ok(ours.serialized.includes(hex(blobs[0])));
    assert.equal(ours.serialized, theirs.serialized);
    assert.deepEqual(ours.blobVersionedHashes, theirs.blobVersionedHashes);
    assert.notEqual(build(flippedProof()).serialized, theirs.serialized);
    // the Wallet's own path (a request with kzg and raw blobs): the same bytes
    assert.equal(await wallet.signTransaction({ ...fields, kzg: kzg.sync, blobs }), theirs.serialized);
    // c-kzg verifies what pippin put in the transaction
    const sidecars = ours.blobs!;
    const bin = (h: string) => Buffer.from(h.slice(2), 'hex');
    assert.equal(ckzg.verifyBlobKzgProofBatch(sidecars.map((s) => bin(s.data)), sidecars.map((s) => bin(s.commitment)), sidecars.map((s) => bin(s.proof))), true);
  });

  it('ethers: an EIP-7594 network wrapper (blobWrapperVersion 1) with kzg.sync.computeCellsAndKzgProofs', () => {
    const wallet = new Wallet(privateKey);
    const build = (commit: (b: Uint8Array) => Uint8Array, cellProofs: (b: Uint8Array) => Uint8Array[]) => {
      const tx = Transaction.from({ type: 3, chainId: 1n, nonce: 8, to, gasLimit: 21_000n, maxFeePerGas: 3n * 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, maxFeePerBlobGas: 2n * 10n ** 9n });
      tx.blobWrapperVersion = 1;
      tx.blobs = blobs.map((data) => ({ data, commitment: commit(data), proof: concat(cellProofs(data)) }));
      tx.signature = wallet.signingKey.sign(tx.unsignedHash);
      return tx.serialized;
    };
    const ours = build(kzg.sync.blobToKzgCommitment, (b) => kzg.sync.computeCellsAndKzgProofs(b)[1]);
    const theirs = build(ckzg.blobToKzgCommitment, (b) => ckzg.computeCellsAndKzgProofs(b)[1]);
    assert.ok(ours.length > 2 * (2 * BYTES_PER_BLOB + 2 * 128 * 48));
    assert.equal(ours, theirs);
    // one byte of one cell proof of the second blob flipped: other bytes
    let n = 0;
    const wrong = build(ckzg.blobToKzgCommitment, (b) => {
      const proofs = ckzg.computeCellsAndKzgProofs(b)[1].map((p) => Uint8Array.from(p));
      if (n++ === 1) proofs[127][40] ^= 0x80;
      return proofs;
    });
    assert.notEqual(wrong, theirs);
    assert.equal(hexlify(concat(kzg.sync.computeCells(blobs[1]))), hexlify(concat(ckzg.computeCells(blobs[1]))));
  });
});
