/**
 * Window-size sweep: for each log size, the MSM time for c around the cost model's choice, median
 * of several runs (the window sizes interleaved round by round, so machine noise hits all alike),
 * on one thread or on `--threads N` workers. The fastest c per size goes into the curve's tuning
 * file (src/curves/<curve>.tuning.ts; one table per thread count).
 *
 *   npm run bench:windows [-- --curve bn254] [-- --sizes 8,10,12,14,16,18] [-- --runs 5] [-- --cs 13,15,16] [-- --threads 2]
 */
import { bls12_381, bls12_377, bn254, pallas, vesta, startThreads, stopThreads } from '../src/index.js';
import { planMsm } from '../src/msm/plan.js';
import { randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { makeRng } from '../src/reference/rng.js';
import { RefCurve } from '../src/reference/curve.js';

const args = process.argv.slice(2);
const get = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const sizes = get('sizes', '8,10,12,14,16,18').split(',').map(Number);
const runs = Number(get('runs', '5'));
const threads = Number(get('threads', '1'));
if (!Number.isInteger(threads) || threads < 1) throw new Error('bad --threads');
const registry = { 'bls12-381': bls12_381, bn254, 'bls12-377': bls12_377, pallas, vesta } as const;
const curve = registry[get('curve', 'bls12-381') as keyof typeof registry] as unknown as typeof bls12_381;
if (!curve) throw new Error('unknown --curve');
await curve.init();
if (threads > 1) {
  const state = await startThreads(threads);
  if (!state.active) throw new Error(`threads unavailable: ${state.reason}`);
} else stopThreads();
const ref = new RefCurve(curve.params);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`${curve.name}, ${threads} thread(s), median of ${runs} runs after a warm-up\nlogN  model-c  c: median ms ...  best`);
for (const logN of sizes) {
  const n = 2 ** logN;
  const rng = makeRng(logN);
  const { bytes } = randomPoints(curve.g1.inst, n, rng, curve.params.r, (a) => ref.mul(curve.params.G1, a)!, curve.g1.formatSpec());
  const scalars = randomScalarBytes(n, rng);
  const model = planMsm(2 * n).c;
  const cs = (args.includes('--cs') ? get('cs', '').split(',').map(Number) : [model - 2, model - 1, model, model + 1, model + 2]).filter((c) => c >= 2 && c <= 16);
  const times = new Map<number, number[]>(cs.map((c) => [c, []]));
  let want: bigint | undefined;
  for (let r = 0; r < runs + 1; r++) {
    for (const c of cs) {
      const t = performance.now();
      const out = await curve.g1.msm(bytes, scalars, { validate: 'none', windowBits: c, threads });
      if (r > 0) times.get(c)!.push(performance.now() - t);
      if (want === undefined) want = out.x;
      else if (out.x !== want) throw new Error(`c = ${c}: result differs`);
    }
  }
  const res: [number, number][] = cs.map((c) => [c, median(times.get(c)!)]);
  const best = res.reduce((a, b) => (b[1] < a[1] ? b : a));
  console.log(`${String(logN).padStart(4)}  ${String(model).padStart(7)}  ${res.map(([c, t]) => `${c}: ${t.toFixed(1)}`).join('  ')}   best c = ${best[0]}`);
}
stopThreads();
