/**
 * A Groth16 key generator for pippin's tests and benchmarks: from a circom `.r1cs` and a known τ, α,
 * β, γ, δ (derived from a seed), a proving key in snarkjs 0.7's `.zkey` format and the verification
 * key JSON that `snarkjs.zKey.exportVerificationKey` gives for it.
 *
 *   INSECURE BY CONSTRUCTION: the toxic waste (τ, α, β, γ, δ) is a function of a public seed, so anyone
 *   can forge proofs for these keys. For tests and benchmarks only; not setup tooling, not exported by
 *   the package. It exists so that circuits of 2^15–2^20 constraints can be tested without a powers of
 *   tau (≈ 40 min for 2^15 on 2 busy cores).
 *
 *   npx tsx scripts/groth16-keygen.ts --r1cs X.r1cs --out DIR [--seed N] [--verbose]   → DIR/groth16.zkey, DIR/vkey.json
 *   groth16Keygen(r1csBytes, { seed }) → { zkey, vkey, … }        (tests)
 *   buildFixture(withKeygen(spec)) in scripts/snarkjs-fixtures.ts  (benchmarks: a cached key, keygenFixture)
 *
 * Timings (Intel(R) Xeon(R) Processor, 2 vCPUs shared, Node 20, one thread): Poseidon chain of 63
 * hashes (32.6k constraints, 2^15) 2.2 s on BN254, 3.4 s on BLS12-381; SHA-256 block (31.3k) 2.4 s;
 * Poseidon chain of 500 (258.5k constraints, 2^18) 13.8 s.
 *
 * What the key holds (written from the Groth16 construction as snarkjs lays it out; n = domainSize, the
 * smallest power of two above constraints + public signals, L_j the Lagrange basis of the n-th roots of
 * unity ω_n^j with snarkjs's ω_n = 5^((r−1)/n) on both curves, G/H the generators of G1/G2):
 * - rows: the circuit's constraints, then one row per public signal s ≤ nPublic (signal 0 the constant
 *   one) with a_s = 1 in A at row nConstraints + s (so the public inputs are bound);
 * - per signal s: A_s = Σ a·L_row(τ), B_s, C_s likewise; sections A = A_s·G, B1 = B_s·G, B2 = B_s·H,
 *   IC (s ≤ nPublic) = (β·A_s + α·B_s + C_s)/γ·G, C (s > nPublic) = (β·A_s + α·B_s + C_s)/δ·G;
 * - H: point i = L'_{2i+1}(τ)/δ·G, L' the Lagrange basis of the 2n-th roots: the prover's H scalars
 *   are (A·B − C) on the odd coset ω_2n·⟨ω_n⟩, and A·B − C (degree < 2n, zero on ⟨ω_n⟩) at τ is
 *   Σ_i (A·B − C)(ω_2n^(2i+1))·L'_{2i+1}(τ), which the proof divides by δ through these points;
 * - the coefficient section as snarkjs writes it (A and B entries per constraint, then the public
 *   rows; values v·R² mod r), points affine in ffjavascript's Montgomery layout (curves.ts
 *   `pointsToMontgomery`), and a contributions section with a zero hash and no contributions.
 * The scalars are bigint arithmetic (closed-form Lagrange values and one batch inversion); the points
 * are pippin's batched affine additions (its g1/g2_batch_add kernels) over windowed tables of the
 * generator (`timesGenerator`).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bls12_381, bn254 } from '../src/index.js';
import { bn254Curve } from '../src/curves/bn254.js';
import { bls12_381Curve } from '../src/curves/bls12-381.js';
import { groupContextOf } from '../src/api/group.js';
import { enqueue } from '../src/msm/call.js';
import type { G1AffineValue, G2AffineValue } from '../src/msm/group.js';
import { batchAddScratchBytes, INFO_INFINITY } from '../src/abi/layout.js';
import { bigintToLe, leToBigint, readContainer, SectionReader } from '../src/snarkjs/groth16/binfile.js';
import { curveOfR, pointsToMontgomery, type G1Point, type G2Point, type SnarkjsCurve } from '../src/snarkjs/groth16/curves.js';

/** The circuit as the key generator needs it from the `.r1cs`. */
export interface R1cs {
  curve: SnarkjsCurve;
  nVars: number;
  nOutputs: number;
  nPubInputs: number;
  nConstraints: number;
  /** per constraint, the A, B, C linear combinations: [signal, standard value] terms */
  constraints: [signal: number, value: bigint][][][];
}

