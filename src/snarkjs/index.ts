/**
 * `pippin/snarkjs`: snarkjs's multi-scalar multiplications on pippin.
 *
 * snarkjs (Groth16, PLONK, FFLONK) computes every MSM of a proof through ffjavascript's
 * `curve.G1.multiExpAffine` / `curve.G2.multiExpAffine`, and gets its curve from ffjavascript's
 * `buildBn128()` / `buildBls12381()`, which return the process-wide `globalThis.curve_bn128` /
 * `curve_bls12381` when it is set (never with `singleThread`). `installSnarkjsEngine` builds (or
 * takes) that shared curve with the ffjavascript module it is given and replaces those two methods on
 * it; `uninstall()` puts ffjavascript's own back. pippin contains no snarkjs or ffjavascript code.
 *
 * Each replaced call copies its bases and scalars before anything else runs, and works only on the
 * copies: bases (affine, Montgomery little-endian, (0,0) = infinity) are looked up in a
 * content-keyed cache; on a miss ffjavascript's own workers turn the copy into standard big-endian
 * coordinates (`batchLEMtoU`), pippin decodes and validates them once ('on-curve' by default) and
 * keeps them as prepared bases (`g1.prepare` / `g2.prepare`, Wasm memory), keyed by that same copy.
 * Scalars (32-byte LE, standard form) go to pippin as they are; the affine result is handed back as
 * a new ffjavascript Jacobian point. Calls pippin cannot take (not Uint8Array, scalars not 32 bytes,
 * fewer than `minPoints` points) run ffjavascript's original method (on the copies). docs/snarkjs.md
 * has the caveats.
 *
 * @module pippin/snarkjs
 * @example
 * ```ts
 * import * as snarkjs from 'snarkjs';
 * import * as ffjavascript from 'ffjavascript'; // the copy snarkjs itself imports
 * import { installSnarkjsEngine } from 'pippin/snarkjs';
 * const engine = await installSnarkjsEngine({ ffjavascript, curves: ['bn128', 'bls12381'] });
 * // proofs made now run their MSMs on pippin, e.g.
 * async function prove(zkey: Uint8Array, wtns: Uint8Array) {
 *   return snarkjs.groth16.prove(zkey, wtns);
 * }
 * console.log(typeof prove, engine.status().every((s) => s.active)); // → function true
 * await engine.uninstall();
 * ```
 */
import { bls12_381, bn254 } from '../index.js';
import type { Curve, G1Affine, G2Affine, PreparedBases } from '../index.js';
import { PippinError } from '../errors.js';
import { optionBoolean, optionChoice, optionChoiceList, optionError, optionFunction, optionInteger, optionThreads, optionValue, takeOptionBag } from '../api/options.js';
import { BaseCache, type CacheCounters } from './cache.js';
import type { FfjsCurve, FfjsGroup, FfjsModule, MultiExpFn } from './ffjs.js';
import { splitScalars, type ScalarSplit } from './scalars.js';

export type { FfjsCurve, FfjsGroup, FfjsModule } from './ffjs.js';

/**
 * The curves snarkjs proves on, by ffjavascript's names.
 *
 * @example
 * ```ts
 * import * as ffjavascript from 'ffjavascript';
 * import { installSnarkjsEngine, type SnarkjsCurveName } from 'pippin/snarkjs';
 * const curves: SnarkjsCurveName[] = ['bls12381'];
 * const engine = await installSnarkjsEngine({ ffjavascript, curves });
 * console.log(engine.curves); // → [ 'bls12381' ]
 * await engine.uninstall();
 * ```
 */
export type SnarkjsCurveName = 'bn128' | 'bls12381';
const CURVE_NAMES: readonly SnarkjsCurveName[] = Object.freeze(['bn128', 'bls12381']);

/**
 * Options of `installSnarkjsEngine` (`ffjavascript` is required); unknown names, wrong types, `null`
 * and values out of range reject with InvalidOptionError naming the option.
 *
 * @example
 * ```ts
 * import * as ffjavascript from 'ffjavascript';
 * import { installSnarkjsEngine, type CallRecord, type SnarkjsEngineOptions } from 'pippin/snarkjs';
 * const records: CallRecord[] = [];
 * const options: SnarkjsEngineOptions = { ffjavascript, curves: ['bn128'], validate: 'full', minPoints: 16, onCall: (r) => records.push(r) };
 * const engine = await installSnarkjsEngine(options);
 * console.log(records.length); // → 0
 * await engine.uninstall();
 * ```
 */
