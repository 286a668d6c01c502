/**
 * The whole Groth16 prover of snarkjs keys on pippin (snarkjs 0.7's algorithm, written here from
 * the protocol): for a witness w of a key with domain n,
 * 1. A and B on the domain: A[c] = Σ v·w[s] over the key's coefficients (matrix 0) of row c, B the
 *    same (matrix 1), C = A·B pointwise — on F_r's Wasm kernels (`abcEvaluations`);
 * 2. H on the coset shift·⟨ω_n⟩: A·B − C after an inverse FFT, the coset factors and an FFT of each
 *    (src/msm/fr-arrays.ts groth16HProgram, its layers spread over the threads);
 * 3. five MSMs on the key's prepared bases: Σ w·A, Σ w·B1 (G1), Σ w·B2 (G2), Σ w_(i > nPublic)·C,
 *    Σ h·H;
 * 4. with fresh r, s: π_A = α + ΣwA + r·δ, π_B = β₂ + ΣwB₂ + s·δ₂, B₁ = β₁ + ΣwB₁ + s·δ₁,
 *    π_C = ΣwC + ΣhH + s·π_A + r·B₁ − r·s·δ₁ (small MSMs on the calling thread).
 * The proof and public signals come out in snarkjs's JSON shapes, so `snarkjs.groth16.verify` and
 * the verifier contracts take them unchanged.
 *
 * Memory: the prepared bases (pinned by `prepare`), the coefficient values in the order the
 * evaluation reads them and the FFT tables (pinned blocks of the curve's instance, freed by
 * `dispose`); per proof, in the arena for the proof's duration: the witness, the coefficient
 * products, A, B, C and the coset table (≈ (nVars + coefficients + 4n)·EB bytes).
 */
import { bls12_381, bn254, threads as pool, type Curve, type G1Affine, type G2Affine, type MsmProgress, type PreparedBases } from '../../index.js';
import { DisposedError, InvalidOptionError } from '../../errors.js';
import { groupContextOf } from '../../api/group.js';
import { optionFunction, optionInteger, optionSignal, optionThreads, takeOptionBag, type OptionBag } from '../../api/option-kit.js';
import { MEMORY_BYTES } from '../../api/options.js';
import { enqueue, runProgram, type PhaseProgram } from '../../msm/call.js';
import { planMsm } from '../../msm/plan.js';
import { ProgressMeter } from '../../msm/progress.js';
import { oneShotBytes } from '../../msm/stream.js';
import { FrArrays, arenaHost, fftTableBytes, frRootsOf, type FftTables, type FrRoots } from '../../msm/fr-arrays.js';
import { bn254Curve } from '../../curves/bn254.js';
import { bls12_381Curve } from '../../curves/bls12-381.js';
import type { Instance } from '../../runtime/instance.js';
import { RefField } from '../../reference/field.js';
import { readZkey, type Groth16Key } from './zkey.js';
import { checkWitness, readWtns } from './wtns.js';
import { take, type FileSource } from './source.js';
import { pointAt, pointsToStandard, type G1Point, type G2Point } from './curves.js';

/**
 * A proof as snarkjs returns it: projective coordinates as decimal strings, z = 1 (G2: [c0, c1]).
 *
 * @example
 * ```ts
 * import type { Groth16Proof } from 'pippin/snarkjs';
 * const proof: Groth16Proof = { pi_a: ['1', '2', '1'], pi_b: [['0', '0'], ['1', '0'], ['0', '0']], pi_c: ['1', '2', '1'], protocol: 'groth16', curve: 'bn128' };
 * console.log(proof.pi_a[2]); // → 1
 * ```
 */
export interface Groth16Proof {
  /** π_A in G1: [x, y, "1"] */
  pi_a: [string, string, string];
  /** π_B in G2: [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]] */
  pi_b: [[string, string], [string, string], [string, string]];
  /** π_C in G1: [x, y, "1"] */
  pi_c: [string, string, string];
  /** always 'groth16' */
  protocol: 'groth16';
  /** snarkjs's curve name */
  curve: 'bn128' | 'bls12381';
}

