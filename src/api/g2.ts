/**
 * The public G2 MSM (BLS12-381, BN254): the same options, errors and phases as G1 (src/api/g1.ts,
 * whose option parser, scalar packing, chunked checks and error mapping it calls), over the G2
 * kernels: decoding and validation by g2_decode_batch / g2_validate_batch in chunks, then the MSM
 * program of src/msm/g1.ts through the G2 view (src/msm/g2.ts), on the calling thread or the pool.
 * Points are {x: [c0, c1], y: [c0, c1]} (x = c0 + c1·i) or bytes in the curve's G2 formats.
 * 'full' validation: from 2 points per combination (162) on-curve per point, then the batched
 * subgroup check of src/msm/subgroup.ts over G2; fewer points, or to locate a bad point, the ψ test
 * per point (g2_is_in_subgroup).
 */
import type { Instance } from '../runtime/instance.js';
import { runLocal, runLocalAsync, runOnPool, type PhaseProgram } from '../runtime/executor.js';
import { poolForMsm } from '../runtime/pool.js';
import { allocInputs, type G1MsmContext, type MsmRegions, type MsmStats } from '../msm/g1.js';
import { planMsm, type WindowTable } from '../msm/plan.js';
import { ProgressMeter } from '../msm/progress.js';
import { batchedCheckFrom, planSubgroupBatch, subgroupBatchProgram, validateInSubgroupBatched } from '../msm/subgroup.js';
import { g2Context, g2MsmProgram, writeG2Points, type G2AffineValue } from '../msm/g2.js';
import { VALIDATION_CHECK, type PointFormatSpec } from '../abi/codes.js';
import type { G2FixedScratchKernel, G2Kernels } from '../wasm-generated/kernels.js';
import { describeValue, parseMsmOptions, type ParsedMsmOptions, type Validation } from './options.js';
import { MIN_POINTS_FOR_THREADS, checkInChunks, chunkSize, packScalars, typeName, type MsmOptions } from './g1.js';
import { InvalidOptionError, LengthMismatchError, NotOnCurveError, PointEncodingError } from '../errors.js';

/** An F_p² element c0 + c1·i as [c0, c1]. */
export type Fp2 = readonly [bigint, bigint];
/** A G2 result; `infinity: true` is the point at infinity (coordinates zero then). */
export interface G2Affine {
  x: [bigint, bigint];
  y: [bigint, bigint];
  infinity: boolean;
}
/** G2 point inputs as objects: {x: [c0, c1], y: [c0, c1]}; infinity as {infinity: true} or null. */
export type G2PointInput = { x: Fp2; y: Fp2; infinity?: boolean } | { infinity: true } | null;

export interface G2Setup<F extends string> {
  name: string;
  r: bigint;
  formats: readonly PointFormatSpec<F>[];
  windowTable: WindowTable;
  scratchBytes: Readonly<Record<G2FixedScratchKernel, number>>;
  /** the cofactor: #E'(F_p²) = h2 · r */
  h2: bigint;
}

const INFINITY = (): G2Affine => ({ x: [0n, 0n], y: [0n, 0n], infinity: true });

interface Call<F extends string> {
  n: number;
  points: { kind: 'bytes'; bytes: Uint8Array; format: PointFormatSpec<F> } | { kind: 'objects'; points: (G2AffineValue | null)[] };
  scalars: Uint8Array;
  options: ParsedMsmOptions<F, MsmStats & { convert: number }>;
}

const G2_DOES_NOT_STREAM = 'for G2 (its MSM does not stream its inputs; docs/g2.md)';

export class G2<F extends string = string> {
  private readonly formats: Map<string, PointFormatSpec<F>>;
  private readonly ctx: G1MsmContext;
  /** bytes of an affine G2 point in memory */
  private readonly PB: number;
  private queue: Promise<unknown> = Promise.resolve();
  /** from this many points 'full' validation runs the batched subgroup check (below: the ψ test per point) */
  private readonly batchFrom: number;

