/**
 * Runs a field module's kernels on given raw inputs and times its benchmark loops, in whichever
 * engine loads it: imported directly by the Node tests and benchmarks, bundled (esbuild, IIFE
 * `pippinFieldRunner`) into a Chromium page by test/browser/wide64.browser.test.ts and
 * `npm run bench:field -- --browser`. No Node APIs. Values cross the page boundary as hex strings.
 */
import { decodeBase64, instantiate } from '../runtime/instance.js';
import type { FieldInfo } from '../runtime/field.js';
import type { FieldBenchOps, FieldOps } from '../wasm-generated/kernels.js';

/** A field module: its binary (base64) and the layout of its field `fp` (p as hex). */
export interface RunnerModule {
  label: string;
  wasmBase64: string;
  info: Omit<FieldInfo, 'p'> & { p: string };
}

/** Ops applied to every pair (x, y) of raw Montgomery limbs; results are raw limbs (hex) or flags. */
export const RUNNER_OPS = ['mul', 'sqr', 'add', 'sub', 'neg', 'double', 'from_mont', 'inv', 'eq', 'is_zero', 'to_bytes_le'] as const;
export type RunnerOp = (typeof RUNNER_OPS)[number];

async function load(m: RunnerModule) {
  const info: FieldInfo = { ...m.info, p: BigInt(m.info.p) };
  const inst = await instantiate(decodeBase64(m.wasmBase64), [info]);
  const F = inst.fields[info.name];
  const k = (op: string) => inst.exports[`${info.name}_${op}`] as (...a: number[]) => number;
  return { inst, F, k };
}

/**
 * out[op][i] = result of op on (xs[i], ys[i]) (hex raw limbs, or '0'/'1' for flags, bytes as hex),
 * for every op of `ops` (default: all of RUNNER_OPS; the others are left out).
 */
export async function runFieldOps(m: RunnerModule, xs: string[], ys: string[], ops: readonly RunnerOp[] = RUNNER_OPS): Promise<Record<RunnerOp, string[]>> {
  const { inst, F, k } = await load(m);
  const [a, b, c] = [F.alloc(), F.alloc(), F.alloc()];
  const out = Object.fromEntries(ops.map((op) => [op, [] as string[]])) as Record<RunnerOp, string[]>;
  const hex = (v: bigint) => `0x${v.toString(16)}`;
  for (let i = 0; i < xs.length; i++) {
    const set = () => {
      F.writeLimbs(a, BigInt(xs[i]));
      F.writeLimbs(b, BigInt(ys[i]));
    };
    for (const op of ops) {
      set();
      if (op === 'eq' || op === 'is_zero') {
        out[op].push(String(op === 'eq' ? k('eq')(a, b) : k('is_zero')(a)));
      } else if (op === 'to_bytes_le') {
        k(op)(c, a);
        const bytes = new Uint8Array(inst.memory.buffer, c, F.info.byteLength);
        out[op].push(Array.from(bytes, (v) => v.toString(16).padStart(2, '0')).join(''));
      } else {
        const binary = op === 'mul' || op === 'add' || op === 'sub';
        if (binary) k(op)(c, a, b);
        else k(op)(c, a);
        out[op].push(hex(F.readLimbs(c)));
      }
    }
  }
  return out;
}

export interface BenchRow {
  label: string;
  op: 'mul' | 'square' | 'add' | 'inverse';
  nsPerOp: number;
}

/**
 * ns per op of the benchmark loops (dependent chains inside one Wasm call) of every module, the
 * modules interleaved within each run so that drift hits all alike; median of `runs`.
 */
export async function benchFieldModules(modules: RunnerModule[], runs: number): Promise<BenchRow[]> {
  interface Case { label: string; op: BenchRow['op']; fn: (N: number) => void; N: number; samples: number[] }
  const cases: Case[] = [];
  for (const m of modules) {
    const { F, k } = await load(m);
    const x = F.alloc();
    const y = F.alloc();
    F.write(x, 0x1234567890abcdef1234567890abcdefn * 0xfedcba9876543210n);
    F.write(y, F.info.p - 7n);
    const bench = (op: keyof FieldBenchOps) => k(op);
    const ops: [BenchRow['op'], (N: number) => void][] = [
      ['mul', (N) => bench('bench_mul')(x, y, N)],
      ['square', (N) => bench('bench_sqr')(x, N)],
      ['add', (N) => bench('bench_add')(x, y, N)],
      ['inverse', (N) => bench('bench_inv')(x, N)],
    ];
    for (const [op, fn] of ops) cases.push({ label: m.label, op, fn, N: 0, samples: [] });
  }
  for (const c of cases) {
    // N such that one call takes ≈ 20 ms
    let N = 16;
    for (;;) {
      const t = performance.now();
      c.fn(N);
      const dt = performance.now() - t;
      if (dt > 20) break;
      N *= dt < 2 ? 8 : 2;
    }
    c.N = N;
  }
  for (let r = 0; r < runs; r++) {
    for (const c of cases) {
      const t = performance.now();
      c.fn(c.N);
      c.samples.push(((performance.now() - t) * 1e6) / c.N);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return cases.map((c) => ({ label: c.label, op: c.op, nsPerOp: Number(median(c.samples).toFixed(2)) }));
}

/** ms to decode (base64) and compile each binary, median of `runs` (start-up cost of a backend). */
export async function compileTimes(binaries: { label: string; wasmBase64: string }[], runs: number): Promise<{ label: string; bytes: number; decodeMs: number; compileMs: number }[]> {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const out = [];
  for (const { label, wasmBase64 } of binaries) {
    const dec: number[] = [];
    const comp: number[] = [];
    let bytes = 0;
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      const b = decodeBase64(wasmBase64);
      const t1 = performance.now();
      await WebAssembly.compile(b);
      const t2 = performance.now();
      dec.push(t1 - t0);
      comp.push(t2 - t1);
      bytes = b.length;
    }
    out.push({ label, bytes, decodeMs: Number(median(dec).toFixed(2)), compileMs: Number(median(comp).toFixed(2)) });
  }
  return out;
}

/** Whether this engine validates the wide-arithmetic opcodes (`i64.mul_wide_u` in a minimal function). */
export { wideArithmeticSupported } from '../runtime/wide-probe.js';

export type { FieldOps };