/**
 * What `prove` returns: the proof and the public signals (decimal strings), as snarkjs's.
 *
 * @example
 * ```ts
 * import type { Groth16Result } from 'pippin/snarkjs';
 * const show = (r: Groth16Result) => `${r.proof.curve}: ${r.publicSignals.length} public signals`;
 * console.log(typeof show); // → function
 * ```
 */
export interface Groth16Result {
  /** the proof */
  proof: Groth16Proof;
  /** the witness values 1…nPublic (outputs, then public inputs), decimal */
  publicSignals: string[];
}

/**
 * Where one proof's time went, milliseconds: reading the witness, the A/B/C evaluations, the H
 * polynomial's FFTs, then the MSMs (started together, each its time to finish from their start:
 * they share the curve's queue), and the final combination.
 *
 * @example
 * ```ts
 * import type { Groth16Stats } from 'pippin/snarkjs';
 * const total = (s: Groth16Stats) => s.read + s.abc + s.fft + s.msm.all + s.assemble;
 * console.log(typeof total); // → function
 * ```
 */
export interface Groth16Stats {
  /** reading and checking the witness */
  read: number;
  /** A, B and C on the domain from the coefficients */
  abc: number;
  /** the H polynomial: FFTs, coset factors, A·B − C */
  fft: number;
  /** the MSMs, each from their common start to its end */
  msm: {
    /** Σ w·A */
    A: number;
    /** Σ w·B1 */
    B1: number;
    /** Σ w·B2 (G2) */
    B2: number;
    /** Σ w·C over the private signals */
    C: number;
    /** Σ h·H */
    H: number;
    /** all five */
    all: number;
  };
  /** the final combination with r and s */
  assemble: number;
}

/**
 * What a proof is doing, for `onProgress`: the A/B/C evaluations, the H polynomial's FFTs, the MSMs;
 * 'done' once, at the end.
 *
 * @example
 * ```ts
 * import type { Groth16Phase } from 'pippin/snarkjs';
 * const phases: Groth16Phase[] = ['abc', 'fft', 'msm', 'done'];
 * console.log(phases.length); // → 4
 * ```
 */
export type Groth16Phase = 'abc' | 'fft' | 'msm' | 'done';

/**
 * One progress report of a proof (`onProgress`): `done` of `total` work units, fixed at the start
 * (a G1 base of an MSM is 1 unit, a G2 base 2.5, the A/B/C evaluations n/8 and the FFTs n for a
 * domain of n: roughly proportional to time). Reports come at most every 50 ms, `done` never
 * decreases, and the last one has phase 'done' and done === total.
 *
 * @example
 * ```ts
 * import type { Groth16Progress } from 'pippin/snarkjs';
 * const bar = (p: Groth16Progress) => `${p.phase} ${Math.round((100 * p.done) / p.total)}%`;
 * console.log(bar({ done: 1, total: 4, phase: 'msm' })); // → msm 25%
 * ```
 */
export interface Groth16Progress {
  /** work units done (may be fractional) */
  done: number;
  /** work units in all */
  total: number;
  /** what runs now */
  phase: Groth16Phase;
}

/**
 * Options of a proof (`key.prove`): as Groth16Options.
 *
 * @example
 * ```ts
 * import type { ProveOptions } from 'pippin/snarkjs';
 * const times: number[] = [];
 * const options: ProveOptions = { threads: 1, onStats: (s) => times.push(s.msm.all), signal: AbortSignal.timeout(60_000) };
 * console.log(options.threads, times.length); // → 1 0
 * ```
 */
export interface ProveOptions {
  /** at most this many threads for the H polynomial and the MSMs (default: every worker of the pool) */
  threads?: number;
  /** called with the proof's phase times */
  onStats?: (stats: Groth16Stats) => void;
  /** called with the proof's progress (Groth16Progress) */
  onProgress?: (progress: Groth16Progress) => void;
  /** cancels the proof: it rejects with the signal's reason, and no work of it runs after that */
  signal?: AbortSignal;
  /**
   * Most Wasm memory (bytes, 1 MiB … 4 GiB) the curve may hold while the proof runs: the key's
   * prepared points and tables plus the proof's largest step (the A/B/C and H arrays, or one MSM's
   * working copy). A proof that would need more rejects with InvalidOptionError before it starts.
   * Default: no bound but Wasm's (4 GiB).
   */
  maxMemoryBytes?: number;
}

