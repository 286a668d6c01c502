/**
 * Prepared bases against the plain MSM on the same points, in one process, runs interleaved:
 *   plain      g1.msm(points, scalars) with validate 'full' (decode + validation every call)
 *   plain-none g1.msm(points, scalars, { validate: 'none' }) (the MSM alone)
 *   prepared   bases.msm(scalars) without a table
 *   table      bases.msm(scalars) over the fixed-base table of `precompute` (default budget, or --max-mib)
 *   batch-k    bases.msmBatch of --batch scalar sets vs as many single bases.msm calls (per set)
 * plus the one-off costs (prepare with full validation; the table build) and the memory held. Every
 * result is checked against the plain MSM's.
 *
 *   npm run bench:prepared -- [--curve bls12-381] [--size 16] [--runs 3] [--threads 1] [--max-mib 256] [--batch 6] [--json]
 */
import { choiceFlag, intFlag, parseFlags, runCli } from '../src/cli-args.js';
import { curves, startThreads, stopThreads, type Curve } from '../src/index.js';
import { curveNames, type CurveName } from '../src/curves/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { makeRng } from '../src/reference/rng.js';
import { randomPoints, randomScalarBytes } from '../src/msm/random-inputs.js';
import { DEFAULT_PRECOMPUTE_BYTES } from '../src/api/prepared.js';

const USAGE = `usage: npm run bench:prepared -- [--curve ${curveNames.join('|')}] [--size 16] [--runs 3] [--threads 1] [--max-mib ${DEFAULT_PRECOMPUTE_BYTES / 2 ** 20}] [--batch 6] [--json]`;

async function main(): Promise<number> {
  const { values } = parseFlags(process.argv.slice(2), {
    curve: { type: 'string' }, size: { type: 'string' }, runs: { type: 'string' }, threads: { type: 'string' }, 'max-mib': { type: 'string' }, batch: { type: 'string' }, json: { type: 'boolean' },
  });
  const name = choiceFlag<CurveName>('curve', values.curve, 'bls12-381', curveNames);
  const n = 2 ** intFlag('size', values.size, 16, 0, 22);
  const runs = intFlag('runs', values.runs, 3, 1, 100);
  const threads = intFlag('threads', values.threads, 1, 1, 256);
  const maxBytes = intFlag('max-mib', values['max-mib'], DEFAULT_PRECOMPUTE_BYTES / 2 ** 20, 0, 4096) * 2 ** 20;
  const k = intFlag('batch', values.batch, 6, 1, 64);
  const log = values.json ? () => {} : (s: string) => console.error(s);
  if (threads > 1) await startThreads(threads);
  else stopThreads();
  const curve = curves[name] as Curve<string>;
  await curve.init();
  const { g1 } = curve;
  const rng = makeRng(7);
  const ref = new RefCurve(curve.params);
  const { bytes } = randomPoints(g1.inst, n, rng, curve.params.r, (a) => ref.mulScalar(curve.params.G1, a)!, g1.formatSpec());
  const sets = Array.from({ length: k }, () => randomScalarBytes(n, rng));
  const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
    const t0 = performance.now();
    const v = await f();
    return [v, performance.now() - t0];
  };
  const [plainBases, prepareMs] = await timed(() => g1.prepare(bytes));
  const [tableBases, tableMs] = await timed(() => g1.prepare(bytes, { precompute: { maxBytes } }));
  log(`prepare (full validation) ${prepareMs.toFixed(0)} ms; with the table ${tableMs.toFixed(0)} ms: ${JSON.stringify(tableBases.precomputed)}`);
  const times = new Map<string, number[]>();
  let ok = true;
  for (let run = 0; run <= runs; run++) {
    const row: Record<string, number> = {};
    const [want, plainMs] = await timed(() => g1.msm(bytes, sets[0]));
    row.plain = plainMs;
    const same = (P: { x: bigint; y: bigint }) => P.x === want.x && P.y === want.y;
    const [a, noneMs] = await timed(() => g1.msm(bytes, sets[0], { validate: 'none' }));
    row['plain-none'] = noneMs;
    const [b, preparedMs] = await timed(() => plainBases.msm(sets[0]));
    row.prepared = preparedMs;
    const [c, tableRunMs] = await timed(() => tableBases.msm(sets[0]));
    row.table = tableRunMs;
    const [batch, batchMs] = await timed(() => plainBases.msmBatch(sets));
    row[`prepared-batch-${k}`] = batchMs;
    const [, singlesMs] = await timed(async () => {
      for (const s of sets) await plainBases.msm(s);
    });
    row[`prepared-single-${k}`] = singlesMs;
    const [tbatch, tbatchMs] = await timed(() => tableBases.msmBatch(sets));
    row[`table-batch-${k}`] = tbatchMs;
    ok &&= same(a) && same(b) && same(c) && same(batch[0]) && same(tbatch[0]);
    log(`run ${run}${run === 0 ? ' (warm-up)' : ''}: ${Object.entries(row).map(([key, v]) => `${key} ${v.toFixed(1)}`).join(', ')}`);
    if (run > 0) for (const [key, v] of Object.entries(row)) times.set(key, [...(times.get(key) ?? []), v]);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[(xs.length - 1) >> 1];
  const rows = [...times].map(([impl, xs]) => ({ impl, curve: name, logSize: Math.log2(n), threads, medianMs: Number(median(xs).toFixed(2)), ok }));
  const memory = { pointsBytes: plainBases.bytes, tableBytes: tableBases.precomputed?.bytes ?? 0, windowBits: tableBases.precomputed?.windowBits, prepareMs, prepareWithTableMs: tableMs };
  plainBases.dispose();
  tableBases.dispose();
  stopThreads();
  if (values.json) {
    console.log(JSON.stringify({ rows, memory }, null, 2));
    return ok ? 0 : 1;
  }
  const get = (impl: string) => rows.find((r) => r.impl === impl)!.medianMs;
  console.log(`\n${name}, n = 2^${Math.log2(n)}, ${threads} thread(s), median of ${runs} (results ${ok ? 'agree' : 'DISAGREE'})`);
  for (const r of rows) console.log(`  ${r.impl.padEnd(20)} ${r.medianMs.toFixed(1).padStart(9)} ms   plain / this = ${(get('plain') / r.medianMs).toFixed(2)}×`);
  console.log(`  msmBatch of ${k} vs ${k} calls: ${(get(`prepared-single-${k}`) / get(`prepared-batch-${k}`)).toFixed(2)}× (no table)`);
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
  console.log(`  memory: prepared points ${mib(memory.pointsBytes)}; table ${mib(memory.tableBytes)} (c = ${memory.windowBits}); prepare ${prepareMs.toFixed(0)} ms, with the table ${tableMs.toFixed(0)} ms`);
  return ok ? 0 : 1;
}

runCli('bench:prepared', USAGE, main);
