/**
 * The public G1 MSM over one curve's Wasm instance: options and inputs checked and copied at the
 * call, then one phase program — input conversion (decode + validate) in chunks, the MSM, the
 * result — run on the calling thread (msmSync) or with its batches on the worker pool (msm).
 */
import type { Instance } from '../runtime/instance.js';
import { runLocal, runLocalAsync, runOnPool, type Batch, type PhaseProgram } from '../runtime/executor.js';
import type { Op } from '../runtime/interpreter.js';
import { poolForMsm } from '../runtime/pool.js';
import { allocInputs, msmProgram, type G1MsmContext, type MsmRegions, type MsmStats } from '../msm/g1.js';
import { xyzzCombiner } from '../msm/combine-xyzz.js';
import { planMsm, type WindowTable } from '../msm/plan.js';
import { ProgressMeter, type MsmProgress } from '../msm/progress.js';
import { batchedCheckFrom, planSubgroupBatch, subgroupBatchProgram, validateInSubgroupBatched } from '../msm/subgroup.js';
import { MALFORMED, NO_ERROR, PointError, VALIDATION_CHECK, decodeStatus, type PointFormatSpec, type PointErrorCode } from '../abi/codes.js';
import type { FixedScratchKernel } from '../wasm-generated/kernels.js';
import { prepareBases, type PrepareOptions, type PreparedBases } from './prepared.js';
import { batchFor } from '../msm/plan.js';
import {
  ChunkReader, DEFAULT_MAX_MEMORY_BYTES, MAX_CHUNK_POINTS, chunkBytesPerPoint, chunkPointsFor, fixedStreamBytes, isAsyncIterable, isChunkIterable, oneShotBytes, streamMsmProgram, type ByteSource,
} from '../msm/stream.js';
import { describeValue, parseMsmOptions, type ParsedMsmOptions, type Validation } from './options.js';
import {
  InvalidOptionError, LengthMismatchError, NotInSubgroupError, NotOnCurveError, PippinError, PointEncodingError, ScalarEncodingError,
} from '../errors.js';
import { packedElementBytes, subgroupBatchScratchBytes } from '../abi/layout.js';

export type { Validation } from './options.js';
export type { PointFormatSpec } from '../abi/codes.js';
export type { MsmProgress, MsmPhase } from '../msm/progress.js';

/** An affine point; `infinity: true` is the point at infinity (x = y = 0n then). */
export interface G1Affine {
  x: bigint;
  y: bigint;
  infinity: boolean;
}
/** Point inputs as objects: finite points as {x, y}; the point at infinity as {infinity: true} or null. */
export type G1PointInput = { x: bigint; y: bigint; infinity?: boolean } | { infinity: true } | null;

/** Byte encodings of BLS12-381 G1 points. */
export type G1Format =
  /** ZCash/IETF: 96 bytes x‖y big-endian with flag bits in the first byte */
  | 'zcash'
  /** ZCash/IETF compressed: 48 bytes, x big-endian with compression/infinity/sort flags */
  | 'zcash-compressed'
  /** arkworks uncompressed: 96 bytes x‖y little-endian, flags in the last byte */
  | 'arkworks';

export interface MsmOptions<F extends string = G1Format> {
  /** Encoding of packed point bytes (default: the curve's, chosen by bytes per point; BLS12-381:
   * 'zcash', or 'zcash-compressed' for 48 bytes per point). */
  pointFormat?: F;
  /** Byte order of packed 32-byte scalars (default 'le'). */
  scalarEndian?: 'le' | 'be';
  /** Input checks: 'full' = on the curve and in the subgroup (default), 'on-curve', or 'none'. */
  validate?: Validation;
  /** Fixes the window size (bits, an integer in 2…16); by default the planner picks it. */
  windowBits?: number;
  /** At most this many threads for this call (an integer in 1…256; default: every worker of the
   * pool; 1 = the calling thread). Ignored by msmSync. */
  threads?: number;
  /** Receives phase timings and counts. */
  onStats?: (stats: G1MsmStats) => void;
  /**
   * Receives `{ done, total, phase }` during the MSM (msm and msmSync), at most every 50 ms: `total`
   * is fixed at the start (point passes: one to decode and check, one per batched subgroup check,
   * one per window), `done` never decreases, and the last call has done === total (phase 'done').
   * Runs on the calling thread between tasks; a throw from it rejects the MSM.
   */
  onProgress?: (progress: MsmProgress) => void;
  /**
   * Cancels an asynchronous MSM: it rejects with the signal's reason (an `AbortError` DOMException by
   * default); workers running its tasks are terminated and replaced, its memory is released. Checked
   * before any work, then on the calling thread between ops (kept to ≈ 10–30 ms: accumulations run
   * in slices; docs/streaming.md). msmSync only checks it before starting.
   */
  signal?: AbortSignal;
  /**
   * Most Wasm memory the MSM may use (bytes; default DEFAULT_MAX_MEMORY_BYTES = 256 MiB, which
   * mobile browsers grant). When the inputs in one piece would need more (≈ 250 bytes per point on
   * BLS12-381), or are given as iterables, the MSM streams them in chunks of points into the same
   * buckets (one MSM, one reduction); any n then works. Memory already grown is never returned to
   * the engine (Wasm memories only grow).
   */
  maxMemoryBytes?: number;
  /** Streams in chunks of this many points whatever the memory (tests, tuning); default: the most that fit maxMemoryBytes, at most 2^18. */
  chunkPoints?: number;
}

