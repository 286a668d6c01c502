/**
 * The cross-engine suite from the command line: the checks of ./checks.ts in Node (via tsx), Bun or
 * Deno, on the backend asked for; one line per check, the JSON summary last, exit code 1 on any
 * failure. No test framework (each engine's own differs). Run by scripts/test-engines.sh on every
 * engine (CI: Node 20, 22, 24, Bun, Deno; wide64 and i32 where the engine runs both).
 *
 *   bun test/engines/suite.ts [--backend wide64|i32] [--time]
 *   deno run -A --sloppy-imports [--v8-flags=--experimental-wasm-wide-arithmetic] test/engines/suite.ts …
 *   node --import tsx test/engines/suite.ts …
 */
import { runChecks } from './checks.js';
import { args, backendArg, engine, exit } from './runtime.js';

const backend = backendArg();
const summary = await runChecks({ backend, time: args.includes('--time'), engine });
const { failures, ...rest } = summary;
console.log(JSON.stringify(rest));
if (failures.length) console.log(`${failures.length} failed: ${failures.join('; ')}`);
exit(failures.length ? 1 : 0);
