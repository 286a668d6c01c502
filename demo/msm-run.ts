/**
 * The demo's computation, shared by the page (bundled), the Node browser test and bench:browser:
 * deterministic random inputs (seeded, known discrete logs — the CLI's method), the MSM through the
 * public API on the requested number of threads, and the closed-form check
 * Σ s_i·P_i = (Σ s_i·a_i mod r)·G with the bigint reference.
 */
import { curves, startThreads, threads as threadState, type Curve, type CurveName, type Validation } from '../src/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { RefG2 } from '../src/reference/g2.js';
import { g2Params, type G2CurveName } from '../src/curves/index.js';
import { g2Io } from '../src/msm/random-inputs.js';
import { expectedLog, randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { makeRng } from '../src/reference/rng.js';

export type { CurveName };
export const curveNames = Object.keys(curves) as CurveName[];
/** The group of the MSM: G1 (every curve) or G2 (the curves of src/curves/g2.ts). */
export type Group = 'g1' | 'g2';
export const g2CurveNames = Object.keys(g2Params) as CurveName[];

export interface RunParams {
  curve: CurveName;
  /** default 'g1' */
  group?: Group;
  logSize: number;
  seed?: number;
  validate?: Validation;
  /** at most this many threads (1 = the calling thread); default: every worker of the pool */
  threads?: number;
  /** check the result in closed form here (default true; bench:browser checks against Node instead) */
  verify?: boolean;
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
  group: Group;
  logSize: number;
  n: number;
  seed: number;
  validate: Validation;
  /** affine coordinates as 0x-prefixed hex ('0x0' for the point at infinity; G2: '[c0, c1]') */
  x: string;
  y: string;
  infinity: boolean;
  /** MSM time (the g1.msm or g2.msm call), ms */
  ms: number;
  /** input generation, ms (0 when the previous run's inputs were reused) */
  genMs: number;
  verifyMs: number;
  phases: Phases;
  window: number;
  /** threads asked for (undefined: all), threads the MSM ran on (stats.threads) and its tiles */
  threadsRequested: number | undefined;
  threadsUsed: number;
  tiles: number;
  /** the pool's state after the run (`threads.active`, `threads.reason`) */
  threadsActive: boolean;
  threadsReason: string | undefined;
  /** more than one thread was asked for but threads are unavailable: the MSM ran on the calling thread */
  fallback: boolean;
  /** the closed-form check passed (true when not verified here) */
  ok: boolean;
  verified: boolean;
}

export interface Inputs {
  curve: CurveName;
  group: Group;
  logSize: number;
  seed: number;
  n: number;
  points: Uint8Array;
  scalars: Uint8Array;
  /** discrete logs of the points: P_i = logs[i]·G */
  logs: bigint[];
  genMs: number;
}

function curveOf(curveName: CurveName) {
  const curve = (curves as Record<string, Curve<string> | undefined>)[curveName];
  if (!curve) throw new Error(`unsupported curve ${curveName} (available: ${curveNames.join(', ')})`);
  return curve;
}

let lastInputs: Inputs | undefined;

/**
 * The seeded inputs in the curve's primary point format; the last set is kept and returned again
 * for the same curve, size and seed (so repeated runs time the MSM, not the generator).
 */
let initOptions: { backend?: 'wide64' | 'i32' } | undefined;
/** Forces the field backend of every later `init()` (the page's `?backend=wide64|i32`); default: the library's choice. */
export function useBackend(backend: 'wide64' | 'i32' | undefined): void {
  initOptions = backend ? { backend } : undefined;
}

/** The field backend the curve runs on (`curve.info()` after `init()`): 'wide64' where the engine has wide arithmetic. */
export async function curveInfo(curveName: CurveName): Promise<ReturnType<Curve<string>['info']>> {
  const curve = curveOf(curveName);
  await curve.init(initOptions);
  return curve.info();
}

export async function makeInputs(curveName: CurveName, logSize: number, seed = 1, group: Group = 'g1'): Promise<Inputs> {
  const curve = curveOf(curveName);
  if (!(Number.isInteger(logSize) && logSize >= 0 && logSize <= 24)) throw new Error('logSize must be an integer in 0..24');
  if (group === 'g2' && !g2CurveNames.includes(curveName)) throw new Error(`no G2 MSM on ${curveName} (G2: ${g2CurveNames.join(', ')})`);
  if (lastInputs && lastInputs.curve === curveName && lastInputs.group === group && lastInputs.logSize === logSize && lastInputs.seed === seed) return { ...lastInputs, genMs: 0 };
  lastInputs = undefined;
  await curve.init(initOptions);
  if (group === 'g2') {
    const ref2 = new RefG2(g2Params[curveName as G2CurveName]);
    const n = 2 ** logSize;
    const t = performance.now();
    const rng = makeRng(seed);
    const gen = randomPoints(curve.g2.inst, n, rng, curve.params.r, (a) => ref2.mul(ref2.G, a)!, curve.g2.formatSpec(), g2Io(curve.g2.inst));
    const scalars = randomScalarBytes(n, rng);
    lastInputs = { curve: curveName, group, logSize, seed, n, points: gen.bytes, scalars, logs: gen.logs, genMs: performance.now() - t };
    return lastInputs;
  }
  const ref = new RefCurve(curve.params);
  const G = curve.params.G1;
  const n = 2 ** logSize;
  const t = performance.now();
  const rng = makeRng(seed);
  const gen = randomPoints(curve.g1.inst, n, rng, curve.params.r, (a) => ref.mul(G, a)!, curve.g1.formatSpec());
  const scalars = randomScalarBytes(n, rng);
  lastInputs = { curve: curveName, group, logSize, seed, n, points: gen.bytes, scalars, logs: gen.logs, genMs: performance.now() - t };
  return lastInputs;
}

/** The expected MSM of `inputs` in closed form, (Σ s_i·a_i mod r)·G, as the page reports points. */
export function expectedPoint(inputs: Inputs): { x: string; y: string; infinity: boolean } {
  const curve = curveOf(inputs.curve);
  if (inputs.group === 'g2') {
    const ref2 = new RefG2(g2Params[inputs.curve as G2CurveName]);
    const P = ref2.mul(ref2.G, expectedLog(inputs.scalars, inputs.logs, curve.params.r));
    return P ? { x: hexPair(P.x), y: hexPair(P.y), infinity: false } : { x: '0x0', y: '0x0', infinity: true };
  }
  const ref = new RefCurve(curve.params);
  const want = ref.mulScalar(curve.params.G1, expectedLog(inputs.scalars, inputs.logs, curve.params.r));
  return want ? { x: hex(want.x), y: hex(want.y), infinity: false } : { x: '0x0', y: '0x0', infinity: true };
}

const hex = (v: bigint) => `0x${v.toString(16)}`;
const hexPair = (v: readonly [bigint, bigint]) => `[${hex(v[0])}, ${hex(v[1])}]`;

/**
 * Makes sure the pool can give `wanted` threads (starting it with one worker per core, more if
 * asked); never fails: without SharedArrayBuffer `threads.active` stays false and says why.
 */
export async function ensureThreads(wanted: number | undefined): Promise<typeof threadState> {
  if (wanted === 1) return threadState;
  if (!threadState.active) await startThreads();
  if (threadState.active && wanted !== undefined && threadState.count < wanted) await startThreads(wanted);
  return threadState;
}

export async function runMsm({ curve: curveName, group = 'g1', logSize, seed = 1, validate = 'full', threads, verify = true }: RunParams): Promise<RunResult> {
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1)) throw new Error('threads must be a positive integer');
  const curve = curveOf(curveName);
  const inputs = await makeInputs(curveName, logSize, seed, group);
  await ensureThreads(threads);

  let phases: Phases | undefined;
  let window = 0;
  let threadsUsed = 1;
  let tiles = 1;
  const t = performance.now();
  const options = {
    validate,
    threads,
    onStats: (s: { convert: number; times: Omit<Phases, 'convert'>; plan: { c: number }; threads: number; tiles: number }) => {
      phases = { convert: s.convert, ...s.times };
      window = s.plan.c;
      threadsUsed = s.threads;
      tiles = s.tiles;
    },
  };
  let x: string;
  let y: string;
  let infinity: boolean;
  if (group === 'g2') {
    const r2 = await curve.g2.msm(inputs.points, inputs.scalars, options);
    [x, y, infinity] = r2.infinity ? ['0x0', '0x0', true] : [hexPair(r2.x), hexPair(r2.y), false];
  } else {
    const r1 = await curve.g1.msm(inputs.points, inputs.scalars, options);
    [x, y, infinity] = r1.infinity ? ['0x0', '0x0', true] : [hex(r1.x), hex(r1.y), false];
  }
  const ms = performance.now() - t;
  const result = { infinity };
  let ok = true;
  let verifyMs = 0;
  if (verify) {
    const tVerify = performance.now();
    const want = expectedPoint(inputs);
    ok = want.infinity ? result.infinity : !result.infinity && want.x === x && want.y === y;
    verifyMs = performance.now() - tVerify;
  }

  return {
    curve: curveName,
    group,
    logSize,
    n: inputs.n,
    seed,
    validate,
    x,
    y,
    infinity: result.infinity,
    ms,
    genMs: inputs.genMs,
    verifyMs,
    phases: phases ?? { convert: 0, split: 0, prepare: 0, accumulate: 0, reduce: 0, final: 0 },
    window,
    threadsRequested: threads,
    threadsUsed,
    tiles,
    threadsActive: threadState.active,
    threadsReason: threadState.reason,
    fallback: threads !== 1 && !threadState.active,
    ok,
    verified: verify,
  };
}
