/**
 * MSM benchmark: pippin and its peers on identical inputs, each implementation in a fresh process,
 * median of several runs after a warm-up, every result cross-checked (bench/peers/run-all.ts).
 *
 *   npm run bench:msm -- [--curve bls12-381|bn254] --sizes 10,12,14,16,18 [--runs 5]
 *                        [--peers ffjavascript,mcl,noble] [--seed 1] [--noble-max 12]
 *                        [--reference-max 10] [--json]
 *
 * --curve (default bls12-381) selects the inputs (bench/inputs.ts: BLS12-381 x‖y 48-byte BE, BN254
 * x‖y 32-byte BE = EIP-196) and is passed to every child process; peers default per curve
 * (bls12-381: montgomery, ffjavascript, mcl, noble; bn254: ffjavascript, mcl, noble).
 * pippin's timing includes decoding the point bytes and on-curve validation (PIPPIN_BENCH_VALIDATE
 * selects another level). If pippin has no API for the curve it is listed as skipped. noble runs at
 * log sizes ≤ 12 only (--noble-max to change); results at log sizes ≤ 10 are also checked against
 * the naive Σ[s_i]P_i (--reference-max to change).
 *
 * Exit code 0 iff every implementation that ran is ok.
 */
import { fileURLToPath } from 'node:url';
import { curveSpec } from './inputs.js';
import { formatTable, runPeers } from './peers/run-all.js';
import { DEFAULT_PEERS } from './peers/types.js';

const args = process.argv.slice(2);
const get = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : dflt;
};
const json = args.includes('--json');
const curve = curveSpec(get('curve', 'bls12-381')).name;
const sizes = get('sizes', '10,12,14,16').split(',').map(Number);
if (sizes.some((s) => !Number.isInteger(s) || s < 0 || s > 24)) throw new Error('bad --sizes');
const runs = Number(get('runs', '5'));
if (!Number.isInteger(runs) || runs < 1) throw new Error('bad --runs');
const peers = get('peers', DEFAULT_PEERS[curve].join(',')).split(',').map((s) => s.trim()).filter(Boolean);
const pippin = fileURLToPath(new URL('./peers/pippin.ts', import.meta.url));

const results = await runPeers({
  sizes,
  runs,
  curve,
  seed: Number(get('seed', '1')),
  peers: [pippin, ...peers],
  nobleMaxLogSize: Number(get('noble-max', '12')),
  referenceMaxLogSize: Number(get('reference-max', '10')),
  log: json ? () => {} : undefined,
});
if (json) {
  console.log(JSON.stringify(results.map((r) => ({ ...r, curve })), null, 2));
} else {
  console.log(`curve: ${curve}, ${runs} timed run(s) after 1 warm-up, median in ms, single process per row\n`);
  console.log(formatTable(results));
  console.log('\nspeed-up of pippin (peer median / pippin median):');
  for (const size of sizes) {
    const mine = results.find((r) => r.impl === 'pippin' && r.logSize === size);
    if (!mine || !mine.ok) {
      const why = mine?.skipped ? mine.note : `not ok${mine?.note ? ` (${mine.note})` : ''}`;
      console.log(`  2^${size}: pippin ${mine ? why : 'not run'}`);
      continue;
    }
    const others = results.filter((r) => r.impl !== 'pippin' && r.logSize === size && r.ok);
    const extra = mine as unknown as { bytesPerPoint?: number };
    console.log(
      `  2^${size}: pippin ${mine.medianMs.toFixed(1)} ms (${extra.bytesPerPoint ?? '?'} bytes/point peak)  ` +
        others.map((o) => `${o.impl} ${(o.medianMs / mine.medianMs).toFixed(2)}×`).join('  '),
    );
  }
}
process.exit(results.every((r) => r.ok || r.skipped) ? 0 : 1);
