/**
 * One benchmark row of bench:snarkjs, shared by Node (bench/snarkjs.ts) and the Chromium page
 * (bench/snarkjs-page.ts): proofs with ffjavascript's MSMs (stock) and with the engine (cold: cache
 * cleared before the proof; warm: bases cached), interleaved run by run, each proof verified by
 * snarkjs with the stock methods in place; MSM time per proof and per call (a timing wrapper around
 * whichever method is installed). Works on the engine's public API and ffjavascript's curve object.
 */
import { installSnarkjsEngine, type FfjsCurve, type FfjsModule, type SnarkjsEngine } from '../src/snarkjs/index.js';

export interface CallTime { label: string; group: string; points: number; ms: number; zeros?: number; ones?: number }
export interface Proved { ms: number; msm: number; calls: CallTime[] }
export interface BenchRow {
  protocol: 'groth16' | 'plonk';
  runs: number;
  stockMs: number; warmMs: number; coldMs: number;
  /** pippin's whole Groth16 prover (key loaded once), when the row has it */
  wholeMs?: number; speedupWhole?: number;
  /** pippin's `groth16.prove(zkey, wtns)`: the key read and prepared on every proof, as snarkjs does */
  oneShotMs?: number; speedupOneShot?: number;
  stockMsmMs: number; warmMsmMs: number; coldMsmMs: number;
  speedupWarm: number; speedupCold: number;
  /** engine calls handed to ffjavascript's own method during the row (minPoints, non-Uint8Array inputs) */
  stockCalls: number;
  calls: { call: string; group: string; points: number; zeros?: number; ones?: number; stockMs: number; engineMs: number; ratio: number }[];
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

type MultiExp = FfjsCurve['G1']['multiExpAffine'];

/** The engine installed once on bn128, with the stock and the engine's methods at hand to swap. */
export interface Bench {
  curve: FfjsCurve;
  engine: SnarkjsEngine;
  use(which: 'stock' | 'engine'): void;
  /** the calls since the last reset, and their split (engine only) */
  take(): CallTime[];
}

export async function setupBench(ff: FfjsModule): Promise<Bench> {
  const curve = await ff.buildBn128!(false);
  const stock = { G1: curve.G1.multiExpAffine, G2: curve.G2.multiExpAffine };
  let split = new Map<string, { zeros: number; ones: number }>();
  const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bn128'], onCall: (r) => split.set(r.label ?? '', { zeros: r.split.zeros, ones: r.split.ones }) });
  const hooked = { G1: curve.G1.multiExpAffine, G2: curve.G2.multiExpAffine };
  let calls: CallTime[] = [];
  const timed = (group: 'G1' | 'G2', fn: MultiExp): MultiExp => async (b, s, logger, label) => {
    const t = performance.now();
    const r = await fn.call(curve[group], b, s, logger, label);
    calls.push({ label: label ?? '', group, points: (b as Uint8Array).length / (2 * curve[group].F.n8), ms: performance.now() - t });
    return r;
  };
  return {
    curve,
    engine,
    use(which) {
      const m = which === 'stock' ? stock : hooked;
      curve.G1.multiExpAffine = timed('G1', m.G1);
      curve.G2.multiExpAffine = timed('G2', m.G2);
    },
    take() {
      const out = calls.map((c) => ({ ...c, ...(split.get(c.label) ?? {}) }));
      calls = [];
      split = new Map();
      return out;
    },
  };
}

/** snarkjs's module as far as the bench uses it. */
export interface SnarkjsLike {
  groth16: { prove(zkey: unknown, wtns: unknown): Promise<{ proof: unknown; publicSignals: unknown }>; verify(vk: unknown, pub: unknown, proof: unknown): Promise<boolean> };
  plonk: SnarkjsLike['groth16'];
}

/**
 * One row. `whole`: pippin's whole Groth16 prover on the same key and witness (its key loaded
 * once), timed in the same runs and verified the same way.
 */
export async function benchProtocol(b: Bench, snarkjs: SnarkjsLike, protocol: 'groth16' | 'plonk', zkey: () => unknown, wtns: () => unknown, vkey: unknown, runs: number, name: string, whole?: () => Promise<{ proof: unknown; publicSignals: unknown }>, oneShot?: () => Promise<{ proof: unknown; publicSignals: unknown }>): Promise<BenchRow> {
  const prove = async (which: 'stock' | 'cold' | 'warm'): Promise<Proved> => {
    b.use(which === 'stock' ? 'stock' : 'engine');
    if (which === 'cold') b.engine.clearCache();
    b.take();
    const t = performance.now();
    const { proof, publicSignals } = await snarkjs[protocol].prove(zkey(), wtns());
    const ms = performance.now() - t;
    const calls = b.take();
    b.use('stock');
    if (!(await snarkjs[protocol].verify(vkey, publicSignals, proof))) throw new Error(`${name} ${protocol} (${which}): proof does not verify`);
    return { ms, msm: calls.reduce((a, c) => a + c.ms, 0), calls };
  };
  const proveWhole = async (f = whole!): Promise<number> => {
    b.use('stock');
    const t = performance.now();
    const { proof, publicSignals } = await f();
    const ms = performance.now() - t;
    if (!(await snarkjs.groth16.verify(vkey, publicSignals, proof))) throw new Error(`${name} groth16 (pippin whole prover): proof does not verify`);
    return ms;
  };
  const useWhole = whole !== undefined && protocol === 'groth16';
  const stockCalls0 = b.engine.stats().stockCalls;
  // warm-up: one of each (JIT, both pools, the cache), not counted
  await prove('stock');
  await prove('warm');
  if (useWhole) await proveWhole();
  const useOneShot = oneShot !== undefined && protocol === 'groth16';
  if (useOneShot) await proveWhole(oneShot);
  const res: Record<'stock' | 'cold' | 'warm', Proved[]> = { stock: [], cold: [], warm: [] };
  const wholeMs: number[] = [];
  const oneShotMs: number[] = [];
  for (let r = 0; r < runs; r++) {
    res.stock.push(await prove('stock'));
    if (useWhole) wholeMs.push(await proveWhole());
    if (useOneShot) oneShotMs.push(await proveWhole(oneShot));
    res.warm.push(await prove('warm'));
    res.cold.push(await prove('cold'));
    res.warm.push(await prove('warm'));
  }
  const m = (k: keyof typeof res, f: 'ms' | 'msm') => median(res[k].map((x) => x[f]));
  // per call, matched by snarkjs's label (completion order may differ)
  const byLabel = (runs: Proved[], label: string) => median(runs.map((x) => x.calls.find((y) => y.label === label)?.ms ?? NaN));
  const calls = res.warm[0].calls.map((c) => {
    const stockMs = byLabel(res.stock, c.label);
    const engineMs = byLabel(res.warm, c.label);
    return { call: c.label, group: c.group, points: c.points, zeros: c.zeros, ones: c.ones, stockMs, engineMs, ratio: stockMs / engineMs };
  });
  return {
    protocol, runs,
    stockMs: m('stock', 'ms'), warmMs: m('warm', 'ms'), coldMs: m('cold', 'ms'),
    stockMsmMs: m('stock', 'msm'), warmMsmMs: m('warm', 'msm'), coldMsmMs: m('cold', 'msm'),
    speedupWarm: m('stock', 'ms') / m('warm', 'ms'), speedupCold: m('stock', 'ms') / m('cold', 'ms'),
    ...(useWhole ? { wholeMs: median(wholeMs), speedupWhole: m('stock', 'ms') / median(wholeMs) } : {}),
    ...(useOneShot ? { oneShotMs: median(oneShotMs), speedupOneShot: m('stock', 'ms') / median(oneShotMs) } : {}),
    stockCalls: b.engine.stats().stockCalls - stockCalls0,
    calls,
  };
}
