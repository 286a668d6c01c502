#!/usr/bin/env node
/**
 * pippin CLI — the main job: an MSM on deterministic random inputs, verified, with its timing.
 *
 *   pippin msm --curve bls12-381|bn254|bls12-377|pallas|vesta --size 16 [--seed 1] [--runs 3] [--validate full|on-curve|none] [--threads N]
 *   pippin msm --curve bls12-381 --points FILE --scalars FILE [--point-format zcash|zcash-compressed|arkworks] [--scalar-endian le|be]
 *
 * --threads: worker threads (default: one per core; 1 = the calling thread only).
 * Random inputs have known discrete logs, so the result is checked in closed form:
 * Σ s_i·P_i = (Σ s_i·a_i mod r)·G by one bigint scalar multiplication (the reference, not Wasm).
 */
import { readFileSync } from 'node:fs';
import { bls12_381, bls12_377, bn254, pallas, vesta, startThreads, stopThreads, threads } from './index.js';
import type { G1Affine, G1Format, Validation } from './api/g1.js';
import { RefCurve } from './reference/curve.js';
import { expectedLog, randomPoints, randomScalarBytes } from './msm/random-inputs.js';
import { makeRng } from './reference/rng.js';
import type { MsmStats } from './msm/g1.js';

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      out._ = out._ ? `${out._} ${a}` : a;
      continue;
    }
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) out[a.slice(2)] = 'true';
    else out[a.slice(2)] = argv[++i];
  }
  return out;
}

const usage = `usage: pippin msm --curve bls12-381|bn254|bls12-377|pallas|vesta --size LOG2 [--seed N] [--runs N] [--validate full|on-curve|none] [--threads N] [--json]
       pippin msm --curve bls12-381 --points FILE --scalars FILE [--point-format zcash|zcash-compressed|arkworks] [--scalar-endian le|be]`;

