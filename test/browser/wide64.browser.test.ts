/**
 * The 64-bit-limb field kernels (src/codegen/field64.ts) with the native wide-arithmetic opcodes,
 * in Debian's Chromium launched with --js-flags=--wasm-wide-arithmetic (part of `npm test`'s
 * browser run): for every curve's Fp, hard values (0, 1, p−1, p, B−1, 2^64 limb boundaries, all-ones
 * limbs, R mod p) and random ones, every op checked against the bigint reference (src/reference/field.ts) and
 * bit for bit against the polyfilled binary run in Node. Without the flag the same page reports no
 * wide arithmetic (the probe and the native binary do not validate) and the polyfilled binary
 * still runs. The inverse (divsteps, the kernel with the most data-dependent paths) is checked
 * again for every curve's Fp and Fr on its own hard inputs (test/helpers/inverse-inputs.ts). The probe's framing is checked in Node on a control copy with the wide ops replaced.
 * Then the demo page (cross-origin isolated, so threads run): with the flag every curve's
 * `info().backend` is 'wide64' and its MSMs (primary point format, full validation, 1 and 2
 * threads) equal Node's (i32 backend) and their closed form; without the flag the page is on 'i32'.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_PATH, launchChromium, runnerModule, runnerPage } from '../../src/testing/wide-browser.js';
import { RUNNER_OPS, runFieldOps, type RunnerModule, type RunnerOp } from '../../src/testing/field-runner.js';
import { WIDE_PROBE_BYTES, wideArithmeticSupported } from '../../src/runtime/wide-probe.js';
import { wideBound, wideFieldLayout } from '../../src/codegen/field64.js';
import { curveNames, registry } from '../../src/curves/index.js';
import { RefField, bigintToBytesLE } from '../../src/reference/field.js';
import { makeRng } from '../../src/reference/rng.js';
import { inverseInputs } from '../helpers/inverse-inputs.js';
import { runMsm, type CurveName } from '../../demo/msm-run.js';
// @ts-expect-error plain .mjs helpers without type declarations
import { buildDemo } from '../../demo/build.mjs';
// @ts-expect-error plain .mjs helpers without type declarations
import { startServer } from '../../demo/serve.mjs';

const browsers: Browser[] = [];
let flagged: Page;
let plain: Page;

before(async () => {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  for (const flag of [true, false]) {
    const b = await launchChromium(flag);
    browsers.push(b);
    const page = await runnerPage(b);
    if (flag) flagged = page;
    else plain = page;
  }
});
after(async () => {
  for (const b of browsers.splice(0)) await b.close().catch(() => undefined);
});

/** Raw Montgomery limbs in [0, B): hard values first, then random ones. */
function inputs(p: bigint, B: bigint, n: number, seed: number, count: number): bigint[] {
  const R = 1n << BigInt(64 * n);
  const vals = [0n, 1n, 2n, p - 1n, p, p + 1n, B - 1n, B - 2n, R % p, (R * R) % p, p / 2n];
  for (let k = 1; k < n; k++) vals.push((1n << BigInt(64 * k)) - 1n, 1n << BigInt(64 * k), (1n << BigInt(64 * k)) + 1n);
  // all-ones limbs: one at a time, and B − 1 with its low limbs all ones (long carry chains in the product)
  for (let k = 0; k < n; k++) vals.push(((1n << 64n) - 1n) << BigInt(64 * k), (B - 1n) | ((1n << BigInt(64 * k)) - 1n));
  const out = [...new Set(vals.filter((v) => v >= 0n && v < B))];
  const rng = makeRng(seed);
  while (out.length < count) {
    const v = rng.nextBigint(p.toString(2).length + 1);
    if (v < B) out.push(v);
  }
  return out;
}

const inPage = (page: Page, m: RunnerModule, xs: string[], ys: string[], ops: readonly RunnerOp[] = RUNNER_OPS) =>
  page.evaluate(([mod, a, b, o]) => (window as any).pippinFieldRunner.runFieldOps(mod, a, b, o), [m, xs, ys, ops] as const) as Promise<Record<RunnerOp, string[]>>;