export const PROVE_OPTIONS = Object.freeze(['threads', 'onStats', 'onProgress', 'signal', 'maxMemoryBytes'] as const);
export const LOAD_OPTIONS = Object.freeze(['threads', 'signal', 'maxMemoryBytes'] as const);

/** The options of a proof, checked (InvalidOptionError names the wrong one). */
export function proveOptions(bag: OptionBag<string>): ProveOptions {
  return { ...loadOptions(bag), onStats: optionFunction(bag, 'onStats'), onProgress: optionFunction(bag, 'onProgress') };
}

/** The options of loadKey, checked. */
export function loadOptions(bag: OptionBag<string>): LoadKeyOptions {
  return { threads: optionThreads(bag, 'threads'), signal: optionSignal(bag, 'signal'), maxMemoryBytes: optionInteger(bag, 'maxMemoryBytes', MEMORY_BYTES.min, MEMORY_BYTES.max) };
}

/**
 * The coefficients of one matrix laid out for the evaluation: rows sorted by their coefficient
 * count, descending; layer j holds the j-th coefficient of every row with more than j of them, so
 * the partial sums of all rows advance by one vector addition per layer (the rows still in it are a
 * prefix). `signal` and the pinned values follow that layer-major order.
 */
interface MatrixLayout {
  /** rows with at least one coefficient, by descending count */
  rows: Uint32Array;
  /** layer j's length (rows with more than j coefficients) */
  layers: number[];
  /** the first coefficient of this matrix in the combined order */
  first: number;
}

interface Layout {
  /** the witness index of each coefficient, in layer-major order (matrix A's, then B's) */
  signal: Uint32Array;
  matrices: [MatrixLayout, MatrixLayout];
}

/** Counting sort of each matrix's coefficients into the layer-major order (O(coefficients + n)). */
function layoutOf(key: Groth16Key): { layout: Layout; order: Uint32Array } {
  const { count, matrix, constraint, signal } = key.coefficients;
  const n = key.domainSize;
  const order = new Uint32Array(count);
  const matrices: MatrixLayout[] = [];
  let first = 0;
  for (const m of [0, 1]) {
    const len = new Uint32Array(n);
    for (let i = 0; i < count; i++) if (matrix[i] === m) len[constraint[i]]++;
    const rows = Uint32Array.from({ length: n }, (_, i) => i).filter((row) => len[row] > 0);
    rows.sort((a, b) => len[b] - len[a] || a - b);
    const maxLen = rows.length > 0 ? len[rows[0]] : 0;
    const layers: number[] = [];
    for (let j = 0, k = rows.length; j < maxLen; j++) {
      while (k > 0 && len[rows[k - 1]] <= j) k--;
      layers.push(k);
    }
    // the slot of (row, j): layer start + the row's rank among the rows sorted
    const rank = new Int32Array(n).fill(-1);
    rows.forEach((row, i) => (rank[row] = i));
    const layerStart = layers.map((_, j) => first + layers.slice(0, j).reduce((s, x) => s + x, 0));
    const seen = new Uint32Array(n);
    for (let i = 0; i < count; i++) {
      if (matrix[i] !== m) continue;
      const row = constraint[i];
      order[layerStart[seen[row]] + rank[row]] = i;
      seen[row]++;
    }
    matrices.push({ rows, layers, first });
    first += layers.reduce((s, x) => s + x, 0);
  }
  const sig = new Uint32Array(count);
  for (let k = 0; k < count; k++) sig[k] = signal[order[k]];
  return { layout: { signal: sig, matrices: matrices as [MatrixLayout, MatrixLayout] }, order };
}