  constructor(
    /** The underlying Wasm instance (shared with the curve's G1). */
    readonly inst: Instance,
    private readonly setup: G2Setup<F>,
  ) {
    this.formats = new Map(setup.formats.map((f) => [f.name, f]));
    this.ctx = g2Context(inst, setup.windowTable);
    this.PB = 2 * this.ctx.EB;
    this.batchFrom = batchedCheckFrom(setup.h2);
  }

  private get k(): G2Kernels {
    return this.inst.k as unknown as G2Kernels;
  }

  /** Σ scalars[i]·points[i] over G2, on worker threads when available; as G1's `msm` otherwise. */
  msm(points: Uint8Array | readonly G2PointInput[], scalars: Uint8Array | readonly bigint[], options?: MsmOptions<F>): Promise<G2Affine> {
    let call: Call<F>;
    try {
      call = this.takeCall(points, scalars, options, 'msm');
    } catch (e) {
      return Promise.reject(e);
    }
    const run = this.queue.then(() => this.runAsync(call));
    this.queue = run.catch(() => {});
    return run;
  }

  /** The same on the calling thread only, synchronously. */
  msmSync(points: Uint8Array | readonly G2PointInput[], scalars: Uint8Array | readonly bigint[], options?: MsmOptions<F>): G2Affine {
    return runLocal(this.inst, this.program(this.takeCall(points, scalars, options, 'msmSync'), 1));
  }

  /** Low level (input generators): the kernel code and size of a format, the primary one by default. */
  formatSpec(name?: F): PointFormatSpec<F> {
    return this.format(name ?? this.setup.formats[0].name);
  }

  /** The point encodings this curve's G2 accepts and produces (name, bytes per point), default first. */
  get pointFormats(): readonly { name: F; bytes: number }[] {
    return this.setup.formats.map(({ name, bytes }) => ({ name, bytes }));
  }

  /** Encodes a G2 point in `format` (default: the primary one). NotOnCurveError for a finite point off the curve. */
  toBytes(point: G2Affine | G2PointInput, format?: F): Uint8Array {
    const spec = format === undefined ? this.setup.formats[0] : this.format(format, 'format');
    const isInf = point === null || (typeof point === 'object' && point.infinity === true);
    const P = isInf ? null : this.takePoint(point, -1, 'toBytes');
    const { arena } = this.inst;
    const mark = arena.mark();
    try {
      const at = arena.alloc(this.PB);
      const dst = arena.alloc(Math.max(16, spec.bytes));
      const scratch = arena.alloc(Math.max(16, this.setup.scratchBytes.g2_is_on_curve));
      if (P) {
        writeG2Points(this.inst, { points: at, inf: arena.alloc(8), scalars: 0 }, [P]);
        if (!this.k.g2_is_on_curve(at, scratch)) throw new NotOnCurveError('toBytes: point is not on the curve');
      }
      this.k.g2_encode(dst, at, isInf ? 1 : 0, spec.code, scratch);
      return new Uint8Array(this.inst.memory.buffer, dst, spec.bytes).slice();
    } finally {
      arena.release(mark);
    }
  }

  private async runAsync(call: Call<F>): Promise<G2Affine> {
    const { threads: wanted, signal } = call.options;
    if (signal?.aborted) throw signal.reason;
    const pool = wanted === 1 || call.n < MIN_POINTS_FOR_THREADS || !this.inst.shared ? undefined : await poolForMsm();
    if (!pool) return signal ? runLocalAsync(this.inst, this.program(call, 1), signal) : runLocal(this.inst, this.program(call, 1));
    const threads = Math.min(wanted ?? pool.size, pool.size);
    return runOnPool(this.inst, this.program(call, threads), pool, threads, signal);
  }

