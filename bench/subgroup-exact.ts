/**
 * The exact per-point subgroup test, both kernels on the same G1 points in one process, interleaved:
 * µs of CPU time (process.cpuUsage) per point of g1_is_in_subgroup (per point, Jacobian chains; XYZZ before 2026-11-28) and of g1_subgroup_check_batch
 * (batch-affine, `chunk` points per call) for each chunk size; median and best of the runs (the host is
 * shared: compare the ratios).
 *
 *   npm run bench:subgroup -- [--runs 3] [--points 4096] [--chunks 64,128,256,512,1024,2048,4096]
 */
import { bls12_377, bls12_381 } from '../src/index.js';
import { RefCurve, type AffinePoint } from '../src/reference/curve.js';
import { subgroupBatchScratchBytes } from '../src/abi/layout.js';
import { intFlag, intListFlag, parseFlags, runCli } from '../src/cli-args.js';

const USAGE = 'usage: npm run bench:subgroup -- [--runs 3] [--points 4096] [--chunks 64,128,…,4096]';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

runCli('bench:subgroup', USAGE, async () => {
  const { values } = parseFlags(process.argv.slice(2), { runs: { type: 'string' }, points: { type: 'string' }, chunks: { type: 'string' } });
  const runs = intFlag('runs', values.runs, 3, 1, 100);
  const n = intFlag('points', values.points, 4096, 1, 1 << 16);
  const chunks = intListFlag('chunks', values.chunks, [64, 128, 256, 512, 1024, 2048, 4096], 1, 1 << 16).filter((c) => c <= n);
  for (const api of [bls12_381, bls12_377]) {
    await api.init();
    const inst = api.g1.inst;
    const { k, arena } = inst;
    const fp = inst.fields.fp;
    const EB = fp.info.elementBytes;
    const PB = 2 * EB;
    const ref = new RefCurve(api.params);
    const G = api.params.G1;
    // n distinct G1 points: G, 2G, 3G, …
    const points = arena.alloc(n * PB);
    const inf = arena.alloc(n);
    new Uint8Array(inst.memory.buffer).fill(0, inf, inf + n);
    let P: AffinePoint = G;
    for (let i = 0; i < n; i++) {
      fp.write(points + i * PB, P.x);
      fp.write(points + i * PB + EB, P.y);
      P = ref.add(P, G) as AffinePoint;
    }
    const scratch = arena.alloc(subgroupBatchScratchBytes(Math.max(...chunks), EB));
    const eachScratch = arena.alloc(64 * EB);
    const each = () => {
      for (let i = 0; i < n; i++) if (!k.g1_is_in_subgroup(points + i * PB, eachScratch)) throw new Error(`point ${i} rejected (per point)`);
    };
    const batch = (chunk: number) => () => {
      for (let s = 0; s < n; s += chunk) {
        if (k.g1_subgroup_check_batch(points + s * PB, inf + s, Math.min(chunk, n - s), scratch) !== -1) throw new Error('rejected (batch)');
      }
    };
    const cases: [string, () => void][] = [['per-point', each], ...chunks.map((c): [string, () => void] => [`batch-affine ${c}`, batch(c)])];
    const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    for (const [, fn] of cases) fn(); // warm-up
    for (let r = 0; r < runs; r++) {
      // interleaved, each run starting at another case (a load burst on the shared host hits different ones)
      for (let j = 0; j < cases.length; j++) {
        const [name, fn] = cases[(j + r) % cases.length];
        // CPU time of this process (user + system): on a loaded shared host, time slices taken by
        // other processes do not count, wall-clock time would
        const c = process.cpuUsage();
        fn();
        const used = process.cpuUsage(c);
        times.get(name)!.push((used.user + used.system) / n);
      }
    }
    const base = median(times.get('per-point')!);
    const best = Math.min(...times.get('per-point')!);
    console.log(`${api.params.name}: ${n} G1 points, µs of CPU per point: median of ${runs} (÷ per-point's), best (÷ per-point's), [runs]`);
    for (const [name] of cases) {
      const ts = times.get(name)!;
      const m = median(ts);
      const b = Math.min(...ts);
      console.log(`  ${name.padEnd(18)} ${m.toFixed(1).padStart(7)} (${(m / base).toFixed(3)})  ${b.toFixed(1).padStart(7)} (${(b / best).toFixed(3)})  [${ts.map((x) => x.toFixed(1)).join(', ')}]`);
    }
  }
});
