/**
 * Scalar families that make buckets hot, on one thread (BLS12-381 G1, `validate: 'none'`):
 *   npm run bench:families -- [--size 18] [--family <prefix>]
 * Prints, per family, the batch flushes, inversions and additions of the first run (msm_accumulate
 * flushes early when its temporaries run out, so equal counts mean the pool never ran out) and the
 * median of 3 timed runs. Families: random scalars; all equal; k distinct values repeating with
 * period k (64 … 16384); 16-bit scalars. Used to size the temporaries pool (src/msm/plan.ts).
 */
import { parseArgs } from 'node:util';
import { curves, stopThreads } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { makeRng } from '../src/reference/rng.js';
import type { MsmCallStats as G1MsmStats } from '../src/api/group.js';

const { values } = parseArgs({ options: { size: { type: 'string', default: '18' }, family: { type: 'string', default: '' } } });
const n = 2 ** Number(values.size);
const curve = curves['bls12-381'];
await curve.init();
stopThreads();
const g1 = curve.g1;
const ref = new RefCurve(curve.params);
const rng = makeRng(7);
const spec = g1.formatSpec(undefined);
const points = new Uint8Array(n * spec.bytes);
for (let at = 0; at < n; at += 4096) {
  points.set(randomPoints(g1.inst, Math.min(4096, n - at), rng, curve.params.r, (a) => ref.mul(curve.params.G1, a)!, spec).bytes, at * spec.bytes);
}
const random = randomScalarBytes(n, rng);
/** k distinct scalars (the first k random ones), repeating with period k */
const repeating = (k: number) => {
  const out = new Uint8Array(32 * n);
  for (let i = 0; i < n; i++) out.set(random.subarray(32 * (i % k), 32 * (i % k) + 32), 32 * i);
  return out;
};
const short = new Uint8Array(32 * n);
for (let i = 0; i < n; i++) short.set(random.subarray(32 * i, 32 * i + 2), 32 * i);
const families: [string, Uint8Array][] = [
  ['random', random], ['all equal', repeating(1)],
  ...[64, 300, 700, 1500, 4096, 16384].map((k): [string, Uint8Array] => [`${k} values`, repeating(k)]),
  ['16-bit', short],
];
for (const [name, scalars] of families) {
  if (!name.startsWith(values.family)) continue;
  const times: number[] = [];
  let first: G1MsmStats | undefined;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    await g1.msm(points, scalars, { validate: 'none', threads: 1, onStats: (s) => (first ??= s) });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(13)} flushes ${first!.flushes}  inversions ${first!.inversions}  additions ${first!.additions}  median ${times[1].toFixed(1)} ms`);
}
