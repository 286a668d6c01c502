/**
 * Input conversion of one group's points into the MSM's regions, as phase programs: bytes decoded
 * (g*_decode_batch) or objects written, checked per point in chunks on the threads, then for
 * 'full' validation on a group with a cofactor the subgroup check — batched (src/msm/subgroup.ts)
 * from `batchedCheckFrom(cofactor)` points, exact per point below that and to locate a bad point.
 *
 * Errors are typed and name the lowest bad index of the input, whatever the kind of error: a point
 * that fails to decode or is off the curve at index i is reported only after the subgroup check of
 * the points before it (so a point outside the subgroup at j < i wins).
 */
import type { Instance } from '../runtime/instance.js';
import type { Batch, PhaseProgram } from '../runtime/executor.js';
import type { Op } from '../runtime/interpreter.js';
import { MALFORMED, NO_ERROR, PointError, VALIDATION_CHECK, decodeStatus, type PointErrorCode, type PointFormatSpec, type Validation } from '../abi/codes.js';
import { LengthMismatchError, NotInSubgroupError, NotOnCurveError, OutOfMemoryError, PippinError, PointEncodingError, ScalarEncodingError } from '../errors.js';
import { exactCheckOp, op, type GroupContext } from './group.js';
import { batchedCheckFrom, planSubgroupBatch, subgroupBatchProgram, validateInSubgroupBatched } from './subgroup.js';
import type { MsmRegions } from './program.js';
import type { ProgressMeter } from './progress.js';

/** Points per decode/validation call on the calling thread. */
export const CHUNK = 4096;
/**
 * The exact subgroup test (docs/validation.md, `npm run bench:subgroup`): at most EXACT_CHUNK points
 * per task (256…2048 all within 1% of each other), tasks of at least EXACT_MIN_CHUNK points when
 * spread over threads (13% faster than XYZZ at 64, 18% from 256).
 */
const EXACT_CHUNK = 512;
const EXACT_MIN_CHUNK = 64;

/** Points per decode/validation task: one CHUNK on one thread, else about four tasks per thread. */
export function chunkSize(n: number, threads: number): number {
  return threads === 1 ? CHUNK : Math.max(64, Math.min(CHUNK, Math.ceil(n / (4 * threads))));
}

/** Point objects as read at the call: 2·degree canonical base-field elements per point (x then y), infinity flags. */
export interface PointObjects {
  coords: bigint[];
  inf: Uint8Array;
}

/** Points as copied at the call: packed bytes in one format, or point objects. */
export type CopiedPoints<F extends string = string> = { kind: 'bytes'; bytes: Uint8Array; format: PointFormatSpec<F> } | ({ kind: 'objects' } & PointObjects);

/**
 * n points converted into `regions` (errors name index `first` + i). Progress: n decode units, and
 * n subgroup units when the subgroup is checked.
 */
export function* convertProgram(ctx: GroupContext, points: CopiedPoints, n: number, regions: MsmRegions, threads: number, first: number, validate: Validation, meter?: ProgressMeter): PhaseProgram<void> {
  const subgroup = validate === 'full' && ctx.cofactor > 1n;
  const batchFrom = ctx.subgroupBatchFrom ?? batchedCheckFrom(ctx.cofactor);
  const perPoint: Validation = subgroup ? 'on-curve' : validate;
  const decoded = (count: number) => meter?.advance(count, 'decode');
  // the first point that fails to decode or is off the curve: its error waits for the subgroup
  // check of the points before it
  let inputError: PippinError | undefined;
  try {
    if (points.kind === 'bytes') yield* decodeProgram(ctx, points.bytes, points.format, n, regions, perPoint, threads, decoded, first);
    else {
      writePointObjects(ctx, points, n, regions);
      if (perPoint === 'none') decoded(n);
      else yield* validateProgram(ctx, regions, n, perPoint, threads, first, decoded);
    }
  } catch (e) {
    if (!subgroup || !(e instanceof PippinError) || e.index < 0) throw e;
    inputError = e;
  }
  if (!subgroup) return;
  const checked = inputError ? inputError.index - first : n;
  if (checked < batchFrom) yield* exactInSubgroup(ctx, regions, 0, checked, threads, first);
  else {
    yield* validateInSubgroupBatched(
      checked,
      batchFrom,
      (lo, hi, onGroup) => batchInSubgroup(ctx, regions, lo, hi, threads, onGroup),
      (lo, hi) => exactInSubgroup(ctx, regions, lo, hi, threads, first),
      inputError ? undefined : (share) => meter?.advance(share * n, 'subgroup'),
    );
  }
  if (inputError) throw inputError;
  if (checked < batchFrom) meter?.advance(n, 'subgroup');
}

