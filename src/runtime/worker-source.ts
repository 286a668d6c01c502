/**
 * The worker's program, as source text: the pool starts workers from it directly (`eval` in Node, a
 * Blob URL in browsers), so the package needs no separate worker file for a bundler to find.
 * Kept as a string rather than `fn.toString()` because dev tools (tsx/esbuild `keepNames`) rewrite
 * functions with helpers that would not exist inside the worker.
 *
 * Protocol (the pool's side is ./pool.ts):
 *   → { t: 'load', key, module, memory }   instantiate `module` on the shared `memory` under `key`
 *   → { t: 'run', job, key, ops }         run ops in order on instance `key`
 *   ← { t: 'done', job, values, times }    each op's return value and its milliseconds
 *   ← { t: 'error', job, message }         an op threw (a trap, a bad op); the worker stays usable
 * Ops are [export name, ...i32 args] or the built-ins ['@zero', ptr, bytes] (clears memory) and
 * ['@take', global] (returns an exported mutable global and resets it to 0).
 */
export const WORKER_BODY = `
const instances = new Map();
function runOps(key, ops) {
  const inst = instances.get(key);
  if (!inst) throw new Error('pippin worker: module ' + key + ' not loaded');
  const values = [];
  const times = [];
  for (const op of ops) {
    const t0 = performance.now();
    let v = 0;
    if (op[0] === '@zero') new Uint8Array(inst.memory.buffer, op[1], op[2]).fill(0);
    else if (op[0] === '@take') { const g = inst.exports[op[1]]; v = g.value; g.value = 0; }
    else if (op[0] === '@throw') throw new Error('pippin worker: test failure requested');
    else if (op[0] === '@exit') exitNow();
    else {
      const f = inst.exports[op[0]];
      if (typeof f !== 'function') throw new Error('pippin worker: no kernel ' + op[0]);
      v = f(...op.slice(1));
    }
    values.push(v);
    times.push(performance.now() - t0);
  }
  return { values, times };
}
async function onMessage(m) {
  if (m.t === 'load') {
    try {
      const instance = await WebAssembly.instantiate(m.module, { env: { memory: m.memory } });
      instances.set(m.key, { exports: instance.exports, memory: m.memory });
      post({ t: 'loaded', key: m.key });
    } catch (e) {
      post({ t: 'load-error', key: m.key, message: String(e && e.message || e) });
    }
  } else if (m.t === 'run') {
    try {
      const r = runOps(m.key, m.ops);
      post({ t: 'done', job: m.job, values: r.values, times: r.times });
    } catch (e) {
      post({ t: 'error', job: m.job, message: String(e && e.message || e) });
    }
  }
}
`;

/** Node: `new Worker(NODE_WORKER_SOURCE, { eval: true })`; valid as a CommonJS script and as a module
 * (an eval worker is a module when the process runs with --input-type=module), so no require/import. */
export const NODE_WORKER_SOURCE = `'use strict';
const { parentPort } = process.getBuiltinModule('node:worker_threads');
const post = (m) => parentPort.postMessage(m);
const exitNow = () => process.exit(70);
${WORKER_BODY}
parentPort.on('message', onMessage);
`;

/** Browsers: a classic worker from a Blob URL. */
export const BROWSER_WORKER_SOURCE = `'use strict';
const post = (m) => self.postMessage(m);
const exitNow = () => self.close();
${WORKER_BODY}
self.onmessage = (e) => onMessage(e.data);
`;