/** What onStats receives: the MSM's statistics, the input conversion's milliseconds and, when streamed, the chunks. */
export type G1MsmStats = MsmStats & { convert: number; streamedChunks?: number; chunkPoints?: number };

/** Points (or scalars) as bytes: one buffer, or an iterable / async iterable of chunks of any sizes. */
export type { ByteSource } from '../msm/stream.js';

/** What a curve gives its G1: the instance, r, the point formats and the module's scratch sizes. */
export interface G1Setup<F extends string> {
  name: string;
  r: bigint;
  /** the cofactor: above 1, 'full' validation includes the subgroup check */
  h1: bigint;
  formats: readonly PointFormatSpec<F>[];
  windowTable: WindowTable;
  scratchBytes: Readonly<Record<FixedScratchKernel, number>>;
}

/** Points per decode/validation call on the calling thread. */
export const CHUNK = 4096;
/**
 * The exact subgroup test (docs/validation.md, `npm run bench:subgroup`): batch-affine from
 * EXACT_BATCH_FROM points per call (below, the shared inversions cost more than they save: break-even
 * at ≈ 20 points), at most EXACT_CHUNK points per task (256…2048 all within 1% of each other), tasks
 * of at least EXACT_MIN_CHUNK points when spread over threads (13% faster than XYZZ at 64, 18% from 256).
 */
const EXACT_BATCH_FROM = 24;
const EXACT_CHUNK = 512;
const EXACT_MIN_CHUNK = 64;
/** Below this many points an MSM runs on the calling thread (messages would cost more than they save). */
export const MIN_POINTS_FOR_THREADS = 256;

/** Points per decode/validation task: one CHUNK on one thread, else about four tasks per thread. */
export function chunkSize(n: number, threads: number): number {
  return threads === 1 ? CHUNK : Math.max(64, Math.min(CHUNK, Math.ceil(n / (4 * threads))));
}

/** Points as copied at the call: packed bytes in one format, or the coordinates of point objects. */
export type CopiedPoints<F extends string> = Exclude<Call<F>['points'], { kind: 'stream' }>;

/** A call's inputs, copied at the call (the caller may reuse its buffers at once). */
interface Call<F extends string> {
  /** the point count, −1 when the inputs are iterables (known at their end) */
  n: number;
  points:
    | { kind: 'bytes'; bytes: Uint8Array; format: PointFormatSpec<F> }
    | { kind: 'objects'; xs: bigint[]; ys: bigint[]; inf: Uint8Array }
    | { kind: 'stream'; sources: ByteSource; format: PointFormatSpec<F> };
  /** n × 32 bytes in the order the options say */
  scalars: Uint8Array;
  /** the scalars as an iterable of byte chunks (then `scalars` is empty) */
  scalarSource?: ByteSource;
  options: ParsedMsmOptions<F, G1MsmStats>;
}

const INFINITY: G1Affine = Object.freeze({ x: 0n, y: 0n, infinity: true });

