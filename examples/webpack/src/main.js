// The whole app: import pippin like any ESM package, no bundler configuration.
import { bls12_381 } from 'pippin';

async function main() {
  await bls12_381.init();
  const G = bls12_381.params.G1; // { x, y } as bigints
  const a = bls12_381.g1.msm([G, G], [2n, 3n]); // 2G + 3G
  const b = bls12_381.g1.msm([G], [5n]); //        5G
  const ok = !a.infinity && a.x === b.x && a.y === b.y;
  return `${ok ? 'OK' : 'MISMATCH'}: 2G + 3G = 5G on BLS12-381\nx = 0x${a.x.toString(16)}\ny = 0x${a.y.toString(16)}`;
}

const out = document.getElementById('result');
main().then(
  (text) => {
    out.textContent = text;
    out.dataset.status = text.startsWith('OK') ? 'ok' : 'fail';
  },
  (err) => {
    out.textContent = `error: ${err && err.stack ? err.stack : err}`;
    out.dataset.status = 'fail';
  },
);
