/**
 * Streamed against one-piece MSM, interleaved in one process on identical inputs: per round one
 * run with `maxMemoryBytes` = 4 GiB (one piece) and one with the budget (streamed in chunks), every
 * result checked equal; prints the medians and the ratio (time per point, streamed / one piece).
 * Peak memory is per process (Wasm memories only grow), so measure it with the CLI:
 * `npm run msm -- --size 22 --max-memory 512`.
 *
 *   npm run bench:stream [-- --sizes 20,22] [-- --max-memory 512] [-- --threads 2] [-- --runs 3] [-- --validate on-curve]
 */
import os from 'node:os';
import { curves, startThreads, stopThreads, type Curve, type CurveName, type G1MsmStats, type Validation } from '../src/index.js';
import { VALIDATIONS } from '../src/api/options.js';
import { randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { makeRng } from '../src/reference/rng.js';
import { RefCurve } from '../src/reference/curve.js';
import { choiceFlag, intFlag, intListFlag, parseFlags, runCli } from '../src/cli-args.js';

const curveNames = Object.keys(curves) as CurveName[];
const USAGE = `usage: npm run bench:stream -- [--curve ${curveNames.join('|')}] [--sizes 20 (10…24)] [--max-memory 512 (16…4096 MiB)]
                               [--threads 2 (1…256)] [--runs 3 (1…100)] [--validate full|on-curve|none (default on-curve)]`;

async function main(): Promise<void> {
  const { values } = parseFlags(process.argv.slice(2), {
    curve: { type: 'string' }, sizes: { type: 'string' }, 'max-memory': { type: 'string' }, threads: { type: 'string' }, runs: { type: 'string' }, validate: { type: 'string' },
  });
  const curve: Curve<string> = curves[choiceFlag('curve', values.curve, 'bls12-381', curveNames)];
  const sizes = intListFlag('sizes', values.sizes, [20], 10, 24);
  const budget = intFlag('max-memory', values['max-memory'], 512, 16, 4096) * 2 ** 20;
  const threads = intFlag('threads', values.threads, 2, 1, 256);
  const runs = intFlag('runs', values.runs, 3, 1, 100);
  const validate = choiceFlag<Validation>('validate', values.validate, 'on-curve', VALIDATIONS);
  await curve.init();
  if (threads > 1) await startThreads(threads);
  else stopThreads();
  const ref = new RefCurve(curve.params);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(`${curve.name}, ${threads} thread(s), validate '${validate}', budget ${budget / 2 ** 20} MiB; ${os.cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}`);
  console.log('log2 n  one piece ms (runs)           streamed ms (runs)            chunks × points  streamed / one piece');
  for (const logN of sizes) {
    const n = 2 ** logN;
    const rng = makeRng(logN);
    const spec = curve.g1.formatSpec();
    const bytes = new Uint8Array(n * spec.bytes);
    for (let at = 0; at < n; at += 1 << 18) {
      const part = randomPoints(curve.g1.inst, Math.min(1 << 18, n - at), rng, curve.params.r, (a) => ref.mul(curve.params.G1, a)!, spec);
      bytes.set(part.bytes, at * spec.bytes);
    }
    const scalars = randomScalarBytes(n, rng);
    const times = { whole: [] as number[], streamed: [] as number[] };
    let stats: G1MsmStats | undefined;
    let want: bigint | undefined;
    for (let r = 0; r < runs; r++) {
      for (const mode of ['whole', 'streamed'] as const) {
        const t = performance.now();
        const out = await curve.g1.msm(bytes, scalars, { validate, threads, maxMemoryBytes: mode === 'whole' ? 2 ** 32 : budget, onStats: (s) => mode === 'streamed' && (stats = s) });
        times[mode].push(performance.now() - t);
        if (want === undefined) want = out.x;
        else if (out.x !== want) throw new Error(`${mode}: result differs`);
      }
    }
    const w = median(times.whole);
    const s = median(times.streamed);
    const list = (xs: number[]) => `${median(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(', ')})`.padEnd(36);
    console.log(`${String(logN).padStart(6)}  ${list(times.whole)}${list(times.streamed)}${`${stats?.streamedChunks ?? 0} × ${stats?.chunkPoints ?? n}`.padEnd(17)}${(s / w).toFixed(3)}`);
  }
  stopThreads();
}

runCli('bench:stream', USAGE, main);
