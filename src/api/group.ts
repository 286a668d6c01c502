/**
 * The public MSM of one group of a curve (`curve.g1`, `curve.g2`): one class, instantiated per group.
 * A call parses its options, takes (checks and copies) its inputs, and runs one program
 * (src/msm/call.ts) on the calling thread (msmSync) or, after the calls queued before it on the same
 * instance, with its batches on the worker pool (msm); the result is shaped for the group.
 */
import type { Instance } from '../runtime/instance.js';
import { runLocal } from '../runtime/executor.js';
import type { PointFormatSpec } from '../abi/codes.js';
import type { GroupContext } from '../msm/group.js';
import { enqueue, msmCallProgram, runProgram, type CallStats, type MsmCall } from '../msm/call.js';
import { copyBytes, packScalars, pointCoordinates, takePointObjects, typeName } from '../msm/convert.js';
import { isAsyncIterable, isChunkIterable, type ByteSource } from '../msm/stream.js';
import type { MsmProgress } from '../msm/progress.js';
import { describeValue, parseMsmOptions, type ParsedMsmOptions, type Validation } from './options.js';
import { InvalidOptionError, LengthMismatchError, NotOnCurveError, PointEncodingError, ScalarEncodingError } from '../errors.js';
import { prepareBases, type PreparedBases, type PrepareOptions, type PreparedHost } from './prepared.js';

export type { Validation } from './options.js';
export type { PointFormatSpec } from '../abi/codes.js';
export type { MsmProgress, MsmPhase } from '../msm/progress.js';
export type { ByteSource } from '../msm/stream.js';

/**
 * A G1 point (an MSM result); `infinity: true` is the point at infinity (x = y = 0n then).
 *
 * @example
 * ```ts
 * import { bls12_381, type G1Affine } from 'pippin';
 * await bls12_381.init();
 * const { G1, r } = bls12_381.params;
 * const P: G1Affine = bls12_381.g1.msmSync([G1], [r]); // r·G = infinity
 * console.log(P.infinity, P.x, P.y); // → true 0n 0n
 * ```
 */
export interface G1Affine {
  /** affine x coordinate, in [0, p) */
  x: bigint;
  /** affine y coordinate, in [0, p) */
  y: bigint;
  /** whether this is the point at infinity */
  infinity: boolean;
}
/**
 * G1 point inputs as objects: finite points as {x, y} (coordinates in [0, p)); the point at infinity
 * as {infinity: true} or null. A G1Affine result is a valid input.
 *
 * @example
 * ```ts
 * import { bls12_381, type G1PointInput } from 'pippin';
 * await bls12_381.init();
 * const { x, y } = bls12_381.params.G1;
 * const points: G1PointInput[] = [{ x, y }, null, { infinity: true }];
 * const S = bls12_381.g1.msmSync(points, [2n, 3n, 4n]); // 2·G
 * console.log(S.x === bls12_381.g1.msmSync([{ x, y }], [2n]).x); // → true
 * ```
 */
export type G1PointInput =
  | {
      /** affine x coordinate, in [0, p) */
      x: bigint;
      /** affine y coordinate, in [0, p) */
      y: bigint;
      /** `true` makes this the point at infinity (x and y are then ignored) */
      infinity?: boolean;
    }
  | {
      /** the point at infinity */
      infinity: true;
    }
  | null;

/**
 * An F_p² element c0 + c1·i as [c0, c1] (each in [0, p)): the coordinates of G2 points.
 *
 * @example
 * ```ts
 * import { bn254, type Fp2 } from 'pippin';
 * await bn254.init();
 * // the generator of BN254 G2 (EIP-197)
 * const x: Fp2 = [
 *   10857046999023057135944570762232829481370756359578518086990519993285655852781n,
 *   11559732032986387107991004021392285783925812861821192530917403151452391805634n,
 * ];
 * const y: Fp2 = [
 *   8495653923123431417604973247489272438418190587263600148770280649306958101930n,
 *   4082367875863433681332203403145435568316851327593401208105741076214120093531n,
 * ];
 * const Q = bn254.g2.msmSync([{ x, y }, { x, y }], [2n, 3n]); // 5·G2
 * console.log(Q.infinity, Q.x.length); // → false 2
 * ```
 */