export interface SnarkjsEngineOptions {
  /** The ffjavascript module snarkjs uses (`import * as ffjavascript from 'ffjavascript'`). */
  ffjavascript: FfjsModule;
  /** Curves to take over (default ['bn128']). */
  curves?: readonly SnarkjsCurveName[];
  /**
   * Checks on key bases, done once per cached set: 'on-curve' (default), 'full' (also the subgroup;
   * the G2 check is the expensive part) or 'none'. A bad proving key gives proofs the verifier
   * rejects; checking protects the prover from wasted work, not soundness.
   */
  validate?: 'on-curve' | 'full' | 'none';
  /** Most bytes kept by the base cache (default 512 MiB; 0 disables caching). */
  cacheBytes?: number;
  /** Calls with fewer points run ffjavascript's own method (default 64). */
  minPoints?: number;
  /** At most this many pippin threads per MSM (default: the whole pool). */
  threads?: number;
  /**
   * Also runs ffjavascript's own method on every call and throws SnarkjsEngineError when the results
   * differ (for tests and audits; doubles the MSM time).
   */
  crossCheck?: boolean;
  /** Receives one record per replaced call (after it resolved). */
  onCall?: (record: CallRecord) => void;
}

/**
 * One replaced `multiExpAffine` call (what `onCall` receives).
 *
 * @example
 * ```ts
 * import * as ffjavascript from 'ffjavascript';
 * import { installSnarkjsEngine, type CallRecord } from 'pippin/snarkjs';
 * const records: CallRecord[] = [];
 * const engine = await installSnarkjsEngine({ ffjavascript, onCall: (r) => records.push(r) });
 * // an MSM as snarkjs makes it: 64 bases (the generator (1, 2), Montgomery form) and scalars 1
 * const curve = await ffjavascript.buildBn128();
 * const G: Uint8Array = curve.G1.fromObject([1n, 2n]);
 * const bases = new Uint8Array(64 * G.length);
 * for (let i = 0; i < 64; i++) bases.set(G, i * G.length);
 * const scalars = new Uint8Array(64 * 32);
 * for (let i = 0; i < 64; i++) scalars[32 * i] = 1;
 * await curve.G1.multiExpAffine(bases, scalars, undefined, 'example');
 * console.log(records[0].curve, records[0].group, records[0].points, records[0].cache); // → bn128 G1 64 miss
 * await engine.uninstall();
 * ```
 */
export interface CallRecord {
  /** the curve, by ffjavascript's name */
  curve: SnarkjsCurveName;
  /** the group */
  group: 'G1' | 'G2';
  /** snarkjs's label ("multiexp A", …) when it gave one */
  label: string | undefined;
  /** the number of points (bases) */
  points: number;
  /** how the scalars split: zeros, ones, small (< 2^16) and larger, and the largest's bit length */
  split: ScalarSplit;
  /** 'hit' (cached bases), 'miss' (converted now), 'stock' (ffjavascript's own method ran) */
  cache: 'hit' | 'miss' | 'stock';
  /** milliseconds: converting bases on a miss (0 on a hit), and the whole call */
  convertMs: number;
  /** milliseconds of the whole call */
  ms: number;
}

/**
 * The engine's counters since install (`engine.stats()`).
 *
 * @example
 * ```ts
 * import * as ffjavascript from 'ffjavascript';
 * import { installSnarkjsEngine, type EngineStats } from 'pippin/snarkjs';
 * const engine = await installSnarkjsEngine({ ffjavascript });
 * const stats: EngineStats = engine.stats();
 * console.log(stats.calls.G1, stats.cache.entries); // → 0 0
 * await engine.uninstall();
 * ```
 */
export interface EngineStats {
  /** replaced calls that pippin computed, by group */
  calls: {
    /** G1 calls */
    G1: number;
    /** G2 calls */
    G2: number;
  };
  /** calls handed to ffjavascript's own method (see minPoints) */
  stockCalls: number;
  /** points in the replaced calls */
  points: number;
  /** milliseconds in replaced calls (pippin's), and the part spent converting bases */
  ms: number;
  /** milliseconds converting bases (cache misses) */
  convertMs: number;
  /** the base cache: hits, misses, evictions, and what it holds now */
  cache: CacheCounters & {
    /** base sets held */
    entries: number;
    /** bytes held (raw bases plus pippin's prepared form) */
    bytes: number;
  };
  /** calls also run by ffjavascript and compared (`crossCheck`) */
  crossChecks: number;
}

