/**
 * Executors of phase programs. A phase program is a generator that yields batches of kernel tasks
 * and receives control back when every task of the batch has run (each result handed to the
 * batch's `done` first); it is written once and run either on the calling thread (`runLocal`,
 * synchronous) or with the tasks of each batch spread over the worker pool (`runOnPool`). A batch
 * that fails is thrown into the program, so its `finally` blocks release what it allocated.
 */
import { runTask, type Op, type TaskResult } from './interpreter.js';
import type { Instance } from './instance.js';
import { PoolStoppedError, type WorkerPool } from './pool.js';

/** Independent tasks: `tasks[i](slot)` builds task i's ops for the thread slot that runs it (slot < the program's thread count). */
export interface Batch {
  tasks: readonly ((slot: number) => Op[])[];
  done(i: number, r: TaskResult): void;
  /**
   * tasks handed to each worker ahead (default 1): with 2, a slot's next task is built and sent
   * while its previous one runs, so the worker never waits for the calling thread between tasks;
   * only for builders that write nothing a slot's running task uses (e.g. alternating buffers)
   */
  depth?: 1 | 2;
}

/**
 * A program may also yield a promise to wait for (e.g. the next chunk of an async input): the
 * asynchronous executors await it (a rejection is thrown into the program); `runLocal` cannot and
 * throws into the program instead.
 */
export interface Wait {
  wait: Promise<unknown>;
}

export type PhaseProgram<T> = Generator<Batch | Wait, T, void>;

const isWait = (step: Batch | Wait): step is Wait => 'wait' in step;

/** Runs every task of a batch on the calling thread, in order, as slot 0. */
function runBatchLocally(inst: Instance, batch: Batch): void {
  batch.tasks.forEach((make, i) => batch.done(i, runTask(inst.exports, inst.memory, make(0))));
}

/** Steps a program: each batch it yields is run by `run`; a batch that throws is thrown into the program. */
function drive<T>(program: PhaseProgram<T>, run: (batch: Batch) => void): T {
  let step = program.next();
  while (!step.done) {
    let failure: { error: unknown } | undefined;
    try {
      if (isWait(step.value)) throw new Error('pippin: a synchronous run cannot wait for asynchronous input');
      run(step.value);
    } catch (error) {
      failure = { error };
    }
    step = failure ? program.throw(failure.error) : program.next();
  }
  return step.value;
}

/** The same with batches run asynchronously. */
async function driveAsync<T>(program: PhaseProgram<T>, run: (batch: Batch) => Promise<void>): Promise<T> {
  let step = program.next();
  while (!step.done) {
    let failure: { error: unknown } | undefined;
    try {
      const value = step.value;
      if (isWait(value)) await value.wait;
      else await run(value);
    } catch (error) {
      failure = { error };
    }
    step = failure ? program.throw(failure.error) : program.next();
  }
  return step.value;
}

/** Runs a program on the calling thread. */
export function runLocal<T>(inst: Instance, program: PhaseProgram<T>): T {
  return drive(program, (batch) => runBatchLocally(inst, batch));
}

/** Milliseconds of kernel work on the calling thread between two returns to the event loop. */
export const YIELD_INTERVAL_MS = 10;

type Immediate = (f: () => void) => unknown;
/** Back to the event loop at once (no timer clamp): setImmediate (Node), else a MessageChannel message, else a 0 ms timer. */
export function yieldToEventLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: Immediate }).setImmediate;
  if (immediate) return new Promise((res) => void immediate(res));
  if (typeof MessageChannel !== 'undefined') {
    return new Promise((res) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        res();
      };
      channel.port2.postMessage(0);
    });
  }
  return new Promise((res) => setTimeout(res, 0));
}

/**
 * Runs a program on the calling thread, asynchronously: op by op (a task's ops still run in order
 * as one task), returning to the event loop whenever YIELD_INTERVAL_MS of work have passed, and
 * stopping at an abort of `signal` (the program's finally blocks run, then the reason is thrown).
 * Ops are kept short (MSM accumulations run in slices, src/msm/tiles.ts), so an abort takes effect
 * within about one op.
 */
export function runLocalAsync<T>(inst: Instance, program: PhaseProgram<T>, signal?: AbortSignal): Promise<T> {
  let lastYield = performance.now();
  return driveAsync(program, async (batch) => {
    for (let i = 0; i < batch.tasks.length; i++) {
      const ops = batch.tasks[i](0);
      const result: TaskResult = { values: [], times: [] };
      for (const op of ops) {
        if (performance.now() - lastYield >= YIELD_INTERVAL_MS) {
          await yieldToEventLoop();
          lastYield = performance.now();
        }
        signal?.throwIfAborted();
        const r = runTask(inst.exports, inst.memory, [op]);
        result.values.push(r.values[0]);
        result.times.push(r.times[0]);
      }
      batch.done(i, result);
    }
  });
}

/**
 * Runs a program with each batch on up to `threads` workers of `pool`; a batch that starts after
 * the pool was emptied (stopThreads) runs on the calling thread instead. An abort of `signal`
 * stops the running batch (its workers are terminated and replaced) and ends the program.
 */
export function runOnPool<T>(inst: Instance, program: PhaseProgram<T>, pool: WorkerPool, threads: number, signal?: AbortSignal): Promise<T> {
  return driveAsync(program, async (batch) => {
    signal?.throwIfAborted();
    try {
      await pool.run(inst, batch.tasks, threads, (i, r) => batch.done(i, r), signal, batch.depth);
    } catch (e) {
      if (!(e instanceof PoolStoppedError)) throw e;
      runBatchLocally(inst, batch); // nothing ran on the workers
    }
  });
}
