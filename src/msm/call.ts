/**
 * One MSM call of a group, from inputs taken at the call to the result, as one phase program: the
 * plan (window, tiles; stream or one piece), the conversion of the points (src/msm/convert.ts), the
 * MSM (src/msm/program.ts, or src/msm/stream.ts in chunks), progress and statistics. The API facade
 * (src/api/group.ts) takes the inputs and runs this program on an executor (`runProgram`); calls on
 * one instance run one after another (`enqueue`), whatever group or kind they are.
 */
import type { Instance } from '../runtime/instance.js';
import { runLocal, runLocalAsync, runOnPool, type PhaseProgram } from '../runtime/executor.js';
export type { Batch, PhaseProgram } from '../runtime/executor.js';
import { poolForMsm } from '../runtime/pool.js';
import type { PointFormatSpec, Validation } from '../abi/codes.js';
import { InvalidOptionError, PointEncodingError, ScalarEncodingError } from '../errors.js';
import type { GroupContext } from './group.js';
import { allocInputs, msmProgram, type MsmStats } from './program.js';
import { batchFor, planMsm, type MsmPlan } from './plan.js';
import { ProgressMeter, type MsmProgress } from './progress.js';
import { convertProgram, type CopiedPoints } from './convert.js';
import { ChunkReader, DEFAULT_MAX_MEMORY_BYTES, MAX_CHUNK_POINTS, chunkBytesPerPoint, chunkPointsFor, fixedStreamBytes, oneShotBytes, streamMsmProgram, type ByteSource } from './stream.js';

/** Below this many points an MSM runs on the calling thread (messages would cost more than they save). */
export const MIN_POINTS_FOR_THREADS = 256;

/**
 * What onStats receives: the MSM's statistics, the input conversion's milliseconds and, when streamed, the chunks.
 *
 * @inline
 */
export type CallStats = MsmStats & {
  /** milliseconds converting the inputs (point objects or bytes into the MSM's memory) */
  convert: number;
  /** streamed MSMs: the number of chunks */
  streamedChunks?: number;
  /** streamed MSMs: points per chunk */
  chunkPoints?: number;
};

/** The options of a call as the option parser leaves them (src/api/options.ts ParsedMsmOptions), those a program reads. */
export interface CallOptions {
  readonly scalarEndian: 'le' | 'be';
  readonly validate: Validation;
  readonly windowBits: number | undefined;
  readonly threads: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly maxMemoryBytes: number | undefined;
  readonly chunkPoints: number | undefined;
  readonly onStats: ((stats: CallStats) => void) | undefined;
  readonly onProgress: ((progress: MsmProgress) => void) | undefined;
}

/** A call's inputs, copied at the call (the caller may reuse its buffers at once). */
export interface MsmCall {
  /** the point count, −1 when the inputs are iterables (known at their end) */
  n: number;
  points: CopiedPoints | { kind: 'stream'; sources: ByteSource; format: PointFormatSpec<string> };
  /** n × 32 bytes in the order the options say */
  scalars: Uint8Array;
  /** the scalars as an iterable of byte chunks (then `scalars` is empty) */
  scalarSource?: ByteSource;
  options: CallOptions;
  /** names the entry in errors (`bls12-381.g1`) */
  entry: string;
}

const lanes = new WeakMap<Instance, Promise<unknown>>();

/**
 * Runs `job` after every asynchronous call queued before it on this instance: G1 and G2 calls,
 * plain, prepared and streamed, share its memory arena (a stack), so they take turns. Synchronous
 * calls (msmSync) run inside one turn's gaps and release all they take before returning.
 */
export function enqueue<T>(inst: Instance, job: () => Promise<T>): Promise<T> {
  const run = (lanes.get(inst) ?? Promise.resolve()).then(job);
  lanes.set(inst, run.catch(() => {}));
  return run;
}

/**
 * Runs a phase program over n points on the pool (at most `wanted` threads) or, for small n or
 * without shared memory, on the calling thread (returning to the event loop between ops). n < 0:
 * iterable inputs, of unknown (presumably large) size.
 */
