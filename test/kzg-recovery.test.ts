/**
 * pippin/kzg recoverCellsAndKzgProofs (EIP-7594) against c-kzg 4.1.0 (test/helpers/kzg-oracle.ts,
 * memoized): seeded random subsets of exactly 64 and 100 cells in any order, all 128, the lowest and
 * the highest 64; two threads; dispose() with a call in flight; kzg.sync; cells that are no blob's (c-kzg's linear map, bit for bit); the bigint
 * reference (fr.recoverReference); every input c-kzg refuses refused with its typed error and
 * position, and the inputs c-kzg takes that look odd (fractional indices, Buffers) taken; inputs
 * refilled right after the call in every buffer kind, with calls in flight together.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DisposedError, LengthMismatchError, ScalarEncodingError, startThreads, stopThreads } from '../src/index.js';
import { CellIndexError } from '../src/kzg/index.js';
import { loadKzg, type Kzg } from '../src/kzg/index.js';
import * as fr from '../src/kzg/fr.js';
import { BUFFER_KINDS, CkzgOracle, hex, randomBlobs } from './helpers/kzg-oracle.js';

const BLOBS = randomBlobs(2, 3400);
const ALL = Array.from({ length: 128 }, (_, i) => i);
const bytesOfHex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

/** `count` distinct cell indices in a seeded random order. */
function subset(count: number, seed: number): number[] {
  const order = [...ALL];
  let s = seed >>> 0;
  for (let i = order.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.slice(0, count);
}

let oracle: CkzgOracle;
/** The blob's cells (c-kzg's), as new arrays. */
const cellsOf = (blob: Uint8Array): Uint8Array[] => oracle.cellsAndProofs(blob)[0].map(bytesOfHex);

/** pippin's answer = c-kzg's for these inputs (c-kzg's cells in index order: see the all-128 case). */
function assertLikeCkzg(got: [Uint8Array[], Uint8Array[]], indices: readonly number[], cells: readonly Uint8Array[], what: string): void {
  const [wantCells, wantProofs] = oracle.recover(indices, cells);
  assert.deepEqual(got[0].map(hex), wantCells, `${what}: cells`);
  assert.deepEqual(got[1].map(hex), wantProofs, `${what}: proofs`);
}

describe('pippin/kzg recoverCellsAndKzgProofs against c-kzg', { timeout: 300_000 }, () => {
  let kzg: Kzg;
  before(async () => {
    oracle = new CkzgOracle();
    kzg = await loadKzg({ threads: 1, fk20: 'load' });
  });
  after(() => kzg.dispose());

  it('random 64 and 100 cells in any order, all 128, the lowest and the highest 64 = c-kzg = the blob\'s cells and proofs', async () => {
    const cases: [string, Uint8Array, number[]][] = [
      ['random 64', BLOBS[0], subset(64, 1)],
      ['random 64 (other blob)', BLOBS[1], subset(64, 2)],
      ['random 100', BLOBS[1], subset(100, 3)],
      ['all 128', BLOBS[0], ALL],
      ['lowest 64 (the blob itself)', BLOBS[1], ALL.slice(0, 64)],
      ['highest 64, descending', BLOBS[0], ALL.slice(64).reverse()],
    ];
    for (const [what, blob, indices] of cases) {
      const cells = cellsOf(blob);
      const given = indices.map((i) => cells[i]);
      const got = await kzg.recoverCellsAndKzgProofs(indices, given);
      assertLikeCkzg(got, indices, given, what);
      const [blobCells, blobProofs] = oracle.cellsAndProofs(blob);
      assert.deepEqual(got[0].map(hex), blobCells, `${what}: the blob's cells`);
      assert.deepEqual(got[1].map(hex), blobProofs, `${what}: the blob's proofs`);
    }
  });

  it('all 128 in another order: cells in index order (c-kzg 4.1.0 returns them in input order), the same proofs', async () => {
    const cells = cellsOf(BLOBS[0]);
    const indices = subset(128, 9);
    const [got, proofs] = await kzg.recoverCellsAndKzgProofs(indices, indices.map((i) => cells[i]));
    assert.deepEqual(got.map(hex), cells.map(hex));
    assert.deepEqual(proofs.map(hex), oracle.recover(indices, indices.map((i) => cells[i]))[1]);
  });

  it('two threads (FK20 rows shared with a worker of the pool): the same cells and proofs', async () => {
    await startThreads(2);
    try {
      const two = await loadKzg({ threads: 2 });
      try {
        const cells = cellsOf(BLOBS[1]);
        const indices = subset(64, 7);
        const given = indices.map((i) => cells[i]);
        assertLikeCkzg(await two.recoverCellsAndKzgProofs(indices, given), indices, given, 'two threads');
      } finally {
        two.dispose();
      }
    } finally {
      stopThreads();
    }
  });

  it('kzg.sync = c-kzg, also for cells that are no blob\'s (the same linear map as c-kzg\'s)', async () => {
    const cells = cellsOf(BLOBS[1]);
    const indices = subset(70, 4);
    const given = indices.map((i) => Uint8Array.from(cells[i]));
    given[5][31] ^= 1;
    given[40].set(fr.toBytesBE(fr.R - 1n), 32 * 7);
    assertLikeCkzg(kzg.sync.recoverCellsAndKzgProofs(indices, given), indices, given, 'sync, altered cells');
    const full = cells.map((c) => Uint8Array.from(c));
    full[100][63] ^= 2;
    assertLikeCkzg(await kzg.recoverCellsAndKzgProofs(ALL, full), ALL, full, 'all 128, one altered');
  });

  it('the bigint reference: blob cells give the blob\'s coefficients; altered cells the same cells as pippin', async () => {
    const cells = cellsOf(BLOBS[0]);
    const indices = subset(64, 5);
    const values = (c: Uint8Array) => Array.from({ length: 64 }, (_, j) => fr.fromBytesBE(c, 32 * j));
    const input = ALL.map((i) => (indices.includes(i) ? values(cells[i]) : undefined));
    const q = fr.recoverReference(input);
    const blob = BLOBS[0];
    const monomial = fr.monomial(Array.from({ length: 4096 }, (_, i) => fr.fromBytesBE(blob, 32 * i)));
    assert.deepEqual(q.slice(0, 4096), monomial);
    assert.ok(q.slice(4096).every((c) => c === 0n));
    input[indices[3]]![9] = fr.add(input[indices[3]]![9], 1n);
    const altered = indices.map((i) => (i === indices[3] ? Uint8Array.from(cells[i]) : cells[i]));
    altered[3].set(fr.toBytesBE(input[indices[3]]![9]), 32 * 9);
    const evals = fr.fftDif(fr.recoverReference(input));
    const [got] = await kzg.recoverCellsAndKzgProofs(indices, altered);
    got.forEach((c, i) => assert.deepEqual(values(c), evals.slice(64 * i, 64 * i + 64), `cell ${i}`));
  });

  it('every input c-kzg refuses: a typed error naming the position, async and sync; what c-kzg takes is taken', async () => {
    const cells = cellsOf(BLOBS[0]);
    const base = subset(64, 6);
    const good = base.map((i) => cells[i]);
    const with_ = <T>(a: readonly T[], k: number, v: T): T[] => a.map((x, j) => (j === k ? v : x));
    const nonCanonical = Uint8Array.from(cells[base[9]]);
    nonCanonical.set(fr.toBytesBE(fr.R), 32 * 17);
    const bad: [string, unknown, unknown, new (...a: never[]) => Error, number][] = [
      ['cellIndices not an array', new Uint32Array(base), good, CellIndexError, -1],
      ['cells not an array', base, null, LengthMismatchError, -1],
      ['lengths differ', base, good.slice(1), LengthMismatchError, -1],
      ['an index not a number (string)', with_<unknown>(base, 4, '3'), good, CellIndexError, 4],
      ['an index not a number (bigint)', with_<unknown>(base, 7, 3n), good, CellIndexError, 7],
      ['a cell not a Uint8Array', base, with_<unknown>(good, 2, Array.from(good[2])), LengthMismatchError, 2],
      ['a cell of 2047 bytes', base, with_(good, 11, good[11].subarray(1)), LengthMismatchError, 11],
      ['fewer than 64 cells', base.slice(1), good.slice(1), LengthMismatchError, -1],
      ['no cells', [], [], LengthMismatchError, -1],
      ['more than 128 cells', [...ALL, 0], [...cells, cells[0]], LengthMismatchError, -1],
      ['an index of 128', with_(base, 30, 128), good, CellIndexError, 30],
      ['an index of −1', with_(base, 31, -1), good, CellIndexError, 31],
      ['an index NaN', with_(base, 32, NaN), good, CellIndexError, 32],
      ['a repeated index', with_(base, 40, base[12]), with_(good, 40, good[12]), CellIndexError, 40],
      ['a field element ≥ r', base, with_(good, 9, nonCanonical), ScalarEncodingError, 9],
    ];
    for (const [what, indices, given, type, index] of bad) {
      assert.ok(oracle.refusesRecovery(indices, given), `${what}: c-kzg refuses it`);
      const check = (e: unknown) => {
        assert.ok(e instanceof type, `${what}: ${String(e)}`);
        assert.equal((e as ScalarEncodingError).index, index, `${what}: index (${(e as Error).message})`);
        return true;
      };
      await assert.rejects(kzg.recoverCellsAndKzgProofs(indices as number[], given as Uint8Array[]), check);
      assert.throws(() => kzg.sync.recoverCellsAndKzgProofs(indices as number[], given as Uint8Array[]), check);
    }
    // taken as c-kzg takes them: fractional indices (truncated), a Node Buffer, a subarray
    const odd = with_(with_(base, 0, base[0] + 0.75), 1, base[1] === 0 ? -0.5 : base[1] + 0.25);
    const kinds = with_(with_(good, 2, Buffer.from(good[2])), 3, BUFFER_KINDS[2][1](good[3]));
    assert.ok(!oracle.refusesRecovery(odd, kinds));
    assertLikeCkzg(await kzg.recoverCellsAndKzgProofs(odd, kinds), odd, kinds, 'fractional indices, Buffers');
  });

  it('dispose() while a recovery runs: it ends with c-kzg\'s answer, later calls are DisposedError (async and sync), before any input check', async () => {
    const own = await loadKzg({ threads: 1 });
    const cells = cellsOf(BLOBS[0]);
    const indices = subset(64, 8);
    const given = indices.map((i) => cells[i]);
    const running = own.recoverCellsAndKzgProofs(indices, given);
    own.dispose();
    assertLikeCkzg(await running, indices, given, 'in flight at dispose()');
    await assert.rejects(own.recoverCellsAndKzgProofs(indices, given), DisposedError);
    await assert.rejects(own.recoverCellsAndKzgProofs([], []), DisposedError);
    assert.throws(() => own.sync.recoverCellsAndKzgProofs(indices, given), DisposedError);
  });

  it('inputs copied at the call: every buffer kind refilled right after it, calls in flight together', async () => {
    const calls = BUFFER_KINDS.map(([kind, make], k) => {
      const blob = BLOBS[k % 2];
      const indices = subset(64 + 12 * k, 20 + k);
      const cells = cellsOf(blob);
      const given = indices.map((i) => make(cells[i]));
      const list = [...indices];
      const promise = kzg.recoverCellsAndKzgProofs(list, given);
      // refilled and reordered at once: the call must not see it
      for (const c of given) c.fill(0xff);
      list.reverse();
      return { kind, blob, promise };
    });
    const alongside = kzg.computeCellsAndKzgProofs(BLOBS[1]);
    for (const { kind, blob, promise } of calls) {
      const [cells, proofs] = await promise;
      const [wantCells, wantProofs] = oracle.cellsAndProofs(blob);
      assert.deepEqual(cells.map(hex), wantCells, `${kind}: cells`);
      assert.deepEqual(proofs.map(hex), wantProofs, `${kind}: proofs`);
    }
    assert.deepEqual((await alongside)[1].map(hex), oracle.cellsAndProofs(BLOBS[1])[1]);
  });
});