export class G1<F extends string = G1Format> {
  private readonly formats: Map<string, PointFormatSpec<F>>;
  private readonly EB: number;
  /** @internal the MSM context (src/api/prepared.ts runs MSMs over it) */
  readonly ctx: G1MsmContext;
  /** From this many points 'full' validation uses the batched subgroup check (never with cofactor 1). */
  private readonly batchFrom: number;
  /** asynchronous MSMs on this instance run one at a time (they share its memory arena) */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    /** The underlying Wasm instance (low-level access for tools; not needed for the MSM). */
    readonly inst: Instance,
    /** @internal */
    readonly setup: G1Setup<F>,
  ) {
    this.formats = new Map(setup.formats.map((f) => [f.name, f]));
    const fp = inst.fields.fp;
    this.EB = fp.info.elementBytes;
    const readAffine = (ptr: number) => ({ x: fp.read(ptr), y: fp.read(ptr + this.EB) });
    this.ctx = { inst, EB: this.EB, packedBytes: packedElementBytes(fp.info), windowTable: setup.windowTable, makeCombiner: xyzzCombiner(inst, this.EB, readAffine) };
    this.batchFrom = batchedCheckFrom(setup.h1);
  }

  get r(): bigint {
    return this.setup.r;
  }

  /**
   * Σ scalars[i]·points[i], on worker threads when they are available (see `startThreads`; the
   * first call starts them with one per core unless `stopThreads()` was called), else on the
   * calling thread. Scalars are reduced mod r (any size and sign for bigints; 32 bytes each when
   * packed). n = 0 gives the point at infinity. Inputs are copied before this returns; calls on
   * one curve run one after another. Bad options or inputs reject with a typed error.
   */
  msm(points: Uint8Array | readonly G1PointInput[] | Iterable<Uint8Array> | AsyncIterable<Uint8Array>, scalars: Uint8Array | readonly bigint[] | Iterable<Uint8Array> | AsyncIterable<Uint8Array>, options?: MsmOptions<F>): Promise<G1Affine> {
    let call: Call<F>;
    try {
      call = this.takeCall(points, scalars, options, 'msm');
    } catch (e) {
      return Promise.reject(e);
    }
    return this.enqueue(() => this.runAsync(call));
  }

  /**
   * Decodes and validates `points` once and keeps them in Wasm memory for many MSMs (fixed bases,
   * e.g. a KZG setup): see src/api/prepared.ts and docs/prepared.md.
   */
  prepare(points: Uint8Array | readonly G1PointInput[], options?: PrepareOptions<F>): Promise<PreparedBases> {
    return prepareBases(this, points, options);
  }

  /** @internal Runs `job` after every asynchronous call queued before it on this instance (they share its memory arena). */
  enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job);
    this.queue = run.catch(() => {});
    return run;
  }

  /** The same on the calling thread only, synchronously. */
  msmSync(points: Uint8Array | readonly G1PointInput[] | Iterable<Uint8Array>, scalars: Uint8Array | readonly bigint[] | Iterable<Uint8Array>, options?: MsmOptions<F>): G1Affine {
    return runLocal(this.inst, this.program(this.takeCall(points, scalars, options, 'msmSync'), 1));
  }

  private async runAsync(call: Call<F>): Promise<G1Affine> {
    const { threads: wanted, signal } = call.options;
    if (signal?.aborted) throw signal.reason; // aborted while queued: no work
    return this.runProgram((threads) => this.program(call, threads), call.n, wanted, signal);
  }

  /**
   * @internal Runs a phase program over n points on the pool (at most `wanted` threads) or, for small
   * n or without shared memory, on the calling thread (returning to the event loop between ops).
   * n < 0: iterable inputs, of unknown (presumably large) size.
   */
  async runProgram<T>(program: (threads: number) => PhaseProgram<T>, n: number, wanted: number | undefined, signal: AbortSignal | undefined): Promise<T> {
    const pool = wanted === 1 || (n >= 0 && n < MIN_POINTS_FOR_THREADS) || !this.inst.shared ? undefined : await poolForMsm();
    if (!pool) return runLocalAsync(this.inst, program(1), signal);
    const threads = Math.min(wanted ?? pool.size, pool.size);
    return runOnPool(this.inst, program(threads), pool, threads, signal);
  }

  /** The whole MSM as one phase program on `threads` thread slots: in one piece, or streamed in chunks. */
  private *program(call: Call<F>, threads: number): PhaseProgram<G1Affine> {
    const chunkPoints = this.streamChunk(call, threads);
    if (chunkPoints !== undefined) return yield* this.streamProgram(call, threads, chunkPoints);
    const { arena } = this.inst;
    const mark = arena.mark();
    try {
      const t0 = performance.now();
      const { n } = call;
      const points = call.points;
      if (points.kind === 'stream') throw new Error('pippin: streamed inputs reached the one-piece MSM');
      const batched = call.options.validate === 'full' && n >= this.batchFrom;
      const windows = planMsm(n, this.setup.windowTable, call.options.windowBits).windows;
      const meter = new ProgressMeter(n * (1 + (batched ? 1 : 0) + windows), call.options.onProgress);
      meter?.advance(0, 'decode');
      const regions = allocInputs(this.ctx, n);
      yield* this.convertProgram(points, n, regions, threads, 0, call.options.validate, meter);
      new Uint8Array(this.inst.memory.buffer).set(call.scalars, regions.scalars);
      const convert = performance.now() - t0;
      const { result, stats } = yield* msmProgram(this.ctx, regions, call.n, {
        scalarsBigEndian: call.options.scalarEndian === 'be',
        threads,
        windowBits: call.options.windowBits,
        onTile: (share) => meter?.advance(share * windows * n, 'accumulate'),
      });
      meter.finish();
      call.options.onStats?.({ ...stats, convert });
      return result ? { ...result, infinity: false } : INFINITY;
    } finally {
      arena.release(mark);
    }
  }

  /**
   * Input conversion of n points into `regions`: decoding (or the objects written) with per-point
   * checks, then for 'full' on a curve with a cofactor and enough points the batched subgroup check
   * (exact per-point checks only to locate a bad point). Errors name index `first` + i. Progress:
   * n decode units, and n subgroup units when `validate` is 'full' on a curve with a cofactor.
   */
  /** @internal (also prepared bases: src/api/prepared.ts) */
  *convertProgram(points: Call<F>['points'], n: number, regions: MsmRegions, threads: number, first: number, validate: Validation, meter?: ProgressMeter): PhaseProgram<void> {
    // 'full' on a curve with a cofactor and enough points: on-curve per point, then the batched
    // subgroup check; exact per-point checks only to locate a bad point. Fewer points: on-curve per
    // point, then the exact test of all points before the first malformed or off-curve one (so the
    // lowest bad index wins, whatever its error)
    const subgroup = validate === 'full' && this.setup.h1 > 1n;
    const batched = subgroup && n >= this.batchFrom;
    const perPoint: Validation = subgroup ? 'on-curve' : validate;
    const decoded = (count: number) => meter?.advance(count, 'decode');
    let inputError: PippinError | undefined;
    try {
      if (points.kind === 'bytes') yield* this.decodeProgram(points.bytes, points.format, n, regions, perPoint, threads, decoded, first);
      else if (points.kind === 'objects') {
        this.writePointObjects(points, n, regions);
        if (perPoint === 'none') decoded(n);
        yield* this.validateProgram(regions, n, perPoint, threads, 0, decoded);
      } else throw new Error('pippin: convertProgram needs the bytes of a chunk');
    } catch (e) {
      if (!subgroup || batched || !(e instanceof PippinError) || e.index < 0) throw e;
      inputError = e;
    }
    // (errors carry indices in the whole input: first + the index in this piece)
    if (subgroup && !batched) yield* this.exactInG1(regions, 0, inputError ? inputError.index - first : n, threads, first);
    if (inputError) throw inputError;
    if (!batched) {
      if (subgroup) meter?.advance(n, 'subgroup');
      return;
    }
    yield* validateInSubgroupBatched(
      n,
      this.batchFrom,
      (lo, hi, onGroup) => this.batchInG1(regions, lo, hi, threads, onGroup),
      (lo, hi) => this.exactInG1(regions, lo, hi, threads, first),
      (share) => meter?.advance(share * n, 'subgroup'),
    );
  }

  /**
   * Points per streamed chunk, or undefined to run in one piece: streamed when the inputs are
   * iterables, when `chunkPoints` is given, or when the one-piece MSM would need more Wasm memory
   * than `maxMemoryBytes`.
   */
  private streamChunk(call: Call<F>, threads: number): number | undefined {
    const { chunkPoints, maxMemoryBytes, windowBits } = call.options;
    if (call.points.kind === 'objects') return undefined;
    if (chunkPoints !== undefined) return chunkPoints;
    const limit = maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES;
    const used = this.inst.arena.mark();
    if (call.points.kind === 'bytes') {
      if (used + oneShotBytes(this.EB, planMsm(call.n, this.setup.windowTable, windowBits), threads, call.n) <= limit) return undefined;
    }
    const plan = planMsm(call.n > 0 ? call.n : MAX_CHUNK_POINTS, this.setup.windowTable, windowBits);
    const C = chunkPointsFor(limit, used, this.EB, plan, threads);
    if (C < 1) {
      const need = used + fixedStreamBytes(this.EB, plan, threads, batchFor(2 * MAX_CHUNK_POINTS)) + chunkBytesPerPoint(this.EB, threads);
      throw new InvalidOptionError(`${this.setup.name}.g1: option maxMemoryBytes ${limit} is below the ${need} bytes a streamed MSM with ${plan.c}-bit windows needs (lower windowBits, or allow more memory)`, 'maxMemoryBytes', limit);
    }
    return C;
  }

  /** The MSM streamed in chunks of `chunkPoints` points (src/msm/stream.ts). */
  private *streamProgram(call: Call<F>, threads: number, chunkPoints: number): PhaseProgram<G1Affine> {
    const src = call.points.kind === 'stream' ? call.points : call.points.kind === 'bytes' ? { sources: call.points.bytes, format: call.points.format } : undefined;
    if (!src) throw new Error('pippin: point objects are not streamed');
    const known = call.n >= 0 ? call.n : undefined;
    const plan = planMsm(known !== undefined && known > 0 ? known : MAX_CHUNK_POINTS, this.setup.windowTable, call.options.windowBits);
    const { validate } = call.options;
    const subgroupPass = validate === 'full' && this.setup.h1 > 1n ? 1 : 0;
    const perPoint = 1 + subgroupPass + plan.windows;
    const meter = new ProgressMeter(known !== undefined ? known * perPoint : Infinity, call.options.onProgress);
    meter?.advance(0, 'decode');
    const format = src.format;
    const points = new ChunkReader(src.sources, format.bytes, 'points', (m) => new PointEncodingError(m));
    const scalars = new ChunkReader(call.scalarSource ?? call.scalars, 32, 'scalars', (m) => new ScalarEncodingError(m));
    const out = yield* streamMsmProgram({
      ctx: this.ctx,
      plan,
      chunkPoints,
      threads,
      scalarsBigEndian: call.options.scalarEndian === 'be',
      convert: (bytes, count, regions, first) => this.convertProgram({ kind: 'bytes', bytes, format }, count, regions, threads, first, validate, meter),
      onAccumulated: (passes) => meter?.advance(passes, 'accumulate'),
    }, points, scalars);
    meter.finish(out.n * perPoint);
    call.options.onStats?.({ ...out.stats, convert: out.convertMs, streamedChunks: out.chunks, chunkPoints });
    return out.result ? { ...out.result, infinity: false } : INFINITY;
  }

  /** Options parsed and inputs checked and copied: nothing the caller does afterwards changes the call. */
  private takeCall(points: unknown, scalars: unknown, options: unknown, entry: string): Call<F> {
    const parsed = parseMsmOptions<F, G1MsmStats>(options, { formats: this.setup.formats.map((f) => f.name), entry: `${this.setup.name}.g1.${entry}` });
    // an already aborted signal: no work at all
    if (parsed.signal?.aborted) throw parsed.signal.reason;
    if (isChunkIterable(points) || isChunkIterable(scalars)) return this.takeStreamCall(points, scalars, parsed, entry);
    const packed = packScalars(scalars, parsed.scalarEndian, this.setup.r);
    const n = packed.length / 32;
    if (points instanceof Uint8Array) {
      const format = this.format(parsed.pointFormat ?? this.defaultFormat(n > 0 ? points.length / n : Infinity));
      if (points.length !== format.bytes * n) {
        throw new LengthMismatchError(`points: ${points.length} bytes for ${n} scalars, expected ${n} × ${format.bytes} (${format.name})`);
      }
      return { n, points: { kind: 'bytes', bytes: points.slice(), format }, scalars: packed, options: parsed };
    }
    if (!Array.isArray(points)) throw new PointEncodingError(`points must be a Uint8Array or an array of points, got ${typeName(points)}`);
    if (points.length !== n) throw new LengthMismatchError(`${points.length} points but ${n} scalars`);
    return { n, points: { kind: 'objects', ...this.takePointObjects(points) }, scalars: packed, options: parsed };
  }

  /**
   * Iterable inputs: read chunk by chunk during the MSM (each chunk copied as it is read, so the
   * caller may reuse a chunk once the iterator moved past it); a Uint8Array or bigints beside an
   * iterable are taken at the call. Points come in the format option's encoding (default: the
   * curve's first). msmSync takes synchronous iterables only.
   */
  private takeStreamCall(points: unknown, scalars: unknown, options: ParsedMsmOptions<F, G1MsmStats>, entry: string): Call<F> {
    if (entry === 'msmSync') {
      if (isAsyncIterable(points)) throw new PointEncodingError(`${this.setup.name}.g1.msmSync: points is an async iterable; use msm`);
      if (isAsyncIterable(scalars)) throw new ScalarEncodingError(`${this.setup.name}.g1.msmSync: scalars is an async iterable; use msm`);
    }
    const format = this.format(options.pointFormat ?? this.setup.formats[0].name);
    let sources: ByteSource;
    if (points instanceof Uint8Array) sources = points.slice();
    else if (isChunkIterable(points)) sources = points;
    else if (Array.isArray(points) && points.length === 0) sources = new Uint8Array(0);
    else throw new PointEncodingError(`points must be a Uint8Array or an iterable of Uint8Array chunks when the scalars are an iterable, got ${typeName(points)}`);
    if (isChunkIterable(scalars)) return { n: -1, points: { kind: 'stream', sources, format }, scalars: new Uint8Array(0), scalarSource: scalars, options };
    return { n: -1, points: { kind: 'stream', sources, format }, scalars: packScalars(scalars, options.scalarEndian, this.setup.r), options };
  }

  /** Reads every point object once (getters run here, at the call), checking its shape. */
  /** @internal */
  takePointObjects(points: readonly unknown[]): { xs: bigint[]; ys: bigint[]; inf: Uint8Array } {
    const n = points.length;
    const p = this.inst.fields.fp.info.p;
    const xs = new Array<bigint>(n).fill(0n);
    const ys = new Array<bigint>(n).fill(0n);
    const inf = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (!(i in points)) throw new PointEncodingError(`point ${i} is missing (a hole in the array); use null for the point at infinity`, i);
      const P = points[i];
      if (P === null) {
        inf[i] = 1;
        continue;
      }
      if (typeof P !== 'object') throw new PointEncodingError(`point ${i} must be {x, y}, {infinity: true} or null, got ${typeName(P)}`, i);
      const o = P as { x?: unknown; y?: unknown; infinity?: unknown };
      if (o.infinity === true) {
        inf[i] = 1;
        continue;
      }
      const x = o.x;
      const y = o.y;
      if (typeof x !== 'bigint' || typeof y !== 'bigint') throw new PointEncodingError(`point ${i}: x and y must be bigints`, i);
      if (x < 0n || x >= p || y < 0n || y >= p) throw new PointEncodingError(`point ${i}: coordinate not in [0, p)`, i);
      xs[i] = x;
      ys[i] = y;
    }
    return { xs, ys, inf };
  }

  /** Low level (input generators): the kernel code and size of a format, the primary one by default. */
  formatSpec(name?: F): PointFormatSpec<F> {
    return this.format(name ?? this.setup.formats[0].name);
  }

  /** The point encodings this curve accepts and produces (name, bytes per point), default first. */
  get pointFormats(): readonly { name: F; bytes: number }[] {
    return this.setup.formats.map(({ name, bytes }) => ({ name, bytes }));
  }

  /**
   * Encodes an affine point (e.g. an MSM result) as bytes in `format` (default: the curve's primary
   * one). Throws NotOnCurveError for a finite point that is not on the curve.
   */
  toBytes(point: G1Affine | G1PointInput, format?: F): Uint8Array {
    const spec = format === undefined ? this.setup.formats[0] : this.format(format, 'format');
    const isInf = point === null || (typeof point === 'object' && point.infinity === true);
    if (!isInf && (typeof point !== 'object' || point === null)) throw new PointEncodingError(`toBytes: point must be {x, y}, {infinity: true} or null, got ${typeName(point)}`);
    const { x, y } = (isInf ? { x: 0n, y: 0n } : point) as { x: unknown; y: unknown };
    const fp = this.inst.fields.fp;
    if (typeof x !== 'bigint' || typeof y !== 'bigint' || x < 0n || y < 0n || x >= fp.info.p || y >= fp.info.p) {
      throw new PointEncodingError('toBytes: coordinates must be bigints in [0, p)');
    }
    const { arena, k } = this.inst;
    const mark = arena.mark();
    try {
      const at = arena.alloc(2 * this.EB);
      const dst = arena.alloc(spec.bytes);
      const scratch = arena.alloc(Math.max(16, this.setup.scratchBytes.g1_encode));
      if (!isInf) {
        fp.write(at, x);
        fp.write(at + this.EB, y);
        if (!k.g1_is_on_curve(at)) throw new NotOnCurveError('toBytes: point is not on the curve');
      }
      k.g1_encode(dst, at, isInf ? 1 : 0, spec.code, scratch);
      return new Uint8Array(this.inst.memory.buffer, dst, spec.bytes).slice();
    } finally {
      arena.release(mark);
    }
  }

  /** @internal */
  format(name: string, option = 'pointFormat'): PointFormatSpec<F> {
    const spec = typeof name === 'string' ? this.formats.get(name) : undefined;
    if (!spec) throw new InvalidOptionError(`${this.setup.name}.g1: unknown point format ${describeValue(name)} for ${option} (known: ${[...this.formats.keys()].join(', ')})`, option, name);
    return spec;
  }

  /** The format assumed for packed points when none is given: the first whose size matches, else the primary one. */
  private defaultFormat(bytesPerPoint: number): string {
    return (this.setup.formats.find((f) => f.bytes === bytesPerPoint) ?? this.setup.formats[0]).name;
  }

  /** Decoding (and validation, the costly part) in chunks, each task with its slot's staging and scratch. */
  private *decodeProgram(bytes: Uint8Array, format: PointFormatSpec<F>, n: number, regions: MsmRegions, validate: Validation, threads: number, onChunk?: (count: number) => void, first = 0): PhaseProgram<void> {
    const size = format.bytes;
    const PB = 2 * this.EB;
    const chunk = chunkSize(n, threads);
    const scratch = this.setup.scratchBytes.g1_decode_batch;
    yield* checkInChunks(this.inst, n, chunk, threads, chunk * size, scratch, format.name, (start, count, { staging, scratch }) => {
      new Uint8Array(this.inst.memory.buffer).set(bytes.subarray(start * size, (start + count) * size), staging);
      return ['g1_decode_batch', regions.points + start * PB, regions.inf + start, staging, count, format.code, VALIDATION_CHECK[validate], scratch];
    }, first, onChunk);
  }

  /** Points [first, first + n) checked per point (indices in errors count from `indexBase`, not from first). */
  private *validateProgram(regions: MsmRegions, n: number, validate: Validation, threads: number, first = 0, onChunk?: (count: number) => void, indexBase = 0): PhaseProgram<void> {
    if (validate === 'none' || n === 0) return;
    const PB = 2 * this.EB;
    const scratch = this.setup.scratchBytes.g1_validate_batch;
    yield* checkInChunks(this.inst, n, chunkSize(n, threads), threads, 0, scratch, 'object', (start, count, { scratch }) => [
      'g1_validate_batch', regions.points + (first + start) * PB, regions.inf + first + start, count, VALIDATION_CHECK[validate], scratch,
    ], indexBase + first, onChunk);
  }

  /**
   * The exact subgroup test of points [lo, hi) (decoded, on the curve): g1_subgroup_check_batch in
   * tasks of up to EXACT_CHUNK points; NotInSubgroupError with the lowest bad index.
   */
  private *exactInG1(regions: MsmRegions, lo: number, hi: number, threads: number, indexBase = 0): PhaseProgram<void> {
    const n = hi - lo;
    if (n <= 0) return;
    const PB = 2 * this.EB;
    // equal tasks: one per thread while each keeps ≥ EXACT_MIN_CHUNK points, more when above EXACT_CHUNK
    const tasks = Math.max(1, Math.min(threads, Math.floor(n / EXACT_MIN_CHUNK)), Math.ceil(n / EXACT_CHUNK));
    const chunk = Math.ceil(n / tasks);
    const scratchBytes = Math.max(subgroupBatchScratchBytes(chunk, this.EB), this.setup.scratchBytes.g1_validate_batch);
    yield* checkInChunks(this.inst, n, chunk, threads, 0, scratchBytes, 'object', (start, count, { scratch }) => {
      const points = regions.points + (lo + start) * PB;
      const inf = regions.inf + lo + start;
      // a few points: one at a time in XYZZ (the shared inversions would cost more than they save)
      if (count < EXACT_BATCH_FROM) return ['g1_validate_batch', points, inf, count, VALIDATION_CHECK.full, scratch];
      return ['g1_subgroup_check_batch', points, inf, count, scratch];
    }, indexBase + lo);
  }

  /** The batched subgroup check of points [lo, hi) (docs/validation.md): false when some point is outside G1. */
  private *batchInG1(regions: MsmRegions, lo: number, hi: number, threads: number, onGroup?: (share: number) => void): PhaseProgram<boolean> {
    const { scratchBytes, h1 } = this.setup;
    const sizes = { addAffine: scratchBytes.g1_xyzz_add_affine, toAffine: scratchBytes.g1_xyzz_to_affine };
    const PB = 2 * this.EB;
    return yield* subgroupBatchProgram(this.ctx, regions.points + lo * PB, regions.inf + lo, hi - lo, threads, planSubgroupBatch(h1, hi - lo), sizes, onGroup);
  }

  private writePointObjects(points: { xs: bigint[]; ys: bigint[]; inf: Uint8Array }, n: number, regions: MsmRegions): void {
    const fp = this.inst.fields.fp;
    const PB = 2 * this.EB;
    new Uint8Array(this.inst.memory.buffer).set(points.inf, regions.inf);
    for (let i = 0; i < n; i++) {
      if (points.inf[i]) continue;
      const at = regions.points + i * PB;
      fp.write(at, points.xs[i]);
      fp.write(at + this.EB, points.ys[i]);
    }
  }
}

