/**
 * The MSM timings of ./checks.ts (`benchMsm`) alone, from the command line in Node (via tsx), Bun or
 * Deno: prints one JSON line `{engine, version, vm, backend, wideArithmetic, bench: rows}` and exits 1
 * if a result was wrong. bench/engines.ts runs it on every runtime engine.
 *
 *   bun test/engines/bench-run.ts [--backend wide64|i32] [--sizes 14,16] [--threads 1,2] [--runs 3]
 */
import { stopThreads } from '../../src/index.js';
import { wideArithmeticSupported } from '../../src/runtime/wide-probe.js';
import { useBackend } from '../../demo/msm-run.js';
import { benchMsm } from './checks.js';
import { args, backendArg, engine, exit } from './runtime.js';

function list(flag: string): number[] | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
  const xs = (args[i + 1] ?? '').split(',').map(Number);
  if (!xs.length || !xs.every((x) => Number.isInteger(x) && x >= 0)) throw new Error(`${flag} ${args[i + 1]}: a comma-separated list of integers`);
  return xs;
}

const backend = backendArg();
useBackend(backend);
const bench = await benchMsm({ sizes: list('--sizes'), threads: list('--threads'), runs: list('--runs')?.[0] });
stopThreads();
console.log(JSON.stringify({ ...engine, backend: bench[0]?.backend, wideArithmetic: wideArithmeticSupported(), bench }));
exit(bench.every((r) => r.ok) ? 0 : 1);
