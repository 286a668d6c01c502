/**
 * pippin/kzg, EIP-7594 side: computeCells and computeCellsAndKzgProofs (FK20) byte for byte against
 * the c-kzg 4.1.0 native binding on edge blobs (all zero: every proof the point at infinity; all
 * r − 1; one non-zero element; small values; a low-degree polynomial) and a random one; the FK20
 * columns shipped in src/kzg/fk20-columns.ts derived again from the setup's monomial points and
 * compared, and one column point checked independently with @noble/curves (an MSM of the monomial
 * points by powers of ω₁₂₈); the G1 FFT's scalar multiplications by twiddles and g1_batch_add's
 * doublings (the tagged-pointer one and the coordinate-compared one) against noble.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { bls12_381 as noble } from '@noble/curves/bls12-381.js';
import { bls12_381, startThreads, stopThreads } from '../src/index.js';
import { loadKzg, type Kzg } from '../src/kzg/index.js';
import { AffineBatch, CHECK, FORMAT_COMPRESSED, FORMAT_ZCASH, glvNaf, glvSplit } from '../src/msm/affine-batch.js';
import { groupContextOf } from '../src/api/group.js';
import type { G1AffineValue } from '../src/msm/group.js';
import { bls12_381Curve } from '../src/curves/bls12-381.js';
import { buildColumns, extDomainTwiddles } from '../src/kzg/fk20.js';
import { parseTrustedSetup } from '../src/kzg/setup.js';
import { TRUSTED_SETUP_TEXT } from '../src/kzg/trusted-setup.js';
import { FK20_COLUMNS_BASE64 } from '../src/kzg/fk20-columns.js';
import * as fr from '../src/kzg/fr.js';
import { kzgBlobs } from '../examples/kzg-4844/blobs.js';

const require = createRequire(import.meta.url);
const ckzg = require('c-kzg') as typeof import('c-kzg');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const glv = bls12_381Curve.params;

/** f with an AffineBatch on bls12_381's instance, in an arena mark released after. */
async function withBatch<T>(f: (batch: AffineBatch) => T): Promise<T> {
  await bls12_381.init();
  const ctx = groupContextOf<G1AffineValue>(bls12_381.g1);
  const mark = ctx.inst.arena.mark();
  try {
    return f(new AffineBatch(ctx, bls12_381Curve.params));
  } finally {
    ctx.inst.arena.release(mark);
  }
}

