/**
 * MSM benchmark: pippin and its peers on identical inputs, each implementation in a fresh process,
 * median of several runs, every result cross-checked (bench/peers/run-all.ts).
 *
 *   npm run bench:msm -- --sizes 10,12,14,16,18 [--runs 5] [--peers montgomery,ffjavascript,mcl,noble] [--json]
 *
 * pippin's timing includes decoding the point bytes and on-curve validation (PIPPIN_BENCH_VALIDATE
 * selects another level). noble runs at log sizes ≤ 12 only (--noble-max to change).
 */
import { fileURLToPath } from 'node:url';
import { formatTable, runPeers } from './peers/run-all.js';

const args = process.argv.slice(2);
const get = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
};
const json = args.includes('--json');
const sizes = get('sizes', '10,12,14,16').split(',').map(Number);
const runs = Number(get('runs', '5'));
const peers = get('peers', 'montgomery,ffjavascript,mcl,noble').split(',').filter(Boolean);
const pippin = fileURLToPath(new URL('./peers/pippin.ts', import.meta.url));

const results = await runPeers({
  sizes,
  runs,
  peers: [pippin, ...peers],
  nobleMaxLogSize: Number(get('noble-max', '12')),
  log: json ? () => {} : undefined,
});
if (json) {
  console.log(JSON.stringify(results.map((r) => ({ ...r, curve: 'bls12-381' })), null, 2));
} else {
  console.log(formatTable(results));
  console.log('\nspeed-up of pippin (peer median / pippin median):');
  for (const size of sizes) {
    const mine = results.find((r) => r.impl === 'pippin' && r.logSize === size);
    if (!mine) continue;
    const others = results.filter((r) => r.impl !== 'pippin' && r.logSize === size && r.ok);
    const extra = mine as unknown as { bytesPerPoint?: number };
    console.log(
      `  2^${size}: pippin ${mine.medianMs.toFixed(1)} ms (${extra.bytesPerPoint ?? '?'} bytes/point peak)  ` +
        others.map((o) => `${o.impl} ${(o.medianMs / mine.medianMs).toFixed(2)}×`).join('  '),
    );
  }
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
