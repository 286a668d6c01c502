/**
 * Window-size sweep: for each log size, the MSM time for c around the cost model's choice, median
 * of several runs (the window sizes interleaved round by round, so machine noise hits all alike),
 * on one thread or on `--threads N` workers. The fastest c per size goes into the curve's tuning
 * file (src/curves/<curve>.tuning.ts; one table per thread count).
 *
 *   npm run bench:windows [-- --curve bn254] [-- --sizes 8,10,12,14,16,18] [-- --runs 5] [-- --cs 13,15,16] [-- --threads 2]
 */
import { curves, startThreads, stopThreads, type Curve, type CurveName } from '../src/index.js';
import { planMsm } from '../src/msm/plan.js';
import { groupContextOf } from '../src/api/group.js';
import { randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { makeRng } from '../src/reference/rng.js';
import { RefCurve } from '../src/reference/curve.js';
import { choiceFlag, intFlag, intListFlag, parseFlags, runCli } from '../src/cli-args.js';

const curveNames = Object.keys(curves) as CurveName[];
const USAGE = `usage: npm run bench:windows -- [--curve ${curveNames.join('|')}] [--sizes 8,10,12,14,16,18 (0…24)] [--runs 5]
                                [--cs 13,15,16 (2…16; default: the model's c ± 2)] [--threads 1 (1…256)]`;

async function main(): Promise<void> {
  const { values } = parseFlags(process.argv.slice(2), {
    curve: { type: 'string' },
    sizes: { type: 'string' },
    runs: { type: 'string' },
    cs: { type: 'string' },
    threads: { type: 'string' },
  });
  const curve: Curve<string> = curves[choiceFlag('curve', values.curve, 'bls12-381', curveNames)];
  const sizes = intListFlag('sizes', values.sizes, [8, 10, 12, 14, 16, 18], 0, 24);
  const runs = intFlag('runs', values.runs, 5, 1, 1000);
  const fixedCs = values.cs === undefined ? undefined : intListFlag('cs', values.cs, [], 2, 16);
  const threads = intFlag('threads', values.threads, 1, 1, 256);
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
    // the planner's model alone (no table), with this group's working set
    const model = planMsm(n, [], undefined, groupContextOf(curve.g1)).c;
    const cs = fixedCs ?? [model - 2, model - 1, model, model + 1, model + 2].filter((c) => c >= 2 && c <= 16);
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
}

runCli('bench:windows', USAGE, main, true);
