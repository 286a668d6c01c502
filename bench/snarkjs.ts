/**
 * `npm run bench:snarkjs`: snarkjs prove times with ffjavascript's MSMs (stock) and with pippin's
 * (the engine), in one process, interleaved run by run, every proof verified by snarkjs with the stock
 * methods in place. Rows: Groth16 on Poseidon chains (≈ 2^12, 2^14, 2^15 constraints) and circomlib's
 * SHA-256 (a witness of bits), PLONK on the 2^12 chain; the engine cold (cache cleared before the
 * proof: conversion, decode and validation included) and warm (bases cached); MSM time per proof and
 * a per-call table (stock vs engine on the same call).
 *
 *   npm run bench:snarkjs [-- --runs 5] [--only name,…] [--json]
 *
 * Keys come from scripts/snarkjs-fixtures.ts (.cache/snarkjs; built when missing: the 2^14/2^15
 * powers of tau take minutes). Threads: ffjavascript uses one worker per core, pippin's pool too.
 */
import { execSync } from 'node:child_process';
import { cpus } from 'node:os';
import * as snarkjs from 'snarkjs';
import * as ffjavascript from 'ffjavascript';
import { installSnarkjsEngine, type FfjsCurve, type FfjsModule } from '../src/snarkjs/index.js';
import { buildFixture, poseidonChain, sha256Block, terminateCurves, TEST_FIXTURES, type Fixture, type FixtureSpec, type Protocol } from '../scripts/snarkjs-fixtures.js';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const RUNS = Number(arg('runs') ?? 5);
const JSON_OUT = args.includes('--json');
const ONLY = arg('only')?.split(',');

const DEFAULT_SPECS = [poseidonChain(16, ['groth16', 'plonk']), poseidonChain(64, ['groth16']), poseidonChain(134, ['groth16']), sha256Block(['groth16'])];
/** --only also takes the test fixtures (a quick run) */
const SPECS: FixtureSpec[] = ONLY ? [...DEFAULT_SPECS, ...TEST_FIXTURES.filter((s) => s.prime === 'bn128')].filter((s) => ONLY.includes(s.name)) : DEFAULT_SPECS;

const ff = ffjavascript as unknown as FfjsModule & { buildBn128: () => Promise<FfjsCurve> };
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const cpu = (() => {
  try {
    return execSync('lscpu', { encoding: 'utf8' }).match(/Model name:\s*(.+)/)?.[1]?.trim() ?? cpus()[0]?.model;
  } catch {
    return cpus()[0]?.model;
  }
})();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

interface CallTime { label: string; group: string; points: number; ms: number; zeros?: number; ones?: number }

