/**
 * The public G1 MSM over one curve's Wasm instance: input validation and conversion, the MSM,
 * output encoding. Input conversion runs inside Wasm in chunks (decode + validate), so byte inputs
 * cost one copy into Wasm memory.
 */
import type { Instance } from '../runtime/instance.js';
import { G1Msm, MsmRegions, MsmStats } from '../msm/g1.js';
import { MsmPlan, planMsm } from '../msm/plan.js';
import { poolForMsm, type Op, type WorkerPool } from '../runtime/pool.js';
import { xyzzCombiner } from '../msm/combine-xyzz.js';
import { LengthMismatchError, NotInSubgroupError, NotOnCurveError, PointEncodingError, PippinError, ScalarEncodingError } from '../errors.js';
import { parseChoice, parseMsmOptions, type ParsedMsmOptions } from './options.js';
import { curves as curveParams } from '../curves/index.js';

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

/** One point encoding a curve's kernels understand: its name, kernel format code and size. */
export interface PointFormatSpec<F extends string = string> {
  name: F;
  code: number;
  bytes: number;
}

export type Validation = 'full' | 'on-curve' | 'none';
const CHECK_CODE: Record<Validation, number> = { none: 0, 'on-curve': 1, full: 2 };

export interface MsmOptions<F extends string = G1Format> {
  /** Encoding of packed point bytes (default: the curve's, chosen by bytes per point; BLS12-381:
   * 'zcash', or 'zcash-compressed' for 48 bytes per point). */
  pointFormat?: F;
  /** Byte order of packed 32-byte scalars (default 'le'). */
  scalarEndian?: 'le' | 'be';
  /** Input checks: 'full' = on the curve and in the subgroup (default), 'on-curve', or 'none'. */
  validate?: Validation;
  /** Fixes the window size (bits); by default the planner picks it. */
  windowBits?: number;
  /** At most this many threads for this call (default: every worker of the pool; 1 = the calling
   * thread). Ignored by msmSync. */
  threads?: number;
  /** Receives phase timings and counts. */
  onStats?: (stats: MsmStats & { convert: number }) => void;
}

const CHUNK = 4096;
/** Below this many points an MSM runs on the calling thread (messages would cost more than they save). */
const MIN_POINTS_FOR_THREADS = 256;

/** Points per decode/validation task: about four tasks per thread, at most CHUNK. */
function chunkSize(n: number, threads: number): number {
  return Math.max(64, Math.min(CHUNK, Math.ceil(n / (4 * threads))));
}

type Parsed<F extends string> = ParsedMsmOptions<F, MsmStats & { convert: number }>;

/** A forced window size fixes c and what follows from it; batch sizes stay the planner's. */
function forcedPlan(windowBits: number | undefined): Partial<MsmPlan> | undefined {
  if (windowBits === undefined) return undefined;
  const forced = planMsm(0, () => windowBits);
  return { c: forced.c, windows: forced.windows, buckets: forced.buckets, segments: forced.segments };
}

