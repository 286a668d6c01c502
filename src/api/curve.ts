/**
 * One public entry per curve, from its descriptor (plain data: parameters, point formats, tuning)
 * and its generated module. `init()` instantiates the Wasm once; `g1` is usable after it resolved.
 * `release()` drops the instance(s) and their memory; the next `init()` instantiates again and
 * refills the same group objects (their contexts are kept and rewritten in place).
 */
import { Group, type G1, type G2 } from './group.js';
import type { G2FormatName } from '../curves/g2.js';
import { groupContext, type G1AffineValue, type G2AffineValue, type GroupContext } from '../msm/group.js';
import { enqueue } from '../msm/call.js';
import { evictFromWorkers } from '../runtime/pool.js';
import { BackendUnavailableError, NotInitializedError, PippinError } from '../errors.js';
import { optionChoice, takeOptionBag } from './options.js';
import { wideArithmeticSupported } from '../runtime/wide-probe.js';
import { selfTestWide64 } from '../runtime/wide-selftest.js';
import type { CurveDescriptor, CurveParams } from '../curves/types.js';
import type { PointFormatSpec } from '../abi/codes.js';
import { GeneratedModule, WideModule, instantiateGenerated, releaseInstance, type Instance } from '../runtime/instance.js';

/**
 * Field arithmetic backends: `'wide64'` = 64-bit limbs on the Wasm wide-arithmetic instructions
 * (i64.mul_wide_u, i64.add128, i64.sub128), `'i32'` = 26…30-bit limbs on plain i64 arithmetic.
 */
export const BACKENDS = Object.freeze(['wide64', 'i32'] as const);
/**
 * A field arithmetic backend: `'wide64'` (64-bit limbs on the Wasm wide-arithmetic instructions) or
 * `'i32'` (26…30-bit limbs on plain i64 arithmetic).
 *
 * @example
 * ```ts
 * import { bls12_381, type Backend } from 'pippin';
 * await bls12_381.init();
 * const backend: Backend = bls12_381.info().backend;
 * console.log(backend === 'i32' || backend === 'wide64'); // → true
 * ```
 */
export type Backend = (typeof BACKENDS)[number];

/**
 * Options of `curve.init()`.
 *
 * @example
 * ```ts
 * import { bls12_377, type InitOptions } from 'pippin';
 * const options: InitOptions = { backend: 'i32' }; // runs on every engine
 * await bls12_377.init(options);
 * console.log(bls12_377.info().backend); // → i32
 * ```
 */
export interface InitOptions {
  /** Forces a backend; default: `'wide64'` where the engine validates wide arithmetic, else `'i32'`. */
  backend?: Backend;
}

/**
 * What `init()` chose, and why (`curve.info()`).
 *
 * @example
 * ```ts
 * import { bn254, type CurveInfo } from 'pippin';
 * await bn254.init();
 * const info: CurveInfo = bn254.info();
 * console.log(info.backend === 'wide64' ? info.limbBits === 64 : info.limbBits < 64); // → true
 * ```
 */
export interface CurveInfo {
  /** the backend in use */
  backend: Backend;
  /** whether this engine validates the wide-arithmetic instructions (the probe's answer) */
  wideArithmetic: boolean;
  /** limb width of the base field: 64 (wide64) or the curve's tuned 26…30 (i32) */
  limbBits: number;
  /** bytes of one base-field element in Wasm memory */
  elementBytes: number;
  /** why `init()` took i32 although the engine validates wide arithmetic: the wide64 self-test's first wrong answer */
  reason?: string;
}

/**
 * One curve (`bls12_381`, `bn254`, `bls12_377`, `pallas`, `vesta`): its parameters, `init()`, and its
 * groups. `F` is the G1 format names.
 *
 * @example
 * ```ts
 * import { bls12_381, type Curve } from 'pippin';
 * const curve: Curve<'zcash' | 'zcash-compressed' | 'arkworks'> = bls12_381;
 * await curve.init();
 * const S = curve.g1.msmSync([curve.params.G1], [2n]);
 * console.log(curve.name, S.infinity); // → bls12-381 false
 * ```
 */
