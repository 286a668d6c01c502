/**
 * Prepared bases (`g1.prepare`, `g2.prepare`): points decoded and validated once, kept in Wasm memory (a pinned
 * block of the arena, src/runtime/memory.ts, which the workers share) in the form every MSM over
 * them starts from — affine Montgomery coordinates and infinity flags — for many MSMs: KZG
 * commitments over a trusted setup, a prover's SRS. Each MSM copies a prefix of the block into its
 * per-call regions (the MSM compacts and expands them in place) and runs the ordinary MSM program;
 * `msmBatch` runs the MSMs of several scalar sets as one phase program whose batches hold the tiles
 * of every set (docs/prepared.md).
 */
import type { Batch, PhaseProgram } from '../runtime/executor.js';
import { runLocal } from '../runtime/executor.js';
import { buildFixedBaseTable, chooseFixedWindow, fixedBaseMsmProgram, fixedBaseTableBytes, type FixedBaseTable } from '../msm/fixed-base.js';
import { allocInputs, msmProgram, type MsmRegions } from '../msm/program.js';
import { planMsm } from '../msm/plan.js';
import { ProgressMeter } from '../msm/progress.js';
import type { GroupContext } from '../msm/group.js';
import { enqueue, runProgram, type CallStats } from '../msm/call.js';
import { convertProgram, copyBytes, packScalars, type CopiedPoints, type PointObjects } from '../msm/convert.js';
import type { PointFormatSpec } from '../abi/codes.js';
import type { Instance } from '../runtime/instance.js';
import { DisposedError, InvalidOptionError, LengthMismatchError, PointEncodingError } from '../errors.js';
import { describeValue, parseMsmOptions, type ParsedMsmOptions, type Validation } from './options.js';
import type { G1Affine, MsmOptions } from './group.js';

/** What prepared bases need of their group (src/api/group.ts gives it; nothing else of the group is reachable). */
export interface PreparedHost<R> {
  ctx: GroupContext<Omit<R, 'infinity'>>;
  /** `bls12-381.g1`: names the group in errors */
  entry: string;
  r: bigint;
  formats: readonly PointFormatSpec<string>[];
  /** the format named, or InvalidOptionError */
  format(name: string): PointFormatSpec<string>;
  /** point objects read and checked at the call */
  takePointObjects(points: readonly unknown[]): PointObjects;
  /** a result as the group returns it (null: infinity) */
  shape(a: Omit<R, 'infinity'> | null): R;
}

/**
 * Options of `prepare` (g1 and g2); every field is optional. Unknown names (including msm-only
 * options such as `windowBits`), wrong types and values out of range reject with InvalidOptionError.
 *
 * @example
 * ```ts
 * import { bls12_381, type PrepareOptions } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * const options: PrepareOptions<'zcash' | 'zcash-compressed' | 'arkworks'> = { validate: 'on-curve', precompute: true };
 * const bases = await bls12_381.g1.prepare([G, G], options);
 * console.log(bases.precomputed !== undefined); // → true
 * bases.dispose();
 * ```
 */
export interface PrepareOptions<F extends string> {
  /** Encoding of packed point bytes (default: the curve's primary format when the length is a
   * multiple of its size, else the first format whose size divides it). */
  pointFormat?: F;
  /** Input checks, done once here: 'full' (default), 'on-curve' or 'none' (see msm). */
  validate?: Validation;
  /** At most this many threads for decoding and validation (default: every worker of the pool). */
  threads?: number;
  /** Cancels the preparation (nothing is kept). */
  signal?: AbortSignal;
  /**
   * Fixed-base tables (src/msm/fixed-base.ts): every point's multiples 2^(kc)·P for every window k,
   * so one bucket set serves all windows; `{ maxBytes }` bounds the table (the window is chosen
   * among those that fit), `true` = { maxBytes: DEFAULT_PRECOMPUTE_BYTES }, `false` (default) = none.
   * MSMs given `windowBits` other than the table's run without it.
   */
  precompute?:
    | boolean
    | {
        /** the most bytes the table may take */
        maxBytes: number;
      };
}

/** The table budget of `precompute: true`: 256 MiB (e.g. 2^16 BLS12-381 points with c = 16: 104 MiB). */
export const DEFAULT_PRECOMPUTE_BYTES = 256 * 2 ** 20;