const R1CS_NAMES = { 1: 'header', 2: 'constraints', 3: 'wire-to-label map' };

/** Reads a circom `.r1cs` (version 1; custom-gate sections ignored). */
export function readR1cs(bytes: Uint8Array): R1cs {
  const file = readContainer(bytes, 'r1cs', 1, R1CS_NAMES);
  const hs = file.sections.get(1);
  const cs = file.sections.get(2);
  if (!hs || !cs) throw new Error('r1cs: header or constraint section missing');
  const h = new SectionReader(file, hs, R1CS_NAMES);
  const n8 = h.u32('n8');
  const prime = h.bigint(n8, 'prime');
  const curve = curveOfR(prime);
  if (!curve) throw new Error(`r1cs: prime ${prime} is the scalar field of no supported curve`);
  const nVars = h.u32('nWires');
  const nOutputs = h.u32('nPubOut');
  const nPubInputs = h.u32('nPubIn');
  h.u32('nPrvIn');
  h.take(8, 'nLabels');
  const nConstraints = h.u32('nConstraints');
  const c = new SectionReader(file, cs, R1CS_NAMES);
  const constraints: R1cs['constraints'] = [];
  for (let i = 0; i < nConstraints; i++) {
    const abc: [number, bigint][][] = [];
    for (let m = 0; m < 3; m++) {
      const terms: [number, bigint][] = [];
      const k = c.u32('a term count');
      for (let t = 0; t < k; t++) terms.push([c.u32('a signal'), c.bigint(n8, 'a coefficient')]);
      abc.push(terms);
    }
    constraints.push(abc);
  }
  c.done();
  return { curve, nVars, nOutputs, nPubInputs, nConstraints, constraints };
}

/** The toxic waste, scalars mod r (all non-zero). */
export interface ToxicWaste {
  tau: bigint;
  alpha: bigint;
  beta: bigint;
  gamma: bigint;
  delta: bigint;
}

/** Deterministic toxic waste from a seed (SHA-256 of the curve, seed and name, mod r). */
export function toxicWaste(curve: SnarkjsCurve, seed: number | string = 1): ToxicWaste {
  const pick = (name: string) => {
    const d = createHash('sha512').update(`pippin groth16-keygen ${curve.name} ${seed} ${name}`).digest();
    const v = leToBigint(d, 0, 64) % curve.r;
    return v === 0n ? 1n : v;
  };
  return { tau: pick('tau'), alpha: pick('alpha'), beta: pick('beta'), gamma: pick('gamma'), delta: pick('delta') };
}

function pow(b: bigint, e: bigint, m: bigint): bigint {
  let x = 1n;
  for (b %= m; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) x = (x * b) % m;
  return x;
}
const inv = (a: bigint, r: bigint) => pow(a, r - 2n, r);

/** In-place batch inversion (no zeros). */
function invertAll(xs: bigint[], r: bigint): void {
  const pre = new Array<bigint>(xs.length);
  let acc = 1n;
  for (let i = 0; i < xs.length; i++) {
    pre[i] = acc;
    acc = (acc * xs[i]) % r;
  }
  let t = inv(acc, r);
  for (let i = xs.length - 1; i >= 0; i--) {
    const x = xs[i];
    xs[i] = (t * pre[i]) % r;
    t = (t * x) % r;
  }
}

/**
 * L_j(τ) for j < count on the domain of the m-th roots of unity (m = 2^k): ω^j·(τ^m − 1)/(m·(τ − ω^j)),
 * ω = 5^((r−1)/m) (ffjavascript's root; 5 is the smallest non-residue mod both curves' r). The indices
 * taken are `first + step·i`.
 */