export type Fp2 = readonly [bigint, bigint];
/**
 * A G2 point (an MSM result); `infinity: true` is the point at infinity (coordinates zero then).
 *
 * @example
 * ```ts
 * import { bn254, type G2Affine } from 'pippin';
 * await bn254.init();
 * const Q: G2Affine = bn254.g2.msmSync([], []); // the empty sum
 * console.log(Q.infinity, Q.x); // → true [ 0n, 0n ]
 * ```
 */
export interface G2Affine {
  /** affine x coordinate [c0, c1] */
  x: [bigint, bigint];
  /** affine y coordinate [c0, c1] */
  y: [bigint, bigint];
  /** whether this is the point at infinity */
  infinity: boolean;
}
/**
 * G2 point inputs as objects: {x: [c0, c1], y: [c0, c1]}; infinity as {infinity: true} or null.
 *
 * @example
 * ```ts
 * import { bn254, type Fp2, type G2PointInput } from 'pippin';
 * await bn254.init();
 * const x: Fp2 = [
 *   10857046999023057135944570762232829481370756359578518086990519993285655852781n,
 *   11559732032986387107991004021392285783925812861821192530917403151452391805634n,
 * ];
 * const y: Fp2 = [
 *   8495653923123431417604973247489272438418190587263600148770280649306958101930n,
 *   4082367875863433681332203403145435568316851327593401208105741076214120093531n,
 * ];
 * const points: G2PointInput[] = [{ x, y }, null];
 * const bytes = bn254.g2.toBytes(bn254.g2.msmSync(points, [7n, 9n]), 'eip197');
 * console.log(bytes.length); // → 128
 * ```
 */
export type G2PointInput =
  | {
      /** affine x coordinate [c0, c1] */
      x: Fp2;
      /** affine y coordinate [c0, c1] */
      y: Fp2;
      /** `true` makes this the point at infinity (x and y are then ignored) */
      infinity?: boolean;
    }
  | {
      /** the point at infinity */
      infinity: true;
    }
  | null;

/**
 * Byte encodings of BLS12-381 G1 points.
 *
 * @example
 * ```ts
 * import { bls12_381, type G1Format } from 'pippin';
 * await bls12_381.init();
 * const format: G1Format = 'zcash-compressed';
 * console.log(bls12_381.g1.toBytes(bls12_381.params.G1, format).length); // → 48
 * ```
 */
export type G1Format =
  /** ZCash/IETF: 96 bytes x‖y big-endian with flag bits in the first byte */
  | 'zcash'
  /** ZCash/IETF compressed: 48 bytes, x big-endian with compression/infinity/sort flags */
  | 'zcash-compressed'
  /** arkworks uncompressed: 96 bytes x‖y little-endian, flags in the last byte */
  | 'arkworks';

/**
 * What onStats receives: the MSM's statistics, the input conversion's milliseconds and, when streamed, the chunks.
 *
 * @useDeclaredType
 * @inlineType CallStats
 * @example
 * ```ts
 * import { bls12_381, type MsmCallStats } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * let stats: MsmCallStats | undefined;
 * bls12_381.g1.msmSync([G, G], [1n, 2n], { onStats: (s) => (stats = s) });
 * console.log(stats?.threads, stats?.streamedChunks); // → 1 undefined
 * ```
 */
export type MsmCallStats = CallStats;
/**
 * The same as MsmCallStats (G1 and G2 report the same statistics).
 *
 * @deprecated use MsmCallStats
 * @useDeclaredType
 * @inlineType CallStats
 * @example
 * ```ts
 * import type { G1MsmStats, MsmCallStats } from 'pippin';
 * const onStats = (s: G1MsmStats): MsmCallStats => s;
 * ```
 */
export type G1MsmStats = CallStats;

/**
 * Options of an MSM call (`g1.msm`, `g1.msmSync`, `g2.…`); every field is optional. Unknown names,
 * wrong types and values out of range throw InvalidOptionError. `F` is the group's format names.
 *
 * @example
 * ```ts
 * import { bls12_381, type MsmOptions } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * const options: MsmOptions = { validate: 'on-curve', threads: 2, onProgress: (p) => void p.done };
 * const S = await bls12_381.g1.msm([G], [1n], options);
 * console.log(S.x === G.x); // → true
 * ```
 */