/** Decoding (and per-point validation) in chunks, each task with its slot's staging and scratch. */
function* decodeProgram(ctx: GroupContext, bytes: Uint8Array, format: PointFormatSpec<string>, n: number, regions: MsmRegions, validate: Validation, threads: number, onChunk: (count: number) => void, first: number): PhaseProgram<void> {
  const size = format.bytes;
  const PB = 2 * ctx.EB;
  // with threads each slot alternates two staging buffers (checkInChunks): half chunks keep the staging bytes
  const chunk = threads > 1 ? Math.max(64, chunkSize(n, threads) >> 1) : chunkSize(n, threads);
  const { inst, kn } = ctx;
  yield* checkInChunks(inst, n, chunk, threads, chunk * size, ctx.scratch.decode, format.name, (start, count, { staging, scratch }) => {
    new Uint8Array(inst.memory.buffer).set(bytes.subarray(start * size, (start + count) * size), staging);
    return op(kn.decodeBatch, regions.points + start * PB, regions.inf + start, staging, count, format.code, VALIDATION_CHECK[validate], scratch);
  }, first, onChunk);
}

/** The per-point checks of points already written (objects). */
function* validateProgram(ctx: GroupContext, regions: MsmRegions, n: number, validate: Validation, threads: number, first: number, onChunk: (count: number) => void): PhaseProgram<void> {
  if (n === 0) return;
  const PB = 2 * ctx.EB;
  yield* checkInChunks(ctx.inst, n, chunkSize(n, threads), threads, 0, ctx.scratch.validate, 'object', (start, count, { scratch }) =>
    op(ctx.kn.validateBatch, regions.points + start * PB, regions.inf + start, count, VALIDATION_CHECK[validate], scratch), first, onChunk);
}

/**
 * The exact subgroup test of points [lo, hi) (decoded, on the curve) in tasks of up to EXACT_CHUNK
 * points; NotInSubgroupError with the lowest bad index (`indexBase` + i).
 */
function* exactInSubgroup(ctx: GroupContext, regions: MsmRegions, lo: number, hi: number, threads: number, indexBase: number): PhaseProgram<void> {
  const n = hi - lo;
  if (n <= 0) return;
  const PB = 2 * ctx.EB;
  // equal tasks: one per thread while each keeps ≥ EXACT_MIN_CHUNK points, more when above EXACT_CHUNK
  const tasks = Math.max(1, Math.min(threads, Math.floor(n / EXACT_MIN_CHUNK)), Math.ceil(n / EXACT_CHUNK));
  const chunk = Math.ceil(n / tasks);
  yield* checkInChunks(ctx.inst, n, chunk, threads, 0, ctx.exactCheck.scratchBytes(chunk), 'object', (start, count, { scratch }) =>
    exactCheckOp(ctx, regions.points + (lo + start) * PB, regions.inf + lo + start, count, scratch), indexBase + lo);
}