function lagrangeAt(curve: SnarkjsCurve, tau: bigint, m: number, count: number, first = 0, step = 1): bigint[] {
  const r = curve.r;
  const w = pow(5n, (r - 1n) / BigInt(m), r);
  const wStep = pow(w, BigInt(step), r);
  const z = (pow(tau, BigInt(m), r) - 1n + r) % r;
  const zm = (z * inv(BigInt(m), r)) % r;
  const wj: bigint[] = new Array(count);
  const den: bigint[] = new Array(count);
  let x = pow(w, BigInt(first), r);
  for (let i = 0; i < count; i++, x = (x * wStep) % r) {
    wj[i] = x;
    den[i] = (tau - x + r) % r;
    if (den[i] === 0n) throw new Error('groth16-keygen: τ is a root of unity of the domain (pick another seed)');
  }
  invertAll(den, r);
  for (let i = 0; i < count; i++) den[i] = (((zm * wj[i]) % r) * den[i]) % r;
  return den;
}

function pippinCurve(c: SnarkjsCurve): { curve: typeof bn254 | typeof bls12_381; G1: { x: bigint; y: bigint }; G2: { x: [bigint, bigint]; y: [bigint, bigint] } } {
  const d = c.name === 'bn128' ? bn254Curve : bls12_381Curve;
  return { curve: c.name === 'bn128' ? bn254 : bls12_381, G1: d.params.G1, G2: d.g2.G2 as { x: [bigint, bigint]; y: [bigint, bigint] } };
}

/** Window bits of the generator tables (22 windows of 2^12 − 1 multiples: 9–19 MiB per group). */
const WINDOW = 12;
/** Accumulators in Wasm memory at once (2^18: 27 MiB of BN254 G1 points on the i32 backend). */
const ACC_CHUNK = 1 << 18;
/** Additions per batch-add call (one field inversion each). */
const BATCH = 8192;

/**
 * s·G for every scalar s < r (G the group's generator; 0 gives null, infinity), on the calling
 * thread in the curve's Wasm memory (its queue held): a table T[k][d] = d·2^(12k)·G for every window
 * k and digit d in 1…4095, then per window one round of batched affine additions acc_i += T[k][d_ik]
 * over all scalars (g1_batch_add / g2_batch_add: one inversion per BATCH additions). No addition
 * meets equal or opposite points: after window k an accumulator is (s mod 2^(12k))·G and the
 * summand d·2^(12k)·G with d ≥ 1, two distinct multiples in (0, r) of G, whose sum is below r too.
 * Cost: ⌈bits(r)/12⌉ = 22 additions per scalar + ≈ 90k for the table.
 */
