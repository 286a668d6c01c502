// The whole app: import pippin like any ESM package, no bundler configuration.
import { bls12_381, threads } from 'pippin';

async function main() {
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

const out = document.getElementById('result');
main().then(
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
