#!/usr/bin/env node
/**
 * pippin CLI — the main job: an MSM on deterministic random inputs, verified, with its timing.
 *
 *   pippin msm [--curve bls12-381|bn254|bls12-377|pallas|vesta] [--size 16] [--seed 1] [--runs 1] [--threads N]
 *              [--validate full|on-curve|none] [--point-format NAME] [--scalar-endian le|be] [--group g1|g2] [--explain] [--json]
 *              [--max-memory MIB] [--no-progress] [--window C]
 *   pippin msm --curve bls12-381 --points FILE --scalars FILE [--point-format zcash|zcash-compressed|arkworks] [--scalar-endian le|be]
 *
 * --threads: worker threads (default: one per core; 1 = the calling thread only).
 * --window: the window width c (windowBits; default: the curve's tuned table), for tuning runs.
 * --explain: one thread; after the run, the cost model of the batched-addition phases (src/msm/explain.ts:
 * field ops and the batch-addition kernel timed in this process) beside the measured phase times.
 * --max-memory: the MSM's Wasm memory budget in MiB (maxMemoryBytes; above it the inputs are streamed
 * in chunks); sizes up to 2^24. Runs above a second show progress on stderr (a bar on a TTY).
 * Random inputs have known discrete logs, so the result is checked in closed form:
 * Σ s_i·P_i = (Σ s_i·a_i mod r)·G by one bigint scalar multiplication (the reference, not Wasm).
 * File inputs are checked by the naive bigint Σ s_i·P_i (BLS12-381 only, up to 4096 points).
 * A bad command line prints one line naming the flag, the usage, and exits with code 2.
 */
import { readFileSync } from 'node:fs';
import { MAX_THREADS, VALIDATIONS, WINDOW_BITS } from './api/options.js';
import { curves, startThreads, stopThreads, threads, type CurveName, type Curve, type G1Affine, type G2Affine, type Validation } from './index.js';
import { RefCurve, type Affine } from './reference/curve.js';
import { RefG2 } from './reference/g2.js';
import { g2Params, type G2CurveName } from './curves/index.js';
import { g2Io, randomPoints, randomScalarBytes } from './msm/random-inputs.js';
import { makeRng } from './reference/rng.js';
import { groupContextOf, type MsmCallStats } from './api/group.js';
import type { MsmProgress } from './msm/progress.js';
import { DEFAULT_MAX_MEMORY_BYTES } from './msm/stream.js';
import type { MsmStats } from './msm/program.js';
import { MISS_REGION_BYTES, explainMsm, measureKernelCosts, type KernelCosts, type PhaseExplanation } from './msm/explain.js';
import { accumulationWorkingSet, describeWindows, missFraction, type PointGeometry } from './msm/plan.js';
import { cacheTuning } from './curves/cache.tuning.js';
import { UsageError, choiceFlag, intFlag, parseFlags, runCli } from './cli-args.js';

const curveNames = Object.keys(curves) as CurveName[];
const usage = `usage: pippin msm [--curve ${curveNames.join('|')}] [--size LOG2 (0…24, default 16)] [--seed N] [--runs N (1…1000)]
                 [--threads N (1…${MAX_THREADS})] [--validate full|on-curve|none] [--point-format NAME] [--scalar-endian le|be] [--group g1|g2] [--explain] [--json]
                 [--max-memory MIB (16…4096; default 256: above it the MSM streams its inputs in chunks)] [--no-progress]
       pippin msm --curve bls12-381 --points FILE --scalars FILE [--point-format zcash|zcash-compressed|arkworks] [--scalar-endian le|be] ...
--point-format: one of the curve's point encodings (default: its first); --help: this text`;

const flags = {
  curve: { type: 'string' },
  size: { type: 'string' },
  seed: { type: 'string' },
  runs: { type: 'string' },
  threads: { type: 'string' },
  validate: { type: 'string' },
  'point-format': { type: 'string' },
  'scalar-endian': { type: 'string' },
  group: { type: 'string' },
  points: { type: 'string' },
  scalars: { type: 'string' },
  explain: { type: 'boolean' },
  json: { type: 'boolean' },
  'max-memory': { type: 'string' },
  'no-progress': { type: 'boolean' },
  window: { type: 'string' },
} as const;