describe('pippin/kzg: EIP-7594 cells and proofs against c-kzg', { timeout: 300_000 }, () => {
  let kzg: Kzg;
  before(async () => {
    ckzg.loadTrustedSetup(0);
    kzg = await loadKzg({ tables: false });
  });
  after(() => kzg.dispose());

  it('computeCellsAndKzgProofs and computeCells = c-kzg (edge and random blobs)', async () => {
    const blobs = kzgBlobs().filter(([name]) => ['zero', 'r-1', 'one-at-4095', 'small', 'random-1', 'low-degree'].includes(name));
    for (const [name, blob] of blobs) {
      const [cells, proofs] = await kzg.computeCellsAndKzgProofs(blob);
      const [cells2, proofs2] = ckzg.computeCellsAndKzgProofs(blob);
      assert.equal(cells.length, 128);
      assert.equal(proofs.length, 128);
      assert.deepEqual(cells.map(hex), cells2.map(hex), `${name}: cells`);
      assert.deepEqual(proofs.map(hex), proofs2.map(hex), `${name}: proofs`);
      if (name === 'zero') assert.ok(proofs.every((p) => p[0] === 0xc0), 'zero blob: proofs at infinity');
      if (name === 'small' || name === 'r-1') assert.deepEqual((await kzg.computeCells(blob)).map(hex), cells2.map(hex), `${name}: computeCells`);
    }
  });

  it('two threads: FK20 rows shared with a worker of the pool, the same bytes', async () => {
    await startThreads(2);
    try {
      const two = await loadKzg({ threads: 2 });
      try {
        for (const [name, blob] of kzgBlobs().filter(([n]) => n === 'zero' || n === 'random-2')) {
          const [cells, proofs] = await two.computeCellsAndKzgProofs(blob);
          const [cells2, proofs2] = ckzg.computeCellsAndKzgProofs(blob);
          assert.deepEqual(proofs.map(hex), proofs2.map(hex), `${name}: proofs`);
          assert.deepEqual(cells.map(hex), cells2.map(hex), `${name}: cells`);
        }
      } finally {
        two.dispose();
      }
    } finally {
      stopThreads();
    }
  });

  it('a setup given as text (columns derived at load, fk20: \'load\'): the same proofs', async () => {
    const own = await loadKzg({ setup: TRUSTED_SETUP_TEXT, fk20: 'load', threads: 1 });
    try {
      assert.ok(own.bytes.fk20 > 16 * 2 ** 20, 'FK20 tables built at load');
      const blob = kzgBlobs()[6][1];
      assert.deepEqual((await own.computeCellsAndKzgProofs(blob))[1].map(hex), ckzg.computeCellsAndKzgProofs(blob)[1].map(hex));
    } finally {
      own.dispose();
    }
    assert.equal(kzg.bytes.fk20 > 0, true, 'the default Kzg built its tables at its first cells call');
  });

  it('G1 twiddle multiplications (batched GLV) = @noble/curves', async () => {
    const G = noble.G1.Point.BASE;
    const ks = [0n, 1n, 2n, 3n, 15n, 16n, 17n, 31n, 33n, fr.R - 1n, fr.R - 16n, fr.roots()[1], fr.roots()[8191], fr.roots()[4096], 0x1234567n * fr.roots()[77] % fr.R];
    await withBatch((batch) => {
      const pts = batch.points(ks.length + 1);
      const bytes = new Uint8Array(48 * (ks.length + 1));
      ks.forEach((_, i) => bytes.set(G.multiply(BigInt(i + 3)).toBytes(true), 48 * i));
      bytes[48 * ks.length] = 0xc0; // infinity stays infinity
      batch.decode(bytes, ks.length + 1, FORMAT_COMPRESSED, CHECK.onCurve, pts, 'point');
      batch.mulBatch(pts, ks.map((_, i) => i).concat(ks.length), ks.map((k) => glvNaf(k, glv)).concat(glvNaf(5n, glv)));
      ks.forEach((k, i) => assert.equal(hex(batch.encode(pts, i, FORMAT_COMPRESSED)), hex(k === 0n ? noble.G1.Point.ZERO.toBytes(true) : G.multiply(BigInt(i + 3)).multiply(k).toBytes(true)), `k = ${k}`));
      assert.equal(pts.inf[ks.length], 1);
    });
    for (const k of [0n, 1n, fr.R - 1n, fr.roots()[3]]) {
      const [k1, k2] = glvSplit(k, glv);
      assert.equal((((k1 + k2 * 0xac45a4010001a40200000000ffffffffn) % fr.R) + fr.R) % fr.R, k);
      assert.ok(k1 < 1n << 128n && -k1 < 1n << 128n && k2 < 1n << 128n && -k2 < 1n << 128n);
    }
  });

  it('g1_batch_add doublings: b tagged as a (in place and into another slot), the same point at another address, P + (−P) at one address', async () => {
    const G = noble.G1.Point.BASE;
    const ks = [5n, 7n, 9n, 9n, 11n];
    await withBatch((batch) => {
      const pts = batch.points(ks.length);
      const bytes = new Uint8Array(48 * ks.length);
      ks.forEach((k, i) => bytes.set(G.multiply(k).toBytes(true), 48 * i));
      batch.decode(bytes, ks.length, FORMAT_COMPRESSED, CHECK.onCurve, pts, 'point');
      const at = (i: number) => pts.base + i * pts.stride;
      const out = batch.points(1);
      batch.begin(4);
      batch.push(at(0), at(0), at(0)); // 5G + 5G in place
      batch.push(out.base, at(1), at(1)); // 7G + 7G into another slot
      batch.push(at(2), at(2), at(3)); // 9G + 9G, the second a copy: coordinates compared
      batch.push(at(4), at(4), at(4) | 1); // 11G − 11G: infinity, dst untouched
      assert.equal(batch.run(), 4);
      assert.deepEqual([0, 1, 2, 3].map((j) => batch.wasInfinity(j)), [false, false, false, true]);
      out.inf[0] = 0;
      const enc = (p: typeof pts, i: number) => hex(batch.encode(p, i, FORMAT_COMPRESSED));
      assert.equal(enc(pts, 0), hex(G.multiply(10n).toBytes(true)));
      assert.equal(enc(out, 0), hex(G.multiply(14n).toBytes(true)));
      assert.equal(enc(pts, 1), hex(G.multiply(7n).toBytes(true)));
      assert.equal(enc(pts, 2), hex(G.multiply(18n).toBytes(true)));
      assert.equal(enc(pts, 4), hex(G.multiply(11n).toBytes(true)));
    });
  });

  it('the shipped FK20 columns = derived again from the monomial points; one checked with noble', async () => {
    const setup = parseTrustedSetup(TRUSTED_SETUP_TEXT);
    const shipped = Buffer.from(FK20_COLUMNS_BASE64, 'base64');
    assert.equal(shipped.length, 8192 * 96);
    await withBatch((batch) => {
      const monomial = batch.points(4096);
      batch.decode(setup.g1Monomial, 4096, FORMAT_COMPRESSED, CHECK.onCurve, monomial, 'monomial point');
      const columns = buildColumns(batch, extDomainTwiddles(glv), monomial);
      for (let g = 0; g < 8192; g++) {
        if (hex(batch.encode(columns, g, FORMAT_ZCASH)) !== hex(shipped.subarray(96 * g, 96 * g + 96))) assert.fail(`column point ${g} differs`);
      }
    });
    // X[i][l] = Σ_{m<63} ω₁₂₈^(i·m)·τ^(4095−64−l−64m)·G, stored at row brp(i)
    const [i, l] = [5, 9];
    const w = fr.roots()[64 * i];
    let acc = noble.G1.Point.ZERO;
    for (let m = 0; m < 63; m++) {
      const j = 4096 - 64 - 1 - l - 64 * m;
      const P = noble.G1.Point.fromBytes(setup.g1Monomial.subarray(48 * j, 48 * j + 48));
      acc = acc.add(P.multiply(fr.pow(w, BigInt(m))));
    }
    const g = fr.reverseBits(i, 7) * 64 + l;
    const column = await withBatch((batch) => {
      const decoded = batch.points(1);
      batch.decode(shipped.subarray(96 * g, 96 * g + 96), 1, FORMAT_ZCASH, CHECK.subgroup, decoded, 'column');
      return batch.encode(decoded, 0, FORMAT_COMPRESSED);
    });
    assert.equal(hex(column), hex(acc.toBytes(true)));
  });
});
