/**
 * pippin/snarkjs `groth16` options on keys of the square chain (scripts/synthetic-circuit.ts, keys
 * from scripts/groth16-keygen.ts, 2^13 constraints): `signal` (abort before the call, at every
 * point of a proof, and while loading; nothing left on the curve's memory stack, the key still
 * proves afterwards), `onProgress` (fixed total, monotone, phases in order, the last report 'done'),
 * `maxMemoryBytes` (a limit below the need is InvalidOptionError before any work and pins nothing;
 * a limit at the stated need proves, and a fresh memory never grows past it), wrong option values.
 * Every proof is verified by stock snarkjs (in this process: the engine is not installed here).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as snarkjs from 'snarkjs';
import { groth16, type Groth16Progress, type Groth16ProvingKey } from '../src/snarkjs/index.js';
import { bn254, stopThreads } from '../src/index.js';
import { InvalidOptionError } from '../src/errors.js';
import { groth16Keygen } from '../scripts/groth16-keygen.js';
import { squareChain } from '../scripts/synthetic-circuit.js';
import { terminateCurves } from '../scripts/snarkjs-fixtures.js';
import { curveOfR } from '../src/snarkjs/groth16/curves.js';
import { FIELDS } from './helpers/snarkjs.js';
import type { Instance } from '../src/runtime/instance.js';

let zkey: Uint8Array;
let wtns: Uint8Array;
let vkey: Record<string, unknown>;
let signals: string[];
const inst = () => (bn254.g1 as unknown as { inst: Instance }).inst;
/** no per-call allocation alive: canPin(any size) holds only while the stack is empty */
const stackEmpty = () => inst().arena.canPin(2 ** 31);

before(async () => {
  const chain = squareChain(curveOfR(FIELDS.bn128.r)!, (1 << 13) - 2, 0xc0ffeen);
  const kg = await groth16Keygen(chain.r1cs);
  [zkey, wtns, vkey, signals] = [kg.zkey, chain.wtns, kg.vkey, chain.publicSignals];
});
after(async () => {
  await terminateCurves(); // snarkjs.groth16.verify's ffjavascript workers
  await stopThreads();
});

async function verifies(r: { proof: unknown; publicSignals: string[] }): Promise<boolean> {
  assert.deepEqual(r.publicSignals, signals);
  return snarkjs.groth16.verify(vkey, r.publicSignals, r.proof);
}