/** Points generated per randomPoints call (its Wasm scratch stays far below the MSM's memory). */
const GENERATE_CHUNK = 1 << 18;

/**
 * Progress on stderr for runs above a second: a bar redrawn in place on a TTY, else a plain line
 * at most every 2 s. Returns the onProgress callback and `end` (clears the bar).
 */
function progressDisplay(enabled: boolean): { onProgress: (p: MsmProgress) => void; end: () => void } {
  const tty = process.stderr.isTTY === true;
  const start = performance.now();
  let lastLine = 0;
  let drawn = false;
  const onProgress = (p: MsmProgress) => {
    const t = performance.now() - start;
    if (!enabled || t < 1000) return;
    const share = Number.isFinite(p.total) && p.total > 0 ? p.done / p.total : 0;
    const pct = `${(100 * share).toFixed(0).padStart(3)}%`;
    const label = `${pct} ${p.phase.padEnd(10)} ${(t / 1000).toFixed(1)} s`;
    if (tty) {
      const width = 30;
      const full = Math.round(share * width);
      process.stderr.write(`\r[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${label}`);
      drawn = true;
    } else if (t - lastLine >= 2000 || p.phase === 'done') {
      lastLine = t;
      process.stderr.write(`progress: ${label}\n`);
    }
  };
  return { onProgress, end: () => drawn && process.stderr.write('\r\x1b[K') };
}

/** File inputs above this many points are refused: the naive check would take too long. */
const MAX_FILE_POINTS = 4096;

const fmtMs = (v: number) => `${v.toFixed(1).padStart(9)} ms`;

function readInput(flag: string, path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new UsageError(`--${flag}: cannot read '${path}' (${(e as { code?: string }).code ?? (e as Error).message})`);
  }
}

/** The i-th 32-byte scalar as an integer, read in the given byte order. */
function scalarAt(bytes: Uint8Array, i: number, endian: 'le' | 'be'): bigint {
  let s = 0n;
  for (let b = 0; b < 32; b++) s = (s << 8n) | BigInt(bytes[32 * i + (endian === 'be' ? b : 31 - b)]);
  return s;
}

/** Each 32-byte scalar with its bytes reversed (little- ↔ big-endian). */
function reverseScalars(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 32) out.set(bytes.subarray(i, i + 32).reverse(), i);
  return out;
}