export interface Curve<F extends string> {
  /** the curve's name, e.g. 'bls12-381' (the keys of `curves`) */
  readonly name: string;
  /**
   * Curve parameters (p, r, b, generator, cofactor, GLV β and λ).
   *
   * @inlineType CurveParams
   */
  readonly params: CurveParams;
  /**
   * Instantiates the Wasm module once (the backend: `options.backend`, else wide64 where the engine
   * validates wide arithmetic, else i32); later calls return the same promise. Rejects with
   * BackendUnavailableError when the backend asked for cannot run here or differs from the one
   * already chosen, InvalidOptionError for an unknown option or backend name.
   */
  init(options?: InitOptions): Promise<void>;
  /** The backend in use and the field layout; throws NotInitializedError before `init()` resolved. */
  info(): CurveInfo;
  /** G1 MSM and codecs; throws NotInitializedError before `init()` resolved (and after `release()`). */
  readonly g1: G1<F>;
  /** G2 MSM and codecs (BLS12-381 and BN254); throws NotInitializedError before `init()`, PippinError on curves without it. */
  readonly g2: G2<G2FormatName>;
  /**
   * Gives the curve's Wasm memory back to the engine (Wasm memories only grow; docs/prepared.md,
   * "Giving memory back"): waits for the asynchronous calls queued before it on the curve (either
   * group, plain, prepared or streamed), then drops the instance(s), their memory and the workers'
   * instances on it. Afterwards prepared bases of the curve are disposed (their use throws
   * DisposedError, `bytes` is 0), and `g1`, `g2`, `info()` — and calls on group objects taken
   * before, including calls made while the release was pending — throw NotInitializedError until
   * `init()` is awaited again; then the same `g1` and `g2` objects work again, on a fresh memory
   * (init may then choose another backend). Resolves at once on a curve not initialized; calling
   * it again while pending returns the same promise. Never rejects.
   */
  release(): Promise<void>;
}

