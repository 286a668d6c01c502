/**
 * toEthereumjsKzg with the real @ethereumjs/tx and @ethereumjs/common 10.1.3 (`customCrypto: { kzg }`):
 * a signed blob transaction with its network wrapper is created, serialized, parsed back and
 * validated by pippin's KZG — EIP-4844's wrapper (Cancun: blob proofs, verifyBlobProofBatch) and
 * EIP-7594's (Osaka: cell proofs, verifyCellKzgProofBatch) — with commitments and proofs equal to
 * c-kzg's; a wrapper with a wrong proof is refused. Then the adapter's own methods against c-kzg.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createBlob4844Tx, createBlob4844TxFromSerializedNetworkWrapper } from '@ethereumjs/tx';
import type { KZG } from '@ethereumjs/util';
import { PippinError } from '../src/index.js';
import { loadKzg, toEthereumjsKzg, type EthereumjsKzg, type Kzg } from '../src/kzg/index.js';
import { CkzgOracle, hex, randomBlobs } from './helpers/kzg-oracle.js';

const PRIVATE_KEY = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const bytes = (h: string) => Uint8Array.from(Buffer.from(h.slice(2), 'hex'));

describe('toEthereumjsKzg with @ethereumjs/tx and @ethereumjs/common 10.1.3', { timeout: 300_000 }, () => {
  let kzg: Kzg;
  let ejs: EthereumjsKzg;
  const oracle = new CkzgOracle();
  before(async () => {
    kzg = await loadKzg({ threads: 1 });
    ejs = toEthereumjsKzg(kzg);
  });
  after(() => kzg.dispose());

  for (const hardfork of [Hardfork.Cancun, Hardfork.Osaka]) {
    it(`${hardfork}: a blob transaction's network wrapper round trip, and a wrong proof refused`, () => {
      const kzgForEjs: KZG = ejs; // the interface itself, type-checked
      const common = new Common({ chain: Mainnet, hardfork, customCrypto: { kzg: kzgForEjs } });
      const txData = {
        blobsData: ['pippin/kzg, verified by itself'],
        to: `0x${'11'.repeat(20)}` as const,
        gasLimit: 0xffffffn,
        maxFeePerGas: 10n ** 10n,
        maxPriorityFeePerGas: 10n ** 9n,
        maxFeePerBlobGas: 10n ** 9n,
        nonce: 3n,
      };
      const tx = createBlob4844Tx({ ...txData }, { common }).sign(PRIVATE_KEY);
      const blobs = tx.blobs!.map(bytes);
      const commitments = tx.kzgCommitments!;
      assert.deepEqual(commitments, blobs.map((b) => '0x' + oracle.commitment(b)), 'commitments are c-kzg\'s');
      const wantProofs = hardfork === Hardfork.Osaka ? blobs.flatMap((b) => oracle.cellsAndProofs(b)[1]) : blobs.map((b, i) => oracle.blobProof(b, bytes(commitments[i])));
      assert.deepEqual(tx.kzgProofs, wantProofs.map((p) => '0x' + p), 'proofs are c-kzg\'s');
      const wire = tx.serializeNetworkWrapper();
      const back = createBlob4844TxFromSerializedNetworkWrapper(wire, { common });
      assert.equal(hex(back.hash()), hex(tx.hash()));
      assert.equal(back.networkWrapperVersion, hardfork === Hardfork.Osaka ? 1 : 0);
      assert.ok(back.verifySignature());
      assert.deepEqual(back.kzgProofs, tx.kzgProofs);

      // the same transaction with one proof replaced by −proof (a valid point, a wrong proof)
      const proofs = [...tx.kzgProofs!];
      const flipped = bytes(proofs[0]);
      flipped[0] ^= 0x20;
      proofs[0] = `0x${hex(flipped)}`;
      const forged = createBlob4844Tx({ ...txData, blobsData: undefined, blobs: tx.blobs, kzgCommitments: commitments, blobVersionedHashes: tx.blobVersionedHashes, kzgProofs: proofs }, { common }).sign(PRIVATE_KEY);
      assert.throws(() => createBlob4844TxFromSerializedNetworkWrapper(forged.serializeNetworkWrapper(), { common }), /KZG proof cannot be verified/);
    });
  }

  it('the adapter: hex in and out, equal to c-kzg, malformed hex refused, recovery from half the cells', () => {
    const [blob] = randomBlobs(1, 3600);
    const b = '0x' + hex(blob);
    const c = ejs.blobToKzgCommitment(b);
    assert.equal(c, '0x' + oracle.commitment(blob));
    const p = ejs.computeBlobProof(b, c);
    assert.equal(p, '0x' + oracle.blobProof(blob, bytes(c)));
    assert.equal(ejs.verifyBlobProofBatch([b], [c], [p]), true);
    assert.equal(ejs.verifyBlobProofBatch([b], [c], [c]), false);
    const z = '0x' + '00'.repeat(31) + '09';
    const [kp, y] = oracle.kzgProof(blob, bytes(z));
    assert.equal(ejs.verifyProof(c, z, '0x' + y, '0x' + kp), true);
    const cells = ejs.computeCells(b);
    assert.deepEqual(cells, oracle.cells(blob).map((x) => '0x' + x));
    assert.throws(() => ejs.blobToKzgCommitment('0x' + 'zz'.repeat(131072)), PippinError);
    assert.throws(() => ejs.blobToKzgCommitment('0x123'), PippinError);
    // recovery from the odd half of the cells: every cell and proof back, equal to c-kzg's
    const odd = Array.from({ length: 64 }, (_, i) => 2 * i + 1);
    const [rc, rp] = ejs.recoverCellsAndProofs(odd, odd.map((i) => cells[i]!));
    assert.deepEqual(rc, cells);
    assert.deepEqual(rp, ejs.computeCellsAndProofs(b)[1]);
    assert.throws(() => ejs.recoverCellsAndProofs([0], [cells[0]!]), PippinError, 'fewer than half the cells');
  });
});