async function main(): Promise<number> {
  const { values, positionals } = parseFlags(process.argv.slice(2), flags, true);
  if (positionals.length !== 1 || positionals[0] !== 'msm') {
    throw new UsageError(positionals.length === 0 ? 'missing the command (msm)' : `unknown command '${positionals.join(' ')}' (commands: msm)`);
  }
  const curveName = choiceFlag('curve', values.curve, 'bls12-381', curveNames);
  const logN = intFlag('size', values.size, 16, 0, 24);
  const seed = intFlag('seed', values.seed, 1, 0, Number.MAX_SAFE_INTEGER);
  const runs = intFlag('runs', values.runs, 1, 1, 1000);
  const explain = values.explain === true;
  const threadCount = values.threads === undefined ? (explain ? 1 : undefined) : intFlag('threads', values.threads, 1, 1, MAX_THREADS);
  if (explain && threadCount !== 1) throw new UsageError(`--explain models one thread: drop --threads ${values.threads} (or give --threads 1)`);
  const validate = choiceFlag<Validation>('validate', values.validate, 'full', VALIDATIONS);
  const scalarEndian = choiceFlag('scalar-endian', values['scalar-endian'], 'le', ['le', 'be']);
  const group = choiceFlag('group', values.group, 'g1', ['g1', 'g2']);
  const maxMemoryMiB = intFlag('max-memory', values['max-memory'], DEFAULT_MAX_MEMORY_BYTES / 2 ** 20, 16, 4096);
  const windowBits = values.window === undefined ? undefined : intFlag('window', values.window, 0, WINDOW_BITS.min, WINDOW_BITS.max);
  const fromFiles = values.points !== undefined || values.scalars !== undefined;
  if (group === 'g2') {
    if (explain) throw new UsageError('--explain models the G1 MSM; it does not go with --group g2');
    if (!(curveName in g2Params)) throw new UsageError(`--group g2: G2 is implemented for ${Object.keys(g2Params).join(' and ')}, not --curve ${curveName}`);
    if (fromFiles) throw new UsageError('--group g2: file inputs are supported for G1 only');
    return g2Main(curves[curveName], curveName as G2CurveName, { logN, seed, runs, threadCount, validate, scalarEndian, format: values['point-format'], json: values.json === true, windowBits });
  }
  if (fromFiles) {
    if (values.points === undefined || values.scalars === undefined) throw new UsageError('--points and --scalars go together');
    if (curveName !== 'bls12-381') throw new UsageError(`--points/--scalars: file inputs are supported for bls12-381 only, not --curve ${curveName}`);
    for (const f of ['size', 'seed'] as const) {
      if (values[f] !== undefined) throw new UsageError(`--${f} sets generated inputs; it does not go with --points/--scalars`);
    }
  }

  const curve: Curve<string> = curves[curveName];
  await curve.init();
  const g1 = curve.g1;
  const formatNames = g1.pointFormats.map((f) => f.name);
  const askedFormat = values['point-format'] === undefined ? undefined : choiceFlag('point-format', values['point-format'], formatNames[0], formatNames);
  const ref = new RefCurve(curve.params);
  const G = curve.params.G1;
  const r = curve.params.r;

  let points: Uint8Array;
  let scalars: Uint8Array;
  let format: string;
  let expected: () => Affine;
  let verifyNote: string;
  const tGen = performance.now();
  if (fromFiles) {
    points = readInput('points', values.points!);
    scalars = readInput('scalars', values.scalars!);
    if (scalars.length % 32 !== 0) throw new UsageError(`--scalars: ${scalars.length} bytes is not a multiple of 32`);
    const count = scalars.length / 32;
    if (count > MAX_FILE_POINTS) throw new UsageError(`--scalars: ${count} scalars; file inputs are limited to ${MAX_FILE_POINTS} (naive verification), use --size for more`);
    // as the library does without a format: the first one whose size fits
    const spec = askedFormat !== undefined ? g1.pointFormats.find((f) => f.name === askedFormat)! : g1.pointFormats.find((f) => f.bytes * count === points.length);
    if (!spec || spec.bytes * count !== points.length) {
      const sizes = askedFormat !== undefined ? `${spec!.bytes} (${askedFormat})` : g1.pointFormats.map((f) => `${f.bytes} (${f.name})`).join(' or ');
      throw new UsageError(`--points: ${points.length} bytes is not ${count} points of ${sizes} bytes`);
    }
    format = spec.name;
    const pts = points;
    const sc = scalars;
    expected = () => {
      const ptsBig: Affine[] = []; // decoded here in bigints, independently of the library
      for (let i = 0; i < count; i++) ptsBig.push(decodeBls12_381(pts.subarray(spec.bytes * i, spec.bytes * (i + 1)), format, ref));
      return ref.msmNaive(ptsBig, Array.from({ length: count }, (_, i) => scalarAt(sc, i, scalarEndian)));
    };
    verifyNote = 'bigint reference (naive Σ s_i·P_i)';
  } else {
    const n = 2 ** logN;
    const rng = makeRng(seed);
    const spec = g1.formatSpec(askedFormat);
    format = spec.name;
    // generated in chunks, so that generating does not grow the Wasm memory beyond the MSM's own
    const gen = { bytes: new Uint8Array(n * spec.bytes), logs: [] as bigint[] };
    for (let at = 0; at < n; at += GENERATE_CHUNK) {
      const part = randomPoints(g1.inst, Math.min(GENERATE_CHUNK, n - at), rng, r, (a) => ref.mul(G, a)!, spec);
      gen.bytes.set(part.bytes, at * spec.bytes);
      for (const l of part.logs) gen.logs.push(l);
    }
    points = gen.bytes;
    const le = randomScalarBytes(n, rng);
    scalars = scalarEndian === 'be' ? reverseScalars(le) : le;
    const sc = scalars;
    expected = () => {
      let log = 0n; // the scalars as the MSM reads them
      for (let i = 0; i < n; i++) log = (log + scalarAt(sc, i, scalarEndian) * gen.logs[i]) % r;
      return ref.mulScalar(G, log);
    };
    verifyNote = 'closed form (Σ s_i·a_i mod r)·G with known discrete logs, bigint reference';
  }
  const genMs = performance.now() - tGen;
  const n = scalars.length / 32;

  if (threadCount === 1) stopThreads();
  else await startThreads(threadCount);
  let result: G1Affine | undefined;
  const times: number[] = [];
  let stats: MsmCallStats | undefined;
  for (let run = 0; run < runs; run++) {
    const t = performance.now();
    const progress = progressDisplay(!values['no-progress']);
    try {
      result = await g1.msm(points, scalars, { pointFormat: format, scalarEndian, validate, windowBits, maxMemoryBytes: maxMemoryMiB * 2 ** 20, onProgress: progress.onProgress, onStats: (s) => (stats = s) });
    } finally {
      progress.end();
    }
    times.push(performance.now() - t);
  }
  const tVerify = performance.now();
  const want = expected();
  const verifyMs = performance.now() - tVerify;
  const got = result!.infinity ? null : { x: result!.x, y: result!.y };
  const ok = ref.eq(got, want);
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1];
  const st = stats!;
  const adds = st.additions;
  const costs = explain ? measureKernelCosts(g1.inst, G) : undefined;
  const model = costs ? explainMsm(costs, st) : undefined;
  if (values.json) {
    console.log(JSON.stringify({ curve: curveName, n, validate, pointFormat: format, scalarEndian, medianMs: median, timesMs: times, ok, threads: st.threads, tiles: st.tiles, phases: { convert: st.convert, ...st.times }, plan: st.plan, additions: adds, inversions: st.inversions, estimatedFieldMuls: st.estimatedFieldMuls, peakMemoryBytes: st.peakMemoryBytes, maxMemoryBytes: maxMemoryMiB * 2 ** 20, streamedChunks: st.streamedChunks ?? 0, chunkPoints: st.chunkPoints ?? 0, ...(costs && { explain: { nsPerOp: { mul: costs.mul, sqr: costs.sqr, addsub: costs.addsub, inv: costs.inv }, phases: model } }) }));
  } else {
    console.log(`pippin MSM on ${curveName} G1: n = ${n} points, validate = '${validate}', window c = ${st.plan.c} (${describeWindows(st.plan)}), batch ${st.plan.batch}, accumulation working set ${(st.plan.workingSet / 1024).toFixed(0)} KiB per thread`);
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
      console.log(`  note: input conversion includes the subgroup check (validate 'full', the API default; batched, docs/validation.md);`);
      console.log(`        for points already known to be in G1 (e.g. a checked KZG setup) use --validate on-curve`);
    }
    console.log(`batched affine additions: ${adds}, inversions: ${st.inversions}; field multiplications ≈ ${st.estimatedFieldMuls} (${(st.estimatedFieldMuls / Math.max(n, 1)).toFixed(1)} per point; model: 6 per addition + 28 per inversion)`);
    console.log(`peak Wasm memory: ${(st.peakMemoryBytes / 2 ** 20).toFixed(1)} MiB (${Math.round(st.peakMemoryBytes / Math.max(n, 1))} bytes per point; --max-memory ${maxMemoryMiB} MiB)`);
    if (st.streamedChunks) console.log(`streamed: ${st.streamedChunks} chunks of up to ${st.chunkPoints} points into one set of buckets per window`);
    if (costs && model) printExplanation(costs, model, st, median, groupContextOf(g1));
    console.log(`result: ${got ? `x = 0x${got.x.toString(16)}\n        y = 0x${got.y.toString(16)}` : 'point at infinity'}`);
    console.log(`verified against ${verifyNote} in ${verifyMs.toFixed(0)} ms: ${ok ? 'OK' : 'MISMATCH'}`);
  }
  stopThreads();
  return ok ? 0 : 1;
}