async function timesGenerator(c: SnarkjsCurve, group: 'G1' | 'G2', scalars: readonly bigint[]): Promise<(G1Point | G2Point)[]> {
  const { curve, G1, G2 } = pippinCurve(c);
  await curve.init();
  const ctx = groupContextOf<G1AffineValue | G2AffineValue>((group === 'G1' ? curve.g1 : curve.g2!) as never);
  const { inst, EB } = ctx;
  const PB = 2 * EB;
  const add = ctx.k[ctx.kn.batchAdd] as (pairs: number, n: number, scratch: number) => void;
  return enqueue(inst, async () => {
    const mark = inst.arena.mark();
    try {
      const D = (1 << WINDOW) - 1;
      let bits = 0;
      while (1n << BigInt(bits) < c.r) bits++;
      const W = Math.ceil(bits / WINDOW);
      const table = inst.arena.alloc(W * D * PB, 16);
      const T = (k: number, d: number) => table + (k * D + d - 1) * PB;
      const CHUNK = Math.min(scalars.length, ACC_CHUNK);
      const acc = inst.arena.alloc(Math.max(1, CHUNK) * PB, 16);
      const pairs = inst.arena.alloc(16 * BATCH, 16);
      const scratch = inst.arena.alloc(batchAddScratchBytes(BATCH, EB), 16);
      let n = 0;
      // views of the memory, renewed if a kernel call grew it
      let w = new Int32Array(inst.memory.buffer, pairs, 4 * BATCH);
      let mem = new Uint8Array(inst.memory.buffer);
      const refresh = () => {
        if (mem.buffer !== inst.memory.buffer) {
          w = new Int32Array(inst.memory.buffer, pairs, 4 * BATCH);
          mem = new Uint8Array(inst.memory.buffer);
        }
      };
      const push = (dst: number, a: number, b: number) => {
        const e = 4 * n;
        w[e] = dst;
        w[e + 1] = a;
        w[e + 2] = b;
        w[e + 3] = 0;
        if (++n === BATCH) flush();
      };
      const flush = () => {
        if (n === 0) return;
        add(pairs, n, scratch);
        refresh();
        for (let i = 0; i < n; i++) if (w[4 * i + 3] & INFO_INFINITY) throw new Error('groth16-keygen: an addition met opposite points (a scalar not below r?)');
        n = 0;
      };
      const G = group === 'G1' ? [G1.x, G1.y] : [...G2.x, ...G2.y];
      ctx.writeAffine(T(0, 1), G);
      refresh();
      // T[k][1] = 2^12·T[k−1][1]: doublings one at a time
      for (let k = 1; k < W; k++) {
        mem.copyWithin(T(k, 1), T(k - 1, 1), T(k - 1, 1) + PB);
        for (let j = 0; j < WINDOW; j++) {
          push(T(k, 1), T(k, 1), T(k, 1));
          flush();
        }
      }
      // T[k][2^j + e] = T[k][e] + T[k][2^j] (e < 2^j), T[k][2^j] = 2·T[k][2^(j−1)]: per j two rounds over all windows
      for (let j = 1; j < WINDOW; j++) {
        const p = 1 << j;
        for (let k = 0; k < W; k++) push(T(k, p), T(k, p / 2), T(k, p / 2));
        flush();
        for (let k = 0; k < W; k++) for (let e = 1; e < p && p + e <= D; e++) push(T(k, p + e), T(k, e), T(k, p));
        flush();
      }
      // the accumulators, window by window, ACC_CHUNK scalars at a time
      const out: (G1Point | G2Point)[] = [];
      const mask = BigInt(D);
      for (let from = 0; from < scalars.length; from += CHUNK) {
        const part = scalars.slice(from, from + CHUNK);
        const inf = new Uint8Array(part.length).fill(1);
        for (let k = 0; k < W; k++) {
          const shift = BigInt(k * WINDOW);
          for (let i = 0; i < part.length; i++) {
            const d = Number((part[i] >> shift) & mask);
            if (d === 0) continue;
            if (inf[i]) {
              mem.copyWithin(acc + i * PB, T(k, d), T(k, d) + PB);
              inf[i] = 0;
            } else push(acc + i * PB, acc + i * PB, T(k, d));
          }
          flush();
        }
        for (let i = 0; i < part.length; i++) out.push(inf[i] ? null : (ctx.readAffine(acc + i * PB) as G1Point | G2Point));
        refresh();
      }
      return out;
    } finally {
      inst.arena.release(mark);
    }
  });
}

export interface KeygenResult {
  /** the `.zkey` bytes */
  zkey: Uint8Array;
  /** the verification key, as `snarkjs.zKey.exportVerificationKey(zkey)` returns it */
  vkey: Record<string, unknown>;
  curve: SnarkjsCurve;
  nVars: number;
  nPublic: number;
  domainSize: number;
  /** milliseconds: scalars (bigint), G1 points, G2 points, writing + vkey */
  ms: { scalars: number; g1: number; g2: number; write: number; total: number };
}

export interface KeygenOptions {
  /** seed of the toxic waste (default 1); ignored when `waste` is given */
  seed?: number | string;
  waste?: ToxicWaste;
  log?: (msg: string) => void;
}