test('probe: false in Node, its framing valid (control copy without the wide ops validates)', () => {
  assert.equal(wideArithmeticSupported(), false, 'Node 20 V8 has no wide arithmetic');
  const control = WIDE_PROBE_BYTES.slice();
  for (let i = 0; i + 1 < control.length; i++) {
    if (control[i] !== 0xfc) continue;
    // mul_wide_u/_s (a, b) → (lo, hi): nop nop keeps the two params as the results; add128/sub128: drop drop
    const [a, b] = control[i + 1] === 0x16 || control[i + 1] === 0x15 ? [0x01, 0x01] : [0x1a, 0x1a];
    control[i] = a;
    control[i + 1] = b;
  }
  assert.equal(WebAssembly.validate(control), true, 'the probe with its wide ops replaced is a valid module');
});

test('Chromium with the flag reports wide arithmetic, without it the fallback', async () => {
  const probe = (page: Page) => page.evaluate(() => (window as any).pippinFieldRunner.wideArithmeticSupported() as boolean);
  assert.equal(await probe(flagged), true, 'with --wasm-wide-arithmetic');
  assert.equal(await probe(plain), false, 'without the flag');
});

for (const curve of curveNames) {
  test(`${curve} Fp, 64-bit limbs: native opcodes in Chromium = polyfill in Node = bigint reference`, { timeout: 120_000 }, async () => {
    const { p } = registry[curve].params;
    const L = wideFieldLayout(p);
    const B = wideBound(L);
    const native = await runnerModule(`${curve}-fp-wide64`, { p, w: 64 }, 'native');
    const poly = await runnerModule(`${curve}-fp-wide64`, { p, w: 64 }, 'polyfill');
    const xs = inputs(p, B, L.n, 7, 64);
    const ys = [...xs.slice(1), xs[0]];
    const hx = xs.map((v) => `0x${v.toString(16)}`);
    const hy = ys.map((v) => `0x${v.toString(16)}`);
    const got = await inPage(flagged, native, hx, hy);
    const node = await runFieldOps(poly, hx, hy);
    // the oracle
    const ref = new RefField(p);
    const Rinv = ref.inv(L.R % p);
    const val = (raw: bigint) => ref.mul(raw, Rinv);
    for (let i = 0; i < xs.length; i++) {
      const [x, y] = [val(xs[i]), val(ys[i])];
      const want: Partial<Record<RunnerOp, bigint>> = {
        mul: ref.mul(x, y), sqr: ref.sqr(x), add: ref.add(x, y), sub: ref.sub(x, y), neg: ref.neg(x), double: ref.add(x, x),
        inv: x === 0n ? 0n : ref.inv(x),
      };
      for (const op of RUNNER_OPS) {
        const what = `${op}(${xs[i]}, ${ys[i]})`;
        assert.equal(got[op][i], node[op][i], `${what}: native ≠ polyfill`);
        const w = want[op];
        if (w !== undefined) {
          const raw = BigInt(got[op][i]);
          assert.ok(raw < B, `${what}: output outside [0, B)`);
          assert.equal(val(raw), w, what);
        }
      }
      assert.equal(BigInt(got.from_mont[i]), x, `from_mont(${xs[i]})`);
      assert.equal(got.eq[i], ref.eq(x, y) ? '1' : '0', `eq(${xs[i]}, ${ys[i]})`);
      assert.equal(got.is_zero[i], x === 0n ? '1' : '0', `is_zero(${xs[i]})`);
      assert.equal(got.to_bytes_le[i], Buffer.from(bigintToBytesLE(x, L.byteLength)).toString('hex'), `to_bytes_le(${xs[i]})`);
    }
  });
}

