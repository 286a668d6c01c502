/**
 * The MSM in bounded memory (issue #14): the inputs are read in chunks of at most C points; each
 * chunk is decoded and checked, its scalars split (GLV), compacted and expanded, and its halves are
 * accumulated into the buckets of EVERY window — K bucket sets that live for the whole MSM, so the
 * result is one MSM: the buckets are reduced once at the end, as in msmProgram (src/msm/program.ts).
 * Wasm memory is then ≈ C·(3·EB + 33 + 16·T) bytes for a chunk plus K·L·(PB + 5) for the buckets
 * and the per-thread workspaces, whatever n is.
 *
 * Inputs are one Uint8Array or an iterable / async iterable of Uint8Array chunks of any sizes (a
 * chunk may end inside a point); `ChunkReader` re-cuts them into chunks of C points, copying.
 */
import type { Batch, PhaseProgram, Wait } from '../runtime/executor.js';
import type { Op } from '../runtime/interpreter.js';
import { accumulationCaps, batchFor, batchToFit, windowAt, windowJob, type MsmPlan } from './plan.js';
import { allocInputs, pointLayoutOf, prepareProgram, tileCounts, type MsmRegions, type MsmStats } from './program.js';
import { TileStats, allocWorkspace, clearBuckets, tileTask, workspaceBytes, type TileTask } from './tiles.js';
import type { GroupContext } from './group.js';
import { LengthMismatchError } from '../errors.js';

/**
 * What the caller may pass as a stream of bytes: one Uint8Array, or an (async) iterable of chunks
 * (any sizes; a chunk may be reused once the iterator moved past it).
 *
 * @example
 * ```ts
 * import { bls12_381, type ByteSource } from 'pippin';
 * await bls12_381.init();
 * const P = bls12_381.g1.toBytes(bls12_381.params.G1); // 96 bytes, 'zcash'
 * function* chunks(): Generator<Uint8Array> {
 *   for (let i = 0; i < 4; i++) yield P; // four points, one per chunk
 * }
 * const points: ByteSource = chunks();
 * const S = await bls12_381.g1.msm(points, [1n, 1n, 1n, 1n]);
 * console.log(S.x === bls12_381.g1.msmSync([bls12_381.params.G1], [4n]).x); // → true
 * ```
 */
export type ByteSource = Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * Default `maxMemoryBytes`, 256 MiB: fits the Wasm memory that mobile browsers grant a page (iOS
 * Safari kills tabs far below 1 GiB).
 *
 * @example
 * ```ts
 * import { bls12_381, DEFAULT_MAX_MEMORY_BYTES } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * await bls12_381.g1.msm([G], [1n], { maxMemoryBytes: 2 * DEFAULT_MAX_MEMORY_BYTES });
 * console.log(DEFAULT_MAX_MEMORY_BYTES / 2 ** 20); // → 256
 * ```
 */
export const DEFAULT_MAX_MEMORY_BYTES = 256 * 2 ** 20;
/** Most points per streamed chunk: a chunk's serial steps (compaction, endomorphism) stay short (≈ 40 ms) and threads meet often enough. */
export const MAX_CHUNK_POINTS = 1 << 18;
/** Bytes kept free for scratch, staging, reduction outputs and the combination. */
const MARGIN_BYTES = 8 * 2 ** 20;

/** Whether `v` is an iterable or async iterable of chunks (not a Uint8Array, which is iterable over numbers, nor an array of points or bigints). */
export function isChunkIterable(v: unknown): v is Iterable<Uint8Array> | AsyncIterable<Uint8Array> {
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return false;
  // an array is a list of chunks when it starts with one (else point objects or bigints)
  if (Array.isArray(v)) return v.length > 0 && v[0] instanceof Uint8Array;
  const o = v as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown };
  return typeof o[Symbol.iterator] === 'function' || typeof o[Symbol.asyncIterator] === 'function';
}

