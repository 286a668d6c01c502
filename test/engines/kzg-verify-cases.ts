/**
 * The verifier cases of the cross-engine and browser KZG checks: `verifyCases(outputs)` builds, from
 * one blob's outputs (commitment, [proof, y] at two z, blob proof, cells and cell proofs — c-kzg's
 * in ./kzg-fixture.ts and test/browser/kzg.browser.test.ts, pippin's own in ./kzg-check.ts, which
 * first checks them equal to c-kzg's), named calls of the four verifiers: valid inputs, a wrong y,
 * −π, a proof of another point or blob, a changed blob element, swapped cells, a negated cell proof,
 * no blobs / no cells, the odd half of the cells, and inputs c-kzg refuses (a point outside G1, a
 * point without the compression flag, a cell index of 128). The oracle runs each case through c-kzg
 * and records its outcome (true, false or "throws"); the engines must give the same, async and
 * `kzg.sync`. Arguments are hex strings (bytes) and numbers, so the cases travel as JSON to a page.
 */
import { bls12_381 } from '../../src/index.js';
import { RefCurve } from '../../src/reference/curve.js';
import { makeRng } from '../../src/reference/rng.js';
import { pointsOfOrder } from '../helpers/curve-points.js';

export type VerifyMethod = 'verifyKzgProof' | 'verifyBlobKzgProof' | 'verifyBlobKzgProofBatch' | 'verifyCellKzgProofBatch';
export type VerifyOutcome = boolean | 'throws';
/** A byte argument (hex), a cell index, or a list of them. */
export type VerifyArg = string | number | (string | number)[];
export interface VerifyCase {
  name: string;
  method: VerifyMethod;
  args: VerifyArg[];
}
/** One blob's outputs, hex (cells in cell order). */
export interface BlobOutputs {
  blob: string;
  commitment: string;
  /** computeKzgProof at two different z */
  proofs: { z: string; proof: string; y: string }[];
  blobProof: string;
  cells: string[];
  cellProofs: string[];
}

const flipSign = (h: string) => (parseInt(h.slice(0, 2), 16) ^ 0x20).toString(16).padStart(2, '0') + h.slice(2);
const uncompressedFlag = (h: string) => (parseInt(h.slice(0, 2), 16) & 0x7f).toString(16).padStart(2, '0') + h.slice(2);

/** A point on BLS12-381's G1 curve outside G1 (G1's generator plus a point of order 3), compressed, hex. */
export async function pointOutsideG1(): Promise<string> {
  await bls12_381.init();
  const ref = new RefCurve(bls12_381.params);
  const t = pointsOfOrder(ref, 3n, makeRng(34))[0]!;
  const p = bls12_381.g1.toBytes({ ...ref.add(bls12_381.params.G1, t)!, infinity: false }, 'zcash-compressed');
  return Array.from(p, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The named verifier calls on `o` (see the header); `outsideG1` from pointOutsideG1(). */
export function verifyCases(o: BlobOutputs, outsideG1: string): VerifyCase[] {
  const [a, b] = o.proofs as [BlobOutputs['proofs'][0], BlobOutputs['proofs'][0]];
  const changedBlob = o.blob.slice(0, 64 * 5) + '0'.repeat(64) + o.blob.slice(64 * 6); // element 5 set to 0
  const all = o.cells.map((_, i) => i);
  const odd = all.filter((i) => i % 2 === 1);
  const cellCall = (name: string, indices: number[], cells: number[], proofs: string[], commitment = o.commitment): VerifyCase => ({
    name,
    method: 'verifyCellKzgProofBatch',
    args: [indices.map(() => commitment), indices, cells.map((i) => o.cells[i]!), proofs],
  });
  const negated7 = o.cellProofs.map((p, i) => (i === 7 ? flipSign(p) : p));
  return [
    { name: 'kzg proof, valid (z outside the domain)', method: 'verifyKzgProof', args: [o.commitment, a.z, a.y, a.proof] },
    { name: 'kzg proof, valid (z in the domain)', method: 'verifyKzgProof', args: [o.commitment, b.z, b.y, b.proof] },
    { name: 'kzg proof, the y of the other z', method: 'verifyKzgProof', args: [o.commitment, a.z, b.y, a.proof] },
    { name: 'kzg proof, −π', method: 'verifyKzgProof', args: [o.commitment, a.z, a.y, flipSign(a.proof)] },
    { name: 'kzg proof, proof outside G1', method: 'verifyKzgProof', args: [o.commitment, a.z, a.y, outsideG1] },
    { name: 'kzg proof, commitment without the compression flag', method: 'verifyKzgProof', args: [uncompressedFlag(o.commitment), a.z, a.y, a.proof] },
    { name: 'blob proof, valid', method: 'verifyBlobKzgProof', args: [o.blob, o.commitment, o.blobProof] },
    { name: 'blob proof, the proof of a point', method: 'verifyBlobKzgProof', args: [o.blob, o.commitment, a.proof] },
    { name: 'blob proof, element 5 changed', method: 'verifyBlobKzgProof', args: [changedBlob, o.commitment, o.blobProof] },
    { name: 'blob proof, commitment outside G1', method: 'verifyBlobKzgProof', args: [o.blob, outsideG1, o.blobProof] },
    { name: 'blob batch, no blobs', method: 'verifyBlobKzgProofBatch', args: [[], [], []] },
    { name: 'blob batch, the blob twice', method: 'verifyBlobKzgProofBatch', args: [[o.blob, o.blob], [o.commitment, o.commitment], [o.blobProof, o.blobProof]] },
    { name: 'blob batch, −π second', method: 'verifyBlobKzgProofBatch', args: [[o.blob, o.blob], [o.commitment, o.commitment], [o.blobProof, flipSign(o.blobProof)]] },
    cellCall('cells, all 128', all, all, o.cellProofs),
    cellCall('cells, the odd 64', odd, odd, odd.map((i) => o.cellProofs[i]!)),
    cellCall('cells, none', [], [], []),
    cellCall('cells 3 and 5 swapped', [3, 5], [5, 3], [o.cellProofs[3]!, o.cellProofs[5]!]),
    cellCall('cells, proof 7 negated', all, all, negated7),
    cellCall('cells, a proof outside G1', [0, 1], [0, 1], [o.cellProofs[0]!, outsideG1]),
    cellCall('cells, index 128', [128], [0], [o.cellProofs[0]!]),
  ];
}

const bytesOf = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
/** A case's arguments as the verifiers take them (hex → bytes, numbers as they are). */
export function callArgs(c: VerifyCase): unknown[] {
  return c.args.map((x) => (Array.isArray(x) ? x.map((y) => (typeof y === 'string' ? bytesOf(y) : y)) : typeof x === 'string' ? bytesOf(x) : x));
}

/**
 * The outcome of `call`: true, false, or "throws" — when `typed` is given, only for an error it
 * accepts (another error's outcome names it, so it differs from every oracle outcome).
 */
export async function outcomeOf(call: () => boolean | Promise<boolean>, typed?: (e: unknown) => boolean): Promise<VerifyOutcome | string> {
  try {
    return await call();
  } catch (e) {
    return !typed || typed(e) ? 'throws' : `threw an untyped ${String(e)}`;
  }
}