describe('groth16 options', { timeout: 300_000 }, () => {
  it('signal: aborted before the call, at points through a proof, while loading; the key proves afterwards', async () => {
    const key = await groth16.loadKey(zkey);
    try {
      const before = new AbortController();
      before.abort(new Error('stop now'));
      await assert.rejects(key.prove(wtns, { signal: before.signal }), /stop now/);
      await assert.rejects(groth16.prove(zkey, wtns, { signal: before.signal }), /stop now/);
      await assert.rejects(groth16.loadKey(zkey, { signal: before.signal }), /stop now/);
      // one proof's length, then aborts spread over it
      let t = performance.now();
      assert.ok(await verifies(await key.prove(wtns)));
      const T = performance.now() - t;
      const outcomes: string[] = [];
      for (const f of [0, 0.05, 0.2, 0.4, 0.6, 0.8]) {
        const c = new AbortController();
        let phase = 'none';
        t = performance.now();
        const p = key.prove(wtns, { signal: c.signal, onProgress: (x) => (phase = x.phase) });
        setTimeout(() => c.abort(), f * T);
        const r = await p.then(
          (v) => v,
          (e: unknown) => e,
        );
        assert.ok(stackEmpty(), `abort at ${f}·T: the memory stack is empty once the call settles`);
        if (r instanceof Error) {
          assert.equal(r.name, 'AbortError', `abort at ${f}·T rejects with the signal's reason`);
          outcomes.push(`aborted in ${phase}`);
        } else {
          assert.ok(await verifies(r as never), `abort too late at ${f}·T: the proof is complete and verifies`);
          outcomes.push('finished');
        }
      }
      assert.ok(outcomes.some((o) => o === 'aborted in msm'), `an abort landed during the MSMs: ${outcomes.join(', ')}`);
      assert.ok(await verifies(await key.prove(wtns)), 'the key proves after the aborts');
      // loading aborted midway: nothing stays pinned
      const pinned = inst().arena.pinnedBytes;
      const c = new AbortController();
      const loading = groth16.loadKey(zkey, { signal: c.signal });
      setTimeout(() => c.abort(), 5);
      const loaded = await loading.catch((e: unknown) => e);
      if (loaded instanceof Error) assert.equal(loaded.name, 'AbortError');
      else (loaded as Groth16ProvingKey).dispose();
      assert.equal(inst().arena.pinnedBytes, pinned, 'an aborted (or disposed) load pins nothing');
    } finally {
      key.dispose();
    }
  });

  it('onProgress: total fixed, done monotone, phases in order, the last report done === total', async () => {
    const key = await groth16.loadKey(zkey);
    try {
      const reports: Groth16Progress[] = [];
      assert.ok(await verifies(await key.prove(wtns, { onProgress: (p) => reports.push({ ...p }) })));
      assert.ok(reports.length >= 2);
      const order = ['abc', 'fft', 'msm', 'done'];
      for (let i = 1; i < reports.length; i++) {
        assert.equal(reports[i].total, reports[0].total);
        assert.ok(reports[i].done >= reports[i - 1].done, 'done never decreases');
        assert.ok(order.indexOf(reports[i].phase) >= order.indexOf(reports[i - 1].phase), 'phases in order');
      }
      const last = reports[reports.length - 1];
      assert.equal(last.phase, 'done');
      assert.equal(last.done, last.total);
      assert.ok(reports.slice(0, -1).every((r) => r.done < r.total && r.phase !== 'done'), 'done only at the end');
    } finally {
      key.dispose();
    }
  });

  it('maxMemoryBytes: below the need → InvalidOptionError before any work; at the need the proof fits', async () => {
    // a fresh memory, so that its size shows this key's and proof's use alone
    await bn254.release();
    await bn254.init();
    const size0 = inst().memory.buffer.byteLength;
    const pinned0 = inst().arena.pinnedBytes;
    const need = (e: unknown) => {
      assert.ok(e instanceof InvalidOptionError && e.option === 'maxMemoryBytes', String(e));
      return Number(/the (\d+) bytes/.exec(e.message)![1]);
    };
    const loadNeed = need(await groth16.loadKey(zkey, { maxMemoryBytes: 2 ** 20 }).catch((e: unknown) => e));
    assert.equal(inst().arena.pinnedBytes, pinned0, 'a refused load pins nothing');
    assert.ok(loadNeed > 2 ** 20);
    const key = await groth16.loadKey(zkey);
    try {
      const proofNeed = need(await key.prove(wtns, { maxMemoryBytes: loadNeed }).catch((e: unknown) => e));
      assert.ok(proofNeed > loadNeed - 2 ** 16, `a proof needs the key (${loadNeed}) and its largest step: ${proofNeed}`);
      assert.ok(stackEmpty());
      await assert.rejects(groth16.prove(zkey, wtns, { maxMemoryBytes: 2 ** 20 }), InvalidOptionError);
      const limit = Math.max(proofNeed, size0);
      const results = await Promise.all([key.prove(wtns, { maxMemoryBytes: limit }), key.prove(wtns, { maxMemoryBytes: limit })]);
      for (const r of results) assert.ok(await verifies(r));
      const size = inst().memory.buffer.byteLength;
      assert.ok(size <= Math.ceil(limit / 65536) * 65536, `memory ${size} bytes within the stated ${limit}`);
    } finally {
      key.dispose();
    }
  });

  it('key.prove takes the witness as a path, a file: URL, a mem file or an ArrayBuffer, like groth16.prove', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pippin-wtns-'));
    const key = await groth16.loadKey(zkey);
    try {
      const path = join(dir, 'w.wtns');
      writeFileSync(path, wtns);
      const ab = wtns.buffer.slice(wtns.byteOffset, wtns.byteOffset + wtns.byteLength) as ArrayBuffer;
      const results = await Promise.all([key.prove(path), key.prove(pathToFileURL(path)), key.prove({ type: 'mem', data: wtns }), key.prove(ab)]);
      for (const r of results) assert.ok(await verifies(r));
      await assert.rejects(key.prove(join(dir, 'missing.wtns')), /ENOENT/);
      assert.ok(stackEmpty());
    } finally {
      key.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loadKey and key.prove in flight together: zkeys and witnesses as Node Buffers and offset subarrays, refilled right after each call', async () => {
    const kinds: ((b: Uint8Array) => Uint8Array)[] = [
      (b) => Buffer.from(b),
      (b) => {
        const whole = new Uint8Array(b.length + 77).fill(0x5a);
        whole.set(b, 40);
        return whole.subarray(40, 40 + b.length);
      },
      (b) => Uint8Array.from(b),
    ];
    const zkeys = kinds.map((k) => k(zkey));
    const loading = zkeys.map((z, i) => groth16.loadKey(z, { threads: 1 + (i % 2) }));
    for (const z of zkeys) z.fill(0xee); // taken at the call
    const keys = await Promise.all(loading);
    try {
      const witnesses = keys.flatMap(() => kinds.map((k) => k(wtns)));
      const proving = witnesses.map((w, i) => keys[i % keys.length]!.prove(w, { onProgress: () => {} }));
      for (const w of witnesses) w.fill(0x11);
      const results = await Promise.all([...proving, groth16.prove(kinds[1]!(zkey), kinds[0]!(wtns))]);
      for (const r of results) assert.ok(await verifies(r));
      assert.equal(new Set(results.map((r) => JSON.stringify(r.proof))).size, results.length, 'fresh r and s per proof');
      assert.ok(stackEmpty());
    } finally {
      for (const k of keys) k.dispose();
    }
  });

  it('wrong option values are InvalidOptionError naming the option', async () => {
    const key = await groth16.loadKey(zkey);
    try {
      const bad: [string, unknown][] = [
        ['signal', {}],
        ['signal', null],
        ['onProgress', 'yes'],
        ['maxMemoryBytes', 1024],
        ['maxMemoryBytes', 2 ** 33],
        ['maxMemoryBytes', '1e9'],
        ['threads', 0],
        ['onStats', null],
      ];
      for (const [option, value] of bad) {
        const opts = { [option]: value } as never;
        for (const call of [() => key.prove(wtns, opts), () => groth16.prove(zkey, wtns, opts)]) {
          await assert.rejects(call(), (e: unknown) => e instanceof InvalidOptionError && e.option === option, `${option}: ${String(value)}`);
        }
      }
      await assert.rejects(groth16.loadKey(zkey, { onProgress: () => {} } as never), InvalidOptionError);
      await assert.rejects(groth16.loadKey(zkey, { maxMemoryBytes: -1 }), (e: unknown) => e instanceof InvalidOptionError && e.option === 'maxMemoryBytes');
      assert.ok(stackEmpty());
    } finally {
      key.dispose();
    }
  });
});
