/**
 * Field benchmark: ns per mul, square, add, inverse and batch-inverse element for BLS12-381 Fp and
 * Fr, median of several runs, each op as a dependent chain inside one Wasm call; montgomery@0.2.1's
 * Fp mul (Field.benchMultiply) and inverse (benchInverse) measured in the same run, interleaved.
 *
 *   npm run bench:field [-- --json] [-- --runs 9] [-- --variants] [-- --curves bn254,pallas]
 *
 * --variants also measures every limb width 26..30 × every product variant (MUL_STRATEGIES) for Fp (the tuning run);
 * --curves bn254,pallas,… does the same for other curves' base fields (from src/curves/index.ts);
 * --fr measures their scalar fields F_r instead (the `fr` tuning entries).
 *
 *   npm run bench:field -- --browser [--backend wide64|i32|both] [--curves bls12-381,bn254] [--runs 3] [--json] [--variants]
 *
 * --browser measures Fp in Debian's Chromium launched with --js-flags=--wasm-wide-arithmetic, one
 * page, modules interleaved: the 64-bit-limb kernels with the native wide opcodes (backend wide64)
 * and the shipped 30-bit-limb kernels (backend i32); rows {impl, backend, field, op, nsPerOp}.
 * With --variants it adds the i32 kernels of every product variant at the shipped limb width (rows
 * with backend `i32[<variant>]`) and the wide64 kernels of every product order (WIDE_MULS, rows
 * `wide64[<order>]`), the same page, interleaved; --backend narrows to one family.
 */
import { Field as MontField } from 'montgomery';
import type { Instance } from '../src/runtime/instance.js';
import { devCurveModule, devFieldInstance } from '../src/testing/dev-instance.js';
import { curves, registry } from '../src/curves/index.js';
import type { FieldBenchKernels, FieldKernels } from '../src/wasm-generated/kernels.js';
import { MUL_STRATEGIES, WIDE_MULS } from '../src/codegen/field.js';
import { choiceFlag, intFlag, listFlag, parseFlags, runCli } from '../src/cli-args.js';
import { launchChromium, runnerModule, runnerPage } from '../src/testing/wide-browser.js';
import type { BenchRow, RunnerModule } from '../src/testing/field-runner.js';

const curveNames = Object.keys(curves) as (keyof typeof curves)[];
const USAGE = `usage: npm run bench:field -- [--runs 9 (1…1000)] [--json] [--variants] [--curves ${curveNames.join(',')}] [--fr] [--browser [--backend wide64|i32|both] [--variants]]`;
const BACKENDS = ['wide64', 'i32', 'both'] as const;

