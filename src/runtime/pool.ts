/**
 * The worker pool: long-lived workers (Node `worker_threads` or Web Workers) that run kernel tasks
 * on the calling thread's shared Wasm memory with the same interpreter as the calling thread
 * (./interpreter.ts; the worker's program is bundled from ./worker-main.ts at build time). One pool
 * per JS realm, shared by every curve; a job (one batch of tasks) runs at a time, tasks are handed
 * out one per idle worker as they finish (dynamic scheduling), and each finished task is reported
 * to the caller at once so it can combine while the rest runs.
 *
 * Failure contract: every path (posting, a worker's reply, its death, the caller's callbacks) ends
 * in the job's promise; nothing throws out of an event handler. A worker that throws rejects the
 * job with WorkerError and stays; one that dies (exit, uncaught error) rejects the job and is
 * replaced. `stopThreads()` and `startThreads(n)` never interrupt a running job: workers leaving the
 * pool finish it first and are terminated when it ends. Without SharedArrayBuffer (a page that is
 * not cross-origin isolated) or workers, the pool stays inactive and says why (`threads.reason`).
 */
import { InvalidOptionError, WorkerError } from '../errors.js';
import { WORKER_SOURCE } from '../wasm-generated/worker-source.js';
import type { Op, TaskResult } from './interpreter.js';
import { MAX_THREADS, describeValue, integerRangeText, isIntegerIn, optionFunction, takeOptionBag } from '../api/option-kit.js';

/**
 * What the pool needs of a worker: the Web Worker interface's subset, so a page whose CSP forbids
 * Blob workers can pass `createWorker: () => new Worker(urlOf('generated/worker.js'))`.
 *
 * @example
 * ```ts
 * import { startThreads, type PoolWorker } from 'pippin';
 * // a page whose CSP forbids Blob workers: serve a copy of pippin's generated/worker.js
 * const createWorker = (): PoolWorker => new Worker('/assets/pippin-worker.js') as unknown as PoolWorker;
 * if (typeof Worker !== 'undefined') await startThreads(2, { createWorker });
 * ```
 */
export interface PoolWorker {
  /** sends a message to the worker */
  postMessage(message: unknown): void;
  /** stops the worker */
  terminate(): unknown;
  /** set by the pool: receives the worker's messages */
  onmessage: ((event: { data: unknown }) => void) | null;
  /** a worker error or exit: the worker is dead */
  onerror: ((event: { message?: string; preventDefault?: () => void }) => void) | null;
  /** set by the pool: a message that could not be deserialized (the worker is then treated as dead) */
  onmessageerror?: ((event: unknown) => void) | null;
  /** Node: whether the worker keeps the process alive (unset between jobs) */
  ref?(on: boolean): void;
}

/** What a shared-memory instance provides to the pool. */
export interface PoolInstance {
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
  shared: boolean;
}

type WorkerReply =
  | { t: 'loaded'; key: number }
  | { t: 'load-error'; key: number; message: string }
  | { t: 'done'; job: number; values: number[]; times: number[] }
  | { t: 'error'; job: number; message: string };

interface NodeWorker {
  postMessage(m: unknown): void;
  terminate(): Promise<number>;
  ref(): void;
  unref(): void;
  on(event: string, f: (x: unknown) => void): void;
}
type NodeWorkerCtor = new (src: string, opts: { eval: true; execArgv: string[] }) => NodeWorker;

const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

/** Node's built-in modules without a static import (which browser bundlers would try to resolve). */
function nodeBuiltin<T>(name: string): T | undefined {
  const get = (process as unknown as { getBuiltinModule?: (n: string) => unknown }).getBuiltinModule;
  return get ? (get(name) as T) : undefined;
}

function nodeWorkerCtor(): NodeWorkerCtor | undefined {
  return nodeBuiltin<{ Worker: NodeWorkerCtor }>('node:worker_threads')?.Worker;
}