const CURVES = {
  bn128: { curve: bn254 as unknown as Curve<string>, descriptor: bn254Curve },
  bls12381: { curve: bls12_381 as unknown as Curve<string>, descriptor: bls12_381Curve },
} as const;

/** R⁻¹ mod r for R = 2^256 (ffjavascript's Montgomery factor of F_r elements). */
function montgomeryInverse(r: bigint): bigint {
  const F = new RefField(r);
  return F.inv(F.mod(1n << 256n));
}

/**
 * A Groth16 key loaded once for many proofs (`await groth16.loadKey(zkey)`): read, its points
 * prepared in Wasm memory, its coefficients laid out; proofs may run at the same time.
 *
 * @example
 * ```ts
 * import { groth16, type Groth16ProvingKey } from 'pippin/snarkjs';
 * async function proveMany(zkey: Uint8Array, witnesses: Uint8Array[]) {
 *   const key: Groth16ProvingKey = await groth16.loadKey(zkey);
 *   try {
 *     return await Promise.all(witnesses.map((w) => key.prove(w)));
 *   } finally {
 *     key.dispose();
 *   }
 * }
 * console.log(typeof proveMany); // → function
 * ```
 */
export interface Groth16ProvingKey {
  /** snarkjs's curve name */
  readonly curve: 'bn128' | 'bls12381';
  /** the witness length (signal 0 is the constant 1) */
  readonly nVars: number;
  /** public signals (outputs and public inputs) */
  readonly nPublic: number;
  /** the evaluation domain's size, a power of two */
  readonly domainSize: number;
  /** A proof for a witness (`.wtns`: bytes, copied before it returns its promise; or a path, URL or snarkjs's mem file). */
  prove(wtns: FileSource, options?: ProveOptions): Promise<Groth16Result>;
  /** Releases the prepared bases and tables (after the proofs in flight); later proofs throw DisposedError. */
  dispose(): void;
}

/** What a loaded key keeps of its file: the sizes (the points are prepared, the coefficients laid out and pinned). */
type KeyShape = Pick<Groth16Key, 'curve' | 'nVars' | 'nPublic' | 'domainSize' | 'power'> & { coefficients: { count: number } };

function shapeOf(key: Groth16Key): KeyShape {
  const { curve, nVars, nPublic, domainSize, power } = key;
  return { curve, nVars, nPublic, domainSize, power, coefficients: { count: key.coefficients.count } };
}

/** The key's single points as point objects (standard coordinates; null: infinity). */
interface KeyPoints {
  alpha1: G1Point;
  beta1: G1Point;
  delta1: G1Point;
  beta2: G2Point;
  delta2: G2Point;
}

/** The key's single points read and checked on their curves (NotOnCurveError otherwise). */
function keyPoints(key: Groth16Key, pip: Curve<string>): KeyPoints {
  const g1 = (bytes: Uint8Array) => pointAt(key.curve, 'G1', bytes, 0);
  const g2 = (bytes: Uint8Array) => pointAt(key.curve, 'G2', bytes, 0);
  const vk = { alpha1: g1(key.alpha1), beta1: g1(key.beta1), delta1: g1(key.delta1), beta2: g2(key.beta2), delta2: g2(key.delta2) };
  const on = { validate: 'on-curve' as const };
  pip.g1.msmSync([vk.alpha1, vk.beta1, vk.delta1], [0n, 0n, 0n], on);
  pip.g2.msmSync([vk.beta2, vk.delta2], [0n, 0n], on);
  return vk;
}

class ProvingKey implements Groth16ProvingKey {
  private disposed = false;
  private pending = 0;

  constructor(
    private readonly key: KeyShape,
    private readonly pip: Curve<string>,
    private readonly inst: Instance,
    private readonly roots: FrRoots,
    private readonly bases: { A: PreparedBases<G1Affine>; B1: PreparedBases<G1Affine>; B2: PreparedBases<G2Affine>; C: PreparedBases<G1Affine>; H: PreparedBases<G1Affine> },
    private readonly layout: Layout,
    /** the pinned block: coefficient values (layer-major, F_r kernel form), then the FFT tables */
    private readonly block: { at: number; values: number; tables: FftTables },
    private readonly vk: KeyPoints,
  ) {}