/** Fp kernels in Chromium (flag on), per curve and backend, interleaved in one page. */
async function browserBench(curveList: (keyof typeof curves)[], backend: (typeof BACKENDS)[number], runs: number, json: boolean, variants: boolean): Promise<void> {
  const modules: (RunnerModule & { backend: string; curve: string })[] = [];
  for (const curve of curveList) {
    const { params, tuning } = registry[curve];
    if (backend !== 'i32') modules.push({ ...(await runnerModule(`${curve}/wide64`, { p: params.p, w: 64 }, 'native')), backend: 'wide64', curve });
    if (backend !== 'wide64') modules.push({ ...(await runnerModule(`${curve}/i32`, { p: params.p, w: tuning.fp.w, mul: tuning.fp.mul })), backend: 'i32', curve });
    if (variants) {
      if (backend !== 'wide64') for (const mul of MUL_STRATEGIES) modules.push({ ...(await runnerModule(`${curve}/i32[${mul}]`, { p: params.p, w: tuning.fp.w, mul })), backend: `i32[${mul}]`, curve });
      if (backend !== 'i32') for (const wideMul of WIDE_MULS) modules.push({ ...(await runnerModule(`${curve}/wide64[${wideMul}]`, { p: params.p, w: 64, wideMul }, 'native')), backend: `wide64[${wideMul}]`, curve });
    }
  }
  const browser = await launchChromium(true);
  try {
    const page = await runnerPage(browser);
    const [ua, wide] = await page.evaluate(() => [navigator.userAgent, (window as any).pippinFieldRunner.wideArithmeticSupported()] as [string, boolean]);
    if (backend !== 'i32' && !wide) throw new Error('this Chromium does not validate wide arithmetic even with --wasm-wide-arithmetic');
    const bench = (await page.evaluate(([m, r]) => (window as any).pippinFieldRunner.benchFieldModules(m, r), [modules, runs] as const)) as BenchRow[];
    // start-up: decode + compile of the shipped curve modules (both backends), same page
    const shipped = await Promise.all(curveList.map(async (c) => ({ c, m: await import(`../src/wasm-generated/${c.replace(/-/g, '_')}.js`) as { wasmBase64: string; wide64: { wasmBase64: string } } })));
    const startup = (await page.evaluate(([bins, r]) => (window as any).pippinFieldRunner.compileTimes(bins, r), [
      shipped.flatMap(({ c, m }) => [{ label: `${c}/i32`, wasmBase64: m.wasmBase64 }, ...(wide ? [{ label: `${c}/wide64`, wasmBase64: m.wide64.wasmBase64 }] : [])]),
      Math.max(runs, 3),
    ] as const)) as { label: string; bytes: number; decodeMs: number; compileMs: number }[];
    const rows = bench.map((b) => {
      const m = modules.find((x) => x.label === b.label)!;
      return { impl: 'pippin', backend: m.backend, field: `${m.curve}-fp`, op: b.op, nsPerOp: b.nsPerOp };
    });
    if (json) {
      console.log(JSON.stringify(rows, null, 2));
      return;
    }
    console.log('shipped curve modules, decode (base64) + compile in this page, median:');
    for (const s of startup) console.log(`  ${s.label.padEnd(18)} ${String(s.bytes).padStart(6)} bytes  decode ${s.decodeMs.toFixed(2)} ms  compile ${s.compileMs.toFixed(2)} ms`);
    console.log(`Fp kernels in ${ua.match(/HeadlessChrome\/[\d.]+/)?.[0] ?? ua} (--wasm-wide-arithmetic), median of ${runs} interleaved runs, ns per op`);
    console.log('field            op         wide64      i32   wide64/i32');
    for (const curve of curveList) {
      for (const op of ['mul', 'square', 'add', 'inverse']) {
        const get = (b: string) => rows.find((r) => r.field === `${curve}-fp` && r.op === op && r.backend === b)?.nsPerOp;
        const [w, i] = [get('wide64'), get('i32')];
        console.log(`${(curve + '-fp').padEnd(16)} ${op.padEnd(9)} ${(w?.toFixed(1) ?? '–').padStart(8)} ${(i?.toFixed(1) ?? '–').padStart(8)}   ${w && i ? (w / i).toFixed(2) + '×' : '–'}`);
      }
    }
    if (variants) {
      console.log(`\nproduct variants (i32 at the shipped w; wide64), ns per op`);
      for (const r of rows.filter((r) => r.backend.includes('[') && r.op === 'mul')) {
        const sq = rows.find((x) => x.field === r.field && x.backend === r.backend && x.op === 'square')!;
        console.log(`${r.field.padEnd(16)} ${r.backend.padEnd(22)} mul ${r.nsPerOp.toFixed(1).padStart(7)}  square ${sq.nsPerOp.toFixed(1).padStart(7)}`);
      }
    }
  } finally {
    await browser.close();
  }
}

type Row = { impl: string; field: string; op: string; nsPerOp: number; variant?: string };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Times fn(N) and returns ns per op; N chosen so that one run takes ~20 ms. */
function calibrate(fn: (N: number) => void): number {
  let N = 16;
  for (;;) {
    const t = performance.now();
    fn(N);
    const dt = performance.now() - t;
    if (dt > 20) return N;
    N *= dt < 2 ? 8 : 2;
  }
}

interface Case {
  key: string;
  N: number;
  perCall: number;
  fn: (N: number) => void;
  samples: number[];
}

type BenchInstance<F extends string> = Instance<FieldKernels<F> & FieldBenchKernels<F>>;

function fieldCases<F extends 'fp' | 'fr'>(inst: BenchInstance<F>, name: F, label: string, impl = 'pippin'): { row: Omit<Row, 'nsPerOp'>; c: Case }[] {
  const F = inst.fields[name];
  const x = F.alloc();
  const y = F.alloc();
  const z = F.alloc();
  F.write(z, 0x7777n * 0x9e3779b97f4a7c15n);
  F.write(x, 0x1234567890abcdef1234567890abcdefn * 0xfedcba9876543210n);
  F.write(y, F.info.p - 7n);
  const k = inst.k as FieldKernels<'fp' | 'fr'> & FieldBenchKernels<'fp' | 'fr'>;
  const f = name as 'fp' | 'fr';
  const batch = 1024;
  const xs = F.alloc(batch);
  const outs = F.alloc(batch);
  const scratch = F.alloc(batch + 2);
  for (let k = 0; k < batch; k++) F.write(xs + k * F.info.elementBytes, BigInt(k + 1) * 0x9e3779b97f4a7c15n);
  const ops: [string, (N: number) => void, number][] = [
    ['mul', (N) => k[`${f}_bench_mul`](x, y, N), 1],
    ['mul-2chains', (N) => k[`${f}_bench_mul2`](x, z, y, N), 2],
    ['square', (N) => k[`${f}_bench_sqr`](x, N), 1],
    ['add', (N) => k[`${f}_bench_add`](x, y, N), 1],
    ['inverse', (N) => k[`${f}_bench_inv`](x, N), 1],
    ['batch-inverse', (N) => { for (let i = 0; i < N; i++) k[`${f}_batch_inv`](outs, xs, batch, scratch); }, batch],
  ];
  return ops.map(([op, fn, perCall]) => ({ row: { impl, field: label, op }, c: { key: `${impl}/${label}/${op}`, N: 0, perCall, fn, samples: [] } }));
}

