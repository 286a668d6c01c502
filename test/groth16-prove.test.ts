/**
 * pippin/snarkjs `groth16`: the whole prover on snarkjs keys (BN254 and BLS12-381 circom circuits).
 * Oracle: stock snarkjs — every proof is verified by `snarkjs.groth16.verify` in a child process
 * (no pippin loaded there), public signals equal stock snarkjs's; a wrong witness value gives a proof
 * that does not verify; two proofs of the same witness differ (fresh r, s) and both verify. Also:
 * every input kind (bytes refilled after the call, ArrayBuffer, snarkjs's mem file, a path),
 * fullProve with snarkjs's witness calculator, proofs in flight together on one key and on two,
 * a witness of another key, bad options.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import * as snarkjs from 'snarkjs';
import { groth16, FileFormatError, type Groth16Result } from '../src/snarkjs/index.js';
import { InvalidOptionError } from '../src/errors.js';
import { buildFixture, terminateCurves, TEST_FIXTURES, type Fixture } from '../scripts/snarkjs-fixtures.js';
import { wrongWitness } from './helpers/snarkjs.js';

interface Case {
  fixture: Fixture;
  zkey: Uint8Array;
  wtns: Uint8Array;
  stockSignals: string[];
}
const cases: Case[] = [];
/** proofs to verify in the child process, with whether each must verify */
const toVerify: { name: string; vkey: unknown; result: Groth16Result; valid: boolean }[] = [];

before(async () => {
  for (const spec of TEST_FIXTURES) {
    const fixture = await buildFixture(spec);
    const zkey = new Uint8Array(readFileSync(fixture.zkey.groth16!));
    const wtns = new Uint8Array(readFileSync(fixture.wtns));
    const stock = await snarkjs.groth16.prove(fixture.zkey.groth16!, fixture.wtns);
    cases.push({ fixture, zkey, wtns, stockSignals: stock.publicSignals });
  }
});
after(async () => terminateCurves());


describe('groth16 (pippin/snarkjs): the whole prover', { timeout: 300_000 }, () => {
  it('proofs of both curves, every input kind, twice, a wrong witness, in flight together', async () => {
    for (const c of cases) {
      const name = c.fixture.spec.name;
      const vkey = c.fixture.vkey.groth16;
      const zkeyBuf = Buffer.from(c.zkey);
      const wtnsCopy = c.wtns.slice();
      const first = groth16.prove(zkeyBuf, wtnsCopy, { threads: 1 });
      zkeyBuf.fill(0); // taken at the call
      wtnsCopy.fill(0);
      const a = await first;
      assert.deepEqual(a.publicSignals, c.stockSignals, `${name}: public signals`);
      assert.equal(a.proof.protocol, 'groth16');
      assert.equal(a.proof.curve, c.fixture.spec.prime);
      const ab = c.zkey.buffer.slice(c.zkey.byteOffset, c.zkey.byteOffset + c.zkey.byteLength);
      const b = await groth16.prove(ab as ArrayBuffer, { type: 'mem', data: c.wtns });
      assert.notDeepEqual(a.proof, b.proof, `${name}: fresh r and s`);
      const fromFiles = await groth16.prove(c.fixture.zkey.groth16!, c.fixture.wtns);
      const full = await groth16.fullProve(JSON.parse(JSON.stringify(c.fixture.spec.input)), c.fixture.wasm, c.zkey, { snarkjs });
      assert.deepEqual(full.publicSignals, c.stockSignals, `${name}: fullProve public signals`);
      const key = await groth16.loadKey(c.zkey);
      const together = await Promise.all([key.prove(c.wtns), key.prove(wrongWitness(c.wtns)), key.prove(c.wtns, { threads: 2 })]);
      key.dispose();
      await assert.rejects(key.prove(c.wtns), /disposed/);
      for (const [i, result] of [a, b, fromFiles, full, together[0], together[2]].entries()) toVerify.push({ name: `${name} #${i}`, vkey, result, valid: true });
      toVerify.push({ name: `${name} wrong witness`, vkey, result: together[1], valid: false });
    }
    // several proofs at once on one key, each witness a Node Buffer or a subarray at an offset, refilled right after its call
    for (const c of cases) {
      const key = await groth16.loadKey(c.zkey);
      const inputs = [0, 1, 2].map((i) => {
        if (i === 0) return Buffer.from(c.wtns);
        const big = new Uint8Array(c.wtns.length + 16 * i);
        big.set(c.wtns, 16 * i);
        return big.subarray(16 * i, 16 * i + c.wtns.length);
      });
      const calls = inputs.map((w) => {
        const p = key.prove(w);
        w.fill(0xff);
        return p;
      });
      const results = await Promise.all(calls);
      key.dispose();
      results.forEach((result, i) => {
        assert.deepEqual(result.publicSignals, c.stockSignals, `${c.fixture.spec.name}: refilled input ${i}`);
        toVerify.push({ name: `${c.fixture.spec.name} refilled input ${i}`, vkey: c.fixture.vkey.groth16, result, valid: true });
      });
    }
    // two keys at once
    const both = await Promise.all(cases.map((c) => groth16.prove(c.zkey, c.wtns)));
    both.forEach((result, i) => toVerify.push({ name: `${cases[i].fixture.spec.name} two keys`, vkey: cases[i].fixture.vkey.groth16, result, valid: true }));
  });

  it('stock snarkjs in a child process verifies every proof (and rejects the wrong-witness ones)', () => {
    assert.ok(toVerify.length >= 16);
    const dir = mkdtempSync(join(tmpdir(), 'pippin-groth16-'));
    const file = join(dir, 'proofs.json');
    writeFileSync(file, JSON.stringify(toVerify));
    const script = `import * as snarkjs from 'snarkjs'; import { readFileSync } from 'node:fs';
      const items = JSON.parse(readFileSync(${JSON.stringify(file)}, 'utf8'));
      const out = [];
      for (const it of items) out.push(await snarkjs.groth16.verify(it.vkey, it.result.publicSignals, it.result.proof));
      console.log(JSON.stringify(out)); process.exit(0);`;
    const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' });
    const verdicts = JSON.parse(stdout.trim().split('\n').pop()!) as boolean[];
    toVerify.forEach((v, i) => assert.equal(verdicts[i], v.valid, `${v.name}: verify = ${verdicts[i]}`));
  });

  it('a witness of another key, malformed files and bad options are typed errors', async () => {
    const [bn, bls] = cases;
    await assert.rejects(groth16.prove(bn.zkey, bls.wtns), (e: unknown) => e instanceof FileFormatError && e.code === 'witness-prime');
    await assert.rejects(groth16.prove(bn.zkey, bn.wtns.subarray(0, bn.wtns.length - 32)), (e: unknown) => e instanceof FileFormatError);
    await assert.rejects(groth16.prove(bn.zkey.subarray(0, 1000), bn.wtns), (e: unknown) => e instanceof FileFormatError && e.code === 'truncated');
    await assert.rejects(groth16.prove(bn.zkey, bn.wtns, { threads: 0 }), InvalidOptionError);
    await assert.rejects(groth16.prove(bn.zkey, bn.wtns, { bogus: 1 } as never), InvalidOptionError);
    await assert.rejects(groth16.fullProve({}, new Uint8Array(1), bn.zkey, {} as never), (e: unknown) => e instanceof InvalidOptionError && e.option === 'snarkjs');
    await assert.rejects(groth16.prove(42 as never, bn.wtns), /must be bytes/);
  });
});
