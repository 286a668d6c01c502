/**
 * The cross-engine suite from the command line: the checks of ./checks.ts in Node (via tsx), Bun or
 * Deno, on the backend asked for; one line per check, the JSON summary last, exit code 1 on any
 * failure. No test framework (each engine's own differs). Run by scripts/test-engines.sh on every
 * engine (CI: Node 20, 22, 24, Bun, Deno; wide64 and i32 where the engine runs both).
 * `--kzg FILE`: c-kzg's outputs (./kzg-fixture.ts, which scripts/test-engines.sh runs first) for
 * the pippin/kzg check; without it that check is skipped.
 *
 *   bun test/engines/suite.ts [--backend wide64|i32] [--time] [--kzg FILE]
 *   deno run -A --sloppy-imports [--v8-flags=--experimental-wasm-wide-arithmetic] test/engines/suite.ts …
 *   node --import tsx test/engines/suite.ts …
 */
import { readFileSync } from 'node:fs';
import { runChecks } from './checks.js';
import { checkKzg, type KzgExpected } from './kzg-check.js';
import { args, backendArg, engine, exit } from './runtime.js';

const backend = backendArg();
const k = args.indexOf('--kzg');
const kzg = k >= 0 ? { expected: JSON.parse(readFileSync(args[k + 1], 'utf8')) as KzgExpected, check: checkKzg } : undefined;
const summary = await runChecks({ backend, time: args.includes('--time'), engine, kzg });
const { failures, ...rest } = summary;
console.log(JSON.stringify(rest));
if (failures.length) console.log(`${failures.length} failed: ${failures.join('; ')}`);
exit(failures.length ? 1 : 0);
