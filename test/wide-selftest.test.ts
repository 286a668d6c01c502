/**
 * The wide64 self-test (src/runtime/wide-selftest.ts) in Node, on each curve's wide64 module with
 * the polyfilled opcodes (the committed generated/<curve>.wide64.wat, assembled here: Node has no
 * wide arithmetic; the native binary is the same code with the helper calls patched into opcodes):
 * - its known MSM answers equal the bigint reference (src/reference/curve.ts) for every curve;
 * - a correct module passes, by the kernels and through the MSM pipeline (a G1 on the instance);
 * - forced mismatches, each an engine bug the self-test must catch, make it return a reason naming
 *   the wrong answer: add128 losing its carry, mul_wide_u losing the middle carry of its high
 *   word, mul_wide_s without the sign correction of one operand (only the inverse uses it), an
 *   MSM pipeline returning a wrong point; and a module that does not compile is a reason, not a throw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { assembleWat } from '../src/codegen/assemble.js';
import { KNOWN_MSM, selfTestScalars, selfTestWide64 } from '../src/runtime/wide-selftest.js';
import type { WideModule } from '../src/runtime/instance.js';
import { curveNames, registry } from '../src/curves/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { Group, type G1Affine, type G1PointInput } from '../src/api/group.js';
import { groupContext } from '../src/msm/group.js';
import * as m381 from '../src/wasm-generated/bls12_381.js';
import * as m254 from '../src/wasm-generated/bn254.js';
import * as m377 from '../src/wasm-generated/bls12_377.js';
import * as mPallas from '../src/wasm-generated/pallas.js';
import * as mVesta from '../src/wasm-generated/vesta.js';

const shipped: Record<string, { wide64: WideModule; formats: readonly unknown[] }> = { 'bls12-381': m381, bn254: m254, 'bls12-377': m377, pallas: mPallas, vesta: mVesta };
const watOf = (curve: string) => readFileSync(new URL(`../generated/${curve}.wide64.wat`, import.meta.url), 'utf8');

/** The curve's wide64 module with its binary replaced by the assembled (polyfilled, possibly altered) text. */
async function polyfilled(curve: string, edit?: (wat: string) => string): Promise<WideModule> {
  const wat = watOf(curve);
  const changed = edit ? edit(wat) : wat;
  if (edit && changed === wat) throw new Error('the edit changed nothing');
  const wasm = await assembleWat(curve, changed);
  return { ...shipped[curve].wide64, wasmBase64: Buffer.from(wasm).toString('base64') };
}

/** Replaces `from` by `to` inside the named helper function of the text (exactly once). */
function inHelper(wat: string, helper: string, from: string, to: string): string {
  const start = wat.indexOf(`(func $${helper} `);
  const end = wat.indexOf('\n  )\n', start);
  const body = wat.slice(start, end);
  assert.equal(body.split(from).length, 2, `${helper}: exactly one ${from}`);
  return wat.slice(0, start) + body.replace(from, to) + wat.slice(end);
}

test('the known MSM answers are Σ s_i·(i + 1)·G by the bigint reference, for every curve of the registry', () => {
  for (const name of curveNames) {
    const ref = new RefCurve(registry[name].params);
    const s = selfTestScalars(ref.params.r);
    const want = ref.msmNaive(s.map((_, i) => ref.mul(ref.G, BigInt(i + 1))), s);
    assert.ok(want, name);
    assert.deepEqual(KNOWN_MSM[name], { x: want.x, y: want.y }, `${name}: KNOWN_MSM (recompute with the reference)`);
  }
});