/**
 * Options of one MSM over prepared bases: msm's, but those settled by prepare (pointFormat, validate) and by holding every point
 * in memory (maxMemoryBytes, chunkPoints: refused with InvalidOptionError). onProgress counts, per
 * scalar set of m scalars, m units per window (phase 'accumulate'), then 'done'.
 *
 * @example
 * ```ts
 * import { bls12_381, type PreparedMsmOptions } from 'pippin';
 * await bls12_381.init();
 * const bases = await bls12_381.g1.prepare([bls12_381.params.G1]);
 * const options: PreparedMsmOptions = { scalarEndian: 'be', threads: 1 };
 * const scalars = new Uint8Array(32);
 * scalars[31] = 1; // big-endian 1
 * console.log((await bases.msm(scalars, options)).x === bls12_381.params.G1.x); // → true
 * bases.dispose();
 * ```
 */
export type PreparedMsmOptions = Omit<MsmOptions<string>, 'pointFormat' | 'validate' | 'maxMemoryBytes' | 'chunkPoints'>;

const HELD_IN_MEMORY = 'on prepared bases (they hold every point in Wasm memory; the table budget is prepare\'s precompute.maxBytes)';

/**
 * Points prepared once for many MSMs (`await curve.g1.prepare(points)`, `curve.g2.prepare`); R is the
 * group's point type. Also disposable with `using` (Symbol.dispose). Every MSM throws (rejects with)
 * DisposedError after `dispose()` or the curve's `release()`, LengthMismatchError for more than `n`
 * scalars, and the scalar and option errors of `msm`.
 *
 * @example
 * ```ts
 * import { bls12_381, type PreparedBases } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * const bases: PreparedBases = await bls12_381.g1.prepare([G, G, G, G]);
 * const full = await bases.msm([1n, 2n, 3n, 4n]); // 10·G
 * const prefix = bases.msmSync([10n]); // a prefix: the first point only
 * console.log(full.x === prefix.x, bases.bytes > 0); // → true true
 * bases.dispose();
 * console.log(bases.bytes); // → 0
 * ```
 */
export interface PreparedBases<R = G1Affine> {
  /** the number of prepared points: an MSM takes at most this many scalars (a prefix of the points) */
  readonly n: number;
  /** Wasm memory held by these bases until `dispose()` (0 after it), fixed-base table included */
  readonly bytes: number;
  /** the fixed-base table's window and bytes, or undefined without one */
  readonly precomputed:
    | {
        /** the table's window width c (bits) */
        windowBits: number;
        /** the table's size in Wasm memory */
        bytes: number;
      }
    | undefined;
  /** Σ scalars[i]·points[i] for i < scalars' length (≤ n), on worker threads when available. */
  msm(scalars: Uint8Array | readonly bigint[], options?: PreparedMsmOptions): Promise<R>;
  /** The same on the calling thread, synchronously. */
  msmSync(scalars: Uint8Array | readonly bigint[], options?: PreparedMsmOptions): R;
  /** One MSM per scalar set (each a prefix of the points, possibly empty), run as one program. */
  msmBatch(scalarSets: readonly (Uint8Array | readonly bigint[])[], options?: PreparedMsmOptions): Promise<R[]>;
  /** Releases the memory (after the MSMs already started on these bases); later use throws DisposedError. Idempotent. The curve's `release()` disposes them too. */
  dispose(): void;
}

type StatsSink = CallStats;
const PREPARE_OPTIONS = Object.freeze(['pointFormat', 'validate', 'threads', 'signal', 'precompute'] as const);
/** Symbol.dispose where the engine has it (Node ≥ 20.4, recent browsers). */
const disposeSymbol: symbol | undefined = (Symbol as { dispose?: symbol }).dispose;

/** `prepare`: options and points checked and copied at the call, then decoded and validated into a pinned block. */
export function prepareBases<R>(host: PreparedHost<R>, points: unknown, options: PrepareOptions<string> | undefined): Promise<PreparedBases<R>> {
  let taken: { n: number; points: CopiedPoints; options: ParsedMsmOptions<string>; maxTableBytes: number };
  try {
    taken = takePoints(host, points, options);
  } catch (e) {
    return Promise.reject(e);
  }
  const { n, options: opts, maxTableBytes } = taken;
  const { ctx } = host;
  const { inst } = ctx;
  return enqueue(inst, async () => {
    opts.signal?.throwIfAborted();
    const { arena } = inst;
    const PB = 2 * ctx.EB;
    const bytes = n * PB + n;
    const block = arena.allocPinned(bytes);
    const regions: MsmRegions = { points: block, inf: block + n * PB, scalars: -1 };
    let table: { block: number; table: FixedBaseTable; bytes: number } | undefined;
    try {
      await runProgram(inst, (threads) => convertProgram(ctx, taken.points, n, regions, threads, 0, opts.validate), n, opts.threads, opts.signal);
      const c = chooseFixedWindow(n, PB, maxTableBytes, 1);
      if (c !== undefined) {
        const tableBytes = fixedBaseTableBytes(n, c, PB);
        const tableBlock = arena.allocPinned(tableBytes);
        table = { block: tableBlock, bytes: tableBytes, table: { ptr: tableBlock, c, windows: 0, windowBytes: 0 } };
        table.table = await runProgram(inst, (threads) => buildFixedBaseTable(ctx, regions.points, regions.inf, n, c, tableBlock, threads), n, opts.threads, opts.signal);
      }
    } catch (e) {
      if (table) arena.freePinned(table.block);
      arena.freePinned(block);
      throw e;
    }
    return new Prepared(host, block, n, Math.ceil(Math.max(16, bytes) / 16) * 16, table);
  });
}

