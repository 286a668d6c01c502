/**
 * One public entry per curve, from its descriptor (plain data: parameters, point formats, tuning)
 * and its generated module. `init()` instantiates the Wasm once; `g1` is usable after it resolved.
 */
import { Group, type G1, type G2 } from './group.js';
import type { G2FormatName } from '../curves/g2.js';
import { groupContext } from '../msm/group.js';
import { BackendUnavailableError, InvalidOptionError, NotInitializedError, PippinError } from '../errors.js';
import { describeValue, parseChoice } from './options.js';
import { wideArithmeticSupported } from '../runtime/wide-probe.js';
import type { CurveDescriptor, CurveParams } from '../curves/types.js';
import type { PointFormatSpec } from '../abi/codes.js';
import { GeneratedModule, WideModule, instantiateGenerated } from '../runtime/instance.js';

/**
 * Field arithmetic backends: `'wide64'` = 64-bit limbs on the Wasm wide-arithmetic instructions
 * (i64.mul_wide_u, i64.add128, i64.sub128), `'i32'` = 26…30-bit limbs on plain i64 arithmetic.
 */
export const BACKENDS = Object.freeze(['wide64', 'i32'] as const);
export type Backend = (typeof BACKENDS)[number];

export interface InitOptions {
  /** Forces a backend; default: `'wide64'` where the engine validates wide arithmetic, else `'i32'`. */
  backend?: Backend;
}

/** What `init()` chose, and why. */
export interface CurveInfo {
  backend: Backend;
  /** whether this engine validates the wide-arithmetic instructions (the probe's answer) */
  wideArithmetic: boolean;
  /** limb width of the base field: 64 (wide64) or the curve's tuned 26…30 (i32) */
  limbBits: number;
  /** bytes of one base-field element in Wasm memory */
  elementBytes: number;
}

export interface Curve<F extends string> {
  readonly name: string;
  /** Curve parameters (p, r, b, generator, cofactor, GLV β and λ). */
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
  /** G1 MSM and codecs; throws NotInitializedError before `init()` resolved. */
  readonly g1: G1<F>;
  /** G2 MSM and codecs (BLS12-381 and BN254); throws NotInitializedError before `init()`, PippinError on curves without it. */
  readonly g2: G2<G2FormatName>;
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
  let g1: G1<F> | undefined;
  let info: CurveInfo | undefined;
  let g2: G2<G2FormatName> | undefined;
  let initializing: Promise<void> | undefined;
  let chosen: Backend | undefined;
  return {
    name: desc.name,
    params: desc.params,
    init(options?: InitOptions) {
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
      const mod: WideModule = backend === 'wide64' ? module.wide64! : module;
      initializing = instantiateGenerated(mod).then((inst) => {
        const fp = inst.fields.fp.info;
        info = Object.freeze({ backend, wideArithmetic: wide, limbBits: fp.w, elementBytes: fp.elementBytes });
        const windowTable = desc.tuning.msmWindow.table;
        const r = desc.params.r;
        const g1Ctx = groupContext('g1', { inst, scratchBytes: mod.scratchBytes, windowTable, cofactor: desc.params.h1 });
        g1 = new Group({ entry: `${desc.name}.g1`, r, formats, ctx: g1Ctx });
        const g2Spec = desc.g2;
        if (!g2Spec || !module.g2Formats) return;
        // G2 runs on the i32 module (a wide64 module has no F_p² kernels): this instance, or a second one
        return (backend === 'i32' ? Promise.resolve(inst) : instantiateGenerated(module)).then((i32) => {
          const g2Ctx = groupContext('g2', { inst: i32, scratchBytes: module.scratchBytes, windowTable, cofactor: g2Spec.h2 });
          g2 = new Group({ entry: `${desc.name}.g2`, r, formats: module.g2Formats as readonly PointFormatSpec<G2FormatName>[], ctx: g2Ctx });
        });
      });
      return initializing;
    },
    info(): CurveInfo {
      if (!info) throw new NotInitializedError(`${desc.name}.init() must be awaited before info()`);
      return info;
    },
    get g1(): G1<F> {
      if (!g1) throw new NotInitializedError(`${desc.name}.init() must be awaited before using g1`);
      return g1;
    },
    get g2(): G2<G2FormatName> {
      if (!g1) throw new NotInitializedError(`${desc.name}.init() must be awaited before using g2`);
      if (!g2) throw new PippinError(`${desc.name} has no G2 MSM (G2 is implemented for bls12-381 and bn254)`);
      return g2;
    },
  };
}

/** `init`'s options: undefined, or an object whose only known own key is `backend`. */
function parseInitOptions(options: unknown, entry: string): Backend | undefined {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidOptionError(`${entry}: options must be an object, got ${describeValue(options)}`, 'options', options);
  }
  for (const key of Object.keys(options)) {
    if (key !== 'backend') throw new InvalidOptionError(`${entry}: unknown option ${JSON.stringify(key)} (known: "backend")`, key, (options as Record<string, unknown>)[key]);
  }
  const v = Object.getOwnPropertyDescriptor(options, 'backend')?.value;
  return v === undefined ? undefined : parseChoice(v, BACKENDS, 'backend', entry);
}