/**
 * The Groth16 proving key (`.zkey`, snarkjs 0.7 layout) and verification key of a circom circuit for
 * known toxic waste. INSECURE (the waste is known): tests and benchmarks only.
 */
export async function groth16Keygen(r1csBytes: Uint8Array | R1cs, options: KeygenOptions = {}): Promise<KeygenResult> {
  const t0 = performance.now();
  const cs = r1csBytes instanceof Uint8Array ? readR1cs(r1csBytes) : r1csBytes;
  const { curve, nVars, nConstraints } = cs;
  const r = curve.r;
  const nPublic = cs.nOutputs + cs.nPubInputs;
  const rows = nConstraints + nPublic + 1;
  let power = 0;
  while (2 ** power < rows) power++;
  // snarkjs: floor(log2(nConstraints + nPublic)) + 1, the same for every rows ≥ 2
  const domainSize = 2 ** power;
  if (power + 1 > curve.twoAdicity) throw new Error(`groth16-keygen: 2^${power} rows need a 2^${power + 1} domain, above ${curve.name}'s 2^${curve.twoAdicity}`);
  const w = options.waste ?? toxicWaste(curve, options.seed ?? 1);
  const { tau, alpha, beta, gamma, delta } = w;

  // scalars
  const L = lagrangeAt(curve, tau, domainSize, rows);
  const a = new Array<bigint>(nVars).fill(0n);
  const b = new Array<bigint>(nVars).fill(0n);
  const c = new Array<bigint>(nVars).fill(0n);
  const coefs: [matrix: number, row: number, signal: number, value: bigint][] = [];
  for (let i = 0; i < nConstraints; i++) {
    const [ta, tb, tc] = cs.constraints[i];
    for (const [s, v] of ta) {
      a[s] = (a[s] + v * L[i]) % r;
      coefs.push([0, i, s, v]);
    }
    for (const [s, v] of tb) {
      b[s] = (b[s] + v * L[i]) % r;
      coefs.push([1, i, s, v]);
    }
    for (const [s, v] of tc) c[s] = (c[s] + v * L[i]) % r;
  }
  for (let s = 0; s <= nPublic; s++) {
    a[s] = (a[s] + L[nConstraints + s]) % r;
    coefs.push([0, nConstraints + s, s, 1n]);
  }
  const gInv = inv(gamma, r);
  const dInv = inv(delta, r);
  const k = (s: number) => (beta * a[s] + alpha * b[s] + c[s]) % r;
  const ic = Array.from({ length: nPublic + 1 }, (_, s) => (k(s) * gInv) % r);
  const cc = Array.from({ length: nVars - nPublic - 1 }, (_, i) => (k(nPublic + 1 + i) * dInv) % r);
  const h = lagrangeAt(curve, tau, 2 * domainSize, domainSize, 1, 2).map((v) => (v * dInv) % r);
  const t1 = performance.now();
  options.log?.(`scalars: ${nVars} signals, ${nConstraints} constraints, domain 2^${power}: ${(t1 - t0).toFixed(0)} ms`);

  // points
  const g1Scalars = [alpha, beta, delta, ...ic, ...a, ...b, ...cc, ...h];
  const g1 = (await timesGenerator(curve, 'G1', g1Scalars)) as G1Point[];
  options.log?.(`G1: ${g1Scalars.length} points`);
  const t2 = performance.now();
  const g2Scalars = [beta, gamma, delta, ...b];
  const g2 = (await timesGenerator(curve, 'G2', g2Scalars)) as G2Point[];
  options.log?.(`G2: ${g2Scalars.length} points`);
  const t3 = performance.now();

  // the file
  let at = 0;
  const take1 = (n: number) => pointsToMontgomery(curve, 'G1', g1.slice(at, (at += n)));
  const [alpha1, beta1, delta1] = [take1(1), take1(1), take1(1)];
  const IC = take1(nPublic + 1);
  const A = take1(nVars);
  const B1 = take1(nVars);
  const C = take1(nVars - nPublic - 1);
  const H = take1(domainSize);
  const [beta2, gamma2, delta2] = [0, 1, 2].map((i) => pointsToMontgomery(curve, 'G2', [g2[i]]));
  const B2 = pointsToMontgomery(curve, 'G2', g2.slice(3));

  const n8q = curve.n8q;
  const n8r = curve.n8r;
  const u32 = (v: number) => new Uint8Array(new Uint32Array([v]).buffer);
  const big = (v: bigint, n: number) => {
    const out = new Uint8Array(n);
    bigintToLe(v, out, 0, n);
    return out;
  };
  const R2 = pow(2n, BigInt(16 * n8r), r);
  const rec = 12 + n8r;
  const coefBytes = new Uint8Array(4 + coefs.length * rec);
  const dv = new DataView(coefBytes.buffer);
  dv.setUint32(0, coefs.length, true);
  coefs.forEach(([m, row, s, v], i) => {
    const o = 4 + i * rec;
    dv.setUint32(o, m, true);
    dv.setUint32(o + 4, row, true);
    dv.setUint32(o + 8, s, true);
    bigintToLe((v * R2) % r, coefBytes, o + 12, n8r);
  });
  const sections: [number, Uint8Array[]][] = [
    [1, [u32(1)]],
    [2, [u32(n8q), big(curve.q, n8q), u32(n8r), big(r, n8r), u32(nVars), u32(nPublic), u32(domainSize), alpha1, beta1, beta2, gamma2, delta1, delta2]],
    [3, [IC]],
    [4, [coefBytes]],
    [5, [A]],
    [6, [B1]],
    [7, [B2]],
    [8, [C]],
    [9, [H]],
    [10, [new Uint8Array(64), u32(0)]],
  ];
  const zkey = container('zkey', sections);
  const vkey = await verificationKey(curve, nPublic, g1.slice(0, 1)[0], g2.slice(0, 3) as G2Point[], g1.slice(3, 3 + nPublic + 1), alpha1, beta2);
  const t4 = performance.now();
  return { zkey, vkey, curve, nVars, nPublic, domainSize, ms: { scalars: t1 - t0, g1: t2 - t1, g2: t3 - t2, write: t4 - t3, total: t4 - t0 } };
}