/** Why threads cannot run here, or undefined when they can. */
export function threadsUnavailableReason(): string | undefined {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  if (isolated === false) {
    return 'SharedArrayBuffer is unavailable: the page is not cross-origin isolated (serve it with "Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp")';
  }
  if (typeof SharedArrayBuffer === 'undefined') {
    // e.g. WebKitGTK 2.50: isolated, yet without SharedArrayBuffer unless JSC_useSharedArrayBuffer=1
    return isolated === true
      ? 'this engine has no SharedArrayBuffer although the page is cross-origin isolated (WebKitGTK: JSC_useSharedArrayBuffer=1 enables it)'
      : 'this engine has no SharedArrayBuffer';
  }
  if (isNode) {
    if (!nodeWorkerCtor()) return 'node:worker_threads is unavailable (process.getBuiltinModule needs Node ≥ 20.16)';
  } else if (typeof Worker === 'undefined') {
    return 'this environment has no Web Workers';
  }
  return undefined;
}

/** Threads to use when the caller does not say: the number of cores, at most MAX_THREADS. */
export function defaultThreadCount(): number {
  let cores = 1;
  if (isNode) {
    const os = nodeBuiltin<{ availableParallelism?: () => number; cpus: () => unknown[] }>('node:os');
    cores = os?.availableParallelism?.() ?? os?.cpus().length ?? 1;
  } else cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 1;
  return Math.max(1, Math.min(MAX_THREADS, Math.floor(cores) || 1));
}