export function typeName(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? `an object (${Object.prototype.toString.call(v).slice(8, -1)})` : `a ${typeof v}`;
}

export function throwPointError(index: number, code: PointErrorCode, fmt: string): never {
  if (code === PointError.notOnCurve) throw new NotOnCurveError(`point ${index} is not on the curve`, index);
  if (code === PointError.notInSubgroup) throw new NotInSubgroupError(`point ${index} is not in the prime-order subgroup`, index);
  throw new PointEncodingError(`point ${index}: malformed ${fmt} encoding: ${MALFORMED[code] ?? `error code ${code}`}`, index);
}

/** Scalars as n × 32 bytes: a packed buffer copied, or bigints reduced mod r and written little-endian. */
export function packScalars(scalars: unknown, endian: 'le' | 'be', r: bigint): Uint8Array {
  if (scalars instanceof Uint8Array) {
    if (scalars.length % 32 !== 0) throw new LengthMismatchError(`packed scalars: ${scalars.length} bytes is not a multiple of 32`);
    return scalars.slice();
  }
  if (!Array.isArray(scalars)) throw new ScalarEncodingError(`scalars must be a Uint8Array or an array of bigints, got ${typeName(scalars)}`);
  const out = new Uint8Array(32 * scalars.length);
  for (let i = 0; i < scalars.length; i++) {
    let s: unknown = scalars[i];
    if (typeof s !== 'bigint') throw new ScalarEncodingError(`scalar ${i} is not a bigint (got ${i in scalars ? typeName(s) : 'a hole'})`, i);
    if (s < 0n || s >= 1n << 256n) s = ((s % r) + r) % r;
    let v = s as bigint;
    for (let b = 0; b < 32; b++, v >>= 8n) out[32 * i + (endian === 'be' ? 31 - b : b)] = Number(v & 0xffn);
  }
  return out;
}

