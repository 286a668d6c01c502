/**
 * Backend selection in Node (no wide arithmetic in Node 20's V8): the probe says no, `init()` picks
 * 'i32', `init({ backend: 'wide64' })` rejects with BackendUnavailableError, bad options with
 * InvalidOptionError, `info()` before `init()` with NotInitializedError; every registry curve's
 * module carries its wide64 variant (64-bit limbs, its own layout), whose binary Node does not validate;
 * the opcode patch (src/codegen/wide-arith.ts) changes exactly the helper call sites.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381, bn254, pallas, vesta, BackendUnavailableError, InvalidOptionError, NotInitializedError } from '../src/index.js';
import { wideArithmeticSupported } from '../src/runtime/wide-probe.js';
import { decodeBase64 } from '../src/runtime/instance.js';
import * as m381 from '../src/wasm-generated/bls12_381.js';
import { curveNames, generatedModule } from './helpers/registry.js';

test('the probe answers false in Node', () => {
  assert.equal(wideArithmeticSupported(), false);
});

test("init({ backend: 'wide64' }) rejects with BackendUnavailableError and leaves the curve usable", async () => {
  await assert.rejects(bn254.init({ backend: 'wide64' }), (e: unknown) => e instanceof BackendUnavailableError && e.backend === 'wide64' && /wide-arithmetic/.test(e.message));
  assert.throws(() => bn254.info(), NotInitializedError);
  await bn254.init();
  assert.deepEqual(bn254.info(), { backend: 'i32', wideArithmetic: false, limbBits: 29, elementBytes: 36 });
});

test("init() picks 'i32' here; asking for 'i32' again is fine, for 'wide64' is not", async () => {
  await bls12_381.init();
  const info = bls12_381.info();
  assert.equal(info.backend, 'i32');
  assert.equal(info.wideArithmetic, false);
  await bls12_381.init({ backend: 'i32' });
  await assert.rejects(bls12_381.init({ backend: 'wide64' }), BackendUnavailableError);
});

test('bad init options are InvalidOptionError naming the option', async () => {
  await assert.rejects(pallas.init({ backend: 'wide32' as never }), (e: unknown) => e instanceof InvalidOptionError && e.option === 'backend' && e.value === 'wide32');
  await assert.rejects(pallas.init({ backnd: 'i32' } as never), (e: unknown) => e instanceof InvalidOptionError && e.option === 'backnd');
  await assert.rejects(pallas.init(42 as never), InvalidOptionError);
  assert.throws(() => vesta.info(), NotInitializedError);
});

for (const name of curveNames) {
  test(`${name}: the module carries a wide64 variant with 64-bit limbs that Node does not validate`, async () => {
    const mod = await generatedModule(name);
    const wide = mod.wide64;
    assert.equal(wide.fields.fp.w, 64);
    assert.equal(wide.fields.fp.elementBytes, 8 * wide.fields.fp.n);
    assert.equal(wide.fields.fp.p, mod.fields.fp.p);
    // the same kernels but G2's (G2 runs on the i32 module: src/api/curve.ts)
    const notG2 = (k: string) => !k.startsWith('g2_') && !k.startsWith('fp2_');
    assert.deepEqual(Object.keys(wide.scratchBytes).sort(), Object.keys(mod.scratchBytes).filter(notG2).sort());
    const bytes = decodeBase64(wide.wasmBase64);
    assert.equal(bytes[wide.sharedFlagOffset], 0x01, 'memory limits flag at the recorded offset');
    assert.equal(WebAssembly.validate(bytes), false);
    assert.equal(WebAssembly.validate(decodeBase64(mod.wasmBase64)), true);
  });
}

test('the wide-opcode patch replaces exactly the helper calls, in place, and nothing else', async () => {
  const { generateFieldModule } = await import('../src/codegen/module.js');
  const { assembleWat } = await import('../src/codegen/assemble.js');
  const { patchWideCalls, WIDE_OPCODES } = await import('../src/codegen/wide-arith.js');
  const { wat, wideHelpers } = generateFieldModule({ curve: 'bls12-381', fields: [{ name: 'fp', p: BigInt(m381.fields.fp.p), w: 64 }] });
  assert.ok(wideHelpers);
  const poly = await assembleWat('bls12-381', wat);
  const { wasm, sites } = patchWideCalls(poly, wideHelpers);
  const calls = wat.match(/\(call \$wide64_(mul_u|mul_s|add128|sub128) /g)?.length ?? 0;
  assert.equal(sites, calls, 'one site per call in the text');
  assert.equal(wasm.length, poly.length);
  const diffs: number[] = [];
  for (let i = 0; i < wasm.length; i++) if (wasm[i] !== poly[i]) diffs.push(i);
  const ops = new Set<number>(Object.values(WIDE_OPCODES));
  let k = 0;
  while (k < diffs.length) {
    const at = diffs[k];
    assert.equal(poly[at], 0x10, `byte ${at} was a call`);
    assert.equal(wasm[at], 0xfc, `byte ${at} is the 0xFC prefix`);
    assert.ok(wideHelpers.has(poly[at + 1]) && ops.has(wasm[at + 1]) && wasm[at + 1] === wideHelpers.get(poly[at + 1]), `byte ${at + 1}: helper index → its opcode`);
    k += diffs[k + 1] === at + 1 ? 2 : 1; // the index byte differs unless helper index = opcode (never: 0…3 vs 19…22)
  }
  assert.equal(diffs.length, 2 * sites, 'two bytes per site');
  assert.equal(WebAssembly.validate(poly), true, 'the polyfill runs anywhere');
  // an unknown opcode stops the patch
  const broken = poly.slice();
  broken[diffs[0]] = 0xd5; // a call site's opcode byte becomes one the walker does not know
  assert.throws(() => patchWideCalls(broken, wideHelpers), /unknown opcode/);
});
