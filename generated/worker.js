// pippin worker — bundled from src/runtime/worker-main.ts by src/codegen/build.ts; do not edit
"use strict";
(() => {
  // src/runtime/interpreter.ts
  function runTask(exports, memory, ops) {
    const values = [];
    const times = [];
    for (const op of ops) {
      const t0 = performance.now();
      let v = 0;
      if (op[0] === "@zero") new Uint8Array(memory.buffer, op[1], op[2]).fill(0);
      else if (op[0] === "@take") {
        const g = exports[op[1]];
        if (!g || typeof g.value !== "number") throw new Error(`pippin: no exported counter ${String(op[1])}`);
        v = g.value;
        g.value = 0;
      } else {
        const f = exports[op[0]];
        if (typeof f !== "function") throw new Error(`pippin: no kernel ${String(op[0])}`);
        v = f(...op.slice(1)) ?? 0;
      }
      values.push(v);
      times.push(performance.now() - t0);
    }
    return { values, times };
  }

  // src/runtime/worker-main.ts
  var instances = /* @__PURE__ */ new Map();
  async function onMessage(m, post) {
    if (m.t === "load") {
      try {
        const instance = await WebAssembly.instantiate(m.module, { env: { memory: m.memory } });
        instances.set(m.key, { exports: instance.exports, memory: m.memory });
        post({ t: "loaded", key: m.key });
      } catch (e) {
        post({ t: "load-error", key: m.key, message: String(e?.message ?? e) });
      }
    } else if (m.t === "run") {
      try {
        const inst = instances.get(m.key);
        if (!inst) throw new Error(`pippin worker: module ${m.key} not loaded`);
        const r = runTask(inst.exports, inst.memory, m.ops);
        post({ t: "done", job: m.job, values: r.values, times: r.times });
      } catch (e) {
        post({ t: "error", job: m.job, message: String(e?.message ?? e) });
      }
    }
  }
  var nodeWorkerThreads = globalThis.process?.getBuiltinModule?.("node:worker_threads");
  if (nodeWorkerThreads?.parentPort) {
    const port = nodeWorkerThreads.parentPort;
    port.on("message", (m) => void onMessage(m, (r) => port.postMessage(r)));
  } else {
    const self = globalThis;
    self.onmessage = (e) => void onMessage(e.data, (r) => self.postMessage(r));
  }
})();