  get curve(): 'bn128' | 'bls12381' {
    return this.key.curve.name;
  }
  get nVars(): number {
    return this.key.nVars;
  }
  get nPublic(): number {
    return this.key.nPublic;
  }
  get domainSize(): number {
    return this.key.domainSize;
  }

  async prove(wtns: FileSource, proveOpts?: ProveOptions): Promise<Groth16Result> {
    if (this.disposed) throw new DisposedError('groth16: this key was disposed');
    const options = proveOptions(takeOptionBag(proveOpts, 'groth16 key.prove', PROVE_OPTIONS));
    const { signal } = options;
    signal?.throwIfAborted();
    const source = take(wtns, 'wtns');
    this.pending++;
    try {
      const t0 = performance.now();
      const w = readWtns(await source());
      checkWitness(this.key, w);
      const witness = w.values;
      const stats: Groth16Stats = { read: performance.now() - t0, abc: 0, fft: 0, msm: { A: 0, B1: 0, B2: 0, C: 0, H: 0, all: 0 }, assemble: 0 };
      const { key, bases, inst } = this;
      const threads = options.threads;
      const n = key.domainSize;
      const weights = { A: bases.A.n, B1: bases.B1.n, B2: G2_UNITS * bases.B2.n, C: bases.C.n, H: bases.H.n };
      const meter = new ProgressMeter<Exclude<Groth16Phase, 'done'>>(ABC_UNITS * n + n + Object.values(weights).reduce((a, b) => a + b, 0), options.onProgress);
      meter.advance(0, 'abc');
      // small domains on the calling thread: the FFT layers' hand-offs would cost more than they save
      const spread = n >= MIN_DOMAIN_FOR_THREADS ? n : 0;
      const hScalars = await enqueue(inst, () => {
        if (options.maxMemoryBytes !== undefined) this.checkMemory(options.maxMemoryBytes, threads);
        return runProgram(inst, (t) => this.hProgram(witness, t, stats, meter), spread, threads, signal);
      });
      const t1 = performance.now();
      const msm = <R>(name: keyof typeof weights, b: PreparedBases<R>, scalars: Uint8Array) => {
        let seen = 0;
        const onProgress = (p: MsmProgress) => {
          const now = (p.done / p.total) * weights[name];
          meter.advance(now - seen, 'msm');
          seen = now;
        };
        return b.msm(scalars, { threads, signal, onProgress }).then((v) => ((stats.msm[name] = performance.now() - t1), v));
      };
      // every MSM settles before the proof does: nothing of it runs after it rejects
      const settled = await Promise.allSettled([
        msm('A', bases.A, witness),
        msm('B1', bases.B1, witness),
        msm('B2', bases.B2, witness),
        msm('C', bases.C, witness.subarray((key.nPublic + 1) * 32)),
        msm('H', bases.H, hScalars),
      ]);
      const failed = settled.find((r) => r.status === 'rejected');
      if (failed) throw signal?.aborted ? signal.reason : (failed as PromiseRejectedResult).reason;
      const [a, b1, b2, c, h] = settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as [G1Affine, G1Affine, G2Affine, G1Affine, G1Affine];
      stats.msm.all = performance.now() - t1;
      const t2 = performance.now();
      const result = this.assemble(witness, a, b1, b2, c, h);
      stats.assemble = performance.now() - t2;
      meter.finish();
      options.onStats?.(stats);
      return result;
    } finally {
      this.settle();
    }
  }

  /**
   * Wasm memory one proof needs on top of what the curve holds now (at its turn on the queue): its
   * largest step, the H program's arrays or one MSM's working copy (msm/stream.ts oneShotBytes).
   */
  private proofBytes(threads: number | undefined): number {
    const T = Math.max(1, Math.min(threads ?? Infinity, pool.count));
    const { key, bases, inst, pip } = this;
    const EB = inst.fields.fr.info.elementBytes;
    const hBytes = (key.nVars + key.coefficients.count + 4 * key.domainSize) * EB + H_MARGIN_BYTES;
    const msmBytes = (group: 'g1' | 'g2', m: number) => {
      const ctx = groupContextOf(pip[group] as typeof pip.g1);
      return oneShotBytes(ctx.EB, planMsm(m, ctx.windowTable), T, m);
    };
    return Math.max(hBytes, msmBytes('g1', Math.max(bases.A.n, bases.B1.n, bases.C.n, bases.H.n)), msmBytes('g2', bases.B2.n));
  }

