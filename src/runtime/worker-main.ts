/**
 * The worker's program (bundled by src/codegen/build.ts into src/wasm-generated/worker-source.ts and
 * generated/worker.js): instantiates modules on the shared memory it is sent and runs tasks with the
 * one interpreter (./interpreter.ts). Runs as a Node `worker_threads` eval worker or a browser Web Worker.
 *
 * Protocol (the pool's side is ./pool.ts):
 *   → { t: 'load', key, module, memory }   instantiate `module` on the shared `memory` under `key`
 *   → { t: 'run', job, key, ops }         run the task on instance `key`
 *   ← { t: 'loaded', key } / { t: 'load-error', key, message }
 *   ← { t: 'done', job, values, times }    each op's return value and milliseconds
 *   ← { t: 'error', job, message }         an op threw (a trap, an unknown kernel); the worker stays usable
 */
import { runTask, type Op } from './interpreter.js';

type Message = { t: 'load'; key: number; module: WebAssembly.Module; memory: WebAssembly.Memory } | { t: 'run'; job: number; key: number; ops: Op[] };

const instances = new Map<number, { exports: Record<string, unknown>; memory: WebAssembly.Memory }>();

async function onMessage(m: Message, post: (reply: unknown) => void): Promise<void> {
  if (m.t === 'load') {
    try {
      const instance = await WebAssembly.instantiate(m.module, { env: { memory: m.memory } });
      instances.set(m.key, { exports: instance.exports as Record<string, unknown>, memory: m.memory });
      post({ t: 'loaded', key: m.key });
    } catch (e) {
      post({ t: 'load-error', key: m.key, message: String((e as Error)?.message ?? e) });
    }
  } else if (m.t === 'run') {
    try {
      const inst = instances.get(m.key);
      if (!inst) throw new Error(`pippin worker: module ${m.key} not loaded`);
      const r = runTask(inst.exports, inst.memory, m.ops);
      post({ t: 'done', job: m.job, values: r.values, times: r.times });
    } catch (e) {
      post({ t: 'error', job: m.job, message: String((e as Error)?.message ?? e) });
    }
  }
}

const nodeWorkerThreads = (globalThis as { process?: { getBuiltinModule?: (n: string) => unknown } }).process?.getBuiltinModule?.('node:worker_threads') as
  | { parentPort: { on(e: 'message', f: (m: Message) => void): void; postMessage(m: unknown): void } | null }
  | undefined;
if (nodeWorkerThreads?.parentPort) {
  const port = nodeWorkerThreads.parentPort;
  port.on('message', (m) => void onMessage(m, (r) => port.postMessage(r)));
} else {
  const self = globalThis as unknown as { onmessage: ((e: { data: Message }) => void) | null; postMessage(m: unknown): void };
  self.onmessage = (e) => void onMessage(e.data, (r) => self.postMessage(r));
}
