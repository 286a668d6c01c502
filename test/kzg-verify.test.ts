/**
 * pippin/kzg's verifiers against c-kzg 4.1.0: verifyKzgProof, verifyBlobKzgProof,
 * verifyBlobKzgProofBatch and verifyCellKzgProofBatch, async and `kzg.sync`, on valid inputs and on
 * every kind of invalid one — a flipped sign bit (still a G1 point: −P), a proof for another blob or
 * point, a wrong y, x with no point on the curve, a point on the curve outside G1, infinity (allowed
 * by c-kzg for commitments and proofs) and a malformed infinity, field elements ≥ r, cell indices
 * out of range, duplicated or mislabelled, mismatched counts, wrong sizes. Each case's outcome —
 * true, false or "throws" — must be c-kzg's; where c-kzg throws, pippin throws a PippinError (the
 * async method rejects with it). Then calls in flight together with Node Buffers and offset
 * subarrays refilled right after each call.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { bls12_381, NotInSubgroupError, PippinError, PointEncodingError } from '../src/index.js';
import { loadKzg, CellIndexError, type Kzg } from '../src/kzg/index.js';
import { KzgVerifier, blobDigestInputs, cellDigestInputs, takeBlobProof, takeBlobProofs, takeCellProofs } from '../src/kzg/verify.js';
import { sha256All } from '../src/kzg/sha256.js';
import { FrWasm, arenaHost, type Twiddles } from '../src/kzg/fr-wasm.js';
import * as fr from '../src/kzg/fr.js';
import { RefCurve } from '../src/reference/curve.js';
import { makeRng } from '../src/reference/rng.js';
import { pointsOfOrder } from './helpers/curve-points.js';
import { BUFFER_KINDS, CkzgOracle, ZS, randomBlobs } from './helpers/kzg-oracle.js';

const ckzg = createRequire(import.meta.url)('c-kzg') as typeof import('c-kzg');
type Outcome = boolean | 'throws';
type Method = 'verifyKzgProof' | 'verifyBlobKzgProof' | 'verifyBlobKzgProofBatch' | 'verifyCellKzgProofBatch';

/** c-kzg's outcome. */
function expected(method: Method, args: unknown[]): Outcome {
  try {
    return (ckzg[method] as (...a: unknown[]) => boolean)(...args);
  } catch {
    return 'throws';
  }
}

const flipSign = (p: Uint8Array) => {
  const q = Uint8Array.from(p);
  q[0] ^= 0x20;
  return q;
};
/** Every element r − 1 (the largest). */
const maxBlob = () => {
  const b = new Uint8Array(131072);
  for (let i = 0; i < 4096; i++) b.set(fr.toBytesBE(fr.R - 1n), 32 * i);
  return b;
};
const INFINITY = Uint8Array.from({ length: 48 }, (_, i) => (i === 0 ? 0xc0 : 0));