export function isAsyncIterable(v: unknown): v is AsyncIterable<Uint8Array> {
  return v !== null && typeof v === 'object' && typeof (v as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/**
 * Reads fixed-size items from a byte source, `count` at a time, into a fresh buffer (a copy: the
 * caller may reuse its chunks once they were read). Async sources make the program wait.
 */
export class ChunkReader {
  private readonly it: Iterator<unknown> | AsyncIterator<unknown>;
  private current: Uint8Array | undefined;
  private pos = 0;
  private chunkIndex = -1;
  private ended = false;
  /** items read so far */
  read = 0;

  constructor(
    source: ByteSource,
    readonly itemBytes: number,
    /** names the input in errors ('points', 'scalars') */
    readonly what: string,
    /** the typed error for a chunk that is not a Uint8Array */
    private readonly badChunk: (message: string) => Error,
  ) {
    if (source instanceof Uint8Array) this.it = [source][Symbol.iterator]();
    else if (isAsyncIterable(source)) this.it = source[Symbol.asyncIterator]();
    else this.it = (source as Iterable<Uint8Array>)[Symbol.iterator]();
  }

  /**
   * Lets the source clean up when the MSM stops before its end (an error, an abort): calls the
   * iterator's `return` (its promise, for an async one, is not awaited; a failure there is ignored).
   */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    try {
      const done = this.it.return?.();
      if (done instanceof Promise) done.catch(() => {});
    } catch {
      // the source's own cleanup failed: nothing to add to the MSM's outcome
    }
  }

  /** Up to `count` items (fewer only at the end of the source). */
  *take(count: number): Generator<Wait, Uint8Array, void> {
    const out = new Uint8Array(count * this.itemBytes);
    let have = 0;
    while (have < out.length && !this.ended) {
      if (!this.current || this.pos === this.current.length) {
        let step = this.it.next() as IteratorResult<unknown> | Promise<IteratorResult<unknown>>;
        if (step instanceof Promise) {
          let settled: IteratorResult<unknown> | undefined;
          yield { wait: step.then((s) => (settled = s)) };
          step = settled!;
        }
        if (step.done) {
          this.ended = true;
          break;
        }
        this.chunkIndex++;
        if (!(step.value instanceof Uint8Array)) throw this.badChunk(`${this.what}: chunk ${this.chunkIndex} of the iterable is not a Uint8Array`);
        this.current = step.value;
        this.pos = 0;
        continue;
      }
      const n = Math.min(out.length - have, this.current.length - this.pos);
      out.set(this.current.subarray(this.pos, this.pos + n), have);
      have += n;
      this.pos += n;
    }
    if (have % this.itemBytes !== 0) {
      throw new LengthMismatchError(`${this.what}: the input ends inside item ${this.read + Math.floor(have / this.itemBytes)} (${have % this.itemBytes} of its ${this.itemBytes} bytes)`);
    }
    this.read += have / this.itemBytes;
    return out.subarray(0, have);
  }
}

/** Bytes of Wasm memory per point of a chunk: the shared-y triple (3 elements; packed ones are smaller), flags, scalars, subgroup-check halves per thread. */
export function chunkBytesPerPoint(EB: number, threads: number): number {
  return 3 * EB + 1 + 32 + 16 * threads;
}

/** Bytes that do not depend on the chunk: every window's buckets and the per-thread workspaces. */
export function fixedStreamBytes(EB: number, plan: MsmPlan, threads: number, batch: number): number {
  const PB = 2 * EB;
  const L = plan.buckets;
  const slots = Math.max(1, Math.min(threads, plan.windows));
  const { tempCap, deferredCap } = accumulationCaps(batch, L);
  return plan.windows * (L * (PB + 5) + 2 * plan.segments * PB + plan.segments) + slots * workspaceBytes(EB, L, batch, tempCap, deferredCap, plan.segments, false) + MARGIN_BYTES;
}

/** Estimated Wasm memory of the one-piece MSM of n points (msmProgram: every thread owns its buckets). */
export function oneShotBytes(EB: number, plan: MsmPlan, threads: number, n: number): number {
  const { tempCap, deferredCap } = accumulationCaps(plan.batch, plan.buckets);
  return n * chunkBytesPerPoint(EB, threads) + threads * workspaceBytes(EB, plan.buckets, plan.batch, tempCap, deferredCap, plan.segments) + MARGIN_BYTES;
}

/**
 * Points per chunk under `maxBytes` of Wasm memory (of which `usedBytes` are already taken), at
 * most MAX_CHUNK_POINTS; 0 when not even one point fits.
 */
export function chunkPointsFor(maxBytes: number, usedBytes: number, EB: number, plan: MsmPlan, threads: number): number {
  const free = maxBytes - usedBytes - fixedStreamBytes(EB, plan, threads, batchFor(2 * MAX_CHUNK_POINTS));
  return Math.max(0, Math.min(MAX_CHUNK_POINTS, Math.floor(free / chunkBytesPerPoint(EB, threads))));
}

export interface StreamSetup<A> {
  ctx: GroupContext<A>;
  plan: MsmPlan;
  /** points per chunk */
  chunkPoints: number;
  threads: number;
  scalarsBigEndian: boolean;
  /** decodes and checks `count` points of `bytes` into the regions; errors name index `first` + i */
  convert(bytes: Uint8Array, count: number, regions: MsmRegions, first: number): PhaseProgram<void>;
  /** called with the point passes of accumulation finished (one per window per point) */
  onAccumulated?(pointPasses: number): void;
}

export interface StreamResult<A> {
  result: A | null;
  n: number;
  chunks: number;
  convertMs: number;
  stats: MsmStats;
}

/** The streamed MSM over two readers (points and scalars); see the file comment. */
export function* streamMsmProgram<A>(setup: StreamSetup<A>, points: ChunkReader, scalars: ChunkReader): PhaseProgram<StreamResult<A>> {
  const { ctx, plan, chunkPoints: C, threads } = setup;
  const { inst, EB } = ctx;
  const PB = 2 * EB;
  const { arena } = inst;
  const mark = arena.mark();
  try {
    const L = plan.buckets;
    const S = plan.segments;
    const K = plan.windows;
    // (the memory budget counts batchFor's batch, an upper bound of this one)
    const B = batchToFit(2 * C, plan.c, ctx);
    const { tempCap, deferredCap } = accumulationCaps(B, L);
    const regions = allocInputs(ctx, C);
    const pointLayout = pointLayoutOf(ctx);
    const mem = () => new Uint8Array(inst.memory.buffer);
    // every window's buckets, cleared once: they accumulate every chunk
    const windows = Array.from({ length: K }, () => {
      const w = { buckets: arena.alloc(L * PB), bstate: arena.alloc(L), pending: arena.alloc(4 * L) };
      clearBuckets(inst, w, L);
      return w;
    });
    const outs = windows.map(() => ({ R: arena.alloc(S * PB), P: arena.alloc(S * PB), flags: arena.alloc(S) }));
    // each window's bits, carry rule and reduction, once for every chunk
    const jobs = windows.map((_, win) => windowJob(plan, win));
    const specs = windows.map((_, win) => windowAt(plan, win));
    const slots = Math.max(1, Math.min(threads, K));
    const workspaces = Array.from({ length: slots }, () => allocWorkspace(ctx, L, B, tempCap, deferredCap, S, 2 * C, false));
    const stats = new TileStats();
    let keptTotal = 0;
    const ms = { convert: 0, split: 0, prepare: 0, accumulate: 0, reduce: 0, final: 0 };
    let n = 0;
    let chunks = 0;
    const bigEndian = setup.scalarsBigEndian ? 1 : 0;
    for (;;) {
      const pointBytes = yield* points.take(C);
      const scalarBytes = yield* scalars.take(C);
      const m = pointBytes.length / points.itemBytes;
      if (m !== scalarBytes.length / 32) {
        throw new LengthMismatchError(`${points.read} points but ${scalars.read} scalars (the inputs end at different lengths)`);
      }
      if (m === 0) break;
      chunks++;
      const t0 = performance.now();
      yield* setup.convert(pointBytes, m, regions, n);
      const t1 = performance.now();
      mem().set(scalarBytes, regions.scalars);
      let t2 = t1;
      const kept = yield* prepareProgram(ctx, regions, m, bigEndian, () => (t2 = performance.now()), threads);
      const t3 = performance.now();
      // one task per window: this chunk's 2·kept halves into the window's buckets
      const running: (TileTask | undefined)[] = [];
      const accumulate: Batch = {
        tasks: windows.map((w, win) => (slot: number): Op[] => {
          running[win] = tileTask(ctx, { ...workspaces[slot], ...w }, {
            accumulate: [{ points: regions.points, layout: pointLayout.layout, pointBytes: pointLayout.tripleBytes, halves: regions.scalars, count: 2 * kept, ...jobs[win], batch: B, deferredCap, tempCap }],
          });
          return running[win]!.ops;
        }),
        done: (win, r) => {
          running[win]!.record(r, stats);
          setup.onAccumulated?.(m);
        },
      };
      if (kept > 0) yield accumulate;
      else setup.onAccumulated?.(K * m);
      const t4 = performance.now();
      ms.convert += t1 - t0;
      ms.split += t2 - t1;
      ms.prepare += t3 - t2;
      ms.accumulate += t4 - t3;
      keptTotal += kept;
      n += m;
      if (m < C) break;
    }
    // the reduction, once per window, and the combination
    const t5 = performance.now();
    const combiner = ctx.makeCombiner();
    let finalMs = 0;
    let combineMs = 0;
    const reductions: (TileTask | undefined)[] = [];
    const accumulationTasks = stats.tasks;
    const reduce: Batch = {
      tasks: windows.map((w, win) => (slot: number): Op[] => {
        reductions[win] = tileTask(ctx, workspaces[slot], { reduce: { set: w, L: specs[win].buckets, S: specs[win].segments, out: outs[win], clear: false } });
        return reductions[win]!.ops;
      }),
      done: (win, r) => {
        reductions[win]!.record(r, stats);
        const t = performance.now();
        const o = outs[win];
        const { shift, segments, perSegment } = specs[win];
        combiner.addWindow(win, shift, o.R, o.P, o.flags, segments, perSegment);
        combineMs += performance.now() - t;
      },
    };
    yield reduce;
    const t6 = performance.now();
    const result = combiner.finish();
    finalMs = combineMs + performance.now() - t6;
    return {
      result,
      n,
      chunks,
      convertMs: ms.convert,
      stats: {
        method: 'buckets',
        plan: { ...plan, batch: B },
        kept: keptTotal,
        ...tileCounts(stats),
        threads: slots,
        tiles: accumulationTasks,
        times: { split: ms.split, prepare: ms.prepare, accumulate: ms.accumulate, reduce: t6 - t5 - (slots > 1 ? 0 : combineMs), final: finalMs },
        peakMemoryBytes: inst.memory.buffer.byteLength,
      },
    };
  } finally {
    points.close();
    scalars.close();
    arena.release(mark);
  }
}
