/**
 * The worker pool: long-lived workers (Node `worker_threads` or Web Workers) that run kernel calls
 * on the calling thread's shared Wasm memory. One pool per JS realm, shared by every curve; a job
 * (one MSM phase: a list of tasks) runs at a time, tasks are handed out one per idle worker as they
 * finish (dynamic scheduling), and each finished task is reported to the caller at once so it can
 * combine while the rest runs.
 *
 * A worker that throws rejects the job with WorkerError and stays; one that dies (exit, uncaught
 * error) rejects the job and is replaced. Without SharedArrayBuffer (a page that is not
 * cross-origin isolated) or without workers, the pool stays inactive and says why (`threads.reason`);
 * the MSM then runs on the calling thread.
 */
import { WorkerError } from '../errors.js';
import { BROWSER_WORKER_SOURCE, NODE_WORKER_SOURCE } from './worker-source.js';

/** A kernel call: [export name, ...i32 args], or a built-in of the worker (see worker-source.ts). */
export type Op = [string, ...(number | string)[]];

export interface TaskResult {
  values: number[];
  times: number[];
}

/** What a shared-memory instance provides to the pool. */
export interface PoolInstance {
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
  shared: boolean;
}

interface Handle {
  post(message: unknown): void;
  terminate(): void;
  /** Node only: let the process exit while idle */
  ref(on: boolean): void;
  /** per module key: instantiated in this worker (or failed), settled by the worker's reply */
  loaded: Map<number, Promise<void>>;
  pendingLoads: Map<number, { resolve: () => void; reject: (e: Error) => void }>;
  /** set when the worker exited or threw outside a task (also between jobs) */
  dead: boolean;
  /** the running job's handler of task replies ('done', 'error') */
  onMessage?: (m: WorkerReply) => void;
  onDeath?: (why: string) => void;
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
  if (typeof SharedArrayBuffer === 'undefined' || (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === false) {
    return 'SharedArrayBuffer is unavailable: the page is not cross-origin isolated (serve it with "Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp")';
  }
  if (isNode) {
    if (!nodeWorkerCtor()) return 'node:worker_threads is unavailable (process.getBuiltinModule needs Node ≥ 20.16)';
  } else if (typeof Worker === 'undefined') {
    return 'this environment has no Web Workers';
  }
  return undefined;
}

/** Threads to use when the caller does not say: the number of cores. */
export function defaultThreadCount(): number {
  if (isNode) {
    const os = nodeBuiltin<{ availableParallelism?: () => number; cpus: () => unknown[] }>('node:os');
    return Math.max(1, os?.availableParallelism?.() ?? os?.cpus().length ?? 1);
  }
  return Math.max(1, (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 1);
}

function spawn(): Handle {
  const handle: Handle = { post: () => {}, terminate: () => {}, ref: () => {}, loaded: new Map(), pendingLoads: new Map(), dead: false };
  // load replies settle the worker's own load promises, whichever job (if any) is running, so a load
  // that finishes after the job that asked for it cannot be lost; task replies go to the job
  const dispatch = (m: WorkerReply) => {
    if (m.t === 'loaded' || m.t === 'load-error') {
      const pending = handle.pendingLoads.get(m.key);
      handle.pendingLoads.delete(m.key);
      if (m.t === 'loaded') pending?.resolve();
      else pending?.reject(new WorkerError(`pippin: a worker could not instantiate the module: ${m.message}`));
    } else handle.onMessage?.(m);
  };
  if (isNode) {
    const NodeWorker = nodeWorkerCtor()!;
    // workers get the engine's Wasm flags only, not loaders (--import …) meant for the main program
    const execArgv = process.execArgv.filter((a) => /^--(no-)?(experimental-)?wasm/.test(a));
    const w = new NodeWorker(NODE_WORKER_SOURCE, { eval: true, execArgv });
    w.unref();
    w.on('message', (m) => dispatch(m as WorkerReply));
    w.on('error', (e) => {
      if (handle.dead) return;
      handle.dead = true;
      handle.onDeath?.(`worker threw outside a kernel call: ${(e as Error)?.message ?? String(e)}`);
    });
    w.on('exit', (code) => {
      if (handle.dead) return;
      handle.dead = true;
      handle.onDeath?.(`worker exited (code ${String(code)})`);
    });
    handle.post = (m) => w.postMessage(m);
    handle.terminate = () => void w.terminate();
    handle.ref = (on) => (on ? w.ref() : w.unref());
  } else {
    const url = URL.createObjectURL(new Blob([BROWSER_WORKER_SOURCE], { type: 'text/javascript' }));
    const w = new Worker(url);
    URL.revokeObjectURL(url);
    w.onmessage = (e) => dispatch(e.data as WorkerReply);
    const die = (why: string) => {
      if (handle.dead) return;
      handle.dead = true;
      handle.onDeath?.(why);
    };
    w.onerror = (e) => {
      e.preventDefault?.();
      die(`worker error: ${e.message || 'unknown (failed to start?)'}`);
    };
    w.onmessageerror = () => die('worker could not receive a message');
    handle.post = (m) => w.postMessage(m);
    handle.terminate = () => w.terminate();
  }
  return handle;
}

const moduleKeys = new WeakMap<WebAssembly.Module, number>();
let nextKey = 1;
let nextJob = 1;

class WorkerPool {
  private workers: Handle[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  /** true while a job runs (tests use it to kill a worker mid-job) */
  busy = false;

  get size(): number {
    return this.workers.length;
  }

  resize(n: number): void {
    while (this.workers.length > n) this.workers.pop()!.terminate();
    while (this.workers.length < n) this.workers.push(spawn());
  }

  /** Replaces a dead worker in place (its successor loads modules again on first use). */
  private replace(h: Handle): void {
    const i = this.workers.indexOf(h);
    h.onDeath = undefined;
    h.onMessage = undefined;
    h.dead = true;
    h.terminate();
    if (i >= 0) this.workers[i] = spawn();
  }

  /** Test hook: the live worker handles (for killing one mid-job). */
  get handles(): readonly { terminate(): void }[] {
    return this.workers;
  }

  /**
   * Runs `tasks` on up to `maxWorkers` workers; `make(slot)` builds a task's ops when it starts on
   * worker `slot` (slot < maxWorkers, so callers can give each slot private scratch), `done(i, r)`
   * receives each result on the calling thread in completion order. Jobs are serialized.
   */
  run(inst: PoolInstance, tasks: ((slot: number) => Op[])[], maxWorkers: number, done: (i: number, r: TaskResult) => void): Promise<void> {
    const job = this.queue.then(() => this.runNow(inst, tasks, maxWorkers, done));
    this.queue = job.catch(() => {});
    return job;
  }

  private runNow(inst: PoolInstance, tasks: ((slot: number) => Op[])[], maxWorkers: number, done: (i: number, r: TaskResult) => void): Promise<void> {
    if (!inst.shared) return Promise.reject(new WorkerError('pippin: threads need the instance on a shared memory'));
    if (this.workers.length === 0) return Promise.reject(new WorkerError('pippin: stopThreads() was called during the MSM'));
    let key = moduleKeys.get(inst.module);
    if (key === undefined) moduleKeys.set(inst.module, (key = nextKey++));
    // workers that died between jobs are replaced before any task is handed out
    for (const h of [...this.workers]) if (h.dead) this.replace(h);
    this.busy = true;
    const used = this.workers.slice(0, Math.max(1, Math.min(maxWorkers, this.workers.length, tasks.length)));
    if (tasks.length === 0) {
      this.busy = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      let next = 0;
      let finished = 0;
      let failed = false;
      const inFlight = new Map<number, { task: number; slot: number }>();
      const cleanup = () => {
        this.busy = false;
        for (const h of used) {
          h.onMessage = undefined;
          h.onDeath = undefined;
          h.ref(false);
        }
      };
      // a worker still running a task of a failed job would write into memory the caller is about
      // to release: such workers are replaced, not waited for
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        cleanup();
        for (const { slot } of inFlight.values()) if (this.workers.includes(used[slot])) this.replace(used[slot]);
        reject(error);
      };
      const load = (h: Handle): Promise<void> => {
        let p = h.loaded.get(key!);
        if (!p) {
          p = new Promise<void>((resolve, reject) => h.pendingLoads.set(key!, { resolve, reject }));
          h.loaded.set(key!, p);
          h.post({ t: 'load', key, module: inst.module, memory: inst.memory });
        }
        return p;
      };
      const feed = (h: Handle, slot: number) => {
        if (failed || next >= tasks.length) return;
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
        h.post({ t: 'run', job: jobId, key, ops });
      };
      used.forEach((h, slot) => {
        h.ref(true);
        h.onDeath = (why) => {
          for (const [id, f] of inFlight) if (f.slot === slot) inFlight.delete(id);
          this.replace(h);
          fail(new WorkerError(`pippin: a worker died during the MSM (${why}); the pool replaced it`));
        };
        const onReply = (m: WorkerReply) => {
          if (failed) return;
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
              cleanup();
              resolve();
            } else feed(h, slot);
          }
        };
        load(h).then(
          () => {
            // a worker whose load finished after its job ended (the others did all the tasks) stays idle
            if (failed || finished === tasks.length) return;
            h.onMessage = onReply;
            feed(h, slot);
          },
          (e: unknown) => fail(e),
        );
      });
    });
  }

  stop(): void {
    this.resize(0);
  }
}