export interface MsmOptions<F extends string = G1Format> {
  /** Encoding of packed point bytes (default: the group's, chosen by bytes per point; BLS12-381 G1:
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
  onStats?: (stats: MsmCallStats) => void;
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
   * BLS12-381 G1), or are given as iterables, the MSM streams them in chunks of points into the same
   * buckets (one MSM, one reduction); any n then works. Memory already grown stays with the curve
   * for its later calls (Wasm memories only grow) until `curve.release()` gives it back.
   */
  maxMemoryBytes?: number;
  /** Streams in chunks of this many points whatever the memory (tests, tuning); default: the most that fit maxMemoryBytes, at most 2^18. */
  chunkPoints?: number;
}

/**
 * Points of a call: packed bytes (n × the format's size), point objects, or an (async) iterable of
 * byte chunks (streamed).
 *
 * @inline
 */
export type PointsArg<I> = Uint8Array | readonly I[] | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;
/**
 * Scalars of a call: packed 32-byte scalars (little-endian unless `scalarEndian: 'be'`), bigints
 * (any size and sign, reduced mod r), or an (async) iterable of byte chunks (streamed).
 *
 * @inline
 */
export type ScalarsArg = Uint8Array | readonly bigint[] | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

/** What a curve gives one of its groups. */
export interface GroupSetup<F extends string, A> {
  /** `bls12-381.g1`: names the group in errors */
  entry: string;
  r: bigint;
  /** the point encodings, primary first */
  formats: readonly PointFormatSpec<F>[];
  ctx: GroupContext<A>;
}

const contexts = new WeakMap<object, GroupContext<unknown>>();

/**
 * The program context of a group object (`curve.g1`): what the product entries (src/kzg) run msm/'s
 * programs on. Internal: not exported by the package's entries.
 */
export function groupContextOf<A>(group: Group<string, { infinity: boolean }, unknown>): GroupContext<A> {
  const ctx = contexts.get(group);
  if (!ctx) throw new Error('pippin: not a group object');
  return ctx as GroupContext<A>;
}

/**
 * The MSM and codecs of one group (G1 or G2) of a curve. `R` is the result type (G1Affine, G2Affine),
 * `I` the point object type (G1PointInput, G2PointInput). Every member throws NotInitializedError
 * before the curve's `init()` resolved and after its `release()`.
 *
 * @example
 * ```ts
 * import { bls12_381 } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * const S = await bls12_381.g1.msm([G, G], [2n, 3n]); // 5·G, on worker threads
 * const T = bls12_381.g1.msmSync([G], [5n]); // the same on the calling thread
 * console.log(S.x === T.x && S.y === T.y); // → true
 * console.log(bls12_381.g1.pointFormats.map((f) => f.name).join()); // → zcash,zcash-compressed,arkworks
 * ```
 */
export class Group<
  F extends string,
  R extends {
    /** whether the result is the point at infinity */
    infinity: boolean;
  },
  I,
