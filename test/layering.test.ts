/**
 * The product entries sit on the public API and msm/'s programs: nothing in src/kzg, src/snarkjs or src/evm
 * reaches the worker pool, the task interpreter or the executors, or instantiates a Wasm module of
 * its own. And pippin/kzg's memory ledger: after calls that succeed, fail and run together, the
 * curve's arena is back at its mark; after dispose(), the pinned bytes are back where they were.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { bls12_381 } from '../src/index.js';
import { loadKzg, BYTES_PER_BLOB } from '../src/kzg/index.js';

const FORBIDDEN = [/runtime\/pool/, /runtime\/interpreter/, /runtime\/executor/, /wasm-generated\/(?!kernels\.js)/]; // kernels.js: the kernels' types

describe('layering of the product entries', () => {
  for (const dir of ['kzg', 'snarkjs', 'evm']) {
    it(`src/${dir} imports no runtime internals and instantiates no module`, () => {
      const files = readdirSync(new URL(`../src/${dir}/`, import.meta.url)).filter((f) => f.endsWith('.ts'));
      assert.ok(files.length > 2);
      for (const f of files) {
        const text = readFileSync(new URL(`../src/${dir}/${f}`, import.meta.url), 'utf8');
        const specifiers = [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
        for (const s of specifiers) for (const bad of FORBIDDEN) assert.ok(!bad.test(s), `src/${dir}/${f} imports ${s}`);
        assert.ok(!/WebAssembly\.(instantiate|Module|Instance)\b|instantiateGenerated/.test(text), `src/${dir}/${f} instantiates a Wasm module`);
      }
    });
  }
});

describe('pippin/kzg memory ledger', { timeout: 300_000 }, () => {
  it('the arena is back at its mark after every kind of call; dispose() gives the pinned blocks back', async () => {
    await bls12_381.init();
    const { arena } = bls12_381.g1.inst;
    const [mark0, pinned0] = [arena.mark(), arena.pinnedBytes];
    const kzg = await loadKzg({ threads: 1, fk20: 'load' });
    // canPin(any size) holds only while no per-call allocation is alive (the stack is empty)
    const stackEmpty = () => arena.canPin(2 ** 31);
    assert.ok(stackEmpty(), 'loadKzg leaves no per-call memory');
    assert.ok(arena.pinnedBytes - pinned0 >= kzg.bytes.fk20 + kzg.bytes.fr + kzg.bytes.lagrange);
    const blob = new Uint8Array(BYTES_PER_BLOB);
    blob[31] = 3;
    const bad = blob.slice();
    bad.fill(0xff, 32 * 77, 32 * 78);
    const z = new Uint8Array(32);
    z[31] = 2;
    const [cells] = kzg.sync.computeCellsAndKzgProofs(blob);
    const half = cells.map((_, i) => i).filter((i) => i % 2 === 0);
    const settled = await Promise.allSettled([
      kzg.computeCellsAndKzgProofs(blob),
      kzg.computeKzgProof(blob, z),
      kzg.computeCellsAndKzgProofs(bad),
      kzg.recoverCellsAndKzgProofs(half, half.map((i) => cells[i])),
      kzg.recoverCellsAndKzgProofs(half.slice(1), half.slice(1).map((i) => cells[i])),
      kzg.blobToKzgCommitment(blob),
    ]);
    assert.deepEqual(settled.map((s) => s.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    kzg.sync.recoverCellsAndKzgProofs(half, half.map((i) => cells[i]));
    assert.throws(() => kzg.sync.computeKzgProof(bad, z));
    assert.throws(() => kzg.sync.recoverCellsAndKzgProofs([...half, 1], [...half, 1].map((i) => (i === 1 ? bad.subarray(2048, 4096) : cells[i]))));
    assert.ok(stackEmpty(), 'no call left memory on the stack');
    kzg.dispose();
    assert.equal(arena.pinnedBytes, pinned0, 'dispose gave every pinned block back');
    assert.equal(arena.mark(), mark0, 'the stack starts where it started');
  });
});
