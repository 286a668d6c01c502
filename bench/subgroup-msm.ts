/**
 * 'full' validation at the MSM level: msmSync with the exact per-point subgroup tests against the
 * batched (randomized) check on the same points, and 'on-curve' as the baseline, per point count;
 * one process, interleaved, medians. The batched check is forced from 1 point or never through the
 * group's `subgroupBatchFrom`; the count where batched ÷ exact falls below 1 goes into the curve's
 * tuning file (src/curves/<curve>.tuning.ts, `subgroupBatchFrom`).
 *
 *   npm run bench:subgroup-msm [-- --curve bls12-381] [-- --group g1|g2] [-- --sizes 64,96,128,144,162,200,256] [-- --runs 5]
 */
import { bls12_381, bn254, bls12_377, type Curve } from '../src/index.js';
import { groupContextOf } from '../src/api/group.js';
import { subgroupPointObjects } from './group-points.js';
import { makeRng } from '../src/reference/rng.js';
import { choiceFlag, intFlag, intListFlag, parseFlags, runCli } from '../src/cli-args.js';

const curves: Record<string, Curve<string>> = { 'bls12-381': bls12_381, bn254, 'bls12-377': bls12_377 };
const USAGE = 'usage: npm run bench:subgroup-msm -- [--curve bls12-381|bn254|bls12-377] [--group g1|g2] [--sizes 64,96,128,144,162,200,256] [--runs 5]';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

runCli('bench:subgroup-msm', USAGE, async () => {
  const { values } = parseFlags(process.argv.slice(2), { curve: { type: 'string' }, group: { type: 'string' }, sizes: { type: 'string' }, runs: { type: 'string' } });
  const name = choiceFlag('curve', values.curve, 'bls12-381', Object.keys(curves));
  const curve = curves[name]!;
  const group = choiceFlag('group', values.group, 'g1', ['g1', 'g2'] as const);
  const sizes = intListFlag('sizes', values.sizes, [64, 96, 128, 144, 162, 200, 256], 1, 1 << 14);
  const runs = intFlag('runs', values.runs, 5, 1, 1000);
  await curve.init();
  const grp = curve[group] as unknown as { r: bigint; msmSync(points: unknown[], scalars: bigint[], options: object): unknown };
  const ctx = groupContextOf(curve[group] as never) as { subgroupBatchFrom?: number };
  const rng = makeRng(5);
  const n = Math.max(...sizes);
  const points = subgroupPointObjects(curve, group, n, rng);
  const scalars = Array.from({ length: n }, () => rng.nextBigint(255));
  const shipped = ctx.subgroupBatchFrom;
  const time = (m: number, validate: string, from: number | undefined) => {
    ctx.subgroupBatchFrom = from;
    const t = performance.now();
    grp.msmSync(points.slice(0, m), scalars.slice(0, m), { validate });
    return performance.now() - t;
  };
  console.log(`${name} ${group}, msmSync, median of ${runs} interleaved rounds (shipped subgroupBatchFrom ${shipped ?? 'default'})`);
  console.log('| n | on-curve ms | full, exact ms | full, batched ms | exact µs/point | batched ÷ exact |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const m of sizes) {
    const oc: number[] = [], ex: number[] = [], ba: number[] = [];
    time(m, 'full', Infinity);
    time(m, 'full', 1);
    for (let i = 0; i < runs; i++) {
      ex.push(time(m, 'full', Infinity));
      ba.push(time(m, 'full', 1));
      oc.push(time(m, 'on-curve', undefined));
    }
    const [o, e, b] = [median(oc), median(ex), median(ba)];
    console.log(`| ${m} | ${o.toFixed(2)} | ${e.toFixed(2)} | ${b.toFixed(2)} | ${(((e - o) * 1000) / m).toFixed(1)} | ${(b / e).toFixed(2)} |`);
  }
  ctx.subgroupBatchFrom = shipped;
});