function takePoints<R>(host: PreparedHost<R>, points: unknown, options: unknown): { n: number; points: CopiedPoints; options: ParsedMsmOptions<string>; maxTableBytes: number } {
  const entry = `${host.entry}.prepare`;
  rejectOptions(options, entry, ['scalarEndian', 'windowBits', 'onStats', 'onProgress', 'maxMemoryBytes', 'chunkPoints'], `options of prepare are ${PREPARE_OPTIONS.join(', ')}`);
  let rest = options;
  let maxTableBytes = 0;
  if (typeof options === 'object' && options !== null && Object.prototype.hasOwnProperty.call(options, 'precompute')) {
    const { precompute, ...others } = options as { precompute?: unknown };
    rest = others;
    maxTableBytes = parsePrecompute(precompute, entry);
  }
  const parsed = parseMsmOptions<string>(rest, { formats: host.formats.map((f) => f.name), entry });
  if (points instanceof Uint8Array) {
    const { formats } = host;
    const spec = parsed.pointFormat !== undefined
      ? host.format(parsed.pointFormat)
      : points.length % formats[0].bytes === 0 ? formats[0] : formats.find((f) => points.length % f.bytes === 0);
    if (!spec || points.length % spec.bytes !== 0) {
      throw new LengthMismatchError(`${entry}: ${points.length} bytes of points is not a multiple of the size of ${spec ? `${spec.name} (${spec.bytes})` : `any format (${formats.map((f) => `${f.name}: ${f.bytes}`).join(', ')})`}`);
    }
    return { n: points.length / spec.bytes, points: { kind: 'bytes', bytes: copyBytes(points), format: spec }, options: parsed, maxTableBytes };
  }
  if (!Array.isArray(points)) throw new PointEncodingError(`${entry}: points must be a Uint8Array or an array of points, got ${describeValue(points)}`);
  return { n: points.length, points: { kind: 'objects', ...host.takePointObjects(points) }, options: parsed, maxTableBytes };
}

/** The table budget in bytes: 0 for none. */
function parsePrecompute(value: unknown, entry: string): number {
  if (value === undefined || value === false) return 0;
  if (value === true) return DEFAULT_PRECOMPUTE_BYTES;
  const maxBytes = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { maxBytes?: unknown }).maxBytes : undefined;
  const keys = typeof value === 'object' && value !== null ? Reflect.ownKeys(value) : [];
  if (typeof maxBytes !== 'number' || !Number.isSafeInteger(maxBytes) || maxBytes < 0 || keys.length !== 1) {
    throw new InvalidOptionError(`${entry}: option precompute must be true, false or { maxBytes } with a non-negative integer, got ${describeValue(value)}`, 'precompute', value);
  }
  return maxBytes;
}

/** Options that some entry point does not take, named in an InvalidOptionError. */
function rejectOptions(options: unknown, entry: string, names: readonly string[], hint: string): void {
  if (typeof options !== 'object' || options === null) return;
  for (const name of names) {
    const value = Object.prototype.hasOwnProperty.call(options, name) ? (options as Record<string, unknown>)[name] : undefined;
    if (value !== undefined) throw new InvalidOptionError(`${entry}: option ${name} does not apply here (${hint})`, name, value);
  }
}

class Prepared<R> implements PreparedBases<R> {
  private disposed = false;
  /** MSMs queued or running on these bases: the block is freed when the last one ends */
  private pending = 0;
  private held: number;
  /** the instance holding the block: when its curve releases it, these bases are disposed */
  private readonly inst: Instance;

  constructor(
    private readonly host: PreparedHost<R>,
    private readonly block: number,
    readonly n: number,
    bytes: number,
    private readonly table?: { block: number; table: FixedBaseTable; bytes: number },
  ) {
    this.inst = host.ctx.inst;
    this.held = bytes + (table?.bytes ?? 0);
    if (disposeSymbol) Object.defineProperty(this, disposeSymbol, { value: () => this.dispose() });
  }

