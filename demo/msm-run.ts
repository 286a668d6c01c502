/**
 * The demo's computation, shared by the page (bundled) and the Node browser test: deterministic
 * random inputs (seeded, known discrete logs — the CLI's method), the MSM through the public API,
 * and the closed-form check Σ s_i·P_i = (Σ s_i·a_i mod r)·G with the bigint reference.
 */
import { bls12_381, bls12_377, bn254, pallas, vesta } from '../src/index.js';
import type { Validation } from '../src/api/g1.js';
import { RefCurve } from '../src/reference/curve.js';
import { randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { makeRng } from '../src/reference/rng.js';

export const curves = { 'bls12-381': bls12_381, bn254, 'bls12-377': bls12_377, pallas, vesta } as const;
export type CurveName = keyof typeof curves;
export const curveNames = Object.keys(curves) as CurveName[];

export interface RunParams {
  curve: CurveName;
  logSize: number;
  seed?: number;
  validate?: Validation;
}

export interface Phases {
  convert: number;
  split: number;
  prepare: number;
  accumulate: number;
  reduce: number;
  final: number;
}

export interface RunResult {
  curve: CurveName;
  logSize: number;
  n: number;
  seed: number;
  validate: Validation;
  /** affine coordinates as 0x-prefixed hex ('0x0' for the point at infinity) */
  x: string;
  y: string;
  infinity: boolean;
  /** MSM time (the g1.msm call), ms */
  ms: number;
  genMs: number;
  verifyMs: number;
  phases: Phases;
  window: number;
  ok: boolean;
}

export async function runMsm({ curve: curveName, logSize, seed = 1, validate = 'full' }: RunParams): Promise<RunResult> {
  const curve = curves[curveName] as unknown as typeof bls12_381 | undefined;
  if (!curve) throw new Error(`unsupported curve ${curveName} (available: ${curveNames.join(', ')})`);
  if (!(Number.isInteger(logSize) && logSize >= 0 && logSize <= 24)) throw new Error('logSize must be an integer in 0..24');
  await curve.init();
  const g1 = curve.g1;
  const ref = new RefCurve(curve.params);
  const G = curve.params.G1;
  const r = curve.params.r;
  const n = 2 ** logSize;

  const tGen = performance.now();
  const rng = makeRng(seed);
  const gen = randomPoints(g1.inst, n, rng, r, (a) => ref.mul(G, a)!, g1.formatSpec());
  const scalars = randomScalarBytes(n, rng);
  const genMs = performance.now() - tGen;

  let phases: Phases | undefined;
  let window = 0;
  const t = performance.now();
  const result = await g1.msm(gen.bytes, scalars, {
    validate,
    onStats: (s) => {
      phases = { convert: s.convert, ...s.times };
      window = s.plan.c;
    },
  });
  const ms = performance.now() - t;

  const tVerify = performance.now();
  let acc = 0n;
  for (let i = 0; i < n; i++) {
    let s = 0n;
    for (let b = 31; b >= 0; b--) s = (s << 8n) | BigInt(scalars[32 * i + b]);
    acc = (acc + s * gen.logs[i]) % r;
  }
  const want = ref.mulScalar(G, acc);
  const got = result.infinity ? null : { x: result.x, y: result.y };
  const ok = ref.eq(got, want);
  const verifyMs = performance.now() - tVerify;

  return {
    curve: curveName,
    logSize,
    n,
    seed,
    validate,
    x: `0x${result.x.toString(16)}`,
    y: `0x${result.y.toString(16)}`,
    infinity: result.infinity,
    ms,
    genMs,
    verifyMs,
    phases: phases ?? { convert: 0, split: 0, prepare: 0, accumulate: 0, reduce: 0, final: 0 },
    window,
    ok,
  };
}