function montgomeryCases(): { row: Omit<Row, 'nsPerOp'>; c: Case }[] {
  const [x] = MontField.getPointers(1);
  MontField.writeBigint(x, 0x1234567890abcdef1234567890abcdefn);
  // montgomery's benchInverse(N) runs N chained inverse+add pairs inside Wasm on random inputs
  const benchInverse = (MontField as unknown as { benchInverse: (N: number) => void }).benchInverse;
  return [
    { row: { impl: 'montgomery', field: 'bls12-381-fp', op: 'mul' }, c: { key: 'montgomery/mul', N: 0, perCall: 1, fn: (N) => MontField.benchMultiply(x, N), samples: [] } },
    { row: { impl: 'montgomery', field: 'bls12-381-fp', op: 'inverse' }, c: { key: 'montgomery/inv', N: 0, perCall: 1, fn: (N) => benchInverse(N), samples: [] } },
  ];
}

async function main(): Promise<void> {
  const { values } = parseFlags(process.argv.slice(2), {
    json: { type: 'boolean' },
    runs: { type: 'string' },
    variants: { type: 'boolean' },
    curves: { type: 'string' },
    browser: { type: 'boolean' },
    backend: { type: 'string' },
    fr: { type: 'boolean' },
  });
  const json = values.json === true;
  const runs = intFlag('runs', values.runs, 9, 1, 1000);
  if (values.browser === true) {
    return browserBench(listFlag('curves', values.curves, ['bls12-381'], curveNames), choiceFlag('backend', values.backend, 'both', BACKENDS), runs, json, values.variants === true);
  }
  if (values.backend !== undefined) throw new Error('--backend needs --browser (Node has no wide arithmetic)');
  const variantCurves = listFlag('curves', values.curves, values.variants ? ['bls12-381'] : [], curveNames);
  const log = (...a: unknown[]) => {
    if (!json) console.log(...a);
  };
  // the shipped module's kernels, built as a dev module (+ Fr and the benchmark loops)
  const inst = await devCurveModule({ curve: registry['bls12-381'] });
  const cases = [
    ...fieldCases(inst, 'fp', 'bls12-381-fp'),
    ...fieldCases(inst, 'fr', 'bls12-381-fr'),
    ...montgomeryCases(),
  ];
  const variantField = values.fr === true ? 'fr' : 'fp';
  for (const name of variantCurves) {
    const params = curves[name];
    for (const w of [26, 27, 28, 29, 30]) {
      for (const mul of MUL_STRATEGIES) {
        // the field under the kernels' name fp (the benchmark loops), F_r's modulus with --fr
        const vi = await devFieldInstance(name, [{ name: 'fp', p: variantField === 'fr' ? params.r : params.p, w, mul }]);
        for (const k of fieldCases(vi, 'fp', `${name}-${variantField}`, `pippin[w=${w},${mul}]`).slice(0, 2)) cases.push(k);
      }
    }
  }
  for (const { c } of cases) c.N = calibrate(c.fn);
  // interleave: every run measures every case once, so drift hits all alike
  for (let r = 0; r < runs; r++) {
    for (const { c } of cases) {
      const t = performance.now();
      c.fn(c.N);
      c.samples.push(((performance.now() - t) * 1e6) / (c.N * c.perCall));
    }
  }
  const rows: Row[] = cases.map(({ row, c }) => ({ ...row, nsPerOp: Number(median(c.samples).toFixed(2)) }));
  if (json) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  const get = (impl: string, field: string, op: string) => rows.find((r) => r.impl === impl && r.field === field && r.op === op)?.nsPerOp;
  log(`BLS12-381 field kernels, median of ${runs} interleaved runs (ns per op)`);
  log('field          op             pippin   montgomery  ratio   (× pippin mul)');
  for (const field of ['bls12-381-fp', 'bls12-381-fr']) {
    const mul = get('pippin', field, 'mul')!;
    for (const op of ['mul', 'mul-2chains', 'square', 'add', 'inverse', 'batch-inverse']) {
      const ours = get('pippin', field, op)!;
      const theirs = get('montgomery', field, op);
      log(
        `${field.padEnd(14)} ${op.padEnd(14)} ${ours.toFixed(1).padStart(7)}  ${(theirs?.toFixed(1) ?? '–').padStart(10)}  ${(theirs ? (ours / theirs).toFixed(2) + '×' : '–').padStart(6)}   ${(ours / mul).toFixed(1)}`,
      );
    }
  }
  if (variantCurves.length) {
    log(`\n${variantField === 'fr' ? 'scalar' : 'base'}-field variants (tuning): mul, square ns`);
    for (const r of rows.filter((r) => r.impl.startsWith('pippin[') && r.op === 'mul')) {
      log(`${r.field.padEnd(14)} ${r.impl.padEnd(28)} mul ${r.nsPerOp.toFixed(1).padStart(7)}  square ${get(r.impl, r.field, 'square')!.toFixed(1).padStart(7)}`);
    }
  }
}

runCli('bench:field', USAGE, main, true);