/** snarkjs's binary container: magic, version 1, section count, then (type u32, size u64, payload)*. */
function container(magic: string, sections: [number, Uint8Array[]][]): Uint8Array {
  const size = 12 + sections.reduce((n, [, parts]) => n + 12 + parts.reduce((m, p) => m + p.length, 0), 0);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = magic.charCodeAt(i);
  dv.setUint32(4, 1, true);
  dv.setUint32(8, sections.length, true);
  let o = 12;
  for (const [type, parts] of sections) {
    const len = parts.reduce((m, p) => m + p.length, 0);
    dv.setUint32(o, type, true);
    dv.setUint32(o + 4, len % 2 ** 32, true);
    dv.setUint32(o + 8, Math.floor(len / 2 ** 32), true);
    o += 12;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
  }
  return out;
}

const g1Json = (p: G1Point) => (p ? [String(p.x), String(p.y), '1'] : ['0', '1', '0']);
const g2Json = (p: G2Point) => (p ? [p.x.map(String), p.y.map(String), ['1', '0']] : [['0', '0'], ['1', '0'], ['0', '0']]);

/**
 * The verification key JSON in exportVerificationKey's shape. e(α, β) (vk_alphabeta_12) is the one
 * value pippin cannot compute (no pairing): it comes from ffjavascript's pairing (a devDependency,
 * called, not copied), on a single-threaded curve ended afterwards.
 */