  private *program(call: Call<F>, threads: number): PhaseProgram<G2Affine> {
    const { arena } = this.inst;
    const mark = arena.mark();
    try {
      const t0 = performance.now();
      const regions = allocInputs(this.ctx, call.n);
      // 'full' on enough points: on-curve per point, then the batched subgroup check (as G1's)
      const batched = call.options.validate === 'full' && call.n >= this.batchFrom;
      const perPoint: Validation = batched ? 'on-curve' : call.options.validate;
      const check = VALIDATION_CHECK[perPoint];
      // progress units as G1's: a point decoded (and validated), a point through the batched check, a point through one window
      const windows = planMsm(call.n, this.setup.windowTable, call.options.windowBits).windows;
      const meter = new ProgressMeter(call.n * (1 + (batched ? 1 : 0) + windows), call.options.onProgress);
      meter.advance(0, 'decode');
      const decoded = (count: number) => meter.advance(count, 'decode');
      if (call.points.kind === 'bytes') yield* this.decodeProgram(call.points.bytes, call.points.format, call.n, regions, perPoint, threads, decoded);
      else {
        writeG2Points(this.inst, regions, call.points.points);
        if (check > 0 && call.n > 0) {
          yield* checkInChunks(this.inst, call.n, chunkSize(call.n, threads), threads, 0, this.setup.scratchBytes.g2_validate_batch, 'object', (start, count, { scratch }) => [
            'g2_validate_batch', regions.points + start * this.PB, regions.inf + start, count, check, scratch,
          ], 0, decoded);
        }
      }
      if (batched) {
        yield* validateInSubgroupBatched(
          call.n,
          this.batchFrom,
          (lo, hi, onGroup) => this.batchInG2(regions, lo, hi, threads, onGroup),
          (lo, hi) => this.exactInG2(regions, lo, hi, threads),
          (share) => meter.advance(share * call.n, 'subgroup'),
        );
      }
      new Uint8Array(this.inst.memory.buffer).set(call.scalars, regions.scalars);
      const convert = performance.now() - t0;
      const { result, stats } = yield* g2MsmProgram(this.ctx, regions, call.n, {
        scalarsBigEndian: call.options.scalarEndian === 'be',
        threads,
        windowBits: call.options.windowBits,
        onTile: (share) => meter.advance(share * windows * call.n, 'accumulate'),
      });
      meter.finish();
      call.options.onStats?.({ ...stats, convert });
      return result ? { x: [...result.x], y: [...result.y], infinity: false } : INFINITY();
    } finally {
      arena.release(mark);
    }
  }

  /** The batched subgroup check of points [lo, hi) (src/msm/subgroup.ts): false when some point is outside G2. */
  private *batchInG2(regions: MsmRegions, lo: number, hi: number, threads: number, onGroup?: (share: number) => void): PhaseProgram<boolean> {
    const { scratchBytes, h2 } = this.setup;
    const sizes = { addAffine: scratchBytes.g2_xyzz_add_affine, toAffine: scratchBytes.g2_xyzz_to_affine };
    const exact = { scratchBytes: () => scratchBytes.g2_validate_batch, run: (p: number, inf: number, count: number, scratch: number) => this.k.g2_validate_batch(p, inf, count, VALIDATION_CHECK.full, scratch) };
    return yield* subgroupBatchProgram(this.ctx, regions.points + lo * this.PB, regions.inf + lo, hi - lo, threads, planSubgroupBatch(h2, hi - lo), sizes, onGroup, exact);
  }

  /** The ψ test of each point in [lo, hi), in chunks on the threads: NotInSubgroupError with the lowest bad index. */
  private *exactInG2(regions: MsmRegions, lo: number, hi: number, threads: number): PhaseProgram<void> {
    const n = hi - lo;
    if (n <= 0) return;
    yield* checkInChunks(this.inst, n, chunkSize(n, threads), threads, 0, this.setup.scratchBytes.g2_validate_batch, 'object', (start, count, { scratch }) => [
      'g2_validate_batch', regions.points + (lo + start) * this.PB, regions.inf + lo + start, count, VALIDATION_CHECK.full, scratch,
    ], lo);
  }