/**
 * Whether snarkjs reaches pippin for one curve (`engine.status()`).
 *
 * @example
 * ```ts
 * import * as ffjavascript from 'ffjavascript';
 * import { installSnarkjsEngine, type CurveStatus } from 'pippin/snarkjs';
 * const engine = await installSnarkjsEngine({ ffjavascript });
 * await engine.uninstall();
 * const [status]: CurveStatus[] = engine.status();
 * console.log(status.curve, status.active, status.reason); // → bn128 false uninstalled (or the methods were replaced again)
 * ```
 */
export interface CurveStatus {
  /** the curve, by ffjavascript's name */
  curve: SnarkjsCurveName;
  /** ffjavascript's shared curve is still the one the engine hooked (snarkjs will use pippin) */
  active: boolean;
  /** why not, when not */
  reason?: string;
}

/**
 * An installed engine (what `installSnarkjsEngine` resolves to).
 *
 * @example
 * ```ts
 * import * as ffjavascript from 'ffjavascript';
 * import { installSnarkjsEngine, type SnarkjsEngine } from 'pippin/snarkjs';
 * const engine: SnarkjsEngine = await installSnarkjsEngine({ ffjavascript, curves: ['bn128'] });
 * engine.clearCache();
 * await engine.uninstall();
 * await engine.uninstall(); // idempotent
 * console.log(engine.curves); // → [ 'bn128' ]
 * ```
 */
export interface SnarkjsEngine {
  /** the curves taken over */
  readonly curves: readonly SnarkjsCurveName[];
  /** The counters since install (a copy). */
  stats(): EngineStats;
  /** Whether snarkjs would reach pippin now, per curve (see docs/snarkjs.md on singleThread). */
  status(): CurveStatus[];
  /** Drops every cached base set. */
  clearCache(): void;
  /**
   * Restores ffjavascript's methods at once (later calls, also through a kept reference to the
   * engine's method, run ffjavascript's), waits for the calls in flight (they resolve to their
   * correct results and cache nothing) and leaves the cache empty. Idempotent.
   */
  uninstall(): Promise<void>;
}

/**
 * An engine failure: bad key bases (named by snarkjs's label and the point's index), a cross-check mismatch, a bad install.
 *
 * @example
 * ```ts
 * import * as ffjavascript from 'ffjavascript';
 * import { installSnarkjsEngine, SnarkjsEngineError } from 'pippin/snarkjs';
 * const engine = await installSnarkjsEngine({ ffjavascript });
 * try {
 *   await installSnarkjsEngine({ ffjavascript }); // bn128 is already taken over
 * } catch (e) {
 *   console.log(e instanceof SnarkjsEngineError); // → true
 * }
 * await engine.uninstall();
 * ```
 */
export class SnarkjsEngineError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'SnarkjsEngineError';
  /**
   * An engine error.
   *
   * @param message - what failed, and where
   * @param index - the offending point's index, or −1
   * @param reason - the pippin error underneath, when there is one
   */
  constructor(
    message: string,
    index = -1,
    /** the pippin error underneath, when there is one */
    readonly reason?: unknown,
  ) {
    super(message, index);
  }
}

const HOOK = Symbol.for('pippin.snarkjs.hook');

interface Hooked {
  curve: SnarkjsCurveName;
  ff: FfjsCurve;
  pip: Curve<string>;
  original: { G1: MultiExpFn; G2: MultiExpFn };
  replaced: { G1: MultiExpFn; G2: MultiExpFn };
  global: 'curve_bn128' | 'curve_bls12381';
  /** conversions of new bases run one after another (concurrent misses on the same bases convert once) */
  chain: Promise<unknown>;
}

type Held = PreparedBases<G1Affine | G2Affine>;

/** pippin's names and formats per ffjavascript curve: bases arrive as ffjavascript's "uncompressed" bytes. */
const PIPPIN = {
  bn128: { curve: () => bn254 as unknown as Curve<string>, global: 'curve_bn128', build: 'buildBn128', g1Format: 'eip196', g2Format: 'eip197', infinityFlag: 0 },
  bls12381: { curve: () => bls12_381 as unknown as Curve<string>, global: 'curve_bls12381', build: 'buildBls12381', g1Format: 'zcash', g2Format: 'zcash', infinityFlag: 0x40 },
} as const;

