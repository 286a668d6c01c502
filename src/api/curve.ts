/**
 * One public entry per curve, from its descriptor (plain data: parameters, point formats, tuning)
 * and its generated module. `init()` instantiates the Wasm once; `g1` is usable after it resolved.
 */
import { G1 } from './g1.js';
import { G2 } from './g2.js';
import type { G2FormatName } from '../curves/g2.js';
import type { G2FixedScratchKernel } from '../wasm-generated/kernels.js';
import { NotInitializedError, PippinError } from '../errors.js';
import type { CurveDescriptor, CurveParams } from '../curves/types.js';
import type { PointFormatSpec } from '../abi/codes.js';
import { GeneratedModule, instantiateGenerated } from '../runtime/instance.js';

export interface Curve<F extends string> {
  readonly name: string;
  /** Curve parameters (p, r, b, generator, cofactor, GLV β and λ). */
  readonly params: CurveParams;
  /** Instantiates the Wasm module once; later calls return the same promise. */
  init(): Promise<void>;
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
  let g2: G2<G2FormatName> | undefined;
  let initializing: Promise<void> | undefined;
  return {
    name: desc.name,
    params: desc.params,
    init() {
      initializing ??= instantiateGenerated(module).then((inst) => {
        g1 = new G1<F>(inst, { name: desc.name, r: desc.params.r, h1: desc.params.h1, formats, windowTable: desc.tuning.msmWindow.table, scratchBytes: module.scratchBytes });
        if (module.g2Formats) {
          const scratchBytes = module.scratchBytes as unknown as Readonly<Record<G2FixedScratchKernel, number>>;
          g2 = new G2(inst, { name: desc.name, r: desc.params.r, formats: module.g2Formats as readonly PointFormatSpec<G2FormatName>[], windowTable: desc.tuning.msmWindow.table, scratchBytes });
        }
      });
      return initializing;
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
