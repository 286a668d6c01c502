/**
 * The Groth16 prover on a 2^20-constraint key (the square chain of scripts/synthetic-circuit.ts, its
 * key from scripts/groth16-keygen.ts): a child process reads the key from a file, loads it and
 * proves twice; stock snarkjs verifies the proof; the child's peak RSS and the curve's Wasm memory
 * stay within the bounds docs/snarkjs.md states (MEMORY_BOUNDS below). Minutes of work, so not in
 * `npm test`: `npm run test:large` (CI runs it once).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import * as snarkjs from 'snarkjs';
import { groth16Keygen } from '../../scripts/groth16-keygen.js';
import { squareChain } from '../../scripts/synthetic-circuit.js';
import { terminateCurves } from '../../scripts/snarkjs-fixtures.js';
import { curveOfR } from '../../src/snarkjs/groth16/curves.js';
import { FIELDS } from '../helpers/snarkjs.js';
import { stopThreads } from '../../src/index.js';

const LOG2 = Number(process.env.PIPPIN_LARGE_LOG2 ?? 20);
/** the bounds docs/snarkjs.md states for a 2^20 BN254 key (2 threads): the prover's peak RSS and Wasm memory, MiB */
const MEMORY_BOUNDS = { rssMiB: 1800, wasmMiB: 900 };

describe(`groth16 on a 2^${LOG2}-constraint key`, { timeout: 3_600_000 }, () => {
  it('proves in a child process within the stated memory; stock snarkjs verifies the proof', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pippin-groth16-large-'));
    try {
      const chain = squareChain(curveOfR(FIELDS.bn128.r)!, (1 << LOG2) - 2, 0x5eedn);
      const kg = await groth16Keygen(chain.r1cs);
      assert.equal(kg.domainSize, 1 << LOG2);
      writeFileSync(join(dir, 'key.zkey'), kg.zkey);
      writeFileSync(join(dir, 'w.wtns'), chain.wtns);
      const child = `
        import { readFileSync } from 'node:fs';
        import { groth16 } from './src/snarkjs/index.js';
        import { bn254, stopThreads } from './src/index.js';
        const key = await groth16.loadKey(${JSON.stringify(join(dir, 'key.zkey'))}, { threads: 2 });
        const times = [];
        let result;
        for (let i = 0; i < 2; i++) {
          const t = performance.now();
          result = await key.prove(readFileSync(${JSON.stringify(join(dir, "w.wtns"))}), { threads: 2 });
          times.push(performance.now() - t);
        }
        const wasm = bn254.g1.inst.memory.buffer.byteLength;
        key.dispose();
        await stopThreads();
        console.log(JSON.stringify({ result, times, wasm, maxRSS: process.resourceUsage().maxRSS * 1024 }));
        process.exit(0);`;
      const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { cwd: process.cwd(), encoding: 'utf8', maxBuffer: 1 << 24 });
      const report = JSON.parse(out.trim().split('\n').pop()!) as { result: { proof: unknown; publicSignals: string[] }; times: number[]; wasm: number; maxRSS: number };
      const mib = (x: number) => x / 2 ** 20;
      process.stderr.write(`groth16 2^${LOG2}: keygen ${(kg.ms.total / 1000).toFixed(1)} s; proofs ${report.times.map((t) => (t / 1000).toFixed(1)).join(', ')} s; child peak RSS ${mib(report.maxRSS).toFixed(0)} MiB, Wasm memory ${mib(report.wasm).toFixed(0)} MiB\n`);
      assert.deepEqual(report.result.publicSignals, chain.publicSignals);
      assert.ok(await snarkjs.groth16.verify(kg.vkey, report.result.publicSignals, report.result.proof), 'stock snarkjs verifies the proof');
      if (LOG2 === 20) {
        assert.ok(mib(report.maxRSS) <= MEMORY_BOUNDS.rssMiB, `peak RSS ${mib(report.maxRSS).toFixed(0)} MiB ≤ ${MEMORY_BOUNDS.rssMiB}`);
        assert.ok(mib(report.wasm) <= MEMORY_BOUNDS.wasmMiB, `Wasm memory ${mib(report.wasm).toFixed(0)} MiB ≤ ${MEMORY_BOUNDS.wasmMiB}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await terminateCurves();
      await stopThreads();
    }
  });
});