/**
 * Takes over snarkjs's MSMs for `curves`. Install after snarkjs is imported (importing a copy of
 * ffjavascript resets the shared curve). Rejects with InvalidOptionError for bad options and
 * SnarkjsEngineError when a curve is already hooked by another engine.
 *
 * @example
 * ```ts
 * import * as ffjavascript from 'ffjavascript';
 * import { installSnarkjsEngine } from 'pippin/snarkjs';
 * const engine = await installSnarkjsEngine({ ffjavascript, curves: ['bn128'] });
 * console.log(engine.status()[0].active); // → true
 * await engine.uninstall(); // ffjavascript's own methods again
 * ```
 */
export async function installSnarkjsEngine(options: SnarkjsEngineOptions): Promise<SnarkjsEngine> {
  const opts = parseOptions(options);
  const cache = new BaseCache<Held>(opts.cacheBytes, (held) => held.dispose());
  const stats: EngineStats = {
    calls: { G1: 0, G2: 0 }, stockCalls: 0, points: 0, ms: 0, convertMs: 0, crossChecks: 0,
    cache: { ...cache.counters, entries: 0, bytes: 0 },
  };
  const hooks: Hooked[] = [];
  /** replaced calls not yet settled (uninstall waits for them) */
  const inflight = new Set<Promise<unknown>>();
  /** set by uninstall(): calls go to ffjavascript's method, in-flight calls cache nothing */
  let closed = false;
  try {
    for (const name of opts.curves) {
      const spec = PIPPIN[name];
      const build = opts.ffjavascript[spec.build]!;
      const pip = spec.curve();
      const [ff] = await Promise.all([build(false), pip.init()]);
      for (const g of ['G1', 'G2'] as const) {
        if ((ff[g].multiExpAffine as { [HOOK]?: unknown })[HOOK]) throw new SnarkjsEngineError(`installSnarkjsEngine: ${name} ${g}.multiExpAffine is already replaced by another engine (uninstall it first)`);
      }
      const h: Hooked = { curve: name, ff, pip, global: spec.global, original: { G1: ff.G1.multiExpAffine, G2: ff.G2.multiExpAffine }, replaced: undefined!, chain: Promise.resolve() };
      h.replaced = { G1: makeHook(h, 'G1'), G2: makeHook(h, 'G2') };
      ff.G1.multiExpAffine = h.replaced.G1;
      ff.G2.multiExpAffine = h.replaced.G2;
      hooks.push(h);
    }
  } catch (e) {
    for (const h of hooks) restore(h);
    throw e;
  }

  function makeHook(h: Hooked, group: 'G1' | 'G2'): MultiExpFn {
    const G = h.ff[group];
    const original = h.original[group];
    const PB = 2 * G.F.n8;
    const fn: MultiExpFn = (givenBases, givenScalars, logger, logText) => {
      // the inputs as they are now: every later step reads these copies only
      const bases = copyBytes(givenBases);
      const scalars = copyBytes(givenScalars);
      const n = bases ? Math.floor(bases.length / PB) : 0;
      if (closed || !bases || !scalars || n < opts.minPoints || bases.length !== n * PB || scalars.length !== 32 * n) {
        if (!closed) stats.stockCalls++;
        return original.call(G, bases ?? givenBases, scalars ?? givenScalars, logger, logText);
      }
      const run = replacedCall(h, group, bases, scalars, logText);
      inflight.add(run);
      const done = () => inflight.delete(run);
      run.then(done, done);
      return run;
    };
    Object.defineProperty(fn, HOOK, { value: true });
    return fn;
  }

  /** One call on pippin; `bases` and `scalars` are the call's private copies. */
  async function replacedCall(h: Hooked, group: 'G1' | 'G2', bases: Uint8Array, scalars: Uint8Array, label: string | undefined): Promise<Uint8Array> {
    const t0 = performance.now();
    const G = h.ff[group];
    const n = scalars.length / 32;
    const where = `${h.curve} ${group} bases${label ? ` of "${label}"` : ''} (${n} points)`;
    const split = splitScalars(scalars);
    // a hit starts its MSM at once (calls on one pippin instance take turns there); a miss converts
    // on the curve's chain, so that concurrent calls over the same new bases convert them once
    let entry = opts.cacheBytes > 0 ? cache.lookup(h.curve, group, bases) : undefined;
    let convertMs = 0;
    let pending: Promise<G1Affine | G2Affine>;
    if (entry) pending = msmOnPippin(entry.held, scalars, where);
    else {
      const run = h.chain.then(async () => {
        entry = opts.cacheBytes > 0 ? cache.lookup(h.curve, group, bases, true) : undefined;
        if (entry) return msmOnPippin(entry.held, scalars, where);
        const tc = performance.now();
        const held = await convertBases(h, group, bases, where);
        convertMs = performance.now() - tc;
        // keyed by the bytes just converted (the private copy); nothing is kept once uninstall() began
        const kept = !closed && opts.cacheBytes > 0 && cache.add({ curve: h.curve, group, raw: bases, n, held, bytes: bases.length + held.bytes });
        const r = msmOnPippin(held, scalars, where);
        // not kept: released after the MSM just started (dispose waits for it)
        if (!kept) held.dispose();
        return r;
      });
      h.chain = run.catch(() => {});
      pending = run;
    }
    const result = toJacobian(G, await pending);
    if (opts.crossCheck) {
      const stock = await h.original[group].call(G, bases, scalars);
      stats.crossChecks++;
      if (!G.eq(stock, result)) throw new SnarkjsEngineError(`snarkjs engine: cross-check failed on ${where}: pippin's MSM differs from ffjavascript's`);
    }
    const ms = performance.now() - t0;
    stats.calls[group]++;
    stats.points += n;
    stats.ms += ms;
    stats.convertMs += convertMs;
    opts.onCall?.({ curve: h.curve, group, label, points: n, split, cache: convertMs > 0 ? 'miss' : 'hit', convertMs, ms });
    return result;
  }

  /**
   * Bases → pippin: ffjavascript's workers take them out of Montgomery form (`batchLEMtoU`), pippin
   * decodes and validates them once into prepared bases (Wasm memory).
   */
  async function convertBases(h: Hooked, group: 'G1' | 'G2', bases: Uint8Array, where: string): Promise<PreparedBases<G1Affine | G2Affine>> {
    const spec = PIPPIN[h.curve];
    const G = h.ff[group];
    const PB = 2 * G.F.n8;
    const u = await G.batchLEMtoU(bases);
    if (spec.infinityFlag) {
      // ffjavascript leaves infinity all-zero; the ZCash encoding flags it in the first byte
      for (let off = 0; off < u.length; off += PB) {
        let zero = true;
        for (let i = 0; i < PB; i++) if (u[off + i] !== 0) { zero = false; break; }
        if (zero) u[off] = spec.infinityFlag;
      }
    }
    try {
      const g = (group === 'G1' ? h.pip.g1 : h.pip.g2) as unknown as { prepare(p: Uint8Array, o: object): Promise<PreparedBases<G1Affine | G2Affine>> };
      return await g.prepare(u, { pointFormat: group === 'G1' ? spec.g1Format : spec.g2Format, validate: opts.validate, threads: opts.threads });
    } catch (e) {
      throw wrap(e, where);
    }
  }

  /** The MSM over prepared bases (a prefix of them: scalars' count). Started synchronously. */
  function msmOnPippin(held: PreparedBases<G1Affine | G2Affine>, scalars: Uint8Array, where: string): Promise<G1Affine | G2Affine> {
    return held.msm(scalars, { threads: opts.threads }).catch((e: unknown) => {
      throw wrap(e, where);
    });
  }

  const engine: SnarkjsEngine = {
    curves: Object.freeze(hooks.map((h) => h.curve)),
    stats() {
      return { ...stats, calls: { ...stats.calls }, cache: { ...cache.counters, entries: cache.size, bytes: cache.bytes } };
    },
    status() {
      return hooks.map((h) => {
        const g = (globalThis as Record<string, unknown>)[h.global];
        const mine = h.ff.G1.multiExpAffine === h.replaced.G1 && h.ff.G2.multiExpAffine === h.replaced.G2;
        if (!mine) return { curve: h.curve, active: false, reason: 'uninstalled (or the methods were replaced again)' };
        if (g !== h.ff) {
          return { curve: h.curve, active: false, reason: `globalThis.${h.global} is ${g ? 'another curve' : 'null'}: a copy of ffjavascript was imported after install, or the curve was terminated; snarkjs builds a stock curve (install again)` };
        }
        return { curve: h.curve, active: true };
      });
    },
    clearCache() {
      cache.clear();
    },
    async uninstall() {
      closed = true;
      for (const h of hooks) restore(h);
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
      cache.clear();
    },
  };
  return engine;
}

