// The whole app: import pippin like any ESM package, no bundler configuration.
import { bls12_381, threads } from 'pippin';
import { loadKzg } from 'pippin/kzg';

async function msm() {
  await bls12_381.init();
  const G = bls12_381.params.G1; // { x, y } as bigints
  const a = await bls12_381.g1.msm([G, G], [2n, 3n]); // 2G + 3G
  const b = bls12_381.g1.msmSync([G], [5n]); //           5G, on the calling thread
  // 300 points: large enough for the worker pool (started by the first msm; on a page without
  // cross-origin isolation it falls back to this thread and threads.reason says why)
  let used = 0;
  const c = await bls12_381.g1.msm(
    Array.from({ length: 300 }, () => G),
    Array.from({ length: 300 }, (_, i) => BigInt(i + 1)),
    { onStats: (s) => (used = s.threads) },
  );
  const d = bls12_381.g1.msmSync([G], [45150n]); // (1 + 2 + … + 300)·G
  const ok = !a.infinity && a.x === b.x && a.y === b.y && c.x === d.x && c.y === d.y;
  const how = threads.active ? `${used} threads` : `1 thread (${threads.reason})`;
  return `${ok ? 'OK' : 'MISMATCH'}: 2G + 3G = 5G and Σ i·G = 45150·G on BLS12-381 (${how})\nx = 0x${a.x.toString(16)}\ny = 0x${a.y.toString(16)}`;
}

/** A fixed pseudo-random blob: 4096 big-endian field elements, each below r (first byte < 0x40). */
function exampleBlob() {
  const blob = new Uint8Array(4096 * 32);
  let s = 2463534242; // xorshift32
  for (let i = 0; i < blob.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    blob[i] = i % 32 === 0 ? (s >>> 24) & 0x3f : s >>> 24;
  }
  return blob;
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

// EIP-4844 / EIP-7594: the setup and the FK20 columns come in their own chunks (dynamic imports)
async function blobKzg() {
  const kzg = await loadKzg(); // the official Ethereum setup, shipped with pippin
  const blob = exampleBlob();
  const commitment = await kzg.blobToKzgCommitment(blob);
  const [cells, proofs] = await kzg.computeCellsAndKzgProofs(blob);
  kzg.dispose();
  return { blob, commitment, cells, proofs };
}

const out = document.getElementById('result');
(async () => {
  const text = await msm();
  const kzg = await blobKzg();
  out.kzg = kzg; // the bytes, for examples/smoke.mjs to compare with c-kzg
  return `${text}\nblob commitment = 0x${hex(kzg.commitment)}\n${kzg.cells.length} cells, cell proof 0 = 0x${hex(kzg.proofs[0])}`;
})().then(
  (text) => {
    out.textContent = text;
    out.dataset.status = text.startsWith('OK') ? 'ok' : 'fail';
    out.dataset.threads = String(threads.active);
  },
  (err) => {
    out.textContent = `error: ${err && err.stack ? err.stack : err}`;
    out.dataset.status = 'fail';
  },
);