async function verificationKey(c: SnarkjsCurve, nPublic: number, alpha: G1Point, g2: G2Point[], ic: G1Point[], alpha1: Uint8Array, beta2: Uint8Array): Promise<Record<string, unknown>> {
  const ffjs = (await import('ffjavascript')) as unknown as Record<string, (singleThread: boolean) => Promise<FfjsCurve>>;
  const curve = await ffjs[c.name === 'bn128' ? 'buildBn128' : 'buildBls12381'](true);
  try {
    const gt = curve.Gt.toObject(await curve.pairing(alpha1, beta2)) as unknown;
    const str = (v: unknown): unknown => (Array.isArray(v) ? v.map(str) : String(v));
    return {
      protocol: 'groth16',
      curve: c.name,
      nPublic,
      vk_alpha_1: g1Json(alpha),
      vk_beta_2: g2Json(g2[0]),
      vk_gamma_2: g2Json(g2[1]),
      vk_delta_2: g2Json(g2[2]),
      vk_alphabeta_12: str(gt),
      IC: ic.map(g1Json),
    };
  } finally {
    await curve.terminate();
  }
}
interface FfjsCurve {
  pairing(a: Uint8Array, b: Uint8Array): Promise<unknown> | unknown;
  Gt: { toObject(x: unknown): unknown };
  terminate(): Promise<void>;
}

/** Generates the key of `r1csPath` into `outDir` (groth16.zkey, vkey.json). */
export async function keygenToDir(r1csPath: string, outDir: string, options: KeygenOptions = {}): Promise<KeygenResult> {
  const res = await groth16Keygen(new Uint8Array(readFileSync(r1csPath)), options);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'groth16.zkey'), res.zkey);
  writeFileSync(join(outDir, 'vkey.json'), JSON.stringify(res.vkey, null, 1));
  return res;
}

/** Seed of the cached fixture keys (keygenFixture). */
export const FIXTURE_SEED = 1;

/**
 * The cached key of a fixture (scripts/snarkjs-fixtures.ts `keygen: true`): `dir`/groth16-keygen.zkey
 * and groth16-keygen.vkey.json, made from `r1csPath` with FIXTURE_SEED when missing (written through
 * temporary names, so an interrupted run leaves nothing half-written).
 */
export async function keygenFixture(r1csPath: string, dir: string, log: (msg: string) => void = (m) => process.stderr.write(`groth16-keygen: ${m}\n`)): Promise<{ zkey: string; vkey: unknown }> {
  const zkey = join(dir, 'groth16-keygen.zkey');
  const vk = join(dir, 'groth16-keygen.vkey.json');
  if (!existsSync(zkey) || !existsSync(vk)) {
    const res = await groth16Keygen(new Uint8Array(readFileSync(r1csPath)), { seed: FIXTURE_SEED });
    log(`${dir}: ${res.curve.name}, ${res.nVars} signals, domain ${res.domainSize}, ${(res.ms.total / 1000).toFixed(2)} s`);
    for (const [path, data] of [[vk, JSON.stringify(res.vkey)], [zkey, res.zkey]] as const) {
      const tmp = `${path}.tmp${process.pid}`;
      writeFileSync(tmp, data);
      renameSync(tmp, path);
    }
  }
  return { zkey, vkey: JSON.parse(readFileSync(vk, 'utf8')) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const r1cs = opt('--r1cs');
  const out = opt('--out');
  if (!r1cs || !out || args.includes('--help')) {
    process.stderr.write('usage: npx tsx scripts/groth16-keygen.ts --r1cs X.r1cs --out DIR [--seed N]\n  writes DIR/groth16.zkey and DIR/vkey.json: an INSECURE Groth16 key (known toxic waste), for tests and benchmarks only\n');
    process.exit(r1cs && out ? 0 : 2);
  }
  const seed = opt('--seed') ?? '1';
  const res = await keygenToDir(r1cs, out, { seed, log: args.includes('--verbose') ? (m) => process.stderr.write(`groth16-keygen: ${m}\n`) : undefined });
  const ms = Object.entries(res.ms).map(([k, v]) => `${k} ${(v / 1000).toFixed(2)} s`).join(', ');
  process.stderr.write(`groth16-keygen: ${res.curve.name}, ${res.nVars} signals, ${res.nPublic} public, domain ${res.domainSize}: ${ms}\n`);
  await (res.curve.name === 'bn128' ? bn254 : bls12_381).release();
}