export class G1<F extends string = G1Format> {
  private readonly msmCore: G1Msm;
  private readonly formats: Map<string, PointFormatSpec<F>>;
  private readonly formatNames: readonly F[];
  /** names calls in error messages, e.g. 'bls12-381.g1' */
  private readonly entry: string;
  private readonly EB: number;
  private readonly k: Record<string, (...a: number[]) => number>;
  /** asynchronous MSMs on this instance run one at a time (they share its memory arena) */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    /** The underlying Wasm instance (low-level access for tools; not needed for the MSM). */
    readonly inst: Instance,
    readonly r: bigint,
    formats: readonly PointFormatSpec<F>[],
    /** the format assumed for packed points when none is given, from the bytes per point */
    private readonly defaultFormat: (bytesPerPoint: number) => F,
    windowOverride?: (halves: number) => number | undefined,
  ) {
    this.formats = new Map(formats.map((f) => [f.name, f]));
    this.formatNames = Object.freeze(formats.map((f) => f.name));
    const fp = inst.fields.fp;
    this.entry = `${Object.values(curveParams).find((c) => c.r === r && c.p === fp.info.p)?.name ?? 'curve'}.g1`;
    this.EB = fp.info.elementBytes;
    this.k = inst.exports as Record<string, (...a: number[]) => number>;
    const readAffine = (ptr: number) => ({ x: fp.read(ptr), y: fp.read(ptr + this.EB) });
    this.msmCore = new G1Msm(inst, { EB: this.EB, PB: 2 * this.EB }, xyzzCombiner(inst, this.EB, readAffine), windowOverride);
  }

  /**
   * Σ scalars[i]·points[i], on worker threads when they are available (see `startThreads`; the
   * first call starts them with one per core unless `stopThreads()` was called), else on the
   * calling thread. Scalars are reduced mod r (any size and sign for bigints; 32 bytes each when
   * packed). n = 0 gives the point at infinity. Calls on one curve run one after another.
   */
  msm(points: Uint8Array | readonly G1PointInput[], scalars: Uint8Array | readonly bigint[], options?: MsmOptions<F>): Promise<G1Affine> {
    let parsed: Parsed<F>;
    try {
      parsed = this.parseOptions(options, 'msm');
    } catch (e) {
      return Promise.reject(e);
    }
    const run = this.queue.then(() => this.msmAsync(points, scalars, parsed));
    this.queue = run.catch(() => {});
    return run;
  }

  /** The same on the calling thread only, synchronously. */
  msmSync(points: Uint8Array | readonly G1PointInput[], scalars: Uint8Array | readonly bigint[], options?: MsmOptions<F>): G1Affine {
    return this.runSync(points, scalars, this.parseOptions(options, 'msmSync'));
  }

  private parseOptions(options: unknown, call: string): Parsed<F> {
    return parseMsmOptions(options, { formats: this.formatNames, entry: `${this.entry}.${call}` });
  }

  private runSync(points: Uint8Array | readonly G1PointInput[], scalars: Uint8Array | readonly bigint[], options: Parsed<F>): G1Affine {
    const n = this.checkCall(scalars);
    const { validate } = options;
    const { arena } = this.inst;
    const mark = arena.mark();
    try {
      const t0 = performance.now();
      const regions = this.msmCore.allocInputs(n);
      if (points instanceof Uint8Array) this.decodePoints(points, n, regions, options.pointFormat, validate);
      else {
        this.writePointObjects(points, n, regions);
        this.validateObjects(regions, n, validate);
      }
      this.writeScalars(scalars, n, regions.scalars);
      const convert = performance.now() - t0;
      const { result, stats } = this.msmCore.run(regions, n, scalarsBigEndian(scalars, options), forcedPlan(options.windowBits));
      options.onStats?.({ ...stats, convert });
      return result ? { ...result, infinity: false } : { x: 0n, y: 0n, infinity: true };
    } finally {
      arena.release(mark);
    }
  }

  private async msmAsync(points: Uint8Array | readonly G1PointInput[], scalars: Uint8Array | readonly bigint[], options: Parsed<F>): Promise<G1Affine> {
    const n = this.checkCall(scalars);
    const { validate, threads: wanted } = options;
    const pool = wanted === 1 || n < MIN_POINTS_FOR_THREADS || !this.inst.shared ? undefined : await poolForMsm();
    if (!pool) return this.runSync(points, scalars, options);
    const threads = Math.min(wanted ?? pool.size, pool.size);
    const { arena } = this.inst;
    const mark = arena.mark();
    try {
      const t0 = performance.now();
      const regions = this.msmCore.allocInputs(n);
      if (points instanceof Uint8Array) await this.decodePointsParallel(points, n, regions, options.pointFormat, validate, pool, threads);
      else {
        this.writePointObjects(points, n, regions);
        await this.validateObjectsParallel(regions, n, validate, pool, threads);
      }
      this.writeScalars(scalars, n, regions.scalars);
      const convert = performance.now() - t0;
      const { result, stats } = await this.msmCore.runParallel(regions, n, scalarsBigEndian(scalars, options), pool, threads, forcedPlan(options.windowBits));
      options.onStats?.({ ...stats, convert });
      return result ? { ...result, infinity: false } : { x: 0n, y: 0n, infinity: true };
    } finally {
      arena.release(mark);
    }
  }

  /** The number of scalars. */
  private checkCall(scalars: Uint8Array | readonly bigint[]): number {
    const n = scalars instanceof Uint8Array ? scalars.length / 32 : scalars.length;
    if (!Number.isInteger(n)) throw new LengthMismatchError(`packed scalars: ${scalars.length} bytes is not a multiple of 32`);
    return n;
  }

  /** Low level (input generators): the kernel code and size of a format, the primary one by default. */
  formatSpec(name?: F): PointFormatSpec<F> {
    return this.format(name ?? this.defaultFormat(Infinity));
  }

  /** The point encodings this curve accepts and produces (name, bytes per point), default first. */
  get pointFormats(): readonly { name: F; bytes: number }[] {
    return [...this.formats.values()].map(({ name, bytes }) => ({ name, bytes }));
  }

  /**
   * Encodes an affine point (e.g. an MSM result) as bytes: 'zcash' (96), 'zcash-compressed' (48)
   * or 'arkworks' (96). Throws NotOnCurveError for a finite point that is not on the curve.
   */
  toBytes(point: G1Affine | G1PointInput, format?: F): Uint8Array {
    const name = format === undefined ? this.defaultFormat(Infinity) : parseChoice(format, this.formatNames, 'format', `${this.entry}.toBytes`);
    const spec = this.format(name);
    const { arena } = this.inst;
    const mark = arena.mark();
    try {
      const fp = this.inst.fields.fp;
      const at = arena.alloc(2 * this.EB);
      const dst = arena.alloc(96);
      const scratch = arena.alloc(64 * this.EB);
      const isInf = point === null || point.infinity === true;
      if (!isInf) {
        const { x, y } = point as { x: bigint; y: bigint };
        if (typeof x !== 'bigint' || typeof y !== 'bigint' || x < 0n || y < 0n || x >= fp.info.p || y >= fp.info.p) {
          throw new PointEncodingError('toBytes: coordinates must be bigints in [0, p)');
        }
        fp.write(at, x);
        fp.write(at + this.EB, y);
        if (!this.k.g1_is_on_curve(at)) throw new NotOnCurveError('toBytes: point is not on the curve');
      }
      this.k.g1_encode(dst, at, isInf ? 1 : 0, spec.code, scratch);
      return new Uint8Array(this.inst.memory.buffer, dst, spec.bytes).slice();
    } finally {
      arena.release(mark);
    }
  }

  private format(name: string): PointFormatSpec<F> {
    const spec = this.formats.get(name);
    if (!spec) throw new PippinError(`unknown point format ${String(name)} (known: ${[...this.formats.keys()].join(', ')})`);
    return spec;
  }

  /** The format of packed points and a length check. */
  private packedFormat(bytes: Uint8Array, n: number, format: F | undefined): PointFormatSpec<F> {
    const spec = this.format(format ?? this.defaultFormat(n > 0 ? bytes.length / n : Infinity));
    if (bytes.length !== spec.bytes * n) {
      throw new LengthMismatchError(`points: ${bytes.length} bytes for ${n} scalars, expected ${n} × ${spec.bytes} (${spec.name})`);
    }
    return spec;
  }

  private decodePoints(bytes: Uint8Array, n: number, regions: MsmRegions, format: F | undefined, validate: Validation): void {
    const spec = this.packedFormat(bytes, n, format);
    const size = spec.bytes;
    const { arena } = this.inst;
    const mark = arena.mark();
    const staging = arena.alloc(CHUNK * size);
    const scratch = arena.alloc(64 * this.EB);
    const PB = 2 * this.EB;
    for (let start = 0; start < n; start += CHUNK) {
      const count = Math.min(CHUNK, n - start);
      new Uint8Array(this.inst.memory.buffer).set(bytes.subarray(start * size, (start + count) * size), staging);
      const status = this.k.g1_decode_batch(regions.points + start * PB, regions.inf + start, staging, count, spec.code, CHECK_CODE[validate], scratch);
      if (status !== -1) throwPointError(start + (status >>> 2), status & 3, spec.name);
    }
    arena.release(mark);
  }

  /** Decoding (and validation, the costly part) in chunks on the workers, each with its own staging. */
  private async decodePointsParallel(bytes: Uint8Array, n: number, regions: MsmRegions, format: F | undefined, validate: Validation, pool: WorkerPool, threads: number): Promise<void> {
    const spec = this.packedFormat(bytes, n, format);
    const size = spec.bytes;
    const PB = 2 * this.EB;
    const chunk = chunkSize(n, threads);
    await this.checkInChunks(n, chunk, pool, threads, chunk * size, spec.name, (start, count, { staging, scratch }) => {
      new Uint8Array(this.inst.memory.buffer).set(bytes.subarray(start * size, (start + count) * size), staging);
      return ['g1_decode_batch', regions.points + start * PB, regions.inf + start, staging, count, spec.code, CHECK_CODE[validate], scratch];
    });
  }

  /**
   * Runs one checking kernel call per chunk of points on the workers (each slot with `stagingBytes`
   * of staging and its own scratch) and throws the typed error of the lowest failing index; the
   * kernels return −1 or (index in chunk) << 2 | error code.
   */
  private async checkInChunks(
    n: number,
    chunk: number,
    pool: WorkerPool,
    threads: number,
    stagingBytes: number,
    what: string,
    call: (start: number, count: number, slot: { staging: number; scratch: number }) => Op,
  ): Promise<void> {
    const { arena } = this.inst;
    const mark = arena.mark();
    const slots = Array.from({ length: threads }, () => ({ staging: arena.alloc(stagingBytes), scratch: arena.alloc(64 * this.EB) }));
    const starts = Array.from({ length: Math.ceil(n / chunk) }, (_, i) => i * chunk);
    let firstError: [number, number] | undefined;
    try {
      await pool.run(
        this.inst,
        starts.map((start) => (slot: number): Op[] => [call(start, Math.min(chunk, n - start), slots[slot])]),
        threads,
        (i, r) => {
          const status = r.values[0];
          const index = starts[i] + (status >>> 2);
          if (status !== -1 && (!firstError || index < firstError[0])) firstError = [index, status & 3];
        },
      );
    } finally {
      arena.release(mark);
    }
    if (firstError) throwPointError(firstError[0], firstError[1], what);
  }

  private writePointObjects(points: readonly G1PointInput[], n: number, regions: MsmRegions): void {
    if (points.length !== n) throw new LengthMismatchError(`${points.length} points but ${n} scalars`);
    const fp = this.inst.fields.fp;
    const PB = 2 * this.EB;
    const inf = new Uint8Array(this.inst.memory.buffer, regions.inf, n);
    for (let i = 0; i < n; i++) {
      const P = points[i];
      const at = regions.points + i * PB;
      if (P === null || P === undefined || P.infinity === true) {
        inf[i] = 1;
        continue;
      }
      const { x, y } = P as { x: bigint; y: bigint };
      if (typeof x !== 'bigint' || typeof y !== 'bigint') throw new PointEncodingError(`point ${i}: x and y must be bigints`, i);
      if (x < 0n || x >= fp.info.p || y < 0n || y >= fp.info.p) throw new PointEncodingError(`point ${i}: coordinate not in [0, p)`, i);
      new Uint8Array(this.inst.memory.buffer)[regions.inf + i] = 0;
      fp.write(at, x);
      fp.write(at + this.EB, y);
    }
  }

  private validateObjects(regions: MsmRegions, n: number, validate: Validation): void {
    if (validate === 'none' || n === 0) return;
    const { arena } = this.inst;
    const mark = arena.mark();
    const scratch = arena.alloc(64 * this.EB);
    const status = this.k.g1_validate_batch(regions.points, regions.inf, n, CHECK_CODE[validate], scratch);
    arena.release(mark);
    if (status !== -1) throwPointError(status >>> 2, status & 3, 'object');
  }

  private async validateObjectsParallel(regions: MsmRegions, n: number, validate: Validation, pool: WorkerPool, threads: number): Promise<void> {
    if (validate === 'none' || n === 0) return;
    const PB = 2 * this.EB;
    await this.checkInChunks(n, chunkSize(n, threads), pool, threads, 0, 'object', (start, count, { scratch }) => [
      'g1_validate_batch', regions.points + start * PB, regions.inf + start, count, CHECK_CODE[validate], scratch,
    ]);
  }

  private writeScalars(scalars: Uint8Array | readonly bigint[], n: number, dst: number): void {
    const mem = new Uint8Array(this.inst.memory.buffer);
    if (scalars instanceof Uint8Array) {
      mem.set(scalars, dst);
      return;
    }
    for (let i = 0; i < n; i++) {
      let s = scalars[i];
      if (typeof s !== 'bigint') throw new ScalarEncodingError(`scalar ${i} is not a bigint`, i);
      if (s < 0n || s >= 1n << 256n) s = ((s % this.r) + this.r) % this.r;
      for (let b = 0; b < 32; b++, s >>= 8n) mem[dst + 32 * i + b] = Number(s & 0xffn);
    }
  }
}

/** scalarEndian applies to packed scalars only; bigints are written little-endian. */
function scalarsBigEndian(scalars: Uint8Array | readonly bigint[], options: { scalarEndian: 'le' | 'be' }): boolean {
  return scalars instanceof Uint8Array && options.scalarEndian === 'be';
}

function throwPointError(index: number, code: number, fmt: string): never {
  if (code === 2) throw new NotOnCurveError(`point ${index} is not on the curve`, index);
  if (code === 3) throw new NotInSubgroupError(`point ${index} is not in the prime-order subgroup`, index);
  throw new PointEncodingError(`point ${index}: malformed ${fmt} encoding`, index);
}