  private *decodeProgram(bytes: Uint8Array, format: PointFormatSpec<F>, n: number, regions: MsmRegions, validate: Validation, threads: number, onChunk?: (count: number) => void): PhaseProgram<void> {
    const size = format.bytes;
    const chunk = chunkSize(n, threads);
    yield* checkInChunks(this.inst, n, chunk, threads, chunk * size, this.setup.scratchBytes.g2_decode_batch, format.name, (start, count, { staging, scratch }) => {
      new Uint8Array(this.inst.memory.buffer).set(bytes.subarray(start * size, (start + count) * size), staging);
      return ['g2_decode_batch', regions.points + start * this.PB, regions.inf + start, staging, count, format.code, VALIDATION_CHECK[validate], scratch];
    }, 0, onChunk);
  }

  private takeCall(points: unknown, scalars: unknown, options: unknown, entry: string): Call<F> {
    const parsed = parseMsmOptions<F, MsmStats & { convert: number }>(options, {
      formats: this.setup.formats.map((f) => f.name),
      entry: `${this.setup.name}.g2.${entry}`,
      // the G2 MSM runs in one piece: a memory budget it would not honour is an error, not ignored
      unsupported: { maxMemoryBytes: G2_DOES_NOT_STREAM, chunkPoints: G2_DOES_NOT_STREAM },
    });
    if (parsed.signal?.aborted) throw parsed.signal.reason;
    const packed = packScalars(scalars, parsed.scalarEndian, this.setup.r);
    const n = packed.length / 32;
    if (points instanceof Uint8Array) {
      const bytesPer = n > 0 ? points.length / n : Infinity;
      const format = this.format(parsed.pointFormat ?? (this.setup.formats.find((f) => f.bytes === bytesPer) ?? this.setup.formats[0]).name);
      if (points.length !== format.bytes * n) {
        throw new LengthMismatchError(`points: ${points.length} bytes for ${n} scalars, expected ${n} × ${format.bytes} (${format.name})`);
      }
      return { n, points: { kind: 'bytes', bytes: points.slice(), format }, scalars: packed, options: parsed };
    }
    if (!Array.isArray(points)) throw new PointEncodingError(`points must be a Uint8Array or an array of points, got ${typeName(points)}`);
    if (points.length !== n) throw new LengthMismatchError(`${points.length} points but ${n} scalars`);
    const list: (G2AffineValue | null)[] = [];
    for (let i = 0; i < n; i++) {
      if (!(i in points)) throw new PointEncodingError(`point ${i} is missing (a hole in the array); use null for the point at infinity`, i);
      const P = points[i] as unknown;
      list.push(P === null || (typeof P === 'object' && (P as { infinity?: unknown }).infinity === true) ? null : this.takePoint(P, i, 'point'));
    }
    return { n, points: { kind: 'objects', points: list }, scalars: packed, options: parsed };
  }

  /** A finite point object read once: {x: [c0, c1], y: [c0, c1]} with components bigints in [0, p). */
  private takePoint(P: unknown, i: number, what: string): G2AffineValue {
    const where = i >= 0 ? `${what} ${i}` : what;
    const index = i >= 0 ? i : undefined;
    if (typeof P !== 'object' || P === null) throw new PointEncodingError(`${where} must be {x: [c0, c1], y: [c0, c1]}, {infinity: true} or null, got ${typeName(P)}`, index);
    const { x, y } = P as { x?: unknown; y?: unknown };
    const p = this.inst.fields.fp.info.p;
    const pair = (v: unknown): Fp2 | undefined => {
      if (!Array.isArray(v) || v.length !== 2) return undefined;
      const [c0, c1] = v as unknown[];
      return typeof c0 === 'bigint' && typeof c1 === 'bigint' && c0 >= 0n && c1 >= 0n && c0 < p && c1 < p ? [c0, c1] : undefined;
    };
    const px = pair(x), py = pair(y);
    if (!px || !py) throw new PointEncodingError(`${where}: x and y must be [c0, c1] pairs of bigints in [0, p)`, index);
    return { x: px, y: py };
  }

  private format(name: string, option = 'pointFormat'): PointFormatSpec<F> {
    const spec = typeof name === 'string' ? this.formats.get(name) : undefined;
    if (!spec) throw new InvalidOptionError(`${this.setup.name}.g2: unknown point format ${describeValue(name)} for ${option} (known: ${[...this.formats.keys()].join(', ')})`, option, name);
    return spec;
  }
}

