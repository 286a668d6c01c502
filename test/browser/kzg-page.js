// The page of test/browser/kzg.browser.test.ts: `pippin/kzg` imported by its package name, as a
// bundle user does (the test bundles this file with esbuild, minified, chunks split: the setup and
// the FK20 columns load as chunks of their own). Bytes travel as hex strings.
import { loadKzg } from 'pippin/kzg';
import { PippinError, ScalarEncodingError, threads } from 'pippin';

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const bytes = (h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));

/**
 * One Kzg with `threads` (null: loadKzg's default, every worker of the pool): first every entry on each bad blob (must throw; nothing may stay broken),
 * then every result on `blob` as hex: commitment, [proof, y] per z, blob proof, cells and proofs, and
 * recoverCellsAndKzgProofs from the 64 odd cells (c-kzg's answer: the blob's cells and proofs).
 * @param {{ blob: string, zs: string[], bad: { index: number, value: string }[], threads: number | null }} args
 */
window.runKzg = async ({ blob: blobHex, zs, bad, threads: t }) => {
  const kzg = await loadKzg(t === null ? {} : { threads: t });
  const blob = bytes(blobHex);
  const errors = [];
  for (const { index, value } of bad) {
    const b = blob.slice();
    b.set(bytes(value), 32 * index);
    const calls = {
      blobToKzgCommitment: () => kzg.blobToKzgCommitment(b),
      computeKzgProof: () => kzg.computeKzgProof(b, bytes(zs[0])),
      computeBlobKzgProof: () => kzg.computeBlobKzgProof(b, bytes('c0'.padEnd(96, '0'))), // infinity: a valid commitment
      computeCells: () => kzg.computeCells(b),
      computeCellsAndKzgProofs: () => kzg.computeCellsAndKzgProofs(b),
    };
    for (const [entry, call] of Object.entries(calls)) {
      try {
        await call();
        errors.push({ entry, at: index, threw: false });
      } catch (e) {
        errors.push({ entry, at: index, threw: true, typed: e instanceof ScalarEncodingError, pippin: e instanceof PippinError, index: e.index, name: e.name, message: String(e.message) });
      }
    }
  }
  const commitment = await kzg.blobToKzgCommitment(blob);
  const kzgProofs = [];
  for (const z of zs) kzgProofs.push((await kzg.computeKzgProof(blob, bytes(z))).map(hex));
  const blobProof = await kzg.computeBlobKzgProof(blob, commitment);
  const [cells, proofs] = await kzg.computeCellsAndKzgProofs(blob);
  const odd = cells.map((_, i) => i).filter((i) => i % 2 === 1);
  const [recoveredCells, recoveredProofs] = await kzg.recoverCellsAndKzgProofs(odd, odd.map((i) => cells[i]));
  kzg.dispose();
  return {
    errors,
    commitment: hex(commitment),
    kzgProofs,
    blobProof: hex(blobProof),
    cells: cells.map(hex),
    proofs: proofs.map(hex),
    recoveredCells: recoveredCells.map(hex),
    recoveredProofs: recoveredProofs.map(hex),
    crossOriginIsolated,
    threadsActive: threads.active,
    threadsCount: threads.count,
    threadsReason: threads.reason,
  };
};
window.kzgPageReady = true;