/** The cost model beside the measurement (--explain; src/msm/explain.ts). */
function printExplanation(costs: KernelCosts, model: PhaseExplanation[], st: MsmStats & { convert: number }, totalMs: number, g: PointGeometry): void {
  const f = (v: number, d = 1) => v.toFixed(d);
  console.log(`cost model (last run, one thread; ns per op timed in this process: mul ${f(costs.mul)}, sqr ${f(costs.sqr)}, add/sub ${f(costs.addsub)}, inverse ${f(costs.inv, 0)})`);
  console.log('  field model  = additions × (5 mul + 1 sqr + 5 add/sub) + batches × 1 inverse');
  console.log('  kernel model = additions × g1_batch_add ns per pair at the mean batch, points in cache');
  const rows = [['phase', 'additions', 'batches', 'mean batch', 'ns/pair', 'field model', 'kernel model', 'measured', 'measured/field', 'measured/kernel']];
  for (const m of model) {
    rows.push([
      m.phase === 'accumulate' ? 'bucket accumulation' : 'bucket reduction',
      String(m.additions), String(m.inversions), f(m.meanBatch, 0), m.additions ? f(costs.pair(m.meanBatch)) : '-',
      `${f(m.fieldModelMs)} ms`, `${f(m.kernelModelMs)} ms`, `${f(m.measuredMs)} ms`,
      m.fieldModelMs ? `${f(m.measuredMs / m.fieldModelMs, 2)}×` : '-', m.kernelModelMs ? `${f(m.measuredMs / m.kernelModelMs, 2)}×` : '-',
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log('  ' + r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
  const modelled = model.reduce((a, m) => a + m.measuredMs, 0);
  const rest = st.convert + st.times.split + st.times.prepare + st.times.final;
  const ws = accumulationWorkingSet(g, st.plan.buckets, st.plan.batch);
  const kib = (b: number) => `${f(b / 1024, 0)} KiB`;
  const missNs = costs.miss(st.plan.batch);
  const fraction = missFraction(ws.total);
  const acc = model.find((m) => m.phase === 'accumulate');
  console.log(`  working set per thread: ${kib(ws.total)} = buckets ${kib(ws.buckets)} + batch ${kib(ws.batch)} + items in flight ${kib(ws.inFlight)}; planner's L2 budget ${kib(cacheTuning.l2Bytes)} (src/curves/cache.tuning.ts)`);
  console.log(`  L2 miss: +${f(missNs)} ns per addition (${f(missNs / costs.mul, 2)} mul; planner's value ${cacheTuning.missMuls}) with buckets over ${MISS_REGION_BYTES >> 20} MiB, g1_batch_touch + g1_batch_add at batch ${st.plan.batch};`);
  console.log(`    at the budget the model counts ${f(100 * fraction, 0)}% of bucket touches as misses: +${f(((acc?.additions ?? 0) * fraction * missNs) / 1e6)} ms of accumulation`);
  console.log(`  not modelled: conversion + validation ${f(st.convert)} ms, split ${f(st.times.split)} ms, prep ${f(st.times.prepare)} ms, final ${f(st.times.final)} ms (${f((100 * rest) / totalMs, 0)}% of ${f(totalMs)} ms; modelled phases ${f((100 * modelled) / totalMs, 0)}%)`);
}

/**
 * A BLS12-381 point from its bytes, in bigints (not through the library, so the check is
 * independent): 'zcash' / 'zcash-compressed' (big-endian x, flags in the top 3 bits of byte 0:
 * compressed, infinity, y is the larger root) or 'arkworks' (little-endian x ‖ y, flags in the
 * top 2 bits of the last byte: y negative, infinity).
 */
function decodeBls12_381(b: Uint8Array, format: string, ref: RefCurve): Affine {
  const be = (bytes: Uint8Array) => bytes.reduce((acc, v) => (acc << 8n) | BigInt(v), 0n);
  if (format === 'arkworks') {
    if (b[95] & 0x40) return null;
    const x = be(b.slice(0, 48).reverse());
    const y = be(b.slice(48, 96).reverse()) & ((1n << 382n) - 1n);
    return { x, y };
  }
  if (b[0] & 0x40) return null;
  const x = be(b.subarray(0, 48)) & ((1n << 381n) - 1n);
  if (format === 'zcash') return { x, y: be(b.subarray(48, 96)) };
  const { Fp } = ref;
  const root = Fp.sqrt(Fp.add(Fp.mul(Fp.sqr(x), x), ref.b));
  if (root === undefined) throw new Error(`compressed point with x = 0x${x.toString(16)} is not on the curve`);
  return { x, y: b[0] & 0x20 ? Fp.neg(root) : root };
}

runCli('pippin', usage, main);

/**
 * `--group g2` (BLS12-381, BN254): the same run over G2 — generated points with known logs (a few
 * base multiples in the bigint reference, then Wasm batch additions), the public `curve.g2.msm`,
 * the result checked in closed form with the G2 reference.
 */
async function g2Main(
  curve: Curve<string>,
  name: G2CurveName,
  o: { logN: number; seed: number; runs: number; threadCount?: number; validate: Validation; scalarEndian: 'le' | 'be'; format?: string; json: boolean; windowBits?: number },
): Promise<number> {
  await curve.init();
  const g2 = curve.g2;
  const formatNames = g2.pointFormats.map((f) => f.name);
  const spec = g2.formatSpec(o.format === undefined ? undefined : choiceFlag('point-format', o.format, formatNames[0], formatNames));
  const ref = new RefG2(g2Params[name]);
  const r = curve.params.r;
  const n = 2 ** o.logN;
  const rng = makeRng(o.seed);
  const tGen = performance.now();
  const gen = randomPoints(g2.inst, n, rng, r, (a) => ref.mul(ref.G, a)!, spec, g2Io(g2.inst));
  const le = randomScalarBytes(n, rng);
  const scalars = o.scalarEndian === 'be' ? reverseScalars(le) : le;
  const genMs = performance.now() - tGen;
  if (o.threadCount === 1) stopThreads();
  else await startThreads(o.threadCount);
  const times: number[] = [];
  let result: G2Affine | undefined;
  let st: (MsmStats & { convert: number }) | undefined;
  for (let run = 0; run < o.runs; run++) {
    const t = performance.now();
    result = await g2.msm(gen.bytes, scalars, { pointFormat: spec.name, scalarEndian: o.scalarEndian, validate: o.validate, windowBits: o.windowBits, onStats: (s) => (st = s) });
    times.push(performance.now() - t);
  }
  let log = 0n;
  for (let i = 0; i < n; i++) log = (log + scalarAt(scalars, i, o.scalarEndian) * gen.logs[i]) % r;
  const want = ref.mul(ref.G, log);
  const got = result!.infinity ? null : { x: result!.x, y: result!.y };
  const ok = ref.eq(got, want);
  const median = [...times].sort((a, b) => a - b)[times.length >> 1];
  const s = st!;
  if (o.json) {
    console.log(JSON.stringify({ curve: name, group: 'g2', n, validate: o.validate, pointFormat: spec.name, scalarEndian: o.scalarEndian, medianMs: median, timesMs: times, ok, threads: s.threads, tiles: s.tiles, phases: { convert: s.convert, ...s.times }, plan: s.plan, additions: s.additions, inversions: s.inversions, peakMemoryBytes: s.peakMemoryBytes }));
  } else {
    console.log(`pippin MSM on ${name} G2: n = ${n} points, validate = '${o.validate}', format ${spec.name}, window c = ${s.plan.c} (${describeWindows(s.plan)})`);
    console.log(`threads: ${s.threads}; inputs generated in ${genMs.toFixed(0)} ms (not part of the MSM)`);
    console.log(`MSM time: ${median.toFixed(1)} ms${times.length > 1 ? ` (median of ${times.length}: ${times.map((t) => t.toFixed(0)).join(', ')})` : ''}`);
    console.log(`phases (last run): conversion + validation ${s.convert.toFixed(1)} ms, split ${s.times.split.toFixed(1)}, prepare ${s.times.prepare.toFixed(1)}, accumulate ${s.times.accumulate.toFixed(1)}, reduce ${s.times.reduce.toFixed(1)}, final ${s.times.final.toFixed(1)}`);
    console.log(`batched affine additions: ${s.additions}, inversions: ${s.inversions}`);
    console.log(`peak Wasm memory: ${(s.peakMemoryBytes / 2 ** 20).toFixed(1)} MiB (${Math.round(s.peakMemoryBytes / Math.max(n, 1))} bytes per point)`);
    console.log(`result: ${got ? `x = [0x${got.x[0].toString(16)}, 0x${got.x[1].toString(16)}]\n        y = [0x${got.y[0].toString(16)}, 0x${got.y[1].toString(16)}]` : 'point at infinity'}`);
    console.log(`verified against the closed form (Σ s_i·a_i mod r)·G2, bigint G2 reference: ${ok ? 'OK' : 'MISMATCH'}`);
  }
  stopThreads();
  return ok ? 0 : 1;
}
