/**
 * scripts/groth16-keygen.ts: Groth16 keys from known toxic waste (tests and benchmarks only) for
 * circom circuits on BN254 and BLS12-381 (the test fixtures' circuits, no powers of tau needed).
 * Oracle: stock snarkjs — its prover proves with the generated zkey and its verifier accepts with the
 * generated vkey; pippin's prover (loadGroth16Key) proves and snarkjs verifies; a wrong witness value
 * gives a proof that does not verify; the generated vkey equals snarkjs's exportVerificationKey of
 * the generated zkey; readZkey reads the zkey; the coefficient section equals the one snarkjs's own
 * setup wrote (when that key is in the cache). Also the CLI and the fixture option `keygen: true`.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as snarkjs from 'snarkjs';
import { loadGroth16Key } from '../src/snarkjs/groth16/prove.js';
import { readZkey } from '../src/snarkjs/groth16/zkey.js';
import { buildFixture, terminateCurves, TEST_FIXTURES, withKeygen, type Fixture } from '../scripts/snarkjs-fixtures.js';
import { groth16Keygen, readR1cs, type KeygenResult } from '../scripts/groth16-keygen.js';
import { wrongWitness } from './helpers/snarkjs.js';

interface Case {
  fixture: Fixture;
  gen: KeygenResult;
  wtns: Uint8Array;
}
const cases: Case[] = [];
const verify = (vkey: unknown, p: { proof: unknown; publicSignals: unknown }) => snarkjs.groth16.verify(vkey, p.publicSignals, p.proof) as Promise<boolean>;
const mem = (data: Uint8Array) => ({ type: 'mem', data });

before(async () => {
  for (const spec of TEST_FIXTURES) {
    const fixture = await buildFixture(withKeygen({ ...spec, protocols: ['groth16'] }));
    const gen = await groth16Keygen(new Uint8Array(readFileSync(fixture.r1cs)), { seed: 7 });
    cases.push({ fixture, gen, wtns: new Uint8Array(readFileSync(fixture.wtns)) });
  }
});
after(async () => terminateCurves());


describe('groth16-keygen: keys from known toxic waste', { timeout: 120_000 }, () => {
  it('readZkey reads the key; its shape is the circuit\'s; the coefficients are snarkjs setup\'s', () => {
    assert.deepEqual(cases.map((c) => c.gen.curve.name), ['bn128', 'bls12381']);
    for (const { fixture, gen } of cases) {
      const name = fixture.spec.name;
      const key = readZkey(gen.zkey);
      const cs = readR1cs(new Uint8Array(readFileSync(fixture.r1cs)));
      assert.equal(key.curve.name, cs.curve.name, name);
      assert.equal(key.nVars, cs.nVars, name);
      assert.equal(key.nPublic, cs.nOutputs + cs.nPubInputs, name);
      assert.ok(key.domainSize >= cs.nConstraints + key.nPublic + 1 && key.domainSize / 2 < cs.nConstraints + key.nPublic + 1, `${name}: domain ${key.domainSize}`);
      assert.equal(key.coefficients.count, cs.constraints.reduce((n, [a, b]) => n + a.length + b.length, 0) + key.nPublic + 1, name);
      // snarkjs's own key of the circuit (made from a powers of tau by other tests), when cached
      const stockPath = join(fixture.r1cs, '..', 'groth16.zkey');
      if (existsSync(stockPath)) {
        const stock = readZkey(new Uint8Array(readFileSync(stockPath)));
        assert.equal(stock.domainSize, key.domainSize, name);
        for (const f of ['matrix', 'constraint', 'signal', 'values'] as const) assert.deepEqual(key.coefficients[f], stock.coefficients[f], `${name}: coefficients ${f}`);
      }
    }
  });

  it('the vkey is what snarkjs exports from the zkey', async () => {
    for (const { fixture, gen } of cases) {
      const exported = await snarkjs.zKey.exportVerificationKey(mem(gen.zkey));
      assert.deepEqual(gen.vkey, exported, fixture.spec.name);
      assert.equal(JSON.stringify(gen.vkey), JSON.stringify(exported), `${fixture.spec.name}: key order`);
    }
  });

  it('stock snarkjs proves and verifies; pippin proves and snarkjs verifies; a wrong witness fails', async () => {
    for (const { fixture, gen, wtns } of cases) {
      const name = fixture.spec.name;
      const stock = await snarkjs.groth16.prove(mem(gen.zkey), mem(wtns));
      assert.equal(await verify(gen.vkey, stock), true, `${name}: stock proof`);
      const key = await loadGroth16Key(gen.zkey);
      try {
        const ours = await key.prove(wtns);
        assert.deepEqual(ours.publicSignals, stock.publicSignals, `${name}: public signals`);
        assert.equal(await verify(gen.vkey, ours), true, `${name}: pippin's proof`);
        assert.equal(await verify(gen.vkey, await key.prove(wrongWitness(wtns))), false, `${name}: wrong witness`);
        // the fixture key (seed 1) does not verify proofs of the seed-7 key: the vkey depends on the waste
        assert.equal(await verify(fixture.vkey.groth16, ours), false, `${name}: another seed's vkey`);
      } finally {
        key.dispose();
      }
      // the fixture's cached key (keygen: true) proves too
      const fx = await snarkjs.groth16.prove(fixture.zkey.groth16!, fixture.wtns);
      assert.equal(await verify(fixture.vkey.groth16, fx), true, `${name}: fixture key`);
    }
  });

  it('CLI: --r1cs --out --seed writes groth16.zkey and vkey.json (the same key as the API)', () => {
    const { fixture, gen } = cases[0];
    const out = mkdtempSync(join(tmpdir(), 'pippin-keygen-'));
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/groth16-keygen.ts', '--r1cs', fixture.r1cs, '--out', out, '--seed', '7'], { stdio: ['ignore', 'ignore', 'pipe'] });
      assert.deepEqual(new Uint8Array(readFileSync(join(out, 'groth16.zkey'))), gen.zkey);
      assert.deepEqual(JSON.parse(readFileSync(join(out, 'vkey.json'), 'utf8')), gen.vkey);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