for (const curve of curveNames) {
  test(`${curve} Fp and Fr inverse, 64-bit limbs: native = polyfill = reference on hard inputs (0 → 0, 1, 2, small, p − 1, 2^k, zero runs) and random ones`, { timeout: 120_000 }, async () => {
    const { params } = registry[curve];
    for (const [name, p] of [['fp', params.p], ['fr', params.r]] as const) {
      const L = wideFieldLayout(p);
      const native = await runnerModule(`${curve}-${name}-wide64`, { p, w: 64 }, 'native');
      const poly = await runnerModule(`${curve}-${name}-wide64`, { p, w: 64 }, 'polyfill');
      const xs = inverseInputs(p, L.R, makeRng(11), 64);
      const hx = xs.map((v) => `0x${v.toString(16)}`);
      const got = (await inPage(flagged, native, hx, hx, ['inv'])).inv;
      const node = (await runFieldOps(poly, hx, hx, ['inv'])).inv;
      const ref = new RefField(p);
      const Rinv = ref.inv(L.R % p);
      const val = (raw: bigint) => ref.mul(raw, Rinv);
      xs.forEach((x, i) => {
        const what = `${curve} ${name} inv(raw ${x})`;
        assert.equal(got[i], node[i], `${what}: native ≠ polyfill`);
        const raw = BigInt(got[i]);
        assert.ok(raw < wideBound(L), `${what}: output outside [0, 2p)`);
        assert.equal(val(raw), val(x) === 0n ? 0n : ref.inv(val(x)), what);
      });
    }
  });
}

test('without the flag the native binary does not validate and the polyfilled one runs', async () => {
  const { p } = registry['bls12-381'].params;
  const native = await runnerModule('bls12-381-fp-wide64', { p, w: 64 }, 'native');
  const poly = await runnerModule('bls12-381-fp-wide64', { p, w: 64 }, 'polyfill');
  const valid = (page: Page, b64: string) => page.evaluate((s) => WebAssembly.validate(Uint8Array.from(atob(s), (c) => c.charCodeAt(0))), b64);
  assert.equal(await valid(plain, native.wasmBase64), false);
  assert.equal(await valid(flagged, native.wasmBase64), true);
  const got = await inPage(plain, poly, ['0x5'], ['0x7']);
  const node = await runFieldOps(poly, ['0x5'], ['0x7']);
  assert.deepEqual(got, node);
});

test('demo page: wide64 with the flag (MSMs on 1 and 2 threads equal Node), i32 without', { timeout: 300_000 }, async () => {
  await buildDemo({ quiet: true });
  const server = await startServer({ port: 0, isolation: true });
  try {
    for (const [browser, want] of [[browsers[0], 'wide64'], [browsers[1], 'i32']] as const) {
      const page = await browser.newPage();
      page.setDefaultTimeout(120_000);
      await page.goto(server.url, { waitUntil: 'load' });
      await page.waitForFunction(() => (window as any).pippinDemoReady === true);
      for (const curve of curveNames as CurveName[]) {
        const info = await page.evaluate((c) => (window as any).pippinCurveInfo(c), curve);
        assert.equal(info.backend, want, `${curve} backend`);
        assert.equal(info.limbBits === 64, want === 'wide64', `${curve} limb width ${info.limbBits}`);
        if (want === 'i32') continue;
        for (const [logSize, threads] of [[8, 1], [11, 2]] as const) {
          const node = await runMsm({ curve, logSize, seed: 99, threads: 1 });
          const got = await page.evaluate((a) => (window as any).runMsm(a), { curve, logSize, threads, seed: 99 });
          assert.ok(got.ok === true, `${curve} 2^${logSize} on ${threads} thread(s): closed-form check in the page`);
          assert.deepEqual({ x: got.x, y: got.y, infinity: got.infinity }, { x: node.x, y: node.y, infinity: node.infinity }, `${curve} 2^${logSize}: page (wide64) = Node (i32)`);
          if (threads === 2) assert.equal(got.threadsUsed, 2, `${curve}: 2 threads used`);
        }
      }
      await page.close();
    }
  } finally {
    await server.close();
  }
});