/**
 * A private copy (a plain Uint8Array, whatever memory the input is in) of a Uint8Array's bytes, or
 * of one of ffjavascript's BigBuffers (pages of 2^30 bytes; snarkjs hands them over for some
 * polynomials and sections) when it is one page. Anything else: undefined (the call goes to
 * ffjavascript's method).
 */
function copyBytes(x: unknown): Uint8Array | undefined {
  if (x instanceof Uint8Array) return new Uint8Array(x);
  const b = x as { buffers?: unknown; byteLength?: unknown } | null;
  if (!b || !Array.isArray(b.buffers) || b.buffers.length !== 1 || typeof b.byteLength !== 'number') return undefined;
  const page: unknown = b.buffers[0];
  return page instanceof Uint8Array && page.length >= b.byteLength ? new Uint8Array(page.subarray(0, b.byteLength)) : undefined;
}

function restore(h: Hooked): void {
  for (const g of ['G1', 'G2'] as const) {
    if (h.ff[g].multiExpAffine === h.replaced?.[g]) h.ff[g].multiExpAffine = h.original[g];
  }
}

/** pippin's affine result → ffjavascript's Jacobian point (Montgomery form), as stock resolves. */
function toJacobian(G: FfjsGroup, r: G1Affine | G2Affine): Uint8Array {
  if (r.infinity) return G.zero.slice();
  const x = r.x as bigint | readonly bigint[];
  const y = r.y as bigint | readonly bigint[];
  return G.toJacobian(G.fromObject([typeof x === 'bigint' ? x : [...x], typeof y === 'bigint' ? y : [...y]]));
}