> {
  private readonly formats: Map<string, PointFormatSpec<F>>;
  private readonly ctx: GroupContext<Omit<R, 'infinity'>>;
  private readonly entry: string;
  /** what prepared bases need of their group */
  private readonly host: PreparedHost<R>;

  /** Made by the curve for `curve.g1` and `curve.g2` (user code takes those, never constructs one). */
  constructor(setup: GroupSetup<F, Omit<R, 'infinity'>>) {
    this.formats = new Map(setup.formats.map((f) => [f.name, f]));
    this.ctx = setup.ctx;
    contexts.set(this, setup.ctx);
    this.entry = setup.entry;
    this.r = setup.r;
    this.setupFormats = setup.formats;
    const ctx = this.ctx;
    this.host = {
      ctx,
      entry: setup.entry,
      r: setup.r,
      formats: setup.formats,
      format: (name) => this.format(name),
      takePointObjects: (points) => takePointObjects(points, ctx.degree, ctx.inst.fields.fp.info.p),
      shape: (a) => this.shape(a),
    };
  }

  /** The order of the group, the scalar field's modulus (scalars are reduced mod r). */
  readonly r: bigint;
  private readonly setupFormats: readonly PointFormatSpec<F>[];

  /** The underlying Wasm instance (low-level access for tools and tests; not needed for the MSM; its type is internal). */
  get inst(): Instance {
    return this.ctx.inst;
  }

  /**
   * Σ scalars[i]·points[i], on worker threads when they are available (see `startThreads`; the
   * first call starts them with one per core unless `stopThreads()` was called), else on the
   * calling thread. Scalars are reduced mod r (any size and sign for bigints; 32 bytes each when
   * packed). n = 0 gives the point at infinity. Inputs are copied before this returns; asynchronous
   * calls on one curve (either group, plain or prepared) run one after another. Bad options or
   * inputs reject with a typed error.
   *
   * @param points - packed bytes in the group's format (`options.pointFormat`, else the one of that
   *   size), point objects, or an (async) iterable of byte chunks
   * @param scalars - 32-byte packed scalars or bigints, or an (async) iterable of byte chunks
   * @returns the affine sum (`infinity: true` for the point at infinity)
   * @throws PointEncodingError, NotOnCurveError, NotInSubgroupError (naming the lowest bad index),
   *   ScalarEncodingError, LengthMismatchError, InvalidOptionError, OutOfMemoryError, WorkerError;
   *   the signal's reason when aborted
   * @example
   * ```ts
   * import { bls12_381 } from 'pippin';
   * await bls12_381.init();
   * const G = bls12_381.params.G1;
   * const points = new Uint8Array(2 * 48);
   * points.set(bls12_381.g1.toBytes(G, 'zcash-compressed'), 0);
   * points.set(bls12_381.g1.toBytes(G, 'zcash-compressed'), 48);
   * const scalars = new Uint8Array(2 * 32); // little-endian: 1 and 2
   * scalars[0] = 1;
   * scalars[32] = 2;
   * const S = await bls12_381.g1.msm(points, scalars); // 48 bytes per point: zcash-compressed
   * console.log(S.x === bls12_381.g1.msmSync([G], [3n]).x); // → true
   * ```
   */
  msm(points: PointsArg<I>, scalars: ScalarsArg, options?: MsmOptions<F>): Promise<R> {
    let call: MsmCall;
    try {
      call = this.takeCall(points, scalars, options, 'msm');
    } catch (e) {
      return Promise.reject(e);
    }
    const { inst } = this.ctx;
    return enqueue(inst, () => {
      const { threads, signal } = call.options;
      if (signal?.aborted) return Promise.reject(signal.reason); // aborted while queued: no work
      return runProgram(inst, (t) => msmCallProgram(this.ctx, call, t), call.n, threads, signal);
    }).then((a) => this.shape(a));
  }

  /**
   * The same as `msm` on the calling thread only, synchronously (`threads` is ignored, `signal` is
   * checked before the work starts; iterables must be synchronous).
   *
   * @example
   * ```ts
   * import { bls12_381 } from 'pippin';
   * await bls12_381.init();
   * const G = bls12_381.params.G1;
   * const S = bls12_381.g1.msmSync([G, G], [-1n, 1n]); // scalars are reduced mod r
   * console.log(S.infinity); // → true
   * ```
   */
  msmSync(points: Uint8Array | readonly I[] | Iterable<Uint8Array>, scalars: Uint8Array | readonly bigint[] | Iterable<Uint8Array>, options?: MsmOptions<F>): R {
    return this.shape(runLocal(this.ctx.inst, msmCallProgram(this.ctx, this.takeCall(points, scalars, options, 'msmSync'), 1)));
  }

  /**
   * Decodes and validates `points` once and keeps them in Wasm memory for many MSMs (fixed bases,
   * e.g. a KZG setup or a prover's SRS): see src/api/prepared.ts and docs/prepared.md. Rejects
   * with the errors of `msm` for bad points or options.
   *
   * @example
   * ```ts
   * import { bls12_381 } from 'pippin';
   * await bls12_381.init();
   * const G = bls12_381.params.G1;
   * const bases = await bls12_381.g1.prepare([G, G, G]);
   * const [a, b] = await bases.msmBatch([[1n, 1n, 1n], [3n]]); // each over a prefix of the points
   * console.log(a.x === b.x, bases.n); // → true 3
   * bases.dispose();
   * ```
   */
  prepare(points: Uint8Array | readonly I[], options?: PrepareOptions<F>): Promise<PreparedBases<R>> {
    return prepareBases(this.host, points, options);
  }

  /**
   * Low level (input generators): the kernel code and size of a format, the primary one by default.
   * Throws InvalidOptionError for a format the group does not have.
   *
   * @example
   * ```ts
   * import { bls12_381 } from 'pippin';
   * await bls12_381.init();
   * console.log(bls12_381.g1.formatSpec('arkworks').bytes); // → 96
   * ```
   */
  formatSpec(name?: F): PointFormatSpec<F> {
    return this.format(name ?? this.setupFormats[0].name);
  }

  /**
   * The point encodings this group accepts and produces (name, bytes per point), default first.
   *
   * @example
   * ```ts
   * import { bn254 } from 'pippin';
   * await bn254.init();
   * console.log(bn254.g2.pointFormats[0]); // → { name: 'eip197', bytes: 128 }
   * ```
   */
  get pointFormats(): readonly {
    /** the format's name (the `pointFormat` option) */
    name: F;
    /** bytes per encoded point */
    bytes: number;
  }[] {
    return this.setupFormats.map(({ name, bytes }) => ({ name, bytes }));
  }

  /**
   * Encodes a point (e.g. an MSM result) as bytes in `format` (default: the group's primary one).
   * Throws NotOnCurveError for a finite point that is not on the curve, InvalidOptionError for an
   * unknown format.
   *
   * @example
   * ```ts
   * import { bls12_381 } from 'pippin';
   * await bls12_381.init();
   * const bytes = bls12_381.g1.toBytes(bls12_381.params.G1, 'zcash-compressed');
   * console.log(bytes.length, bytes[0].toString(16)); // → 48 97
   * ```
   */
  toBytes(point: R | I, format?: F): Uint8Array {
    const spec = format === undefined ? this.setupFormats[0] : this.format(format, 'format');
    const isInf = point === null || (typeof point === 'object' && (point as { infinity?: unknown }).infinity === true);
    const { ctx } = this;
    const coords = isInf ? undefined : pointCoordinates(point, ctx.degree, ctx.inst.fields.fp.info.p, 'toBytes: point');
    const { arena } = ctx.inst;
    const mark = arena.mark();
    try {
      const at = arena.alloc(2 * ctx.EB);
      const dst = arena.alloc(Math.max(16, spec.bytes));
      const scratch = arena.alloc(Math.max(16, ctx.scratch.encode, ctx.scratch.isOnCurve));
      if (coords) {
        ctx.writeAffine(at, coords);
        if (!ctx.isOnCurve(at, scratch)) throw new NotOnCurveError('toBytes: point is not on the curve');
      }
      ctx.k[ctx.kn.encode](dst, at, isInf ? 1 : 0, spec.code, scratch);
      return new Uint8Array(ctx.inst.memory.buffer, dst, spec.bytes).slice();
    } finally {
      arena.release(mark);
    }
  }

  private shape(a: Omit<R, 'infinity'> | null): R {
    if (a !== null) return { ...a, infinity: false } as R;
    return (this.ctx.degree === 1 ? { x: 0n, y: 0n, infinity: true } : { x: [0n, 0n], y: [0n, 0n], infinity: true }) as unknown as R;
  }

  private format(name: string, option = 'pointFormat'): PointFormatSpec<F> {
    const spec = typeof name === 'string' ? this.formats.get(name) : undefined;
    if (!spec) throw new InvalidOptionError(`${this.entry}: unknown point format ${describeValue(name)} for ${option} (known: ${[...this.formats.keys()].join(', ')})`, option, name);
    return spec;
  }

  /** Options parsed and inputs checked and copied: nothing the caller does afterwards changes the call. */
  private takeCall(points: unknown, scalars: unknown, options: unknown, name: 'msm' | 'msmSync'): MsmCall {
    const parsed = parseMsmOptions<F, CallStats>(options, { formats: this.setupFormats.map((f) => f.name), entry: `${this.entry}.${name}` });
    // an already aborted signal: no work at all
    if (parsed.signal?.aborted) throw parsed.signal.reason;
    const base = { options: parsed, entry: this.entry };
    if (isChunkIterable(points) || isChunkIterable(scalars)) return { ...base, ...this.takeStreams(points, scalars, parsed, name) };
    const packed = packScalars(scalars, parsed.scalarEndian, this.r);
    const n = packed.length / 32;
    if (points instanceof Uint8Array) {
      const bytesPer = n > 0 ? points.length / n : Infinity;
      const format = this.format(parsed.pointFormat ?? (this.setupFormats.find((f) => f.bytes === bytesPer) ?? this.setupFormats[0]).name);
      if (points.length !== format.bytes * n) {
        throw new LengthMismatchError(`points: ${points.length} bytes for ${n} scalars, expected ${n} × ${format.bytes} (${format.name})`);
      }
      return { ...base, n, points: { kind: 'bytes', bytes: copyBytes(points), format }, scalars: packed };
    }
    if (!Array.isArray(points)) throw new PointEncodingError(`points must be a Uint8Array or an array of points, got ${typeName(points)}`);
    if (points.length !== n) throw new LengthMismatchError(`${points.length} points but ${n} scalars`);
    return { ...base, n, points: { kind: 'objects', ...this.host.takePointObjects(points) }, scalars: packed };
  }

  /**
   * Iterable inputs: read chunk by chunk during the MSM (each chunk copied as it is read, so the
   * caller may reuse a chunk once the iterator moved past it); a Uint8Array or bigints beside an
   * iterable are taken at the call. Points come in the format option's encoding (default: the
   * group's first). msmSync takes synchronous iterables only.
   */
  private takeStreams(points: unknown, scalars: unknown, options: ParsedMsmOptions<F, CallStats>, name: string): Pick<MsmCall, 'n' | 'points' | 'scalars' | 'scalarSource'> {
    if (name === 'msmSync') {
      if (isAsyncIterable(points)) throw new PointEncodingError(`${this.entry}.msmSync: points is an async iterable; use msm`);
      if (isAsyncIterable(scalars)) throw new ScalarEncodingError(`${this.entry}.msmSync: scalars is an async iterable; use msm`);
    }
    const format = this.format(options.pointFormat ?? this.setupFormats[0].name);
    let sources: ByteSource;
    if (points instanceof Uint8Array) sources = copyBytes(points);
    else if (isChunkIterable(points)) sources = points;
    else if (Array.isArray(points) && points.length === 0) sources = new Uint8Array(0);
    else throw new PointEncodingError(`points must be a Uint8Array or an iterable of Uint8Array chunks when the scalars are an iterable, got ${typeName(points)}`);
    if (isChunkIterable(scalars)) return { n: -1, points: { kind: 'stream', sources, format }, scalars: new Uint8Array(0), scalarSource: scalars };
    return { n: -1, points: { kind: 'stream', sources, format }, scalars: packScalars(scalars, options.scalarEndian, this.r) };
  }
}

/**
 * The public G1 of a curve (`curve.g1`); `F` is its format names.
 *
 * @example
 * ```ts
 * import { bls12_381, type G1 } from 'pippin';
 * await bls12_381.init();
 * const g1: G1 = bls12_381.g1;
 * console.log(g1.msmSync([], []).infinity); // → true
 * ```
 */
export type G1<F extends string = G1Format> = Group<F, G1Affine, G1PointInput>;
/**
 * The public G2 of a curve (`curve.g2`; BLS12-381 and BN254); `F` is its format names.
 *
 * @example
 * ```ts
 * import { bls12_381, type G2, type G2FormatName } from 'pippin';
 * await bls12_381.init();
 * const g2: G2<G2FormatName> = bls12_381.g2;
 * console.log(g2.pointFormats.length > 0); // → true
 * ```
 */
export type G2<F extends string = string> = Group<F, G2Affine, G2PointInput>;
