/**
 * Where a mid-size MSM's time goes: msmSync and msm (one thread) per point count, per phase
 * (MsmCallStats: convert, split, prepare, accumulate, reduce, final; "other" = wall − their sum),
 * with the straus path, the bucket method's per-window tiles and its joint reduction
 * (src/msm/program.ts, jointReduction) forced in turn on the same inputs, rounds interleaved,
 * medians. Distinct subgroup points as objects, random 255-bit scalars.
 *
 *   npm run bench:msm-phases [-- --curve bls12-381] [-- --group g1|g2] [-- --sizes 64,128,193,256,512] [-- --runs 9] [-- --validate none|on-curve|full]
 *     [-- --methods straus,tiles,joint,joint2] (jointS: the joint reduction with S segments per window)
 */
import { curves, type Curve, type CurveName } from '../src/index.js';
import { groupContextOf } from '../src/api/group.js';
import { jointReduction } from '../src/msm/program.js';
import { subgroupPointObjects } from './group-points.js';
import { makeRng } from '../src/reference/rng.js';
import { choiceFlag, intFlag, intListFlag, parseFlags, runCli } from '../src/cli-args.js';

const curveNames = Object.keys(curves) as CurveName[];
const USAGE = `usage: npm run bench:msm-phases -- [--curve ${curveNames.join('|')}] [--group g1|g2] [--sizes 64,128,193,256,512] [--runs 9] [--validate none|on-curve|full] [--methods straus,tiles,joint,joint2,…]`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const PHASES = ['convert', 'split', 'prepare', 'accumulate', 'reduce', 'final'] as const;
type Row = Record<(typeof PHASES)[number] | 'wall' | 'other', number>;

runCli('bench:msm-phases', USAGE, async () => {
  const { values } = parseFlags(process.argv.slice(2), { curve: { type: 'string' }, group: { type: 'string' }, sizes: { type: 'string' }, runs: { type: 'string' }, validate: { type: 'string' }, methods: { type: 'string' } });
  const curve: Curve<string> = curves[choiceFlag('curve', values.curve, 'bls12-381', curveNames)];
  const group = choiceFlag('group', values.group, 'g1', ['g1', 'g2'] as const);
  const sizes = intListFlag('sizes', values.sizes, [64, 128, 193, 256, 512], 1, 1 << 16);
  const runs = intFlag('runs', values.runs, 9, 1, 10000);
  const validate = choiceFlag('validate', values.validate, 'none', ['none', 'on-curve', 'full'] as const);
  await curve.init();
  type Stats = { times: Record<string, number>; convert?: number; method: string };
  type Call = (points: unknown[], scalars: bigint[], options: object) => unknown;
  const grp = curve[group] as unknown as { msmSync: Call; msm: Call };
  const ctx = groupContextOf(curve[group] as never) as { strausMaxPoints: number };
  const shipped = ctx.strausMaxPoints;
  const rng = makeRng(1);
  const nMax = Math.max(...sizes);
  const points = subgroupPointObjects(curve, group, nMax, rng);
  const scalars = Array.from({ length: nMax }, () => rng.nextBigint(255));
  const shippedJoint = jointReduction.maxItems;
  const shippedSegments = jointReduction.segments;
  const methods = (values.methods ?? 'straus,tiles,joint').split(',');
  const variants = [true, false].flatMap((sync) => methods.map((method) => ({ name: `${sync ? 'sync' : 'async'} ${method}`, sync, method })));
  const once = async (m: number, v: (typeof variants)[number]): Promise<Row> => {
    ctx.strausMaxPoints = v.method === 'straus' ? Infinity : 0;
    jointReduction.maxItems = v.method.startsWith('joint') ? shippedJoint : 0;
    jointReduction.segments = v.method.startsWith('joint') && v.method.length > 5 ? Number(v.method.slice(5)) : shippedSegments;
    let st: Stats | undefined;
    const opts = { validate, threads: 1, onStats: (s: Stats) => (st = s) };
    const p = points.slice(0, m), s = scalars.slice(0, m);
    const t = performance.now();
    if (v.sync) grp.msmSync(p, s, opts);
    else await grp.msm(p, s, opts);
    const wall = performance.now() - t;
    const row = { wall } as Row;
    let sum = 0;
    for (const ph of PHASES) sum += row[ph] = ph === 'convert' ? (st!.convert ?? 0) : st!.times[ph] ?? 0;
    row.other = wall - sum;
    return row;
  };
  console.log(`${curve.name} ${group}, validate ${validate}, one thread, median of ${runs} interleaved rounds, ms (shipped strausMaxPoints ${shipped})`);
  console.log(`| n | variant | wall | ${PHASES.join(' | ')} | other |`);
  console.log(`|---:|---|---:|${PHASES.map(() => '---:').join('|')}|---:|`);
  for (const m of sizes) {
    const rows: Row[][] = variants.map(() => []);
    for (let i = 0; i < 2; i++) for (const v of variants) await once(m, v);
    for (let i = 0; i < runs; i++) for (let j = 0; j < variants.length; j++) {
      const k = (i + j) % variants.length;
      rows[k].push(await once(m, variants[k]));
    }
    variants.forEach((v, k) => {
      const med = (f: keyof Row) => median(rows[k].map((r) => r[f])).toFixed(3);
      console.log(`| ${m} | ${v.name} | ${med('wall')} | ${PHASES.map((p) => med(p)).join(' | ')} | ${med('other')} |`);
    });
  }
  ctx.strausMaxPoints = shipped;
  jointReduction.maxItems = shippedJoint;
  jointReduction.segments = shippedSegments;
});
