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

declare const Bun: { version: string } | undefined;
declare const Deno: { version: { deno: string; v8: string }; args: string[]; exit(code: number): never } | undefined;

const args: string[] = typeof Deno !== 'undefined' ? Deno.args : process.argv.slice(2);
const i = args.indexOf('--backend');
const backend = i >= 0 ? args[i + 1] : undefined;
if (backend !== undefined && backend !== 'wide64' && backend !== 'i32') throw new Error(`--backend ${backend}: wide64 or i32`);

const engine =
  typeof Bun !== 'undefined' ? { engine: 'bun', version: Bun.version, vm: 'JavaScriptCore' }
  : typeof Deno !== 'undefined' ? { engine: 'deno', version: Deno.version.deno, vm: `V8 ${Deno.version.v8}` }
  : { engine: 'node', version: process.versions.node, vm: `V8 ${process.versions.v8}` };

const summary = await runChecks({ backend, time: args.includes('--time'), engine });
const { failures, ...rest } = summary;
console.log(JSON.stringify(rest));
if (failures.length) console.log(`${failures.length} failed: ${failures.join('; ')}`);
const code = failures.length ? 1 : 0;
if (typeof Deno !== 'undefined') Deno.exit(code);
process.exit(code);