/** The batched subgroup check of points [lo, hi): false when some point is outside the subgroup. */
function* batchInSubgroup(ctx: GroupContext, regions: MsmRegions, lo: number, hi: number, threads: number, onGroup?: (share: number) => void): PhaseProgram<boolean> {
  const PB = 2 * ctx.EB;
  return yield* subgroupBatchProgram(ctx, regions.points + lo * PB, regions.inf + lo, hi - lo, threads, planSubgroupBatch(ctx.cofactor, hi - lo), onGroup);
}

/** Writes point objects (canonical coordinates, checked at the call) into the regions, infinity flags beside. */
function writePointObjects(ctx: GroupContext, points: PointObjects, n: number, regions: MsmRegions): void {
  const PB = 2 * ctx.EB;
  const per = 2 * ctx.degree;
  new Uint8Array(ctx.inst.memory.buffer).set(points.inf.subarray(0, n), regions.inf);
  for (let i = 0; i < n; i++) {
    if (points.inf[i]) continue;
    ctx.writeAffine(regions.points + i * PB, points.coords.slice(per * i, per * i + per));
  }
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
    // with threads and staging (bytes copied in by the calling thread as it builds a task), two
    // tasks per worker in flight (Batch.depth), each slot alternating two staging buffers: a
    // worker starts its next chunk without waiting for the calling thread (at 2^16 on 2 threads
    // the hand-offs had cost as much as a third of the decoding)
    const depth = threads > 1 && stagingBytes > 0 ? 2 : 1;
    const slots = Array.from({ length: Math.max(1, Math.min(threads, starts.length)) }, () => ({
      staging: Array.from({ length: depth }, () => arena.alloc(Math.max(16, stagingBytes))),
      scratch: arena.alloc(Math.max(16, scratchBytes)),
      built: 0,
    }));
    const batch: Batch = {
      depth,
      tasks: starts.map((start) => (slot: number): Op[] => {
        const s = slots[slot];
        return [call(start, Math.min(chunk, n - start), { staging: s.staging[s.built++ % depth], scratch: s.scratch })];
      }),
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

export function throwPointError(index: number, code: PointErrorCode, fmt: string): never {
  if (code === PointError.notOnCurve) throw new NotOnCurveError(`point ${index} is not on the curve`, index);
  if (code === PointError.notInSubgroup) throw new NotInSubgroupError(`point ${index} is not in the prime-order subgroup`, index);
  throw new PointEncodingError(`point ${index}: malformed ${fmt} encoding: ${MALFORMED[code] ?? `error code ${code}`}`, index);
}

export function typeName(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? `an object (${Object.prototype.toString.call(v).slice(8, -1)})` : `a ${typeof v}`;
}

/** A copy of caller's bytes that shares no memory with them (`Buffer#slice` of Node returns a view; SharedArrayBuffer-backed arrays are copied out too). */
export function copyBytes(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/** Scalars as n × 32 bytes: a packed buffer copied, or bigints reduced mod r and written little-endian (or big-endian). */
export function packScalars(scalars: unknown, endian: 'le' | 'be', r: bigint): Uint8Array {
  if (scalars instanceof Uint8Array) {
    if (scalars.length % 32 !== 0) throw new LengthMismatchError(`packed scalars: ${scalars.length} bytes is not a multiple of 32`);
    return copyBytes(scalars);
  }
  if (!Array.isArray(scalars)) throw new ScalarEncodingError(`scalars must be a Uint8Array or an array of bigints, got ${typeName(scalars)}`);
  const out = allocateFor(scalars.length, 32, 'scalars', () => new Uint8Array(32 * scalars.length));
  for (let i = 0; i < scalars.length; i++) {
    let s: unknown = scalars[i];
    if (typeof s !== 'bigint') throw new ScalarEncodingError(`scalar ${i} is not a bigint (got ${i in scalars ? typeName(s) : 'a hole'})`, i);
    if (s < 0n || s >= 1n << 256n) s = ((s % r) + r) % r;
    let v = s as bigint;
    for (let b = 0; b < 32; b++, v >>= 8n) out[32 * i + (endian === 'be' ? 31 - b : b)] = Number(v & 0xffn);
  }
  return out;
}

/** Most bytes an input copied at the call may take: Wasm32 memory holds at most 4 GiB. */
export const MAX_INPUT_BYTES = 2 ** 32;

/**
 * Allocates the copy of an input of n items of ≈ `bytesPerItem` bytes each, or throws
 * OutOfMemoryError naming it: before any allocation when it cannot fit in Wasm memory, and when the
 * engine refuses the allocation (a RangeError from the engine never escapes).
 */
export function allocateFor<T>(n: number, bytesPerItem: number, what: string, allocate: () => T): T {
  const mib = (b: number) => `${Math.ceil(b / 2 ** 20)} MiB`;
  if (n * bytesPerItem > MAX_INPUT_BYTES) {
    throw new OutOfMemoryError(`pippin: ${n} ${what} need ≈ ${mib(n * bytesPerItem)} in one piece, above the ${mib(MAX_INPUT_BYTES)} a Wasm memory can hold (pass points and scalars as byte chunks to stream them)`);
  }
  try {
    return allocate();
  } catch (e) {
    if (e instanceof RangeError) throw new OutOfMemoryError(`pippin: could not allocate ${mib(n * bytesPerItem)} for ${n} ${what} (${e.message})`);
    throw e;
  }
}

/**
 * Reads every point object once (getters run here, at the call), checking its shape: G1 points are
 * {x, y} with bigint coordinates, G2 points {x: [c0, c1], y: [c0, c1]}; each value in [0, p).
 * null or {infinity: true} is the point at infinity (its coordinates written as zeros, never read).
 */
export function takePointObjects(points: readonly unknown[], degree: 1 | 2, p: bigint): PointObjects {
  const n = points.length;
  const per = 2 * degree;
  // (every point must fit in Wasm memory in one piece: point objects are not streamed)
  const inf = allocateFor(n, per * 48, 'point objects', () => new Uint8Array(n));
  const zeros = new Array<bigint>(per).fill(0n);
  const coords: bigint[] = [];
  for (let i = 0; i < n; i++) {
    if (!(i in points)) throw new PointEncodingError(`point ${i} is missing (a hole in the array); use null for the point at infinity`, i);
    const P = points[i];
    if (P === null || (typeof P === 'object' && (P as { infinity?: unknown }).infinity === true)) {
      inf[i] = 1;
      coords.push(...zeros);
    } else coords.push(...pointCoordinates(P, degree, p, `point ${i}`, i));
  }
  return { coords, inf };
}

/** A finite point object's canonical coordinates (x then y; c0 before c1), or a PointEncodingError naming `where`. */
export function pointCoordinates(P: unknown, degree: 1 | 2, p: bigint, where: string, index?: number): bigint[] {
  const shape = degree === 1 ? '{x, y}' : '{x: [c0, c1], y: [c0, c1]}';
  if (typeof P !== 'object' || P === null) throw new PointEncodingError(`${where} must be ${shape}, {infinity: true} or null, got ${typeName(P)}`, index);
  const { x, y } = P as { x?: unknown; y?: unknown };
  const inRange = (v: unknown): v is bigint => typeof v === 'bigint' && v >= 0n && v < p;
  if (degree === 1) {
    if (typeof x !== 'bigint' || typeof y !== 'bigint') throw new PointEncodingError(`${where}: x and y must be bigints`, index);
    if (!inRange(x) || !inRange(y)) throw new PointEncodingError(`${where}: coordinate not in [0, p)`, index);
    return [x, y];
  }
  const pair = (v: unknown): bigint[] | undefined => (Array.isArray(v) && v.length === 2 && inRange(v[0]) && inRange(v[1]) ? [v[0], v[1]] : undefined);
  const px = pair(x);
  const py = pair(y);
  if (!px || !py) throw new PointEncodingError(`${where}: x and y must be [c0, c1] pairs of bigints in [0, p)`, index);
  return [...px, ...py];
}