/** The default worker: a Node eval worker (Wasm flags passed on) or a Web Worker from a Blob URL. */
export function defaultWorker(): PoolWorker {
  if (isNode) {
    const NodeWorker = nodeWorkerCtor()!;
    // workers get the engine's Wasm flags only, not loaders (--import …) meant for the main program
    const execArgv = process.execArgv.filter((a) => /^--(no-)?(experimental-)?wasm/.test(a));
    const w = new NodeWorker(WORKER_SOURCE, { eval: true, execArgv });
    const pw: PoolWorker = {
      postMessage: (m) => w.postMessage(m),
      terminate: () => w.terminate(),
      onmessage: null,
      onerror: null,
      ref: (on) => (on ? w.ref() : w.unref()),
    };
    w.on('message', (m) => pw.onmessage?.({ data: m }));
    w.on('error', (e) => pw.onerror?.({ message: `worker threw outside a kernel call: ${(e as Error)?.message ?? String(e)}` }));
    w.on('exit', (code) => pw.onerror?.({ message: `worker exited (code ${String(code)})` }));
    // after the listeners: adding a 'message' listener refs the worker again (Node 20–24), and an idle
    // worker must not keep the process alive (a job refs its workers while it runs)
    w.unref();
    return pw;
  }
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
  try {
    return new Worker(url) as unknown as PoolWorker;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** A pool's worker with its state. */
interface Handle {
  worker: PoolWorker;
  /** per module key: instantiated in this worker (or failed), settled by the worker's reply */
  loaded: Map<number, Promise<void>>;
  pendingLoads: Map<number, { resolve: () => void; reject: (e: Error) => void }>;
  /** set when the worker exited or threw outside a task (also between jobs) */
  dead: boolean;
  /** the running job's handlers of task replies and of the worker's death */
  onReply?: (m: WorkerReply) => void;
  onDeath?: (why: string) => void;
}

/** The pool had no workers when a job was due to start (stopThreads): nothing ran, the caller may run the job itself. */
export class PoolStoppedError extends WorkerError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'PoolStoppedError';
}

const moduleKeys = new WeakMap<WebAssembly.Module, number>();
let nextKey = 1;
let nextJob = 1;

export class WorkerPool {
  private workers: Handle[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  /** the running job, if any (workers leaving the pool are terminated after it) */
  private running: Promise<unknown> | undefined;

  constructor(private createWorker: () => PoolWorker = defaultWorker) {}

  get size(): number {
    return this.workers.length;
  }

  /** Sets the worker count (and, if given, how workers are made); a running job keeps its workers until it ends. */
  resize(n: number, createWorker?: () => PoolWorker): void {
    let leaving: Handle[] = [];
    if (createWorker && createWorker !== this.createWorker) {
      this.createWorker = createWorker;
      leaving = this.workers;
      this.workers = [];
    }
    if (this.workers.length > n) leaving = leaving.concat(this.workers.splice(n));
    while (this.workers.length < n) this.workers.push(this.spawn());
    if (leaving.length === 0) return;
    const terminate = () => leaving.forEach((h) => this.retire(h));
    if (this.running) void this.running.finally(terminate);
    else terminate();
  }

  private spawn(): Handle {
    const h: Handle = { worker: this.createWorker(), loaded: new Map(), pendingLoads: new Map(), dead: false };
    const die = (why: string) => {
      if (h.dead) return;
      h.dead = true;
      for (const p of h.pendingLoads.values()) p.reject(new WorkerError(`pippin: a worker died while loading a module (${why})`));
      h.pendingLoads.clear();
      h.onDeath?.(why);
    };
    // load replies settle the worker's own load promises, whichever job (if any) is running, so a load
    // that finishes after the job that asked for it cannot be lost; task replies go to the job
    h.worker.onmessage = (e) => {
      const m = e.data as WorkerReply;
      if (m.t === 'loaded' || m.t === 'load-error') {
        const pending = h.pendingLoads.get(m.key);
        h.pendingLoads.delete(m.key);
        if (m.t === 'loaded') pending?.resolve();
        else pending?.reject(new WorkerError(`pippin: a worker could not instantiate the module: ${m.message}`));
      } else h.onReply?.(m);
    };
    h.worker.onerror = (e) => {
      e.preventDefault?.();
      die(e.message || 'worker error (failed to start?)');
    };
    h.worker.onmessageerror = () => die('worker could not receive a message');
    return h;
  }

  /**
   * Terminates a worker for good (its handlers detached first, so its exit reports nothing);
   * resolves when it has stopped, where the worker says so (Node), else at once.
   */
  private retire(h: Handle): Promise<unknown> {
    h.onDeath = undefined;
    h.onReply = undefined;
    h.dead = true;
    try {
      return Promise.resolve(h.worker.terminate()).catch(() => undefined);
    } catch {
      return Promise.resolve(); // already gone
    }
  }

  /** Replaces a dead worker in place (its successor loads modules again on first use); resolves when the old one stopped. */
  private replace(h: Handle): Promise<unknown> {
    const stopped = this.retire(h);
    const i = this.workers.indexOf(h);
    if (i >= 0) this.workers[i] = this.spawn();
    return stopped;
  }

  /**
   * Replaces every worker that instantiated `module` by a fresh one, so that none holds its memory
   * any more: a worker that merely dropped its instance keeps the memory until its engine collects
   * garbage, which an idle worker may never do (Node 20: not within 15 s). Queued like a job, so a
   * running job keeps its workers until it ends; resolves when the replaced workers have stopped
   * (where the worker says so: Node). For a module no job will use again (its curve released it).
   */
  evict(module: WebAssembly.Module): Promise<void> {
    const key = moduleKeys.get(module);
    if (key === undefined) return Promise.resolve();
    moduleKeys.delete(module);
    const job = this.queue.then(() => Promise.all(this.workers.filter((h) => h.loaded.has(key)).map((h) => this.replace(h))));
    this.queue = job.catch(() => {});
    return job.then(() => undefined);
  }

  /**
   * Runs `tasks` on up to `maxWorkers` workers; `make(slot)` builds a task's ops when it starts on
   * worker `slot` (slot < maxWorkers, so callers can give each slot private scratch), `done(i, r)`
   * receives each result on the calling thread in completion order; `depth` tasks are in flight per
   * worker (Batch.depth). Jobs are serialized. Rejects with WorkerError when the pool has no
   * workers (stopped) or a worker fails.
   */
  run(inst: PoolInstance, tasks: readonly ((slot: number) => Op[])[], maxWorkers: number, done: (i: number, r: TaskResult) => void, signal?: AbortSignal, depth: 1 | 2 = 1): Promise<void> {
    const job = this.queue.then(() => {
      const p = this.runNow(inst, tasks, maxWorkers, done, signal, depth);
      this.running = p;
      return p.finally(() => (this.running = undefined));
    });
    this.queue = job.catch(() => {});
    return job;
  }

  private runNow(inst: PoolInstance, tasks: readonly ((slot: number) => Op[])[], maxWorkers: number, done: (i: number, r: TaskResult) => void, signal?: AbortSignal, depth: 1 | 2 = 1): Promise<void> {
    if (!inst.shared) return Promise.reject(new WorkerError('pippin: threads need the instance on a shared memory'));
    if (this.workers.length === 0) return Promise.reject(new PoolStoppedError('pippin: the pool has no workers (stopThreads() was called)'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (tasks.length === 0) return Promise.resolve();
    let key = moduleKeys.get(inst.module);
    if (key === undefined) moduleKeys.set(inst.module, (key = nextKey++));
    const moduleKey = key;
    // workers that died between jobs are replaced before any task is handed out
    for (const h of [...this.workers]) if (h.dead) this.replace(h);
    const used = this.workers.slice(0, Math.max(1, Math.min(maxWorkers, this.workers.length, tasks.length)));
    return new Promise<void>((resolve, reject) => {
      let next = 0;
      let finished = 0;
      let settled = false;
      const inFlight = new Map<number, { task: number; slot: number }>();
      const onAbort = () => fail(signal!.reason);
      const detach = () => {
        signal?.removeEventListener('abort', onAbort);
        for (const h of used) {
          h.onReply = undefined;
          h.onDeath = undefined;
          h.worker.ref?.(false);
        }
      };
      // a worker still running a task of a failed job would write into memory the caller is about
      // to release: such workers are terminated and replaced, and the job rejects once they stopped
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        detach();
        const stopped = [...inFlight.values()].map(({ slot }) => this.replace(used[slot]));
        inFlight.clear();
        void Promise.all(stopped).then(() => reject(error));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const post = (h: Handle, message: unknown): boolean => {
        try {
          h.worker.postMessage(message);
          return true;
        } catch (e) {
          fail(new WorkerError(`pippin: could not send a task to a worker: ${(e as Error)?.message ?? String(e)}`));
          return false;
        }
      };
      const load = (h: Handle): Promise<void> => {
        let p = h.loaded.get(moduleKey);
        if (!p) {
          p = new Promise<void>((res, rej) => h.pendingLoads.set(moduleKey, { resolve: res, reject: rej }));
          h.loaded.set(moduleKey, p);
          try {
            h.worker.postMessage({ t: 'load', key: moduleKey, module: inst.module, memory: inst.memory });
          } catch (e) {
            h.pendingLoads.delete(moduleKey);
            h.loaded.delete(moduleKey);
            return Promise.reject(new WorkerError(`pippin: could not send the module to a worker: ${(e as Error)?.message ?? String(e)}`));
          }
        }
        return p;
      };
      const feed = (h: Handle, slot: number) => {
        if (settled || next >= tasks.length) return;
        const task = next++;
        const jobId = nextJob++;
        let ops: Op[];
        try {
          ops = tasks[task](slot);
        } catch (e) {
          fail(e);
          return;
        }
        inFlight.set(jobId, { task, slot });
        post(h, { t: 'run', job: jobId, key: moduleKey, ops });
      };
      used.forEach((h, slot) => {
        h.worker.ref?.(true);
        h.onDeath = (why) => {
          for (const [id, f] of inFlight) if (f.slot === slot) inFlight.delete(id);
          if (!settled) this.replace(h);
          fail(new WorkerError(`pippin: a worker died during the MSM (${why}); the pool replaced it`));
        };
        h.onReply = (m) => {
          if (settled) return;
          if (m.t === 'error') {
            for (const [id, f] of inFlight) if (f.slot === slot) inFlight.delete(id);
            fail(new WorkerError(`pippin: a worker failed: ${m.message}`));
          } else if (m.t === 'done') {
            const f = inFlight.get(m.job);
            if (!f) return;
            inFlight.delete(m.job);
            try {
              done(f.task, { values: m.values, times: m.times });
            } catch (e) {
              fail(e);
              return;
            }
            if (++finished === tasks.length) {
              settled = true;
              detach();
              resolve();
            } else feed(h, slot);
          }
        };
        load(h).then(
          () => {
            // a worker whose load finished after its job ended (the others did all the tasks) stays idle
            if (settled || finished === tasks.length) return;
            for (let d = 0; d < depth; d++) feed(h, slot);
          },
          (e: unknown) => fail(e),
        );
      });
    });
  }
}

/** The realm's pool and its state, as the public `threads` object reports it. */
const pool = new WorkerPool();
let explicitlyStopped = false;
let unavailable: string | undefined;
let starting: Promise<unknown> | undefined;

/**
 * The thread pool's state (also what `startThreads` resolves to).
 *
 * @example
 * ```ts
 * import { startThreads, stopThreads, threads } from 'pippin';
 * stopThreads();
 * console.log(threads.active, threads.count, threads.reason); // → false 1 stopped by stopThreads()
 * await startThreads(2);
 * console.log(threads.count); // → 2
 * ```
 */
export const threads = {
  /** true while workers are running (MSMs use them) */
  get active(): boolean {
    return pool.size > 0;
  },
  /** threads an MSM uses: the workers, or 1 (the calling thread) */
  get count(): number {
    return Math.max(1, pool.size);
  },
  /** why threads are not active: unsupported environment, stopped, or not started yet */
  get reason(): string | undefined {
    if (pool.size > 0) return undefined;
    unavailable ??= threadsUnavailableReason();
    if (unavailable) return unavailable;
    if (explicitlyStopped) return 'stopped by stopThreads()';
    return 'not started (the first asynchronous MSM starts them, or call startThreads())';
  },
};

/**
 * Options of `startThreads`.
 *
 * @example
 * ```ts
 * import { startThreads, type StartThreadsOptions } from 'pippin';
 * const options: StartThreadsOptions = {}; // the default worker: Node eval worker, or Web Worker from a Blob URL
 * const state = await startThreads(1, options);
 * console.log(state.count); // → 1
 * ```
 */
export interface StartThreadsOptions {
  /** Makes a worker running generated/worker.js (default: a Node eval worker, or a Web Worker from a Blob URL). */
  createWorker?: () => PoolWorker;
}

/**
 * Starts (or resizes) the pool with `n` workers (default: the number of cores, at most 256).
 * Resolves to the `threads` state; never rejects for lack of support — then `threads.active` is
 * false and `threads.reason` says why, and MSMs run on the calling thread. A running MSM keeps its
 * workers until it ends. Rejects with InvalidOptionError for an `n` that is not an integer in
 * 1…MAX_THREADS (256) and for bad options (not an object, an unknown key, `createWorker` not a function).
 *
 * @example
 * ```ts
 * import { bls12_381, startThreads } from 'pippin';
 * const state = await startThreads(2); // before the first msm: two workers instead of one per core
 * await bls12_381.init();
 * await bls12_381.g1.msm([bls12_381.params.G1], [1n]);
 * console.log(state.count); // → 2
 * ```
 */
export async function startThreads(n: number = defaultThreadCount(), options?: StartThreadsOptions): Promise<typeof threads> {
  if (!isIntegerIn(n, 1, MAX_THREADS)) {
    throw new InvalidOptionError(`startThreads: n must be ${integerRangeText(1, MAX_THREADS)}, got ${describeValue(n)}`, 'n', n);
  }
  const createWorker = optionFunction<'createWorker', () => PoolWorker>(takeOptionBag(options, 'startThreads', ['createWorker']), 'createWorker');
  explicitlyStopped = false;
  unavailable = threadsUnavailableReason();
  if (!unavailable) pool.resize(n, createWorker);
  return threads;
}

/**
 * Takes the workers out of the pool: MSMs (and MSM phases) that start later run on the calling
 * thread until startThreads() is called again; a job already running on the workers finishes, then
 * they are terminated.
 *
 * @example
 * ```ts
 * import { bls12_381, startThreads, stopThreads, threads } from 'pippin';
 * stopThreads(); // e.g. before exiting a Node script, or to keep MSMs on the calling thread
 * await bls12_381.init();
 * await bls12_381.g1.msm([bls12_381.params.G1], [1n]); // on the calling thread
 * console.log(threads.active); // → false
 * await startThreads();
 * ```
 */
export function stopThreads(): void {
  explicitlyStopped = true;
  pool.resize(0);
}

/** Takes a module (an instance its curve released) out of the realm pool's workers: see WorkerPool.evict. */
export function evictFromWorkers(module: WebAssembly.Module): Promise<void> {
  return pool.evict(module);
}

/**
 * The pool for an MSM, started on first use with the default size unless the caller stopped it;
 * undefined when threads cannot be used (or starting failed: the next call tries again).
 */
export async function poolForMsm(): Promise<WorkerPool | undefined> {
  if (pool.size === 0 && !explicitlyStopped && unavailable === undefined) {
    starting ??= startThreads().finally(() => (starting = undefined));
    await starting.catch(() => undefined);
  }
  return pool.size > 0 ? pool : undefined;
}
