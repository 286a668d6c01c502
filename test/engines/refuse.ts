/**
 * End to end: `init()` refuses a wide64 module that computes wrong, on an engine that validates wide
 * arithmetic (Bun; Deno with its V8 flag): bn254's and pallas's wide64 binaries are replaced, before
 * `init()`, by the polyfilled module with i64.add128 losing its carry (the committed
 * generated/<curve>.wide64.wat, assembled here with that one helper changed: an engine bug as the
 * self-test would meet it). Then:
 * - `bn254.init()` takes i32, `info().reason` names the wrong answer, and its MSMs are right;
 * - `pallas.init({ backend: 'wide64' })` rejects with BackendUnavailableError carrying the reason;
 * - `bls12_381.init()`, untouched, takes wide64 with no reason.
 * Prints one line per check and a JSON summary; exit code 1 on failure. Run by
 * scripts/test-engines.sh (`refuse`).
 *
 *   bun test/engines/refuse.ts
 */
import { readFileSync } from 'node:fs';
import { bls12_381, bn254, pallas, BackendUnavailableError } from '../../src/index.js';
import { wideArithmeticSupported } from '../../src/runtime/wide-probe.js';
import { assembleWat } from '../../src/codegen/assemble.js';
import { runMsm } from '../../demo/msm-run.js';
import * as m254 from '../../src/wasm-generated/bn254.js';
import * as mPallas from '../../src/wasm-generated/pallas.js';

declare const Deno: { exit(code: number): never } | undefined;
const failures: string[] = [];
const check = (cond: boolean, what: string) => {
  console.log(`${cond ? 'ok  ' : 'FAIL'} ${what}`);
  if (!cond) failures.push(what);
};

if (!wideArithmeticSupported()) throw new Error('refuse.ts needs an engine that validates wide arithmetic (Bun, or Deno with --v8-flags=--experimental-wasm-wide-arithmetic)');

/** The curve's wide64 text with add128's carry out of the low word replaced by 0, assembled. */
async function broken(curve: string): Promise<string> {
  const wat = readFileSync(new URL(`../../generated/${curve}.wide64.wat`, import.meta.url), 'utf8');
  const carry = '(i64.extend_i32_u (i64.lt_u (local.get $lo) (local.get $aLo)))';
  const start = wat.indexOf('(func $wide64_add128 ');
  const at = wat.indexOf(carry, start);
  if (start < 0 || at < 0 || at > wat.indexOf('\n  )\n', start)) throw new Error(`${curve}: add128 helper not found in the .wat`);
  const wasm = await assembleWat(curve, wat.slice(0, at) + '(i64.const 0)' + wat.slice(at + carry.length));
  let bin = '';
  for (const b of wasm) bin += String.fromCharCode(b);
  return btoa(bin);
}

(m254.wide64 as { wasmBase64: string }).wasmBase64 = await broken('bn254');
(mPallas.wide64 as { wasmBase64: string }).wasmBase64 = await broken('pallas');

await bn254.init();
const info = bn254.info() as ReturnType<typeof bn254.info> & { reason?: string };
check(info.backend === 'i32' && info.wideArithmetic === true, `bn254: a broken wide64 module → i32 (got ${info.backend})`);
check(/^bn254 wide64 self-test: fp_(mul|sqr|add|sub)\(/.test(info.reason ?? ''), `bn254: info().reason names the wrong answer (${info.reason})`);
const r = await runMsm({ curve: 'bn254', logSize: 8, seed: 5, threads: 1 });
check(r.ok, 'bn254: the MSM on the i32 fallback = closed form');

let rejected: unknown;
await pallas.init({ backend: 'wide64' }).catch((e) => (rejected = e));
check(rejected instanceof BackendUnavailableError && /pallas wide64 self-test: fp_/.test((rejected as Error).message), `pallas: init({ backend: 'wide64' }) on a broken module rejects with the reason (${String(rejected)})`);

await bls12_381.init();
const ok381 = bls12_381.info() as ReturnType<typeof bls12_381.info> & { reason?: string };
check(ok381.backend === 'wide64' && ok381.reason === undefined, `bls12-381 (untouched): wide64, no reason (${ok381.backend}, ${ok381.reason})`);

console.log(JSON.stringify({ refuse: true, pass: 4 - failures.length, fail: failures.length }));
const code = failures.length ? 1 : 0;
if (typeof Deno !== 'undefined') Deno.exit(code);
process.exit(code);