const fmtMs = (v: number) => `${v.toFixed(1).padStart(9)} ms`;

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args._ !== 'msm' || args.help) {
    console.log(usage);
    process.exit(args._ === 'msm' ? 0 : 2);
  }
  const curveName = args.curve ?? 'bls12-381';
  const registry = { 'bls12-381': bls12_381, bn254, 'bls12-377': bls12_377, pallas, vesta } as const;
  const curve = registry[curveName as keyof typeof registry] as unknown as typeof bls12_381 | undefined;
  if (!curve) throw new Error(`unsupported curve ${curveName} (available: ${Object.keys(registry).join(', ')})`);
  await curve.init();
  const g1 = curve.g1;
  const ref = new RefCurve(curve.params);
  const G = curve.params.G1;
  const validate = (args.validate ?? 'full') as Validation;
  const runs = Number(args.runs ?? 1);
  const threadCount = args.threads === undefined ? undefined : Number(args.threads);
  if (threadCount !== undefined && (!Number.isInteger(threadCount) || threadCount < 1)) throw new Error('--threads must be a positive integer');
  if (threadCount === 1) stopThreads();
  else await startThreads(threadCount);

  let points: Uint8Array;
  let scalars: Uint8Array;
  let expected: (() => { x: bigint; y: bigint } | null) | undefined;
  let verifyNote: string;
  const tGen = performance.now();
  if (args.points || args.scalars) {
    if (!args.points || !args.scalars) throw new Error('--points and --scalars go together');
    if (curveName !== 'bls12-381') throw new Error('--points/--scalars files are supported for bls12-381 (ZCash encodings) only so far');
    points = new Uint8Array(readFileSync(args.points));
    scalars = new Uint8Array(readFileSync(args.scalars));
    verifyNote = 'bigint reference (naive Σ s_i·P_i)';
  } else {
    const logN = Number(args.size ?? 16);
    if (!(logN >= 0 && logN <= 24)) throw new Error('--size must be in 0..24 (log2 of the point count)');
    const n = 2 ** logN;
    const rng = makeRng(Number(args.seed ?? 1));
    const gen = randomPoints(g1.inst, n, rng, curve.params.r, (a) => ref.mul(G, a)!, g1.formatSpec());
    points = gen.bytes;
    scalars = randomScalarBytes(n, rng);
    expected = () => ref.mulScalar(G, expectedLog(scalars, gen.logs, curve.params.r));
    verifyNote = 'closed form (Σ s_i·a_i mod r)·G with known discrete logs, bigint reference';
  }
  const genMs = performance.now() - tGen;
  const pointFormat = args['point-format'] as G1Format | undefined;
  const scalarEndian = (args['scalar-endian'] ?? 'le') as 'le' | 'be';
  const n = scalars.length / 32;

  let result: G1Affine | undefined;
  const times: number[] = [];
  let stats: (MsmStats & { convert: number }) | undefined;
  for (let run = 0; run < Math.max(1, runs); run++) {
    const t = performance.now();
    result = await g1.msm(points, scalars, { pointFormat, scalarEndian, validate, onStats: (s) => (stats = s) });
    times.push(performance.now() - t);
  }
  const tVerify = performance.now();
  let want: { x: bigint; y: bigint } | null;
  if (expected) want = expected();
  else {
    if (n > 4096) throw new Error('file inputs above 4096 points: naive verification would take too long (use --size)');
    const ptsBig = []; // decode through the library's own object path is not independent: use the reference
    for (let i = 0; i < n; i++) ptsBig.push(decodeZcash(points.subarray(96 * i, 96 * i + 96)));
    const sc = Array.from({ length: n }, (_, i) => {
      let s = 0n;
      const bytes = scalars.subarray(32 * i, 32 * i + 32);
      for (let b = 0; b < 32; b++) s = (s << 8n) | BigInt(scalarEndian === 'be' ? bytes[b] : bytes[31 - b]);
      return s;
    });
    want = ref.msmNaive(ptsBig, sc);
  }
  const verifyMs = performance.now() - tVerify;
  const got = result!.infinity ? null : { x: result!.x, y: result!.y };
  const ok = ref.eq(got, want);
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1];
  const st = stats!;
  const adds = st.additions;
  if (args.json) {
    console.log(JSON.stringify({ curve: curveName, n, validate, medianMs: median, timesMs: times, ok, threads: st.threads, tiles: st.tiles, phases: { convert: st.convert, ...st.times }, plan: st.plan, additions: adds, inversions: st.inversions, estimatedFieldMuls: st.estimatedFieldMuls, peakMemoryBytes: st.peakMemoryBytes }));
  } else {
    console.log(`pippin MSM on ${curveName} G1: n = ${n} points, validate = '${validate}', window c = ${st.plan.c} (${st.plan.windows} windows)`);
    console.log(`threads: ${st.threads}${st.threads > 1 ? ` workers, ${st.tiles} tiles` : ` (calling thread${threads.reason && threadCount !== 1 ? `; ${threads.reason}` : ''})`}`);
    console.log(`inputs generated in ${genMs.toFixed(0)} ms (not part of the MSM)`);
    console.log(`MSM time: ${median.toFixed(1)} ms${times.length > 1 ? ` (median of ${times.length}: ${times.map((t) => t.toFixed(0)).join(', ')})` : ''}`);
    console.log('phases (last run):');
    console.log(`  input conversion + validation ${fmtMs(st.convert)}`);
    console.log(`  scalar decomposition (GLV)    ${fmtMs(st.times.split)}`);
    console.log(`  scheduling prep (compact/endo)${fmtMs(st.times.prepare)}`);
    console.log(`  bucket accumulation           ${fmtMs(st.times.accumulate)}`);
    console.log(`  bucket reduction              ${fmtMs(st.times.reduce)}`);
    console.log(`  final combination             ${fmtMs(st.times.final)}`);
    if (validate === 'full' && st.convert > st.times.accumulate) {
      console.log(`  note: input conversion includes the subgroup check of every point (validate 'full', the API default);`);
      console.log(`        for points already known to be in G1 (e.g. a checked KZG setup) use --validate on-curve`);
    }
    console.log(`batched affine additions: ${adds}, inversions: ${st.inversions}; field multiplications ≈ ${st.estimatedFieldMuls} (${(st.estimatedFieldMuls / Math.max(n, 1)).toFixed(1)} per point; model: 6 per addition + 28 per inversion)`);
    console.log(`peak Wasm memory: ${(st.peakMemoryBytes / 2 ** 20).toFixed(1)} MiB (${Math.round(st.peakMemoryBytes / Math.max(n, 1))} bytes per point)`);
    console.log(`result: ${got ? `x = 0x${got.x.toString(16)}\n        y = 0x${got.y.toString(16)}` : 'point at infinity'}`);
    console.log(`verified against ${verifyNote} in ${verifyMs.toFixed(0)} ms: ${ok ? 'OK' : 'MISMATCH'}`);
  }
  stopThreads();
  if (!ok) process.exit(1);

  function decodeZcash(b: Uint8Array): { x: bigint; y: bigint } | null {
    if (b[0] & 0x40) return null;
    let x = 0n;
    let y = 0n;
    for (let i = 0; i < 48; i++) x = (x << 8n) | BigInt(i === 0 ? b[0] & 0x1f : b[i]);
    for (let i = 48; i < 96; i++) y = (y << 8n) | BigInt(b[i]);
    return { x, y };
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? `${e.name}: ${e.message}` : e);
  process.exit(1);
});
