/**
 * Window-size sweep: for each log size, the MSM time for c around the cost model's choice, median
 * of several runs, single thread. The fastest c per size goes into src/curves/bls12-381.tuning.ts.
 *
 *   npm run bench:windows [-- --curve bn254] [-- --sizes 8,10,12,14,16,18] [-- --runs 5] [-- --cs 13,15,16]
 */
import { bls12_381, bls12_377, bn254, pallas, vesta } from '../src/index.js';
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
const registry = { 'bls12-381': bls12_381, bn254, 'bls12-377': bls12_377, pallas, vesta } as const;
const curve = registry[get('curve', 'bls12-381') as keyof typeof registry] as unknown as typeof bls12_381;
if (!curve) throw new Error('unknown --curve');
await curve.init();
const ref = new RefCurve(curve.params);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log('logN  model-c  c: median ms ...  best');
for (const logN of sizes) {
  const n = 2 ** logN;
  const rng = makeRng(logN);
  const { bytes } = randomPoints(curve.g1.inst, n, rng, curve.params.r, (a) => ref.mul(curve.params.G1, a)!, curve.g1.formatSpec());
  const scalars = randomScalarBytes(n, rng);
  const model = planMsm(2 * n).c;
  const cs = (args.includes('--cs') ? get('cs', '').split(',').map(Number) : [model - 2, model - 1, model, model + 1, model + 2]).filter((c) => c >= 2 && c <= 16);
  const res: [number, number][] = [];
  let want: bigint | undefined;
  for (const c of cs) {
    const ts: number[] = [];
    for (let r = 0; r < runs + 1; r++) {
      const t = performance.now();
      const out = curve.g1.msmSync(bytes, scalars, { validate: 'none', windowBits: c });
      if (r > 0) ts.push(performance.now() - t);
      if (want === undefined) want = out.x;
      else if (out.x !== want) throw new Error(`c = ${c}: result differs`);
    }
    res.push([c, median(ts)]);
  }
  const best = res.reduce((a, b) => (b[1] < a[1] ? b : a));
  console.log(`${String(logN).padStart(4)}  ${String(model).padStart(7)}  ${res.map(([c, t]) => `${c}: ${t.toFixed(1)}`).join('  ')}   best c = ${best[0]}`);
}
