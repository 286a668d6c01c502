/**
 * The command-line runtime this file runs in (Node via tsx, Bun or Deno): its name, version and VM,
 * its arguments, and `exit`. Shared by ./suite.ts and ./bench-run.ts.
 */
declare const Bun: { version: string } | undefined;
declare const Deno: { version: { deno: string; v8: string }; args: string[]; exit(code: number): never } | undefined;

export const args: string[] = typeof Deno !== 'undefined' ? Deno.args : process.argv.slice(2);

export const engine =
  typeof Bun !== 'undefined' ? { engine: 'bun', version: Bun.version, vm: 'JavaScriptCore' }
  : typeof Deno !== 'undefined' ? { engine: 'deno', version: Deno.version.deno, vm: `V8 ${Deno.version.v8}` }
  : { engine: 'node', version: process.versions.node, vm: `V8 ${process.versions.v8}` };

/** `--backend wide64|i32` from the arguments (undefined: the engine's choice); throws on anything else. */
export function backendArg(): 'wide64' | 'i32' | undefined {
  const i = args.indexOf('--backend');
  const backend = i >= 0 ? args[i + 1] : undefined;
  if (backend !== undefined && backend !== 'wide64' && backend !== 'i32') throw new Error(`--backend ${backend}: wide64 or i32`);
  return backend;
}

export function exit(code: number): never {
  if (typeof Deno !== 'undefined') Deno.exit(code);
  process.exit(code);
}