export async function runProgram<T>(inst: Instance, program: (threads: number) => PhaseProgram<T>, n: number, wanted: number | undefined, signal: AbortSignal | undefined): Promise<T> {
  const pool = wanted === 1 || (n >= 0 && n < MIN_POINTS_FOR_THREADS) || !inst.shared ? undefined : await poolForMsm();
  if (!pool) return runLocalAsync(inst, program(1), signal);
  const threads = Math.min(wanted ?? pool.size, pool.size);
  return runOnPool(inst, program(threads), pool, threads, signal);
}

/** f's promise, with what f throws synchronously (input checks at the call) turned into a rejection. */
export function rejecting<T>(f: () => Promise<T>): Promise<T> {
  try {
    return f();
  } catch (e) {
    return Promise.reject(e);
  }
}

/** Runs a phase program on the calling thread, synchronously, as one thread slot (the synchronous twin of runProgram). */
export function runSync<T>(inst: Instance, program: PhaseProgram<T>): T {
  return runLocal(inst, program);
}

/** The whole MSM of a call on `threads` thread slots: in one piece, or streamed in chunks. */
export function* msmCallProgram<A>(ctx: GroupContext<A>, call: MsmCall, threads: number): PhaseProgram<A | null> {
  // the call's plan: the window for its points (iterables: for a full chunk), which decides the
  // memory of one piece and of streaming; msmProgram then cuts tiles for the points it keeps
  const planned = planMsm(call.n >= 0 ? call.n : MAX_CHUNK_POINTS, ctx.windowTable, call.options.windowBits, ctx);
  const plan = call.options.windowBits === undefined ? windowForMemory(ctx, call, threads, planned) : planned;
  const chunkPoints = streamChunk(ctx, call, threads, plan);
  if (chunkPoints !== undefined) return yield* streamCallProgram(ctx, call, threads, chunkPoints, plan);
  const { points, n, options } = call;
  if (points.kind === 'stream') throw new Error('pippin: streamed inputs reached the one-piece MSM');
  const { arena } = ctx.inst;
  const mark = arena.mark();
  try {
    const t0 = performance.now();
    const { windows } = plan;
    const meter = new ProgressMeter(n * (1 + subgroupPasses(ctx, options.validate) + windows), options.onProgress);
    meter.advance(0, 'decode');
    const regions = allocInputs(ctx, n);
    yield* convertProgram(ctx, points, n, regions, threads, 0, options.validate, meter);
    new Uint8Array(ctx.inst.memory.buffer).set(call.scalars, regions.scalars);
    const convert = performance.now() - t0;
    const { result, stats } = yield* msmProgram(ctx, regions, n, {
      scalarsBigEndian: options.scalarEndian === 'be',
      threads,
      windowBits: options.windowBits,
      onTile: (share) => meter.advance(share * windows * n, 'accumulate'),
    });
    meter.finish();
    options.onStats?.({ ...stats, convert });
    return result;
  } finally {
    arena.release(mark);
  }
}

/** Point passes of the subgroup check: one for 'full' on a group with a cofactor. */
function subgroupPasses(ctx: GroupContext, validate: Validation): number {
  return validate === 'full' && ctx.cofactor > 1n ? 1 : 0;
}

/**
 * Streamed chunks narrower than this (or than the input) are not worth a wider window: BLS12-381,
 * 20 000 points in 10 MiB, c = 10 in 15 chunks took 285 ms, c = 7 in 5 chunks of ≥ 4096 404 ms.
 */
const MIN_STREAM_CHUNK = 1024;

/**
 * How the call's inputs fit maxMemoryBytes with `plan`, chunkPoints aside: undefined in one piece
 * (packed bytes that fit), else the points per streamed chunk (< 1: not even one fits).
 */
function chunkInBudget(ctx: GroupContext, call: MsmCall, threads: number, plan: MsmPlan): number | undefined {
  const limit = call.options.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES;
  const used = ctx.inst.arena.mark();
  if (call.points.kind === 'bytes' && used + oneShotBytes(ctx.EB, plan, threads, call.n) <= limit) return undefined;
  return chunkPointsFor(limit, used, ctx.EB, plan, threads);
}

/**
 * The window under the call's memory budget: the plan when it runs in one piece, or streamed (no
 * chunkPoints given) in chunks of at least MIN_STREAM_CHUNK points; else the widest narrower c that
 * does either (a streamed MSM keeps every window's buckets: c = 16 at 2^17 points would leave a
 * 16 MiB budget no room for chunks). The plan itself when no c does (streamChunk then says why).
 */