/**
 * One checking kernel call per chunk of points (each slot with `stagingBytes` of staging and its
 * own scratch); throws the typed error of the lowest failing index.
 */
export function* checkInChunks(
  inst: Instance,
  n: number,
  chunk: number,
  threads: number,
  stagingBytes: number,
  scratchBytes: number,
  what: string,
  call: (start: number, count: number, slot: { staging: number; scratch: number }) => Op,
  /** added to the indices in errors */
  first = 0,
  /** called with each finished chunk's point count */
  onChunk?: (count: number) => void,
): PhaseProgram<void> {
  const { arena } = inst;
  const mark = arena.mark();
  const starts = Array.from({ length: Math.ceil(n / chunk) }, (_, i) => i * chunk);
  let firstError: { index: number; code: PointErrorCode } | undefined;
  try {
    const slots = Array.from({ length: Math.max(1, Math.min(threads, starts.length)) }, () => ({
      staging: arena.alloc(Math.max(16, stagingBytes)),
      scratch: arena.alloc(Math.max(16, scratchBytes)),
    }));
    const batch: Batch = {
      tasks: starts.map((start) => (slot: number): Op[] => [call(start, Math.min(chunk, n - start), slots[slot])]),
      done: (i, r) => {
        onChunk?.(Math.min(chunk, n - starts[i]));
        const status = r.values[0];
        if (status === NO_ERROR) return;
        const { index, code } = decodeStatus(status);
        if (!firstError || starts[i] + index < firstError.index) firstError = { index: starts[i] + index, code };
      },
    };
    yield batch;
  } finally {
    arena.release(mark);
  }
  if (firstError) throwPointError(first + firstError.index, firstError.code, what);
}
