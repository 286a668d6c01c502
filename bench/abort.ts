/**
 * Abort latency: how long an aborted MSM takes to give control back. Per size, thread count and
 * phase, an MSM starts and an abort is scheduled with a timer (as a user's click would be): during
 * decoding ('full' validation, timer due 100 ms after the start) or during accumulation (timer due
 * 100 ms after the first 'accumulate' progress report, `validate: 'none'`). Latency = the time from
 * the timer's due moment to the rejection, so it includes any time the calling thread was busy in a
 * kernel (the timer fires late then) and the workers' termination. After the aborted MSMs of a
 * thread count, a normal one must match the first unaborted run.
 *
 *   npm run bench:abort [-- --sizes 18,20] [-- --threads 1,2] [-- --runs 3] [-- --curve bls12-381]
 */
import { curves, startThreads, stopThreads, type Curve, type CurveName } from '../src/index.js';
import { randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { makeRng } from '../src/reference/rng.js';
import { RefCurve } from '../src/reference/curve.js';
import { choiceFlag, intFlag, intListFlag, parseFlags, runCli } from '../src/cli-args.js';
import { MAX_THREADS } from '../src/api/options.js';
import os from 'node:os';

const curveNames = Object.keys(curves) as CurveName[];
const USAGE = `usage: npm run bench:abort -- [--curve ${curveNames.join('|')}] [--sizes 18,20 (10…24)] [--threads 1,2 (1…${MAX_THREADS})] [--runs 3 (1…100)]`;

async function main(): Promise<void> {
  const { values } = parseFlags(process.argv.slice(2), { curve: { type: 'string' }, sizes: { type: 'string' }, threads: { type: 'string' }, runs: { type: 'string' } });
  const curve: Curve<string> = curves[choiceFlag('curve', values.curve, 'bls12-381', curveNames)];
  const sizes = intListFlag('sizes', values.sizes, [18, 20], 10, 24);
  const threadCounts = intListFlag('threads', values.threads, [1, 2], 1, MAX_THREADS);
  const runs = intFlag('runs', values.runs, 3, 1, 100);
  await curve.init();
  const ref = new RefCurve(curve.params);
  console.log(`${curve.name}; ${os.cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}`);
  console.log('log2 n  threads  phase         abort → rejection, ms (from the timer\'s due moment)');
  for (const logN of sizes) {
    const n = 2 ** logN;
    const rng = makeRng(logN);
    const { bytes } = randomPoints(curve.g1.inst, n, rng, curve.params.r, (a) => ref.mul(curve.params.G1, a)!, curve.g1.formatSpec());
    const scalars = randomScalarBytes(n, rng);
    for (const threads of threadCounts) {
      if (threads > 1) await startThreads(threads);
      const want = await curve.g1.msm(bytes, scalars, { validate: 'none', threads });
      for (const phase of ['decoding', 'accumulation'] as const) {
        const latencies: string[] = [];
        for (let run = 0; run < runs; run++) {
          const controller = new AbortController();
          let due = 0;
          const schedule = (ms: number) => {
            if (due) return;
            due = performance.now() + ms;
            setTimeout(() => controller.abort(), ms);
          };
          const t0 = performance.now();
          const running = curve.g1.msm(bytes, scalars, {
            threads,
            validate: phase === 'decoding' ? 'full' : 'none',
            signal: controller.signal,
            onProgress: (p) => {
              if (phase === 'accumulation' && p.phase === 'accumulate') schedule(100);
            },
          });
          if (phase === 'decoding') schedule(100);
          const outcome = await running.then(() => 'finished', () => 'aborted');
          const at = performance.now();
          latencies.push(outcome === 'aborted' ? (at - due).toFixed(1) : `finished at ${(at - t0).toFixed(0)} ms before the abort`);
        }
        console.log(`${String(logN).padStart(6)}  ${String(threads).padStart(7)}  ${phase.padEnd(12)}  ${latencies.join(', ')}`);
      }
      const again = await curve.g1.msm(bytes, scalars, { validate: 'none', threads });
      if (again.x !== want.x || again.y !== want.y) throw new Error('the MSM after the aborts differs');
    }
    stopThreads();
  }
}

runCli('bench:abort', USAGE, main);