function windowForMemory(ctx: GroupContext, call: MsmCall, threads: number, plan: MsmPlan): MsmPlan {
  if (call.points.kind === 'objects' || call.options.chunkPoints !== undefined) return plan;
  const n = call.n >= 0 ? call.n : MAX_CHUNK_POINTS;
  for (let c = plan.c; c >= 2; c--) {
    const p = c === plan.c ? plan : planMsm(n, [], c, ctx);
    const chunk = chunkInBudget(ctx, call, threads, p);
    if (chunk === undefined || chunk >= Math.min(n, MIN_STREAM_CHUNK)) return p;
  }
  return plan;
}

/**
 * Points per streamed chunk, or undefined to run in one piece: streamed when the inputs are
 * iterables, when `chunkPoints` is given, or when the one-piece MSM would need more Wasm memory
 * than `maxMemoryBytes`.
 */
function streamChunk(ctx: GroupContext, call: MsmCall, threads: number, plan: MsmPlan): number | undefined {
  const { chunkPoints, maxMemoryBytes } = call.options;
  if (call.points.kind === 'objects') return undefined;
  const limit = maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES;
  const used = ctx.inst.arena.mark();
  if (chunkPoints !== undefined) {
    // a chunk never holds more points than the input has, and its workspace must fit the budget
    const C = call.n >= 0 ? Math.max(1, Math.min(chunkPoints, call.n)) : chunkPoints;
    const need = used + fixedStreamBytes(ctx.EB, plan, threads, batchFor(2 * C)) + C * chunkBytesPerPoint(ctx.EB, threads);
    if (need > limit) {
      throw new InvalidOptionError(`${call.entry}: option chunkPoints ${chunkPoints} needs ${need} bytes of Wasm memory for a streamed MSM with ${plan.c}-bit windows, above maxMemoryBytes ${limit} (use fewer chunkPoints, or allow more memory)`, 'chunkPoints', chunkPoints);
    }
    return C;
  }
  const C = chunkInBudget(ctx, call, threads, plan);
  if (C !== undefined && C < 1) {
    const need = used + fixedStreamBytes(ctx.EB, plan, threads, batchFor(2 * MAX_CHUNK_POINTS)) + chunkBytesPerPoint(ctx.EB, threads);
    throw new InvalidOptionError(`${call.entry}: option maxMemoryBytes ${limit} is below the ${need} bytes a streamed MSM with ${plan.c}-bit windows needs (lower windowBits, or allow more memory)`, 'maxMemoryBytes', limit);
  }
  return C;
}

/** The MSM streamed in chunks of `chunkPoints` points (src/msm/stream.ts). */
function* streamCallProgram<A>(ctx: GroupContext<A>, call: MsmCall, threads: number, chunkPoints: number, plan: MsmPlan): PhaseProgram<A | null> {
  const src = call.points.kind === 'stream' ? call.points : call.points.kind === 'bytes' ? { sources: call.points.bytes, format: call.points.format } : undefined;
  if (!src) throw new Error('pippin: point objects are not streamed');
  const known = call.n >= 0 ? call.n : undefined;
  const { validate } = call.options;
  const perPoint = 1 + subgroupPasses(ctx, validate) + plan.windows;
  const meter = new ProgressMeter(known !== undefined ? known * perPoint : Infinity, call.options.onProgress);
  meter.advance(0, 'decode');
  const format = src.format;
  const points = new ChunkReader(src.sources, format.bytes, 'points', (m) => new PointEncodingError(m));
  const scalars = new ChunkReader(call.scalarSource ?? call.scalars, 32, 'scalars', (m) => new ScalarEncodingError(m));
  const out = yield* streamMsmProgram({
    ctx,
    plan,
    chunkPoints,
    threads,
    scalarsBigEndian: call.options.scalarEndian === 'be',
    convert: (bytes, count, regions, first) => convertProgram(ctx, { kind: 'bytes', bytes, format }, count, regions, threads, first, validate, meter),
    onAccumulated: (passes) => meter.advance(passes, 'accumulate'),
  }, points, scalars);
  meter.finish(out.n * perPoint);
  call.options.onStats?.({ ...out.stats, convert: out.convertMs, streamedChunks: out.chunks, chunkPoints });
  return out.result;
}