async function main() {
  const curve = await ff.buildBn128();
  const stock = { G1: curve.G1.multiExpAffine, G2: curve.G2.multiExpAffine };
  let engineCalls = new Map<string, { zeros: number; ones: number }>();
  const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bn128'], onCall: (r) => engineCalls.set(r.label ?? '', { zeros: r.split.zeros, ones: r.split.ones }) });
  const hooked = { G1: curve.G1.multiExpAffine, G2: curve.G2.multiExpAffine };
  // per-call timing around whichever method is in place
  let calls: CallTime[] = [];
  const timed = (group: 'G1' | 'G2', fn: typeof stock.G1): typeof stock.G1 => async (b, s, logger, label) => {
    const t = performance.now();
    const r = await fn.call(curve[group], b, s, logger, label);
    calls.push({ label: label ?? '', group, points: (b as Uint8Array).length / (2 * curve[group].F.n8), ms: performance.now() - t });
    return r;
  };
  const use = (which: 'stock' | 'engine') => {
    const m = which === 'stock' ? stock : hooked;
    curve.G1.multiExpAffine = timed('G1', m.G1);
    curve.G2.multiExpAffine = timed('G2', m.G2);
  };

  const rows: Record<string, unknown>[] = [];
  const perCall: Record<string, unknown>[] = [];
  for (const spec of SPECS) {
    use('stock');
    const fx: Fixture = await buildFixture(spec);
    for (const protocol of spec.protocols as Protocol[]) {
      const zkey = fx.zkey[protocol]!;
      const prove = async (which: 'stock' | 'cold' | 'warm') => {
        use(which === 'stock' ? 'stock' : 'engine');
        if (which === 'cold') engine.clearCache();
        calls = [];
        engineCalls = new Map();
        const t = performance.now();
        const { proof, publicSignals } = await snarkjs[protocol].prove(zkey, fx.wtns);
        const ms = performance.now() - t;
        const got = { ms, msm: calls.reduce((a, c) => a + c.ms, 0), calls: calls.map((c) => ({ ...c, ...(engineCalls.get(c.label) ?? {}) })) };
        use('stock');
        if (!(await snarkjs[protocol].verify(fx.vkey[protocol], publicSignals, proof))) throw new Error(`${spec.name} ${protocol} (${which}): proof does not verify`);
        return got;
      };
      // warm-up: one of each (JIT, the pools, the cache), not counted
      await prove('stock');
      await prove('warm');
      const res = { stock: [] as Awaited<ReturnType<typeof prove>>[], cold: [] as Awaited<ReturnType<typeof prove>>[], warm: [] as Awaited<ReturnType<typeof prove>>[] };
      for (let r = 0; r < RUNS; r++) {
        res.stock.push(await prove('stock'));
        res.warm.push(await prove('warm'));
        res.cold.push(await prove('cold'));
        res.warm.push(await prove('warm'));
      }
      const m = (k: keyof typeof res, f: 'ms' | 'msm') => median(res[k].map((x) => x[f]));
      const row = {
        circuit: spec.name, protocol, constraints: fx.constraints, runs: RUNS,
        stockMs: m('stock', 'ms'), warmMs: m('warm', 'ms'), coldMs: m('cold', 'ms'),
        stockMsmMs: m('stock', 'msm'), warmMsmMs: m('warm', 'msm'), coldMsmMs: m('cold', 'msm'),
        speedupWarm: m('stock', 'ms') / m('warm', 'ms'), speedupCold: m('stock', 'ms') / m('cold', 'ms'),
      };
      rows.push(row);
      // per call, matched by snarkjs's label (completion order may differ between the two)
      for (const c of res.warm[0].calls) {
        const byLabel = (runs: typeof res.stock) => median(runs.map((x) => x.calls.find((y) => y.label === c.label)?.ms ?? NaN));
        perCall.push({ circuit: spec.name, protocol, call: c.label, group: c.group, points: c.points, zeros: c.zeros, ones: c.ones, stockMs: byLabel(res.stock), engineMs: byLabel(res.warm), ratio: byLabel(res.stock) / byLabel(res.warm) });
      }
      if (JSON_OUT) console.log(JSON.stringify({ kind: 'prove', cpu, node: process.version, threads: cpus().length, ...row }));
      else console.error(`${spec.name} ${protocol}: stock ${row.stockMs.toFixed(0)} ms, engine warm ${row.warmMs.toFixed(0)} ms (${row.speedupWarm.toFixed(2)}×), cold ${row.coldMs.toFixed(0)} ms (${row.speedupCold.toFixed(2)}×)`);
    }
  }
  await engine.uninstall();
  if (JSON_OUT) {
    for (const c of perCall) console.log(JSON.stringify({ kind: 'call', ...c }));
  } else {
    console.log(`\nsnarkjs ${'0.7.6'} prove, stock ffjavascript vs pippin engine — ${cpu}, Node ${process.version}, ${cpus().length} threads both sides, medians of ${RUNS} interleaved runs, every proof verified\n`);
    console.log('| circuit | protocol | constraints | stock ms (MSM) | engine warm ms (MSM) | speed-up | engine cold ms (MSM) | speed-up |');
    console.log('|---|---|---:|---:|---:|---:|---:|---:|');
    for (const r of rows as Row[]) {
      console.log(`| ${r.circuit} | ${r.protocol} | ${r.constraints} | ${r.stockMs.toFixed(0)} (${r.stockMsmMs.toFixed(0)}) | ${r.warmMs.toFixed(0)} (${r.warmMsmMs.toFixed(0)}) | ${r.speedupWarm.toFixed(2)}× | ${r.coldMs.toFixed(0)} (${r.coldMsmMs.toFixed(0)}) | ${r.speedupCold.toFixed(2)}× |`);
    }
    console.log('\nper call, warm (medians):\n');
    console.log('| circuit | protocol | call | group | points | zeros | ones | stock ms | engine ms | stock/engine |');
    console.log('|---|---|---|---|---:|---:|---:|---:|---:|---:|');
    for (const c of perCall as Row[]) {
      console.log(`| ${c.circuit} | ${c.protocol} | ${c.call} | ${c.group} | ${c.points} | ${c.zeros ?? ''} | ${c.ones ?? ''} | ${c.stockMs.toFixed(1)} | ${c.engineMs.toFixed(1)} | ${c.ratio.toFixed(2)} |`);
    }
  }
  await terminateCurves();
}

await main();
process.exit(0);