describe('pippin/kzg verifiers = c-kzg 4.1.0', { timeout: 300_000 }, () => {
  let kzg: Kzg;
  const oracle = new CkzgOracle();
  const blobs = randomBlobs(3, 3400);
  const hexBytes = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
  let C: Uint8Array[];
  let proofs: Uint8Array[];
  let notInG1: Uint8Array;
  before(async () => {
    kzg = await loadKzg({ threads: 1 });
    C = blobs.map((b) => hexBytes(oracle.commitment(b)));
    proofs = blobs.map((b, i) => hexBytes(oracle.blobProof(b, C[i])));
    await bls12_381.init();
    const ref = new RefCurve(bls12_381.params);
    const T = pointsOfOrder(ref, 3n, makeRng(7))[0];
    notInG1 = bls12_381.g1.toBytes({ ...ref.add(bls12_381.params.G1, T)!, infinity: false }, 'zcash-compressed');
  });
  after(() => kzg.dispose());

  /**
   * The method's outcome in pippin, sync and async, against c-kzg's; for the blob and cell batches
   * also with the SHA-256 digests taken first by Web Crypto (sha256All: the async path where SHA-256
   * is not native, as in browsers).
   */
  async function same(method: Method, args: unknown[], label: string): Promise<Outcome> {
    const want = expected(method, args);
    const sync = kzg.sync[method] as (...a: unknown[]) => boolean;
    const run = async (f: () => boolean | Promise<boolean>, how: string): Promise<void> => {
      try {
        const got = await f();
        assert.equal(got, want, `${label} (${how}): pippin ${got}, c-kzg ${want}`);
      } catch (e) {
        if (e instanceof assert.AssertionError) throw e;
        assert.equal(want, 'throws', `${label} (${how}): pippin threw ${e}, c-kzg gave ${want}`);
        assert.ok(e instanceof PippinError, `${label} (${how}): ${e} is a PippinError`);
      }
    };
    await run(() => sync(...args), 'sync');
    await run(() => (kzg[method] as (...a: unknown[]) => Promise<boolean>)(...args), 'async');
    const v = (kzg as unknown as { verifier: KzgVerifier }).verifier;
    if (method === 'verifyBlobKzgProof' || method === 'verifyBlobKzgProofBatch') {
      await run(async () => {
        const a = method === 'verifyBlobKzgProof' ? takeBlobProof(method, ...(args as [unknown, unknown, unknown])) : takeBlobProofs(method, ...(args as [unknown, unknown, unknown]));
        return v.blobProofs(method, a, await sha256All(blobDigestInputs(a)));
      }, 'Web Crypto digests');
    } else if (method === 'verifyCellKzgProofBatch') {
      await run(async () => {
        const a = takeCellProofs(method, ...(args as [unknown, unknown, unknown, unknown]));
        return v.cellProofs(method, a, await sha256All(cellDigestInputs(a)));
      }, 'Web Crypto digests');
    }
    return want;
  }

  it('verifyKzgProof: valid, wrong y, another point, flipped sign, infinity, bad encodings, z or y ≥ r, wrong sizes', async () => {
    const outcomes: Outcome[] = [];
    for (const z of ZS) {
      const [ph, yh] = oracle.kzgProof(blobs[0], z);
      const [proof, y] = [hexBytes(ph), hexBytes(yh)];
      const y1 = fr.toBytesBE(fr.add(fr.fromBytesBE(y), 1n));
      const [other] = oracle.kzgProof(blobs[1], z).map(hexBytes);
      const flips = [1, 7, 20, 47].map((b) => {
        const q = Uint8Array.from(proof);
        q[b] ^= 0x01;
        return q;
      });
      const cases: [string, unknown[]][] = [
        ['valid', [C[0], z, y, proof]],
        ['wrong y', [C[0], z, y1, proof]],
        ['proof of another blob', [C[0], z, y, other]],
        ['commitment of another blob', [C[1], z, y, proof]],
        ['proof sign flipped (−π)', [C[0], z, y, flipSign(proof)]],
        ['commitment sign flipped', [flipSign(C[0]), z, y, proof]],
        ...flips.map((q, i): [string, unknown[]] => [`proof byte flipped (${i})`, [C[0], z, y, q]]),
        ['proof on the curve outside G1', [C[0], z, y, notInG1]],
        ['commitment outside G1', [notInG1, z, y, proof]],
        ['infinity proof', [C[0], z, y, INFINITY]],
        ['infinity commitment and proof, y = 0 (the zero polynomial)', [INFINITY, z, new Uint8Array(32), INFINITY]],
        ['infinity with a stray bit', [C[0], z, y, Uint8Array.from(INFINITY, (b, i) => (i === 47 ? 1 : b))]],
        ['z ≥ r', [C[0], fr.toBytesBE(fr.R), y, proof]],
        ['y ≥ r', [C[0], z, new Uint8Array(32).fill(0xff), proof]],
        ['commitment of 47 bytes', [C[0].subarray(1), z, y, proof]],
        ['z of 31 bytes', [C[0], z.subarray(1), y, proof]],
        ['proof not bytes', [C[0], z, y, 'proof']],
      ];
      for (const [label, args] of cases) outcomes.push(await same('verifyKzgProof', args, `verifyKzgProof ${label}`));
    }
    assert.ok(outcomes.includes(true) && outcomes.includes(false) && outcomes.includes('throws'));
  });

  it('verifyBlobKzgProof: valid, another blob, swapped, flipped, zero blob at infinity, element ≥ r, wrong sizes', async () => {
    const zero = new Uint8Array(131072);
    const bad = Uint8Array.from(blobs[0]);
    bad.fill(0xff, 32 * 9, 32 * 10);
    const cases: [string, unknown[], Outcome][] = [
      ['valid', [blobs[0], C[0], proofs[0]], true],
      ['valid (blob 2)', [blobs[2], C[2], proofs[2]], true],
      ['proof of another blob', [blobs[0], C[0], proofs[1]], false],
      ['commitment of another blob', [blobs[0], C[1], proofs[0]], false],
      ['commitment and proof swapped', [blobs[0], proofs[0], C[0]], false],
      ['proof sign flipped', [blobs[0], C[0], flipSign(proofs[0])], false],
      ['zero blob, infinity commitment and proof', [zero, INFINITY, INFINITY], true],
      ['infinity proof', [blobs[0], C[0], INFINITY], false],
      ['proof outside G1', [blobs[0], C[0], notInG1], 'throws'],
      ['blob element ≥ r', [bad, C[0], proofs[0]], 'throws'],
      ['blob of 131071 bytes', [blobs[0].subarray(1), C[0], proofs[0]], 'throws'],
      ['proof of 49 bytes', [blobs[0], C[0], new Uint8Array(49)], 'throws'],
    ];
    for (const [label, args, want] of cases) assert.equal(await same('verifyBlobKzgProof', args, `verifyBlobKzgProof ${label}`), want, label);
  });

  it('verifyBlobKzgProofBatch: valid, none, one, repeated, swapped proofs, mismatched counts, a bad point', async () => {
    const cases: [string, unknown[], Outcome][] = [
      ['three valid', [blobs, C, proofs], true],
      ['none', [[], [], []], true],
      ['one', [[blobs[1]], [C[1]], [proofs[1]]], true],
      ['one blob twice', [[blobs[1], blobs[1]], [C[1], C[1]], [proofs[1], proofs[1]]], true],
      ['two proofs swapped', [blobs, C, [proofs[0], proofs[2], proofs[1]]], false],
      ['a flipped commitment', [blobs, [C[0], flipSign(C[1]), C[2]], proofs], false],
      ['two commitments, three blobs', [blobs, C.slice(0, 2), proofs], 'throws'],
      ['a proof outside G1', [blobs, C, [proofs[0], notInG1, proofs[2]]], 'throws'],
      ['a short blob', [[blobs[0], blobs[1].subarray(5)], C.slice(0, 2), proofs.slice(0, 2)], 'throws'],
      ['not arrays', [blobs[0], C[0], proofs[0]], 'throws'],
    ];
    for (const [label, args, want] of cases) assert.equal(await same('verifyBlobKzgProofBatch', args, `verifyBlobKzgProofBatch ${label}`), want, label);
  });

  it('verifyCellKzgProofBatch: a whole blob, cells of two blobs, duplicates, mislabelled and swapped cells, bad indices, points, elements and counts', async () => {
    const [cells0, cp0] = oracle.cellsAndProofs(blobs[0]).map((l) => l.map(hexBytes));
    const [cells1, cp1] = oracle.cellsAndProofs(blobs[1]).map((l) => l.map(hexBytes));
    const all = [...Array(128).keys()];
    const pick = (ks: number[], row = 0) => [ks.map(() => C[row]), ks, ks.map((k) => (row ? cells1 : cells0)[k]), ks.map((k) => (row ? cp1 : cp0)[k])] as [Uint8Array[], number[], Uint8Array[], Uint8Array[]];
    const half = all.filter((k) => k % 2 === 0);
    const mixed = pick([3, 70, 127]);
    const other = pick([3, 64, 100], 1);
    const two = mixed.map((l, i) => [...(l as unknown[]), ...(other[i] as unknown[])]);
    const swap = pick([10, 11]);
    swap[3] = [swap[3][1], swap[3][0]];
    const mislabelled = pick([10]);
    mislabelled[1] = [12];
    const badCell = pick([4]);
    badCell[2] = [Uint8Array.from(badCell[2][0], (b, i) => (i < 32 ? 0xff : b))];
    // a column's cells after the first are weighted and summed before its FFT: a wrong second copy must count
    const dupWrong = pick([40, 9, 9]);
    dupWrong[2] = [dupWrong[2][0], dupWrong[2][1], cells0[10]];
    const cases: [string, unknown[], Outcome][] = [
      ['the 128 cells of a blob', pick(all), true],
      ['64 cells', pick(half), true],
      ['cells of two blobs', two, true],
      ['none', [[], [], [], []], true],
      ['a cell twice (duplicated index)', pick([9, 9, 40]), true],
      ['a cell thrice after another column', pick([40, 9, 9, 9]), true],
      ['one column, cells of two blobs', [[C[1], C[0], C[1]], [7, 7, 64], [cells1[7], cells0[7], cells1[64]], [cp1[7], cp0[7], cp1[64]]], true],
      ['a duplicated column, its second copy another cell', dupWrong, false],
      ['two proofs swapped', swap, false],
      ['a cell labelled with another index', mislabelled, false],
      ['a commitment of another blob', [[C[1]], [5], [cells0[5]], [cp0[5]]], false],
      ['a proof sign flipped', [[C[0]], [5], [cells0[5]], [flipSign(cp0[5])]], false],
      ['an infinity proof', [[C[0]], [5], [cells0[5]], [INFINITY]], false],
      ['index 128', [[C[0]], [128], [cells0[5]], [cp0[5]]], 'throws'],
      ['index 1000', [[C[0], C[0]], [1, 1000], [cells0[1], cells0[5]], [cp0[1], cp0[5]]], 'throws'],
      ['a proof outside G1', [[C[0]], [5], [cells0[5]], [notInG1]], 'throws'],
      ['a commitment outside G1', [[notInG1], [5], [cells0[5]], [cp0[5]]], 'throws'],
      ['a cell element ≥ r', badCell, 'throws'],
      ['three cells, two proofs', [[C[0], C[0], C[0]], [1, 2, 3], [cells0[1], cells0[2], cells0[3]], [cp0[1], cp0[2]]], 'throws'],
      ['a short cell', [[C[0]], [5], [cells0[5].subarray(1)], [cp0[5]]], 'throws'],
    ];
    for (const [label, args, want] of cases) assert.equal(await same('verifyCellKzgProofBatch', args, `verifyCellKzgProofBatch ${label}`), want, label);
  });

  it('p(z) from the unconverted blob elements (× R once) = c-kzg\'s y: z outside the domain, on it, 0 and 1', () => {
    const v = (kzg as unknown as { verifier: KzgVerifier }).verifier as unknown as {
      withMemory<T>(f: () => T): T;
      evaluate(F: FrWasm, poly: number, z: bigint): bigint;
      ctx: { inst: Parameters<typeof arenaHost>[0] };
      frTables: Twiddles & { roots: number };
    };
    const zs = [...ZS, new Uint8Array(32), fr.toBytesBE(1n)];
    for (const [b, blob] of [blobs[0], new Uint8Array(131072).fill(0), maxBlob()].entries()) {
      for (const z of zs) {
        const [, yHex] = oracle.kzgProof(blob, z);
        const got = v.withMemory(() => {
          const F = new FrWasm(arenaHost(v.ctx.inst), v.frTables);
          const poly = F.work('poly', 4096);
          F.fromBytesBERaw(poly, blob, 4096, 'test element');
          return v.evaluate(F, poly, fr.fromBytesBE(z));
        });
        assert.equal(got, fr.fromBytesBE(hexBytes(yHex)), `blob ${b}, z = ${Buffer.from(z).toString('hex')}`);
      }
    }
  });

  it('many proofs (decoded, then the subgroup check of msm\'s full validation): the lowest bad index wins, with its own error, exact and batched (≥ 144 points)', async () => {
    const [cells0, cp0] = oracle.cellsAndProofs(blobs[0]).map((l) => l.map(hexBytes));
    const [cells1, cp1] = oracle.cellsAndProofs(blobs[1]).map((l) => l.map(hexBytes));
    const malformed = new Uint8Array(48).fill(0xff); // compression flag with infinity flag and stray bits
    const build = (n: number, bad: [number, Uint8Array][]) => {
      const ks = Array.from({ length: n }, (_, i) => i % 128);
      const row = (i: number) => (i < 128 ? 0 : 1);
      const ps: Uint8Array[] = ks.map((k, i) => (row(i) ? cp1 : cp0)[k]);
      for (const [i, b] of bad) ps[i] = b;
      return [ks.map((_, i) => C[row(i)]), ks, ks.map((k, i) => (row(i) ? cells1 : cells0)[k]), ps] as unknown[];
    };
    const cases: [string, unknown[], new (...a: never[]) => Error, number][] = [
      ['128: outside G1 at 3, malformed at 5', build(128, [[3, notInG1], [5, malformed]]), NotInSubgroupError, 3],
      ['128: malformed at 3, outside G1 at 5', build(128, [[5, notInG1], [3, malformed]]), PointEncodingError, 3],
      ['128: outside G1 at 127', build(128, [[127, notInG1]]), NotInSubgroupError, 127],
      ['2: outside G1 at 0 and 1', build(2, [[0, notInG1], [1, notInG1]]), NotInSubgroupError, 0],
      ['200 (batched): outside G1 at 150 and 199', build(200, [[150, notInG1], [199, notInG1]]), NotInSubgroupError, 150],
      ['200 (batched): malformed at 160, outside G1 at 170', build(200, [[170, notInG1], [160, malformed]]), PointEncodingError, 160],
      ['200 (batched): outside G1 at 0', build(200, [[0, notInG1]]), NotInSubgroupError, 0],
    ];
    for (const [label, args, type, index] of cases) {
      assert.equal(await same('verifyCellKzgProofBatch', args, label), 'throws', label);
      const ok = (e: unknown) => e instanceof type && (e as PippinError).index === index && new RegExp(`verifyCellKzgProofBatch: proof ${index}\\b`).test((e as Error).message);
      assert.throws(() => kzg.sync.verifyCellKzgProofBatch(...(args as [Uint8Array[], number[], Uint8Array[], Uint8Array[]])), ok, label);
      await assert.rejects(kzg.verifyCellKzgProofBatch(...(args as [Uint8Array[], number[], Uint8Array[], Uint8Array[]])), ok, label);
    }
    assert.equal(await same('verifyCellKzgProofBatch', build(200, []), '200 valid (batched check)'), true);
  });

  it('errors name what and where: CellIndexError with its position, point errors with the proof index', async () => {
    const cell = new Uint8Array(2048);
    await assert.rejects(kzg.verifyCellKzgProofBatch([INFINITY, INFINITY], [0, 200], [cell, cell], [INFINITY, INFINITY]), (e: unknown) => e instanceof CellIndexError && e.index === 1 && /cell index 1 is 200/.test(e.message));
    assert.throws(() => kzg.sync.verifyBlobKzgProofBatch(blobs, C, [proofs[0], proofs[1], notInG1]), (e: unknown) => e instanceof PippinError && /verifyBlobKzgProofBatch: proof 2/.test(e.message));
  });

  it('the one-proof sum (msmSync, its small-MSM path) = the reference: scalars 0, 1, r − 1, λ, λ ± 1, random; infinity; equal and opposite points', () => {
    const ref = new RefCurve(bls12_381.params);
    const { G1, lambda } = bls12_381.params;
    const rng = makeRng(34);
    const P = ref.mul(G1, 0x1234567n), Q = ref.mul(G1, fr.R - 5n);
    const verifier = (kzg as unknown as { verifier: { msm(p: unknown[], s: bigint[]): unknown; withMemory<T>(f: () => T): T } }).verifier;
    const scalars = [0n, 1n, 2n, fr.R - 1n, lambda, lambda - 1n, lambda + 1n, lambda * lambda, fr.R + 3n, -7n, ...Array.from({ length: 4 }, () => rng.nextBelow(fr.R))];
    const cases: [typeof P, bigint][][] = [
      ...scalars.map((s, i) => [[P, s], [G1, scalars[(i + 3) % scalars.length]!], [Q, scalars[(i + 5) % scalars.length]!]] as [typeof P, bigint][]),
      [[P, 5n], [P, fr.R - 5n]], // → infinity
      [[P, 3n], [P, 4n], [null, 9n]],
      [[P, 1n], [ref.neg(P), 2n]],
      [],
    ];
    for (const terms of cases) {
      let want: typeof P = null;
      for (const [T, s] of terms) want = ref.add(want, T === null ? null : ref.mul(T, ((s % fr.R) + fr.R) % fr.R));
      assert.deepEqual(verifier.withMemory(() => verifier.msm(terms.map((t) => t[0]), terms.map((t) => t[1]))), want);
    }
  });

  it('calls in flight together, inputs of every buffer kind refilled right after each call', async () => {
    const [cells0, cp0] = oracle.cellsAndProofs(blobs[0]).map((l) => l.map(hexBytes));
    const [proof, y] = oracle.kzgProof(blobs[2], ZS[0]).map(hexBytes);
    for (const [kind, make] of BUFFER_KINDS) {
      const ins = {
        blob: make(blobs[1]),
        c: make(C[1]),
        p: make(proofs[1]),
        wrong: make(proofs[2]),
        cells: [make(cells0[7]), make(cells0[99])],
        cps: [make(cp0[7]), make(cp0[99])],
        c0: make(C[0]),
        z: make(ZS[0]),
        y: make(y),
        kp: make(proof),
        c2: make(C[2]),
      };
      const calls = [
        kzg.verifyBlobKzgProof(ins.blob, ins.c, ins.p),
        kzg.verifyBlobKzgProof(ins.blob, ins.c, ins.wrong),
        kzg.verifyCellKzgProofBatch([ins.c0, ins.c0], [7, 99], ins.cells, ins.cps),
        kzg.verifyKzgProof(ins.c2, ins.z, ins.y, ins.kp),
        kzg.verifyBlobKzgProofBatch([ins.blob, ins.blob], [ins.c, ins.c], [ins.p, ins.p]),
        kzg.blobToKzgCommitment(ins.blob).then((c) => Buffer.from(c).toString('hex') === Buffer.from(C[1]).toString('hex')),
      ];
      // refill every input at once: the calls read them at the call
      for (const v of Object.values(ins)) for (const b of Array.isArray(v) ? v : [v]) b.fill(0x5a);
      assert.deepEqual(await Promise.all(calls), [true, false, true, true, true, true], kind);
    }
  });
});