  /** InvalidOptionError when the curve's memory now plus one proof's would pass `limit`. */
  checkMemory(limit: number, threads: number | undefined, entry = 'prove'): void {
    const need = this.inst.arena.mark() + this.proofBytes(threads);
    if (need > limit) {
      throw new InvalidOptionError(`groth16 ${entry}: option maxMemoryBytes ${limit} is below the ${need} bytes of Wasm memory this proof needs (the key's prepared points and tables, ${this.inst.arena.mark()} bytes, and its largest step)`, 'maxMemoryBytes', limit);
    }
  }

  /** Steps 1–2 as one program: the H polynomial's coset values as little-endian scalars (arena memory, released at its end). */
  private *hProgram(witness: Uint8Array, threads: number, stats: Groth16Stats, meter: ProgressMeter<Exclude<Groth16Phase, 'done'>>): PhaseProgram<Uint8Array> {
    const { arena } = this.inst;
    const mark = arena.mark();
    try {
      const t0 = performance.now();
      const F = new FrArrays(arenaHost(this.inst), this.roots, { tables: this.block.tables, label: 'groth16' });
      const n = this.key.domainSize;
      const [a, b, c] = abcEvaluations(F, this.key, this.layout, this.block.values, witness);
      const t1 = performance.now();
      stats.abc = t1 - t0;
      meter.advance(ABC_UNITS * n, 'fft');
      yield* F.groth16HProgram(a, b, c, n, { threads });
      const out = F.toBytes(a, n, 'le');
      stats.fft = performance.now() - t1;
      meter.advance(n, 'msm');
      return out;
    } finally {
      arena.release(mark);
    }
  }

  /** Step 4 and snarkjs's JSON shapes. */
  private assemble(witness: Uint8Array, a: G1Affine, b1: G1Affine, b2: G2Affine, c: G1Affine, h: G1Affine): Groth16Result {
    const { key, pip, vk } = this;
    const { r } = key.curve;
    const [rr, ss] = [randomScalar(r), randomScalar(r)];
    // every point here is on its curve: the MSMs' results, and the key's, checked at load
    const none = { validate: 'none' as const };
    const piA = pip.g1.msmSync([a, vk.alpha1, vk.delta1], [1n, 1n, rr], none);
    const piB = pip.g2.msmSync([b2, vk.beta2, vk.delta2], [1n, 1n, ss], none);
    const B1 = pip.g1.msmSync([b1, vk.beta1, vk.delta1], [1n, 1n, ss], none);
    const piC = pip.g1.msmSync([c, h, piA, B1, vk.delta1], [1n, 1n, ss, rr, r - ((rr * ss) % r)], none);
    const dec = (v: bigint) => v.toString(10);
    const p1 = (P: G1Affine): [string, string, string] => (P.infinity ? ['0', '1', '0'] : [dec(P.x), dec(P.y), '1']);
    const p2 = (P: G2Affine): Groth16Proof['pi_b'] =>
      P.infinity ? [['0', '0'], ['1', '0'], ['0', '0']] : [[dec(P.x[0]), dec(P.x[1])], [dec(P.y[0]), dec(P.y[1])], ['1', '0']];
    const publicSignals: string[] = [];
    for (let i = 1; i <= key.nPublic; i++) {
      let v = 0n;
      for (let b = 31; b >= 0; b--) v = (v << 8n) | BigInt(witness[32 * i + b]);
      publicSignals.push(dec(v));
    }
    return { proof: { pi_a: p1(piA), pi_b: p2(piB), pi_c: p1(piC), protocol: 'groth16', curve: key.curve.name }, publicSignals };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const b of Object.values(this.bases)) b.dispose();
    if (this.pending === 0) this.free();
  }

  private settle(): void {
    this.pending--;
    if (this.disposed && this.pending === 0) this.free();
  }

  private free(): void {
    if (!this.inst.released) this.inst.arena.freePinned(this.block.at);
  }
}

