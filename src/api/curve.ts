/**
 * One public entry per curve, built from plain data: parameters, the generated module, its point
 * formats and tuning. `init()` instantiates the Wasm once; `g1` is usable after it resolved.
 */
import { G1, PointFormatSpec } from './g1.js';
import { NotInitializedError } from '../errors.js';
import type { CurveParams } from '../curves/types.js';
import { GeneratedModule, instantiateGenerated } from '../runtime/instance.js';

export interface CurveDefinition<F extends string> {
  name: string;
  params: CurveParams;
  module: GeneratedModule;
  /** default: the module's own table (generated with the kernels) */
  formats?: readonly PointFormatSpec<F>[];
  /** default: the first format whose size matches the bytes per point, else the primary one */
  defaultFormat?: (bytesPerPoint: number) => F;
  msmWindow?: (halves: number) => number | undefined;
}

export interface Curve<F extends string> {
  readonly name: string;
  /** Curve parameters (p, r, b, generator, cofactor, GLV β and λ). */
  readonly params: CurveParams;
  /** Instantiates the Wasm module once; later calls return the same promise. */
  init(): Promise<void>;
  /** G1 MSM and codecs; throws NotInitializedError before `init()` resolved. */
  readonly g1: G1<F>;
}

export function defineCurve<F extends string>(def: CurveDefinition<F>): Curve<F> {
  const formats = def.formats ?? (def.module.formats as readonly PointFormatSpec<F>[]);
  const defaultFormat = def.defaultFormat ?? ((bpp: number) => (formats.find((f) => f.bytes === bpp) ?? formats[0]).name);
  let g1: G1<F> | undefined;
  let initializing: Promise<void> | undefined;
  return {
    name: def.name,
    params: def.params,
    init() {
      initializing ??= instantiateGenerated(def.module).then((inst) => {
        g1 = new G1<F>(inst, def.params.r, formats, defaultFormat, def.msmWindow);
      });
      return initializing;
    },
    get g1(): G1<F> {
      if (!g1) throw new NotInitializedError(`${def.name}.init() must be awaited before using g1`);
      return g1;
    },
  };
}