  get bytes(): number {
    return this.inst.released ? 0 : this.held;
  }

  get precomputed(): { windowBits: number; bytes: number } | undefined {
    return this.table && !this.disposed && !this.inst.released ? { windowBits: this.table.table.c, bytes: this.table.bytes } : undefined;
  }

  msm(scalars: Uint8Array | readonly bigint[], options?: PreparedMsmOptions): Promise<R> {
    return this.msmBatchOf([scalars], options, 'msm').then((r) => r[0]);
  }

  msmBatch(scalarSets: readonly (Uint8Array | readonly bigint[])[], options?: PreparedMsmOptions): Promise<R[]> {
    if (!Array.isArray(scalarSets)) return Promise.reject(new LengthMismatchError(`${this.entry('msmBatch')}: scalar sets must be an array, got ${describeValue(scalarSets)}`));
    return this.msmBatchOf(scalarSets, options, 'msmBatch');
  }

  msmSync(scalars: Uint8Array | readonly bigint[], options?: PreparedMsmOptions): R {
    const { sets, opts } = this.take([scalars], options, 'msmSync');
    this.pending++;
    try {
      return runLocal(this.inst, this.program(sets, opts, 1))[0];
    } finally {
      this.settle();
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.held = 0;
    if (this.pending === 0) this.free();
  }

  private free(): void {
    if (this.inst.released) return; // the memory went with the instance
    const { arena } = this.inst;
    if (this.table) arena.freePinned(this.table.block);
    arena.freePinned(this.block);
  }

  private msmBatchOf(scalarSets: readonly unknown[], options: unknown, entry: string): Promise<R[]> {
    let call: { sets: Uint8Array[]; opts: ParsedMsmOptions<string, StatsSink> };
    try {
      call = this.take(scalarSets, options, entry);
    } catch (e) {
      return Promise.reject(e);
    }
    const { sets, opts } = call;
    this.pending++;
    const longest = Math.max(0, ...sets.map((s) => s.length / 32));
    const { inst } = this;
    return enqueue(inst, () => {
      this.checkLive(entry);
      opts.signal?.throwIfAborted();
      return runProgram(inst, (threads) => this.program(sets, opts, threads), longest, opts.threads, opts.signal);
    }).finally(() => this.settle());
  }

  /** The last MSM of disposed bases frees their block. */
  private settle(): void {
    this.pending--;
    if (this.disposed && this.pending === 0) this.free();
  }

  /** DisposedError once the curve released the instance (possibly while this call was queued). */
  private checkLive(name: string): void {
    if (this.inst.released) throw new DisposedError(`${this.entry(name)}: the curve was released (release()), which disposed these prepared bases; prepare them again after init()`);
  }

  private entry(name: string): string {
    return `${this.host.entry}.prepare(…).${name}`;
  }

  /** Options parsed and every scalar set checked and copied (n × 32 bytes each, at most n scalars). */
  private take(scalarSets: readonly unknown[], options: unknown, name: string): { sets: Uint8Array[]; opts: ParsedMsmOptions<string, StatsSink> } {
    const entry = this.entry(name);
    if (this.disposed) throw new DisposedError(`${entry}: these prepared bases were disposed`);
    this.checkLive(name);
    rejectOptions(options, entry, ['pointFormat', 'validate'], 'the points were decoded and validated by prepare');
    const opts = parseMsmOptions<string, StatsSink>(options, { formats: [], entry, unsupported: { maxMemoryBytes: HELD_IN_MEMORY, chunkPoints: HELD_IN_MEMORY } });
    opts.signal?.throwIfAborted();
    const sets = scalarSets.map((s, j) => {
      if (!(j in scalarSets)) throw new LengthMismatchError(`${entry}: scalar set ${j} is missing (a hole in the array)`, j);
      const packed = packScalars(s, opts.scalarEndian, this.host.r);
      if (packed.length / 32 > this.n) {
        throw new LengthMismatchError(`${entry}: ${packed.length / 32} scalars${scalarSets.length > 1 ? ` in set ${j}` : ''} for ${this.n} prepared points (at most n: a prefix of the points)`, scalarSets.length > 1 ? j : -1);
      }
      return packed;
    });
    return { sets, opts };
  }

  /**
   * The MSMs of every scalar set: each copies its prefix of the prepared points into fresh regions
   * (the MSM rewrites them) and runs the MSM program; the programs advance together, their batches
   * merged into one (see `together`).
   */
  private *program(sets: Uint8Array[], opts: ParsedMsmOptions<string, StatsSink>, threads: number): PhaseProgram<R[]> {
    const { ctx, shape } = this.host;
    const { inst } = ctx;
    const { arena } = inst;
    const PB = 2 * ctx.EB;
    const mark = arena.mark();
    // the table serves every set unless the call asks for another window
    const table = this.table && (opts.windowBits === undefined || opts.windowBits === this.table.table.c) ? this.table : undefined;
    // progress: m units per window of each set (the table's windows, or the plan's)
    const windowsOf = (m: number) => table?.table.windows ?? planMsm(m, ctx.windowTable, opts.windowBits, ctx).windows;
    const meter = new ProgressMeter(sets.reduce((sum, s) => sum + (s.length / 32) * windowsOf(s.length / 32), 0), opts.onProgress);
    meter.advance(0, 'accumulate');
    try {
      const one = function* (this: Prepared<R>, scalars: Uint8Array): PhaseProgram<R> {
        const t0 = performance.now();
        const m = scalars.length / 32;
        const units = m * windowsOf(m);
        const onTile = (share: number) => meter.advance(share * units, 'accumulate');
        if (table) {
          const at = arena.alloc(32 * m + 32);
          new Uint8Array(inst.memory.buffer).set(scalars, at);
          const convert = performance.now() - t0;
          const { result, stats } = yield* fixedBaseMsmProgram(ctx, table.table, this.block + this.n * PB, at, m, { scalarsBigEndian: opts.scalarEndian === 'be', threads, onTile });
          opts.onStats?.({ ...stats, convert });
          return shape(result);
        }
        const regions = allocInputs(ctx, m);
        const mem = new Uint8Array(inst.memory.buffer);
        mem.copyWithin(regions.points, this.block, this.block + m * PB);
        mem.copyWithin(regions.inf, this.block + this.n * PB, this.block + this.n * PB + m);
        mem.set(scalars, regions.scalars);
        const convert = performance.now() - t0;
        const { result, stats } = yield* msmProgram(ctx, regions, m, { scalarsBigEndian: opts.scalarEndian === 'be', threads, windowBits: opts.windowBits, prepareInline: true, onTile });
        opts.onStats?.({ ...stats, convert });
        return shape(result);
      };
      const results = yield* together(sets.map((s) => one.call(this, s)));
      meter.finish();
      return results;
    } finally {
      arena.release(mark);
    }
  }
}

/**
 * Runs several phase programs as one: each step yields one batch holding the current batch of
 * every program still running (task results routed back to their owner), then resumes the
 * programs in reverse order of their start. Contract: the programs allocate from one arena in
 * stack order — each allocates before its first yield after the ones started before it, and
 * releases when it ends — and yield the same number of batches, so resuming the last started
 * first releases in stack order. Memory a program allocates inside a batch's `done` (the XYZZ
 * combiner's window sums) lies above every program's mark and is read before any later allocation.
 */
export function* together<T>(programs: PhaseProgram<T>[]): PhaseProgram<T[]> {
  const results = new Array<T>(programs.length);
  const steps = programs.map((p) => p.next());
  const resume = (failure: { error: unknown } | undefined) => {
    let firstError: { error: unknown } | undefined;
    for (let j = programs.length - 1; j >= 0; j--) {
      if (steps[j].done) continue;
      try {
        steps[j] = failure ? programs[j].throw(failure.error) : programs[j].next();
      } catch (error) {
        firstError ??= { error };
        steps[j] = { done: true, value: undefined as T };
      }
    }
    if (firstError) throw firstError.error;
  };
  for (;;) {
    const live = steps.flatMap((s, j) => (s.done ? [] : [{ j, batch: s.value }]));
    if (live.length === 0) break;
    const owner: { j: number; i: number }[] = [];
    const tasks: Batch['tasks'][number][] = [];
    for (const { j, batch } of live) {
      // prepared MSMs read no streamed input, so their programs never wait
      if (!('tasks' in batch)) throw new Error('pippin: together() runs programs that do not wait for input');
      batch.tasks.forEach((task, i) => {
        owner.push({ j, i });
        tasks.push(task);
      });
    }
    const merged: Batch = {
      tasks,
      done: (t, r) => {
        const { j, i } = owner[t];
        (steps[j].value as Batch).done(i, r);
      },
    };
    let failure: { error: unknown } | undefined;
    try {
      yield merged;
    } catch (error) {
      failure = { error };
    }
    resume(failure);
  }
  steps.forEach((s, j) => (results[j] = s.value as T));
  return results;
}