for (const name of curveNames) {
  test(`${name}: a correct wide64 module passes, by the kernels and through the MSM pipeline`, async () => {
    const { params, tuning } = registry[name];
    const mod = await polyfilled(name);
    let msmRan = false;
    const why = await selfTestWide64(mod, params, {
      msm: async (inst, pts, s) => {
        msmRan = true;
        const ctx = groupContext('g1', { inst, scratchBytes: mod.scratchBytes, windowTable: tuning.msmWindow.table, cofactor: params.h1 });
        const g1 = new Group<string, G1Affine, G1PointInput>({ entry: `${name}.g1`, r: params.r, formats: shipped[name].formats as never, ctx });
        return g1.msm(pts, s, { threads: 1 });
      },
    });
    assert.equal(why, undefined);
    assert.ok(msmRan, 'the MSM hook ran');
  });
}

const BUGS: { what: string; edit: (wat: string) => string; reason: RegExp }[] = [
  {
    what: 'i64.add128 loses the carry out of the low word',
    edit: (w) => inHelper(w, 'wide64_add128', '(i64.extend_i32_u (i64.lt_u (local.get $lo) (local.get $aLo)))', '(i64.const 0)'),
    reason: /fp_(mul|sqr|add|sub)\(0x[0-9a-f]+, 0x[0-9a-f]+\) = 0x[0-9a-f]+, expected/,
  },
  {
    what: 'i64.mul_wide_u drops the carry of the middle partial products into the high word',
    edit: (w) => inHelper(w, 'wide64_mul_u', ' (i64.shr_u (local.get $mid) (i64.const 0x20)))', ' (i64.const 0))'),
    reason: /fp_(mul|sqr)\(/,
  },
  {
    what: 'i64.mul_wide_s forgets the sign correction for a negative second operand (used by the inverse only)',
    edit: (w) => inHelper(w, 'wide64_mul_s', '(i64.and (i64.shr_s (local.get $b) (i64.const 0x3f)) (local.get $a))', '(i64.const 0)'),
    reason: /fp_inv\(0x[0-9a-f]+\) = 0x[0-9a-f]+, not its inverse/,
  },
];

for (const bug of BUGS) {
  test(`forced mismatch: ${bug.what} → a reason`, async () => {
    // (a wrong mul_wide_s makes each inverse run its full divsteps bound: one curve, seconds)
    for (const name of bug.what.includes('mul_wide_s') ? ['bn254'] : ['bls12-381', 'bn254']) {
      const why = await selfTestWide64(await polyfilled(name, bug.edit), registry[name as 'bn254'].params);
      assert.match(why ?? 'undefined (passed)', bug.reason, name);
      assert.match(why!, new RegExp(`^${name} wide64 self-test: `));
    }
  });
}

test('forced mismatch: an MSM pipeline that is wrong while every kernel checked is right → a reason naming the MSM', async () => {
  const { params } = registry.bn254;
  const why = await selfTestWide64(await polyfilled('bn254'), params, { msm: async (_inst, pts) => ({ ...pts[3], infinity: false }) });
  assert.match(why ?? '', /^bn254 wide64 self-test: MSM Σ s_i·\(i \+ 1\)·G = \(0x[0-9a-f]+, 0x[0-9a-f]+\), expected \(0x/);
  const inf = await selfTestWide64(await polyfilled('bn254'), params, { msm: async () => ({ x: 0n, y: 0n, infinity: true }) });
  assert.match(inf ?? '', /MSM .* = infinity, expected/);
});

test('a module that does not compile, or of another curve, is a reason, not a rejection', async () => {
  const { params } = registry['bls12-381'];
  const broken = { ...shipped['bls12-381'].wide64, wasmBase64: Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0xff]).toString('base64') };
  assert.match((await selfTestWide64(broken, params)) ?? '', /^wide64 self-test: .*(Compile|compile)/);
  // Node cannot compile the shipped (native-opcode) binary: a reason as well
  assert.match((await selfTestWide64(shipped['bls12-381'].wide64, params)) ?? '', /^wide64 self-test: /);
  assert.match((await selfTestWide64(await polyfilled('bn254'), params)) ?? '', /is not the 64-bit-limb field of bls12-381/);
  assert.match((await selfTestWide64(await polyfilled('bn254'), { ...registry.bn254.params, name: 'new-curve' })) ?? '', /no known answers for curve new-curve/);
});
