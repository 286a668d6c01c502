/**
 * The multiplier's throughput in this engine's Wasm, the ceiling of every field product here: K = 8
 * independent multiply-accumulate chains, as scalar `i64.mul` + `i64.add` and as SIMD
 * `i64x2.extmul_low|high_i32x4_u` + `i64x2.add` (two 32×32 → 64-bit products an instruction). Each
 * function's sum is first checked against BigInt arithmetic for a short run; then medians of --runs
 * interleaved runs, in multiplications (products) per nanosecond. Set against `bench:field`: an i32
 * Montgomery product of BLS12-381 is 316 `i64.mul` (docs/field.md).
 *
 *   npm run bench:mul-throughput -- [--runs 7] [--iters 20000000]
 */
import { assembleWat } from '../src/codegen/assemble.js';
import { intFlag, parseFlags, runCli } from '../src/cli-args.js';

const K = 8;
const X0 = 1000003;
const USAGE = 'usage: npm run bench:mul-throughput -- [--runs 7] [--iters 20000000]';
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** scalar(n, y): Σ_i Σ_{j<n} x_i·(y + j), x_i = X0 + i; simd(n, y): Σ_i Σ_{j<n} 4·x_i·(y + j) (four lanes of each i32x4). */
const WAT = `(module
 (func (export "scalar") (param $n i32) (param $y i64) (result i64) ${range(K).map((i) => `(local $a${i} i64) (local $x${i} i64)`).join(' ')}
  ${range(K).map((i) => `(local.set $x${i} (i64.const ${X0 + i}))`).join(' ')}
  (loop $L
   ${range(K).map((i) => `(local.set $a${i} (i64.add (local.get $a${i}) (i64.mul (local.get $x${i}) (local.get $y))))`).join('\n   ')}
   (local.set $y (i64.add (local.get $y) (i64.const 1)))
   (br_if $L (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
  ${range(K).map((i) => `(local.get $a${i})`).join(' ')} ${range(K - 1).map(() => 'i64.add').join(' ')})
 (func (export "simd") (param $n i32) (param $y i32) (result i64) ${range(K).map((i) => `(local $v${i} v128) (local $u${i} v128)`).join(' ')} (local $w v128) (local $t v128)
  ${range(K).map((i) => `(local.set $u${i} (i32x4.splat (i32.const ${X0 + i})))`).join(' ')}
  (local.set $w (i32x4.splat (local.get $y)))
  (loop $L
   ${range(K).map((i) => `(local.set $v${i} (i64x2.add (local.get $v${i}) (i64x2.extmul_low_i32x4_u (local.get $u${i}) (local.get $w))))
   (local.set $v${i} (i64x2.add (local.get $v${i}) (i64x2.extmul_high_i32x4_u (local.get $u${i}) (local.get $w))))`).join('\n   ')}
   (local.set $w (i32x4.add (local.get $w) (i32x4.splat (i32.const 1))))
   (br_if $L (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
  (local.set $t (local.get $v0)) ${range(K - 1).map((i) => `(local.set $t (i64x2.add (local.get $t) (local.get $v${i + 1})))`).join(' ')}
  (i64.add (i64x2.extract_lane 0 (local.get $t)) (i64x2.extract_lane 1 (local.get $t))))
)`;

runCli('bench:mul-throughput', USAGE, async () => {
  const { values } = parseFlags(process.argv.slice(2), { runs: { type: 'string' }, iters: { type: 'string' } });
  const runs = intFlag('runs', values.runs, 7, 1, 1000);
  const iters = intFlag('iters', values.iters, 20_000_000, 1000, 2_000_000_000);
  const { instance } = await WebAssembly.instantiate(await assembleWat('mul-throughput', WAT, { simd: true }));
  const ex = instance.exports as { scalar(n: number, y: bigint): bigint; simd(n: number, y: number): bigint };
  // the sums, against BigInt (mod 2^64)
  const n = 1000, y = 5;
  const sumX = BigInt(range(K).reduce((s, i) => s + X0 + i, 0));
  const sumY = BigInt(range(n).reduce((s, j) => s + y + j, 0));
  const want = (sumX * sumY) & ((1n << 64n) - 1n);
  const asU64 = (v: bigint) => BigInt.asUintN(64, v);
  if (asU64(ex.scalar(n, BigInt(y))) !== want) throw new Error('bench:mul-throughput: the scalar sum is wrong');
  if (asU64(ex.simd(n, y)) !== asU64(4n * want)) throw new Error('bench:mul-throughput: the SIMD sum is wrong');
  const times = { scalar: [] as number[], simd: [] as number[] };
  for (let r = 0; r < runs + 1; r++) {
    let t = performance.now();
    ex.scalar(iters, 5n);
    const s = performance.now() - t;
    t = performance.now();
    ex.simd(iters, 5);
    const v = performance.now() - t;
    if (r > 0) times.scalar.push((iters * K) / s / 1e6), times.simd.push((iters * K * 4) / v / 1e6);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const s = median(times.scalar), v = median(times.simd);
  console.log(`scalar i64.mul + i64.add:               ${s.toFixed(2)} multiplications per ns`);
  console.log(`SIMD i64x2.extmul_{low,high}_i32x4_u + add: ${v.toFixed(2)} 32×32 products per ns (${(v / s).toFixed(2)}× scalar)`);
  console.log(`medians of ${runs} interleaved runs of ${iters} iterations × ${K} chains; sums checked against BigInt first`);
});