/** A pippin input error on key bases, renamed to say which section and point. */
function wrap(e: unknown, where: string): unknown {
  if (!(e instanceof PippinError) || e instanceof SnarkjsEngineError) return e;
  const at = e.index >= 0 ? ` point ${e.index}` : '';
  return new SnarkjsEngineError(`snarkjs engine: ${where}:${at} ${e.message} (${e.name})`, e.index, e);
}

interface ParsedOptions {
  ffjavascript: FfjsModule;
  curves: readonly SnarkjsCurveName[];
  validate: 'on-curve' | 'full' | 'none';
  cacheBytes: number;
  minPoints: number;
  threads: number | undefined;
  crossCheck: boolean;
  onCall: ((r: CallRecord) => void) | undefined;
}

const ENTRY = 'installSnarkjsEngine';
const OPTION_NAMES = Object.freeze(['ffjavascript', 'curves', 'validate', 'cacheBytes', 'minPoints', 'threads', 'crossCheck', 'onCall'] as const);
const VALIDATIONS = Object.freeze(['on-curve', 'full', 'none'] as const);
const DEFAULT_CACHE_BYTES = 512 * 2 ** 20;
const MAX_CACHE_BYTES = 2 ** 40;
const MAX_MIN_POINTS = 2 ** 30;

function parseOptions(options: unknown): ParsedOptions {
  const bag = takeOptionBag(options, ENTRY, OPTION_NAMES);
  const curves = optionChoiceList(bag, 'curves', CURVE_NAMES) ?? Object.freeze(['bn128'] as const);
  const ff = optionValue(bag, 'ffjavascript') as Record<string, unknown> | undefined;
  const builders = curves.map((c) => PIPPIN[c].build);
  if (typeof ff !== 'object' || ff === null || Array.isArray(ff) || builders.some((b) => typeof ff[b] !== 'function')) {
    throw optionError(bag, 'ffjavascript', ff, `the ffjavascript module snarkjs imports (with ${builders.map((b) => `${b}()`).join(' and ')})`);
  }
  return {
    ffjavascript: ff as FfjsModule,
    curves,
    validate: optionChoice(bag, 'validate', VALIDATIONS) ?? 'on-curve',
    cacheBytes: optionInteger(bag, 'cacheBytes', 0, MAX_CACHE_BYTES) ?? DEFAULT_CACHE_BYTES,
    minPoints: optionInteger(bag, 'minPoints', 1, MAX_MIN_POINTS) ?? 64,
    threads: optionThreads(bag, 'threads'),
    crossCheck: optionBoolean(bag, 'crossCheck') ?? false,
    onCall: optionFunction<(typeof OPTION_NAMES)[number], (r: CallRecord) => void>(bag, 'onCall'),
  };
}

export { groth16, type FileSource, type FullProveOptions, type Groth16Options, type Groth16Proof, type Groth16Result, type Groth16ProvingKey, type Groth16Stats, type Groth16Phase, type Groth16Progress, type LoadKeyOptions, type ProveOptions } from './groth16/index.js';
export { FileFormatError, type FileFormatCode } from './groth16/errors.js';