export function defineCurve<D extends CurveDescriptor>(desc: D, module: GeneratedModule): Curve<D['formats'][number]> {
  type F = D['formats'][number];
  const byName = new Map(module.formats.map((f) => [f.name, f]));
  // the descriptor's order (primary first); the module implements exactly these
  const formats = desc.formats.map((name) => {
    const f = byName.get(name);
    if (!f) throw new Error(`pippin: module for ${desc.name} lacks format ${name}`);
    return f as PointFormatSpec<F>;
  });
  // the group objects, made by the first init; a later init (after release) refills their contexts
  let g1: G1<F> | undefined;
  let g2: G2<G2FormatName> | undefined;
  let g1Ctx: GroupContext<G1AffineValue> | undefined;
  let g2Ctx: GroupContext<G2AffineValue> | undefined;
  let info: CurveInfo | undefined;
  let initializing: Promise<void> | undefined;
  let chosen: Backend | undefined;
  /** the instances of the current init (G1's, and G2's when it is a second one) */
  let instances: Instance[] = [];
  /** g1/g2 usable: init resolved and no release since */
  let live = false;
  let releasing: Promise<void> | undefined;
  /** released and not initialized since */
  let wasReleased = false;
  const released = `${desc.name} was released (release()); await ${desc.name}.init() before using it again`;
  const notReady = (what: string) => new NotInitializedError(wasReleased ? released : `${desc.name}.init() must be awaited before using ${what}`);

  /** A group's context: the first one as made, later ones copied into it (the group holds it). */
  const context = <A>(held: GroupContext<A> | undefined, fresh: GroupContext<A>): GroupContext<A> => {
    if (!held) return fresh;
    for (const key of Reflect.ownKeys(fresh)) Object.defineProperty(held, key, { value: (fresh as unknown as Record<PropertyKey, unknown>)[key], writable: true, enumerable: true, configurable: true });
    return held;
  };

  function init(options?: InitOptions): Promise<void> {
    if (releasing) {
      const after = releasing;
      return after.then(() => init(options));
    }
    {
      let asked: Backend | undefined;
      try {
        asked = parseInitOptions(options, `${desc.name}.init`);
      } catch (e) {
        return Promise.reject(e);
      }
      const wide = wideArithmeticSupported();
      if (asked === 'wide64' && !(wide && module.wide64)) {
        const why = module.wide64 ? 'this engine does not validate the Wasm wide-arithmetic instructions' : 'no wide64 module was built for this curve';
        return Promise.reject(new BackendUnavailableError(`${desc.name}.init: backend 'wide64' unavailable: ${why}`, 'wide64'));
      }
      const backend: Backend = asked ?? (wide && module.wide64 ? 'wide64' : 'i32');
      if (chosen !== undefined) {
        if (asked !== undefined && asked !== chosen) {
          return Promise.reject(new BackendUnavailableError(`${desc.name}.init: already initialized with backend '${chosen}', cannot switch to '${asked}'`, asked));
        }
        return initializing!;
      }
      chosen = backend;
      const windowTable = desc.tuning.msmWindow.table;
      const r = desc.params.r;
      // wide64 only when it computes right here: a known-answer self-test before the module is taken
      // (src/runtime/wide-selftest.ts); on a wrong answer i32, with the reason in info()
      type Start = { inst: Instance; mod: WideModule; reason?: string };
      const start: Promise<Start> =
        backend === 'i32'
          ? instantiateGenerated(module).then((inst) => ({ inst, mod: module }))
          : instantiateGenerated(module.wide64!).then(async (inst): Promise<Start> => {
              const wide64 = module.wide64!;
              const probe = new Group<string, G1AffineValue & { infinity: boolean }, never>({
                entry: `${desc.name}.g1`, r, formats, ctx: groupContext('g1', { inst, scratchBytes: wide64.scratchBytes, windowTable, cofactor: desc.params.h1 }),
              });
              const reason = await selfTestWide64(wide64, desc.params, { instance: inst, msm: (_i, pts, s) => probe.msm(pts as never, s, { threads: 1 }) });
              if (reason === undefined) return { inst, mod: wide64 };
              releaseInstance(inst, `${desc.name}: the wide64 module failed its self-test`);
              if (asked === 'wide64') throw new BackendUnavailableError(`${desc.name}.init: backend 'wide64' unavailable: ${reason}`, 'wide64');
              chosen = 'i32';
              return { inst: await instantiateGenerated(module), mod: module, reason };
            });
      initializing = start.then(({ inst, mod, reason }) => {
        instances = [inst];
        const fp = inst.fields.fp.info;
        info = Object.freeze({ backend: chosen!, wideArithmetic: wide, limbBits: fp.w, elementBytes: fp.elementBytes, ...(reason === undefined ? {} : { reason }) });
        g1Ctx = context(g1Ctx, groupContext('g1', { inst, scratchBytes: mod.scratchBytes, windowTable, strausMaxPoints: desc.tuning.straus?.g1, subgroupBatchFrom: desc.tuning.subgroupBatchFrom?.g1, cofactor: desc.params.h1 }));
        g1 ??= new Group({ entry: `${desc.name}.g1`, r, formats, ctx: g1Ctx });
        const g2Spec = desc.g2;
        if (!g2Spec || !module.g2Formats) {
          live = true;
          wasReleased = false;
          return;
        }
        // G2 runs on the i32 module (a wide64 module has no F_p² kernels): this instance, or a second one
        return (chosen === 'i32' ? Promise.resolve(inst) : instantiateGenerated(module)).then((i32) => {
          if (i32 !== inst) instances.push(i32);
          g2Ctx = context(g2Ctx, groupContext('g2', { inst: i32, scratchBytes: module.scratchBytes, windowTable, strausMaxPoints: desc.tuning.straus?.g2, subgroupBatchFrom: desc.tuning.subgroupBatchFrom?.g2, cofactor: g2Spec.h2 }));
          g2 ??= new Group({ entry: `${desc.name}.g2`, r, formats: module.g2Formats as readonly PointFormatSpec<G2FormatName>[], ctx: g2Ctx });
          live = true;
          wasReleased = false;
        });
      });
      return initializing;
    }
  }

  /**
   * Waits until every queued call on each instance has ended (a turn on each instance's queue, the
   * same `enqueue` the calls use, held until all turns began), then runs `drop` while the turns are
   * held, so calls queued after release() run after it.
   */
  async function drained(insts: readonly Instance[], drop: (insts: readonly Instance[]) => Promise<void>): Promise<void> {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const turns = insts.map((inst) => new Promise<void>((began) => void enqueue(inst, () => (began(), gate))));
    try {
      await Promise.all(turns);
      await drop(insts);
    } finally {
      open();
    }
  }

  /** The release proper, in the instances' turn: contexts and instances emptied, workers told, state reset. */
  async function drop(insts: readonly Instance[]): Promise<void> {
    const gone = (): never => {
      throw new NotInitializedError(released);
    };
    const evicted = insts.filter((i) => i.shared).map((i) => evictFromWorkers(i.module));
    // the contexts keep only their instance (emptied below): every other member throws until init refills them
    for (const ctx of [g1Ctx, g2Ctx]) {
      if (!ctx) continue;
      for (const key of Reflect.ownKeys(ctx)) {
        if (key !== 'inst') Object.defineProperty(ctx, key, { get: gone, enumerable: true, configurable: true });
      }
    }
    for (const inst of insts) releaseInstance(inst, released);
    instances = [];
    live = false;
    wasReleased = g1 !== undefined;
    info = undefined;
    chosen = undefined;
    initializing = undefined;
    await Promise.all(evicted);
  }

  function release(): Promise<void> {
    // initialized: the turns are queued now, before any call made after this one; an init under way finishes first
    const settled = live ? undefined : (initializing ?? Promise.resolve()).catch(() => undefined);
    releasing ??= (settled ? settled.then(() => drained(instances, drop)) : drained(instances, drop)).finally(() => (releasing = undefined));
    return releasing;
  }

  return {
    name: desc.name,
    params: desc.params,
    init,
    release,
    info(): CurveInfo {
      if (!info || !live) throw notReady('info()');
      return info;
    },
    get g1(): G1<F> {
      if (!live) throw notReady('g1');
      return g1!;
    },
    get g2(): G2<G2FormatName> {
      if (!live) throw notReady('g2');
      if (!g2) throw new PippinError(`${desc.name} has no G2 MSM (G2 is implemented for bls12-381 and bn254)`);
      return g2;
    },
  };
}

/** `init`'s options: undefined, or an object whose only known own key is `backend`. */
function parseInitOptions(options: unknown, entry: string): Backend | undefined {
  return optionChoice(takeOptionBag(options, entry, ['backend']), 'backend', BACKENDS);
}