/** Progress units (Groth16Progress) of a G2 base, and of the A/B/C evaluations per domain element. */
const G2_UNITS = 2.5;
const ABC_UNITS = 1 / 8;
/** Slack for the H program's FFT scratch and alignment. */
const H_MARGIN_BYTES = 1 << 16;

/** From this domain size the H polynomial's FFT layers go to the pool. */
const MIN_DOMAIN_FOR_THREADS = 1 << 13;

/** A uniformly random scalar in [1, r) from crypto.getRandomValues (64 bytes reduced: bias < 2^−250). */
function randomScalar(r: bigint): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(64));
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return (v % (r - 1n)) + 1n;
}

/**
 * Step 1: A, B and C = A·B on the domain (n elements each, F_r kernel form, natural row order) from
 * the witness (nVars 32-byte little-endian standard values). The witness values of every
 * coefficient are gathered in layer-major order and multiplied by the coefficient values (one
 * vector product), each layer is added onto the rows still in it (one vector addition per layer),
 * and the row sums are scattered into A and B. Cost: coefficients + n products, coefficients
 * additions; a copy per coefficient and per non-empty row on the calling thread.
 */
export function abcEvaluations(F: FrArrays, key: KeyShape, layout: Layout, values: number, witness: Uint8Array): [number, number, number] {
  const n = key.domainSize;
  const count = key.coefficients.count;
  const { EB } = F;
  const w = F.alloc(key.nVars);
  F.fromBytes(w, witness, key.nVars, { endian: 'le', what: 'witness value' });
  const products = F.alloc(count);
  let mem = F.mem;
  const { signal } = layout;
  for (let k = 0; k < count; k++) {
    const from = w + signal[k] * EB;
    mem.copyWithin(products + k * EB, from, from + EB);
  }
  F.mul(products, products, values, count);
  const out = [F.alloc(n), F.alloc(n), F.alloc(n)];
  mem = F.mem;
  for (let m = 0; m < 2; m++) {
    const { rows, layers, first } = layout.matrices[m];
    const dst = out[m];
    mem.fill(0, dst, dst + n * EB);
    if (layers.length === 0) continue;
    const acc = products + first * EB;
    let at = first + layers[0];
    for (let j = 1; j < layers.length; j++) {
      F.add(acc, acc, products + at * EB, layers[j]);
      at += layers[j];
    }
    for (let i = 0; i < rows.length; i++) mem.copyWithin(dst + rows[i] * EB, acc + i * EB, acc + (i + 1) * EB);
  }
  F.mul(out[2], out[0], out[1], n);
  return out as [number, number, number];
}

/**
 * Options of `loadKey`: `threads` and `signal` for preparing the points, `maxMemoryBytes` for the
 * key and one proof at a time (as ProveOptions).
 *
 * @example
 * ```ts
 * import type { LoadKeyOptions } from 'pippin/snarkjs';
 * const options: LoadKeyOptions = { threads: 2, maxMemoryBytes: 2 ** 30 };
 * console.log(options.maxMemoryBytes! / 2 ** 20); // → 1024
 * ```
 */
export type LoadKeyOptions = Pick<ProveOptions, 'threads' | 'signal' | 'maxMemoryBytes'>;

/** Wasm memory a key holds once loaded: its prepared points (n·(2·EB + 1) bytes each group), the coefficient values and the FFT tables. */
function heldBytes(key: Groth16Key, pip: Curve<string>, frEB: number): number {
  const points = (group: 'g1' | 'g2', n: number) => n * (2 * groupContextOf(pip[group] as typeof pip.g1).EB + 1);
  const g1 = 2 * key.nVars + (key.nVars - key.nPublic - 1) + key.domainSize;
  return points('g1', g1) + points('g2', key.nVars) + Math.max(1, key.coefficients.count) * frEB + fftTableBytes(frEB, key.power);
}

