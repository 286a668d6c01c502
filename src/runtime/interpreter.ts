/**
 * The one interpreter of kernel tasks. A task is a list of ops run in order on one instance; the
 * calling thread (src/runtime/executor.ts) and every worker (src/runtime/worker-main.ts, bundled
 * into the worker's source at build time) run this same function. Imports are type-only, so the
 * bundle is this file's code alone.
 */
import type { G2Kernels, KernelGlobal, Kernels, ScalarFieldKernels } from '../wasm-generated/kernels.js';

/** Every kernel a task may call (G2's and F_r's only in the modules that have them). */
type TaskKernels = Kernels & G2Kernels & ScalarFieldKernels;
/** A typed kernel call: the export's name and its arguments (checked against the generated ABI). */
export type KernelCall = { [K in keyof TaskKernels]: [K, ...Parameters<TaskKernels[K]>] }[keyof TaskKernels];
/** An op: a kernel call, ['@zero', ptr, bytes] (clears memory) or ['@take', global] (reads an exported counter and resets it). */
export type Op = KernelCall | readonly ['@zero', number, number] | readonly ['@take', KernelGlobal];

/** Each op's return value (0 for void kernels) and its milliseconds, in op order. */
export interface TaskResult {
  values: number[];
  times: number[];
}

/** Runs `ops` on an instance's exports over `memory`; throws what a kernel throws (a trap) or on an unknown export. */
export function runTask(exports: Record<string, unknown>, memory: WebAssembly.Memory, ops: readonly Op[]): TaskResult {
  const values: number[] = [];
  const times: number[] = [];
  for (const op of ops) {
    const t0 = performance.now();
    let v = 0;
    if (op[0] === '@zero') new Uint8Array(memory.buffer, op[1], op[2]).fill(0);
    else if (op[0] === '@take') {
      const g = exports[op[1]] as WebAssembly.Global | undefined;
      if (!g || typeof g.value !== 'number') throw new Error(`pippin: no exported counter ${String(op[1])}`);
      v = g.value;
      g.value = 0;
    } else {
      const f = exports[op[0]];
      if (typeof f !== 'function') throw new Error(`pippin: no kernel ${String(op[0])}`);
      v = (f as (...a: unknown[]) => number | undefined)(...op.slice(1)) ?? 0;
    }
    values.push(v);
    times.push(performance.now() - t0);
  }
  return { values, times };
}