/** The realm's pool and its state, as the public `threads` object reports it. */
const pool = new WorkerPool();
let explicitlyStopped = false;
let unavailable: string | undefined;
let starting: Promise<void> | undefined;

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
 * Starts (or resizes) the pool with `n` workers (default: the number of cores). Resolves to the
 * `threads` state; never rejects for lack of support — then `threads.active` is false and
 * `threads.reason` says why, and MSMs run on the calling thread.
 */
export async function startThreads(n = defaultThreadCount()): Promise<typeof threads> {
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new RangeError(`startThreads: n must be an integer in 1…256, got ${String(n)}`);
  explicitlyStopped = false;
  unavailable = threadsUnavailableReason();
  if (!unavailable) pool.resize(n);
  return threads;
}

/** Terminates the workers; MSMs run on the calling thread until startThreads() is called again. */
export function stopThreads(): void {
  explicitlyStopped = true;
  pool.stop();
}

/**
 * The pool for an MSM, started on first use with the default size unless the caller stopped it;
 * undefined when threads cannot be used.
 */
export async function poolForMsm(): Promise<WorkerPool | undefined> {
  if (pool.size === 0 && !explicitlyStopped && unavailable === undefined) {
    starting ??= startThreads().then(() => undefined);
    await starting;
  }
  return pool.size > 0 ? pool : undefined;
}

export type { WorkerPool };
/** For tests: the pool itself. */
export const internalPool = pool;
