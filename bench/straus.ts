/**
 * Small MSMs: msmSync with msm_straus (one interleaved wNAF pass) against the bucket method on the
 * same inputs, per point count, one process, interleaved (each round runs both in rotating order),
 * medians of the rounds and the median of each round's straus / buckets ratio (robust on a busy machine); `validate: 'on-curve'`, distinct subgroup points, random 255-bit scalars,
 * point objects (as the KZG verifiers and the EVM precompiles pass them). The largest n where
 * straus is faster goes into the curve's tuning file (src/curves/<curve>.tuning.ts, `straus`).
 *
 *   npm run bench:straus [-- --curve bls12-381] [-- --group g1|g2] [-- --sizes 1,2,4,8,16,24,32,48,64] [-- --runs 15]
 */
import { curves, type Curve, type CurveName } from '../src/index.js';
import { groupContextOf } from '../src/api/group.js';
import { subgroupPointObjects } from './group-points.js';
import { makeRng } from '../src/reference/rng.js';
import { choiceFlag, intFlag, intListFlag, parseFlags, runCli } from '../src/cli-args.js';

const curveNames = Object.keys(curves) as CurveName[];
const USAGE = `usage: npm run bench:straus -- [--curve ${curveNames.join('|')}] [--group g1|g2] [--sizes 1,2,4,8,16,24,32,48,64] [--runs 15]`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

runCli('bench:straus', USAGE, async () => {
  const { values } = parseFlags(process.argv.slice(2), { curve: { type: 'string' }, group: { type: 'string' }, sizes: { type: 'string' }, runs: { type: 'string' } });
  const curve: Curve<string> = curves[choiceFlag('curve', values.curve, 'bls12-381', curveNames)];
  const group = choiceFlag('group', values.group, 'g1', ['g1', 'g2'] as const);
  const sizes = intListFlag('sizes', values.sizes, [1, 2, 4, 8, 16, 24, 32, 48, 64], 1, 4096);
  const runs = intFlag('runs', values.runs, 15, 1, 10000);
  await curve.init();
  const grp = curve[group] as unknown as { r: bigint; msmSync(points: unknown[], scalars: bigint[], options: object): unknown };
  const ctx = groupContextOf(curve[group] as never) as { strausMaxPoints: number };
  const rng = makeRng(1);
  const n = Math.max(...sizes);
  const points = subgroupPointObjects(curve, group, n, rng);
  const scalars = Array.from({ length: n }, () => rng.nextBigint(255));
  const shipped = ctx.strausMaxPoints;
  const time = (m: number, straus: boolean) => {
    ctx.strausMaxPoints = straus ? Infinity : 0;
    const t = performance.now();
    grp.msmSync(points.slice(0, m), scalars.slice(0, m), { validate: 'on-curve' });
    return performance.now() - t;
  };
  console.log(`${curve.name} ${group}, msmSync, validate on-curve, median of ${runs} interleaved rounds (shipped strausMaxPoints ${shipped})`);
  console.log('| n | buckets ms | straus ms | straus / buckets | median of the rounds\' ratios |');
  console.log('|---:|---:|---:|---:|---:|');
  for (const m of sizes) {
    const a: number[] = [], b: number[] = [];
    for (let i = 0; i < 3; i++) time(m, i % 2 === 0); // warm-up
    for (let i = 0; i < runs; i++) {
      if (i % 2) {
        a.push(time(m, false));
        b.push(time(m, true));
      } else {
        b.push(time(m, true));
        a.push(time(m, false));
      }
    }
    console.log(`| ${m} | ${median(a).toFixed(3)} | ${median(b).toFixed(3)} | ${(median(b) / median(a)).toFixed(2)} | ${median(b.map((x, i) => x / a[i]!)).toFixed(2)} |`);
  }
  ctx.strausMaxPoints = shipped;
});
