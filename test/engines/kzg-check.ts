/**
 * The pippin/kzg check of the cross-engine suite: `checkKzg(want, twoThreads)` throws, naming the
 * first difference, unless pippin/kzg gives c-kzg's bytes (`want`, made by ./kzg-fixture.ts) for
 * `randomBlob(want.seed)`: the commitment, [proof, y] at each z, the blob proof, the cells (their
 * SHA-256) and the cell proofs on 1 thread and, when `twoThreads`, on 2 (a second Kzg over the
 * pool, `startThreads` already done), the same cells and proofs recovered from the 64 odd cells
 * (c-kzg recovers a blob's own; ./kzg-fixture.ts checks that), and a ScalarEncodingError naming element `want.bad.index`
 * for the blob with that element ≥ r; and each verifier case of ./kzg-verify-cases.ts (built on
 * pippin's own outputs, already checked equal to c-kzg's) with c-kzg's outcome, async and `kzg.sync`.
 * Cost ≈ 2.5 s: two loadKzg (setup decode, subgroup checks,
 * prepare) and two FK20 table builds. Its own module, imported by ./suite.ts only, so that the
 * browser page (./page.ts, which has no fixture) does not bundle pippin/kzg and its 1.9 MB.
 */
import { PippinError, ScalarEncodingError } from '../../src/errors.js';
import { loadKzg, type Kzg } from '../../src/kzg/index.js';
import { sha256 } from '../../src/kzg/sha256.js';
import { randomBlob } from '../../examples/kzg-4844/blobs.js';
import { callArgs, outcomeOf, pointOutsideG1, verifyCases, type VerifyOutcome } from './kzg-verify-cases.js';

/** c-kzg's outputs for `randomBlob(seed)` (examples/kzg-4844/blobs.ts), hex; made by ./kzg-fixture.ts. */
export interface KzgExpected {
  /** the c-kzg version that made them */
  cKzg: string;
  seed: number;
  blobSha256: string;
  commitment: string;
  /** computeKzgProof at each z (32 bytes big-endian) */
  proofs: { z: string; proof: string; y: string }[];
  blobProof: string;
  /** SHA-256 of each of the 128 cells */
  cellSha256: string[];
  cellProofs: string[];
  /** the blob with element `index` set to `value` (≥ r), and c-kzg's error for it */
  bad: { index: number; value: string; cKzgError: string };
  /** c-kzg's outcome of each case of ./kzg-verify-cases.ts, by name */
  verify: Record<string, VerifyOutcome>;
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const bytes = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
function eq(got: string, want: string, what: string): void {
  if (got !== want) throw new Error(`${what}: got ${got}, want ${want}`);
}

export async function checkKzg(want: KzgExpected, twoThreads: boolean): Promise<void> {
  const blob = randomBlob(want.seed);
  eq(hex(sha256(blob)), want.blobSha256, `SHA-256 of randomBlob(${want.seed})`);
  const same = (cells: Uint8Array[], proofs: Uint8Array[], what: string) => {
    eq(`${cells.length} ${proofs.length}`, `${want.cellSha256.length} ${want.cellProofs.length}`, `${what}: cell and proof counts`);
    cells.forEach((c, i) => eq(hex(sha256(c)), want.cellSha256[i], `${what}: SHA-256 of cell ${i}`));
    proofs.forEach((p, i) => eq(hex(p), want.cellProofs[i], `${what}: proof of cell ${i}`));
  };
  const cellsEqual = async (kzg: Kzg, t: number) => {
    const [cells, proofs] = await kzg.computeCellsAndKzgProofs(blob);
    same(cells, proofs, `${t} thread(s)`);
    const odd = cells.map((_, i) => i).filter((i) => i % 2 === 1);
    const [back, backProofs] = await kzg.recoverCellsAndKzgProofs(odd, odd.map((i) => cells[i]));
    same(back, backProofs, `${t} thread(s), recovered from the odd cells`);
  };
  const one = await loadKzg({ threads: 1 });
  try {
    const commitment = await one.blobToKzgCommitment(blob);
    eq(hex(commitment), want.commitment, 'commitment');
    for (const { z, proof, y } of want.proofs) {
      const [p, v] = await one.computeKzgProof(blob, bytes(z));
      eq(hex(v), y, `y at z = ${z}`);
      eq(hex(p), proof, `proof at z = ${z}`);
    }
    eq(hex(await one.computeBlobKzgProof(blob, commitment)), want.blobProof, 'blob proof');
    const bad = blob.slice();
    bad.set(bytes(want.bad.value), 32 * want.bad.index);
    const err = await one.blobToKzgCommitment(bad).then(() => undefined, (e: unknown) => e);
    if (!(err instanceof ScalarEncodingError && err.index === want.bad.index && err.message.includes(`element ${want.bad.index}`))) {
      throw new Error(`element ${want.bad.index} ≥ r: got ${String(err)} (index ${(err as { index?: number } | undefined)?.index}), want a ScalarEncodingError naming element ${want.bad.index} (c-kzg: ${want.bad.cKzgError})`);
    }
    await cellsEqual(one, 1);
    const proofs = [];
    for (const { z } of want.proofs) {
      const [p, y] = await one.computeKzgProof(blob, bytes(z));
      proofs.push({ z, proof: hex(p), y: hex(y) });
    }
    const [cells, cellProofs] = await one.computeCellsAndKzgProofs(blob);
    const outputs = { blob: hex(blob), commitment: hex(commitment), proofs, blobProof: want.blobProof, cells: cells.map(hex), cellProofs: cellProofs.map(hex) };
    const cases = verifyCases(outputs, await pointOutsideG1());
    eq(cases.map((c) => c.name).join(' | '), Object.keys(want.verify).join(' | '), 'verifier cases');
    for (const c of cases) {
      const args = callArgs(c);
      const asyncCall = (one[c.method] as (...a: unknown[]) => Promise<boolean>).bind(one);
      const syncCall = (one.sync[c.method] as (...a: unknown[]) => boolean).bind(one.sync);
      const typed = (e: unknown) => e instanceof PippinError;
      eq(String(await outcomeOf(() => asyncCall(...args), typed)), String(want.verify[c.name]), `${c.method} (async), ${c.name}`);
      eq(String(await outcomeOf(() => syncCall(...args), typed)), String(want.verify[c.name]), `${c.method} (kzg.sync), ${c.name}`);
    }
  } finally {
    one.dispose();
  }
  if (twoThreads) {
    const two = await loadKzg({ threads: 2 });
    try {
      await cellsEqual(two, 2);
    } finally {
      two.dispose();
    }
  }
}