/**
 * Loads a Groth16 `.zkey` (bytes the caller has copied: the key keeps none of them) for many proofs: read and checked (FileFormatError), the five
 * point sections prepared on the curve ('on-curve' validation: a point off its curve is
 * NotOnCurveError naming it), the coefficients laid out and their values pinned with the FFT
 * tables of the key's domain.
 */
export async function loadGroth16Key(zkey: Uint8Array, options: LoadKeyOptions = {}): Promise<Groth16ProvingKey> {
  const { signal, threads, maxMemoryBytes } = options;
  signal?.throwIfAborted();
  const key = readZkey(zkey);
  const { curve: pip, descriptor } = CURVES[key.curve.name];
  await pip.init();
  signal?.throwIfAborted();
  const inst = (pip.g1 as unknown as { inst: Instance }).inst;
  const frEB = inst.fields.fr.info.elementBytes;
  if (maxMemoryBytes !== undefined) {
    const need = inst.arena.mark() + heldBytes(key, pip, frEB);
    if (need > maxMemoryBytes) {
      throw new InvalidOptionError(`groth16 loadKey: option maxMemoryBytes ${maxMemoryBytes} is below the ${need} bytes of Wasm memory the key needs (prepared points, coefficients, FFT tables) before any proof`, 'maxMemoryBytes', maxMemoryBytes);
    }
  }
  const vk = keyPoints(key, pip);
  const prepared: PreparedBases<G1Affine | G2Affine>[] = [];
  try {
    const prepare = async (group: 'G1' | 'G2', bytes: Uint8Array) => {
      const g = group === 'G1' ? pip.g1 : pip.g2;
      const b = await (g as typeof pip.g1).prepare(pointsToStandard(key.curve, group, bytes, 'primary'), { validate: 'on-curve', threads, signal });
      prepared.push(b);
      return b;
    };
    const A = await prepare('G1', key.A);
    const B1 = await prepare('G1', key.B1);
    const B2 = (await prepare('G2', key.B2)) as unknown as PreparedBases<G2Affine>;
    const C = await prepare('G1', key.C);
    const H = await prepare('G1', key.H);
    const { layout, order } = layoutOf(key);
    const roots = frRootsOf(descriptor);
    const { values } = key.coefficients;
    const n8r = key.curve.n8r;
    const sorted = new Uint8Array(values.length);
    for (let k = 0; k < order.length; k++) sorted.set(values.subarray(order[k] * n8r, (order[k] + 1) * n8r), k * n8r);
    signal?.throwIfAborted();
    const block = await enqueue(inst, async () => {
      const valuesBytes = Math.max(1, key.coefficients.count) * frEB;
      const at = inst.arena.allocPinned(valuesBytes + fftTableBytes(frEB, key.power));
      const mark = inst.arena.mark();
      try {
        const F = new FrArrays(arenaHost(inst), roots, { label: 'groth16' });
        // stored v·R² (R = 2^256): Montgomery-read once gives v·R, once more by R⁻¹ gives v
        F.fromBytes(at, sorted, key.coefficients.count, { endian: 'le', what: 'coefficient value', montgomery: true });
        F.scale(at, at, montgomeryInverse(key.curve.r), key.coefficients.count);
        const tables = F.makeFftTables(at + valuesBytes, key.power);
        return { at, values: at, tables };
      } catch (e) {
        inst.arena.freePinned(at);
        throw e;
      } finally {
        inst.arena.release(mark);
      }
    });
    const loaded = new ProvingKey(shapeOf(key), pip, inst, roots, { A, B1, B2, C, H }, layout, block, vk);
    if (maxMemoryBytes !== undefined) {
      try {
        loaded.checkMemory(maxMemoryBytes, threads, 'loadKey');
      } catch (e) {
        loaded.dispose();
        throw e;
      }
    }
    return loaded;
  } catch (e) {
    for (const b of prepared) b.dispose();
    throw e;
  }
}
