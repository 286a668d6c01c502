/**
 * pippin/kzg under concurrency and hostile callers (issue 31, defects 1–5, and `kzg.sync`), every
 * result against c-kzg 4.1.0 (the oracle: test/helpers/kzg-oracle.ts):
 * 1. several computeCellsAndKzgProofs in flight on one Kzg (threads 1 and 2, tables: true,
 *    fk20: 'load' and at first use);
 * 2. every input refilled right after the call (Uint8Array, Buffer, subarray at an offset,
 *    SharedArrayBuffer) for every async method;
 * 3. results share no memory with the inputs, and results changed by the caller change nothing later;
 * 4. loadKzg's options: the issue's cases and a fast-check fuzz — always InvalidOptionError naming
 *    the option;
 * 5. a custom setup with a bad G1 monomial, G1 Lagrange or G2 point: TrustedSetupError with its index;
 * 6. a fast-check property over random interleavings of every method (async and sync, good and
 *    bad blobs), dispose() and the curve's own MSMs on one and two Kzg objects, threads 1 and 2,
 *    tables on and off;
 * 7. kzg.sync = the async methods = c-kzg, also with async calls in flight on the same Kzg.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bls12_381 as noble } from '@noble/curves/bls12-381.js';
import { bls12_381, DisposedError, InvalidOptionError, ScalarEncodingError, startThreads, stopThreads } from '../src/index.js';
import { loadKzg, TrustedSetupError, type Kzg, type LoadKzgOptions } from '../src/kzg/index.js';
import { TRUSTED_SETUP_TEXT } from '../src/kzg/trusted-setup.js';
import { BUFFER_KINDS, CkzgOracle, hex, randomBlobs, ZS } from './helpers/kzg-oracle.js';
import { LONG_TESTS } from './helpers/long.js';

const BLOBS = randomBlobs(4);
const METHODS = ['blobToKzgCommitment', 'computeKzgProof', 'computeBlobKzgProof', 'computeCells', 'computeCellsAndKzgProofs'] as const;
type Method = (typeof METHODS)[number];

/** One call: the method, which blob, and which second argument (z for computeKzgProof, a blob's commitment for computeBlobKzgProof). */
interface Call {
  method: Method;
  blob: number;
  arg: number;
}

let oracle: CkzgOracle;

const bytesOfHex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

/** The call's second argument (original bytes), or undefined. */
function argOf(call: Call, shift = 0): Uint8Array | undefined {
  if (call.method === 'computeKzgProof') return ZS[(call.arg + shift) % ZS.length];
  if (call.method === 'computeBlobKzgProof') return bytesOfHex(oracle.commitment(BLOBS[(call.blob + call.arg + shift) % BLOBS.length]));
  return undefined;
}

/** c-kzg's result as hex parts: [commitment], [proof, y], [blob proof], cells, cells then proofs. */
function expected(call: Call): string[] {
  const blob = BLOBS[call.blob];
  switch (call.method) {
    case 'blobToKzgCommitment':
      return [oracle.commitment(blob)];
    case 'computeKzgProof':
      return oracle.kzgProof(blob, argOf(call)!);
    case 'computeBlobKzgProof':
      return [oracle.blobProof(blob, argOf(call)!)];
    case 'computeCells':
      return oracle.cells(blob);
    case 'computeCellsAndKzgProofs': {
      const [cells, proofs] = oracle.cellsAndProofs(blob);
      return [...cells, ...proofs];
    }
  }
}

/** A result's byte arrays in the same order as `expected` (arrays of arrays flattened). */
function parts(result: unknown): Uint8Array[] {
  if (result instanceof Uint8Array) return [result];
  if (!Array.isArray(result)) throw new TypeError(`not bytes or an array of them: ${Object.prototype.toString.call(result)}`);
  return result.flatMap((x: unknown) => parts(x));
}

/** Why the result is not c-kzg's, or undefined when it is. */
function mismatch(call: Call, result: unknown): string | undefined {
  const got = parts(result).map(hex);
  const want = expected(call);
  if (got.length !== want.length) return `${got.length} byte arrays, c-kzg gives ${want.length}`;
  const bad = want.flatMap((w, i) => (got[i] === w ? [] : [i]));
  if (bad.length === 0) return undefined;
  if (call.method === 'computeCellsAndKzgProofs') {
    const cells = bad.filter((i) => i < 128).length;
    return `${cells} of 128 cells and ${bad.length - cells} of 128 proofs differ from c-kzg's`;
  }
  return `parts ${bad.join(', ')} of ${want.length} differ from c-kzg's`;
}

/** Starts the call on kzg (or kzg.sync) with these buffers: a promise, or the bytes of a sync call. */
function start(kzg: Kzg, call: Call, blob: Uint8Array, arg: Uint8Array | undefined, sync: boolean): unknown {
  const target = sync ? kzg.sync : kzg;
  switch (call.method) {
    case 'computeKzgProof':
      return target.computeKzgProof(blob, arg!);
    case 'computeBlobKzgProof':
      return target.computeBlobKzgProof(blob, arg!);
    default:
      return target[call.method](blob);
  }
}

const describeError = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : `thrown ${String(e)}`);

/** The Kzg objects the tests share (loaded at first use, disposed at the end). */
const SHARED: { name: string; options: LoadKzgOptions; kzg?: Promise<Kzg> }[] = [
  { name: 'threads 1, tables: true (FK20 at first use)', options: { threads: 1, tables: true } },
  { name: 'threads 2, tables: true (FK20 at first use)', options: { threads: 2, tables: true } },
  { name: "threads 1, fk20: 'load'", options: { threads: 1, fk20: 'load' } },
  { name: "threads 2, fk20: 'load'", options: { threads: 2, fk20: 'load' } },
];
const shared = (i: number): Promise<Kzg> => (SHARED[i].kzg ??= loadKzg(SHARED[i].options));

describe('pippin/kzg under concurrency and hostile callers = c-kzg 4.1.0 (issue 31)', { timeout: 600_000 }, () => {
  before(async () => {
    await startThreads(2);
    oracle = new CkzgOracle();
  });
  after(async () => {
    for (const s of SHARED) await s.kzg?.then((kzg) => kzg.dispose(), () => undefined); // a failed load failed its test already
    stopThreads();
  });

  it('defect 1: two and three computeCellsAndKzgProofs in flight on one Kzg (Promise.all, different blobs) = c-kzg', async () => {
    const failures: string[] = [];
    for (const [i, s] of SHARED.entries()) {
      const kzg = await shared(i);
      // with FK20 at first use, the first round also races the tables' build; the second runs on built tables
      const rounds = s.options.fk20 === 'load' ? [[0, 1, 2]] : [[0, 1, 2], [3, 1]];
      for (const [round, blobs] of rounds.entries()) {
        const results = await Promise.all(blobs.map((b) => kzg.computeCellsAndKzgProofs(BLOBS[b])));
        results.forEach((result, j) => {
          const why = mismatch({ method: 'computeCellsAndKzgProofs', blob: blobs[j], arg: 0 }, result);
          if (why) failures.push(`${s.name}, round ${round + 1} (${blobs.length} in flight), blob ${blobs[j]}: ${why}`);
        });
      }
    }
    assert.deepEqual(failures, []);
  });

  it('defect 2: every input refilled right after the call (before awaiting) gives the result of the original contents, for every async method and buffer kind', async () => {
    const failures: string[] = [];
    for (const [k, [kind, wrap]] of BUFFER_KINDS.entries()) {
      const kzg = await shared(k);
      // every method in flight at once, each with its own buffers, each refilled at once with other valid inputs
      const calls = METHODS.map((method, m): Call => ({ method, blob: (m + k) % BLOBS.length, arg: 0 }));
      const results = await Promise.allSettled(
        calls.map((call) => {
          const blob = wrap(BLOBS[call.blob]);
          const original = argOf(call);
          const arg = original && wrap(original);
          const result = start(kzg, call, blob, arg, false) as Promise<unknown>;
          blob.set(BLOBS[(call.blob + 1) % BLOBS.length]);
          if (arg) arg.set(argOf(call, 1)!);
          return result;
        }),
      );
      results.forEach((r, i) => {
        const why = r.status === 'fulfilled' ? mismatch(calls[i], r.value) : `rejected: ${describeError(r.reason)}`;
        if (why) failures.push(`${kind}: ${calls[i].method}${calls[i].method === 'computeKzgProof' ? ' (z refilled too)' : calls[i].method === 'computeBlobKzgProof' ? ' (commitment refilled too)' : ''}: ${why}`);
      });
    }
    assert.deepEqual(failures, []);
  });

  it('defect 3: results share no memory with the inputs (a Node Buffer blob above all): the blob changed after the call leaves the cells as they were', async () => {
    const failures: string[] = [];
    const kzg = await shared(3);
    for (const [kind, wrap] of BUFFER_KINDS) {
      const blob = wrap(BLOBS[2]);
      const got: [Call, unknown][] = [];
      for (const method of METHODS) {
        const call: Call = { method, blob: 2, arg: 0 };
        got.push([call, await start(kzg, call, blob, argOf(call), false)]);
      }
      for (const [call, result] of got) {
        const shares = parts(result).filter((p) => p.buffer === blob.buffer).length;
        if (shares) failures.push(`${kind}: ${call.method}: ${shares} result arrays are views of the blob's memory`);
      }
      blob.set(BLOBS[3]);
      blob.fill(0xff, 0, 64);
      for (const [call, result] of got) {
        const why = mismatch(call, result);
        if (why) failures.push(`${kind}: ${call.method}, blob changed after the call: ${why}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('defect 3: results changed by the caller do not change later results (commitment, proof and y, cells, cell proofs)', async () => {
    const failures: string[] = [];
    for (const k of [0, 3]) {
      const kzg = await shared(k);
      for (const method of METHODS) {
        const call: Call = { method, blob: 1, arg: 1 };
        for (let round = 0; round < 2; round++) {
          const result = await start(kzg, call, BLOBS[1].slice(), argOf(call), false);
          const why = mismatch(call, result);
          if (why) failures.push(`${SHARED[k].name}: ${method}, call ${round + 1}${round ? ' after the caller overwrote the first result' : ''}: ${why}`);
          for (const p of parts(result)) p.fill(0xa5);
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  it("defect 4: loadKzg's wrong options reject with InvalidOptionError naming the option", async () => {
    const cases: [string, unknown, string][] = [
      ['tables: { maxBytes: -1 }', { tables: { maxBytes: -1 } }, 'tables'],
      ["tables: 'yes'", { tables: 'yes' }, 'tables'],
      ['tables: { maxBytes: 2 ** 20, window: 9 }', { tables: { maxBytes: 2 ** 20, window: 9 } }, 'tables'],
      ['setup: null', { setup: null }, 'setup'],
      ['setup: a Uint8Array', { setup: new TextEncoder().encode(TRUSTED_SETUP_TEXT.slice(0, 200)) }, 'setup'],
      ['tables: null', { tables: null }, 'tables'],
      ['fk20: null', { fk20: null }, 'fk20'],
      ["fk20: 'eager'", { fk20: 'eager' }, 'fk20'],
      ['threads: null', { threads: null }, 'threads'],
      ['threads: 0', { threads: 0 }, 'threads'],
      ["threads: '2'", { threads: '2' }, 'threads'],
      ['threads: 1.5', { threads: 1.5 }, 'threads'],
      ['an unknown key', { thread: 2 }, 'thread'],
      ['an unknown key beside good ones', { threads: 1, fk20: 'load', precompute: true }, 'precompute'],
      ['options: null', null, 'options'],
      ['options: a number', 5, 'options'],
      ['options: a string', 'tables', 'options'],
      ['options: an array', [{ threads: 1 }], 'options'],
      ['options: a Map', new Map([['threads', 1]]), 'options'],
      ['options: a function', () => ({ threads: 1 }), 'options'],
    ];
    const failures: string[] = [];
    for (const [name, options, option] of cases) {
      const why = await optionMismatch(options, option);
      if (why) failures.push(`${name}: ${why}`);
    }
    assert.deepEqual(failures, []);
  });

  it('defect 4: option fuzz (fast-check): a wrong value of any option, beside valid others, is InvalidOptionError naming it — never another error, never a Kzg', async () => {
    const anyValue = fc.anything({ maxDepth: 2, withBigInt: true, withBoxedValues: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true, withSparseArray: true });
    const defined = (v: unknown) => v !== undefined;
    const validTables = (v: unknown) => typeof v === 'boolean' || (typeof v === 'object' && v !== null && 'maxBytes' in v);
    const wrong: Record<string, fc.Arbitrary<unknown>> = {
      setup: fc.oneof(anyValue, fc.constant(null)).filter((v) => defined(v) && typeof v !== 'string'),
      threads: fc
        .oneof(anyValue, fc.integer({ min: -1000, max: 0 }), fc.integer({ min: 257, max: 2 ** 40 }), fc.double(), fc.constantFrom(null, NaN, Infinity, -0, 1.5, '2', 2n, true, [2], new Number(2)))
        .filter((v) => defined(v) && !(Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 256)),
      tables: fc
        .oneof(
          anyValue,
          fc.constantFrom(null, 0, 1, 'yes', 'true', [], new Boolean(true)),
          fc.record({ maxBytes: fc.oneof(anyValue, fc.integer({ min: -(2 ** 40), max: -1 }), fc.double({ min: 0.1, max: 1e9, noInteger: true }), fc.constantFrom(null, '1024', 1024n, NaN, Infinity, 2 ** 53)).filter((v) => defined(v) && !(Number.isSafeInteger(v) && (v as number) >= 0)) }),
          fc.record({ maxBytes: fc.nat(), extra: anyValue.filter(defined) }),
        )
        .filter((v) => defined(v) && typeof v !== 'boolean' && (!validTables(v) || Object.keys(v as object).length > 1 || !Number.isSafeInteger((v as { maxBytes: unknown }).maxBytes) || ((v as { maxBytes: number }).maxBytes < 0))),
      fk20: fc.oneof(anyValue, fc.string(), fc.constantFrom(null, 'Load', 'first_use', ' load', 'load ', 'eager', '', true, 1)).filter((v) => defined(v) && v !== 'first-use' && v !== 'load'),
    };
    const valid = fc.record({ threads: fc.constantFrom(1, 2), tables: fc.constantFrom(false, true, { maxBytes: 2 ** 20 }), fk20: fc.constantFrom('first-use', 'load') }, { requiredKeys: [] });
    // 40 runs per option in the long matrix (CI's Node 22 and 24), 15 in npm test
    const params = { numRuns: LONG_TESTS ? 40 : 15, endOnFailure: true, includeErrorInReport: true };
    for (const [option, value] of Object.entries(wrong)) {
      await fc.assert(
        fc.asyncProperty(valid, value, async (others, bad) => {
          const why = await optionMismatch({ ...others, [option]: bad }, option);
          assert.equal(why, undefined, why);
        }),
        params,
      );
    }
    const known = ['setup', 'threads', 'tables', 'fk20', '__proto__'];
    await fc.assert(
      fc.asyncProperty(valid, fc.string({ minLength: 1 }).filter((k) => !known.includes(k)), anyValue.filter(defined), async (others, key, v) => {
        const why = await optionMismatch({ ...others, [key]: v }, key);
        assert.equal(why, undefined, why);
      }),
      params,
    );
  });

  it('defect 5: a custom setup with a G1 monomial point that does not decode, a bad G1 Lagrange point or a bad G2 point: TrustedSetupError with its index', async () => {
    const { p } = bls12_381.params;
    const lines = TRUSTED_SETUP_TEXT.split('\n');
    // c-kzg's layout: the counts, 4096 G1 Lagrange points, 65 G2 points, 4096 G1 monomial points, one a line
    const [LAGRANGE, G2, MONOMIAL] = [2, 2 + 4096, 2 + 4096 + 65];
    assert.deepEqual([lines[0], lines[1], lines[LAGRANGE].length, lines[G2].length, lines[MONOMIAL - 1].length, lines[MONOMIAL].length, lines[MONOMIAL + 4095].length], ['4096', '65', 96, 192, 192, 96, 96]);
    const powMod = (b: bigint, e: bigint): bigint => {
      let [r, x] = [1n, b % p];
      for (; e > 0n; e >>= 1n, x = (x * x) % p) if (e & 1n) r = (r * x) % p;
      return r;
    };
    /** the smallest x ≥ 1 whose x³ + 4 is (or is not) a square mod p */
    const xWhere = (square: boolean): bigint => {
      let x = 1n;
      while ((powMod(x * x * x + 4n, (p - 1n) / 2n) === 1n) !== square) x++;
      return x;
    };
    const compressed = (x: bigint): string => (x | (1n << 383n)).toString(16).padStart(96, '0');
    const withLine = (line: number, text: string): string => {
      const copy = lines.slice();
      assert.equal(text.length, copy[line].length);
      copy[line] = text;
      return copy.join('\n');
    };
    const cases: [string, string, number][] = [
      ['G1 monomial point 777: x ≥ p', withLine(MONOMIAL + 777, compressed(p + 5n)), 777],
      ['G1 monomial point 4095: x³ + 4 not a square (no point)', withLine(MONOMIAL + 4095, compressed(xWhere(false))), 4095],
      ['G1 monomial point 0: the infinity flag with x ≠ 0', withLine(MONOMIAL, 'c' + lines[MONOMIAL].slice(1, -1) + '1'), 0],
      ['G1 Lagrange point 1234: off the curve (x³ + 4 not a square)', withLine(LAGRANGE + 1234, compressed(xWhere(false))), 1234],
      ['G1 Lagrange point 3001: on the curve, not in G1', withLine(LAGRANGE + 3001, compressed(xWhere(true))), 3001],
      ['G2 point 17: x.c1 ≥ p', withLine(G2 + 17, compressed(p + 1n) + lines[G2 + 17].slice(96)), 17],
      ['G2 point 40: x.c0 ≥ p', withLine(G2 + 40, lines[G2 + 40].slice(0, 96) + p.toString(16).padStart(96, '0')), 40],
    ];
    const failures: string[] = [];
    for (const [name, setup, index] of cases) {
      const outcome = await loadKzg({ setup, threads: 1 }).then(
        async (kzg) => {
          // not refused at load: say what a cells call (FK20's columns come from the monomial points) does with it
          try {
            await kzg.computeCellsAndKzgProofs(BLOBS[0]);
            return 'loaded, and computeCellsAndKzgProofs resolved';
          } catch (e) {
            return `loaded; computeCellsAndKzgProofs then threw ${describeError(e)}`;
          } finally {
            kzg.dispose();
          }
        },
        (e: unknown) => e,
      );
      if (!(outcome instanceof TrustedSetupError)) failures.push(`${name}: ${typeof outcome === 'string' ? outcome : `rejected with ${describeError(outcome)}`}`);
      else if (outcome.index !== index) failures.push(`${name}: TrustedSetupError with index ${outcome.index}, not ${index} (${outcome.message})`);
    }
    assert.deepEqual(failures, []);
  });

  it('kzg.sync = the async methods = c-kzg (every method; the methods bound, called detached)', async () => {
    const failures: string[] = [];
    for (const k of [0, 3]) {
      const kzg = await shared(k);
      const { sync } = kzg;
      for (const method of METHODS) {
        const call: Call = { method, blob: 3, arg: 1 };
        const detached = sync[method] as (...args: Uint8Array[]) => unknown; // bound: callable alone
        const arg = argOf(call);
        const syncResult = arg ? detached(BLOBS[3], arg) : detached(BLOBS[3]);
        const asyncResult = await start(kzg, call, BLOBS[3], arg, false);
        const why = mismatch(call, syncResult);
        if (why) failures.push(`${SHARED[k].name}: sync ${method}: ${why}`);
        if (parts(syncResult).map(hex).join() !== parts(asyncResult).map(hex).join()) failures.push(`${SHARED[k].name}: sync ${method} ≠ async`);
        for (const part of parts(syncResult)) part.fill(0x3c); // the caller's now: a later call must not see it
      }
      // a Buffer blob: cells owned by the caller, not views of the blob
      const buffer = Buffer.from(BLOBS[0]);
      const [cells, proofs] = sync.computeCellsAndKzgProofs(buffer);
      const cellsOnly = sync.computeCells(buffer);
      buffer.set(BLOBS[1]);
      for (const [what, result, method] of [['cells and proofs', [cells, proofs], 'computeCellsAndKzgProofs'], ['cells', cellsOnly, 'computeCells']] as const) {
        const why = mismatch({ method, blob: 0, arg: 0 }, result);
        if (why) failures.push(`${SHARED[k].name}: sync ${what} of a Buffer changed after the call: ${why}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('kzg.sync calls while async calls are in flight on the same Kzg (FK20 tables built, and not yet built) = c-kzg', async () => {
    const failures: string[] = [];
    const fresh = await loadKzg({ threads: 2 }); // FK20 at first use: the async cells call below builds the tables
    try {
      for (const [name, kzg] of [['a new Kzg, threads 2, FK20 not built', fresh], [SHARED[0].name, await shared(0)]] as const) {
        const inFlight: [Call, Promise<unknown>][] = (
          [
            { method: 'computeCellsAndKzgProofs', blob: 0, arg: 0 },
            { method: 'blobToKzgCommitment', blob: 1, arg: 0 },
            { method: 'computeKzgProof', blob: 2, arg: 0 },
            { method: 'computeCells', blob: 3, arg: 0 },
          ] as Call[]
        ).map((call) => [call, start(kzg, call, BLOBS[call.blob], argOf(call), false) as Promise<unknown>]);
        const syncCalls: Call[] = [
          { method: 'blobToKzgCommitment', blob: 0, arg: 0 },
          { method: 'computeCellsAndKzgProofs', blob: 1, arg: 0 },
          { method: 'computeBlobKzgProof', blob: 2, arg: 1 },
          { method: 'computeKzgProof', blob: 3, arg: 1 },
          { method: 'computeCells', blob: 0, arg: 0 },
        ];
        for (const call of syncCalls) {
          try {
            const why = mismatch(call, start(kzg, call, BLOBS[call.blob], argOf(call), true));
            if (why) failures.push(`${name}: sync ${call.method} with async calls in flight: ${why}`);
          } catch (e) {
            failures.push(`${name}: sync ${call.method} with async calls in flight threw ${describeError(e)}`);
          }
          await new Promise((resolve) => setImmediate(resolve)); // let the async calls move on
        }
        const settled = await Promise.allSettled(inFlight.map(([, promise]) => promise));
        settled.forEach((r, i) => {
          const why = r.status === 'fulfilled' ? mismatch(inFlight[i][0], r.value) : `rejected: ${describeError(r.reason)}`;
          if (why) failures.push(`${name}: async ${inFlight[i][0].method} beside sync calls: ${why}`);
        });
      }
    } finally {
      fresh.dispose();
    }
    assert.deepEqual(failures, []);
  });

  it("property (fast-check): random interleavings of every method (async and sync, good and bad blobs), dispose() and the curve's MSMs on one and two Kzg objects, threads 1 and 2, tables on and off = c-kzg, DisposedError after dispose", async () => {
    const callOp = fc.record({
      op: fc.constant('call' as const),
      k: fc.nat(1),
      method: fc.oneof({ arbitrary: fc.constantFrom<Method>('blobToKzgCommitment', 'computeKzgProof', 'computeBlobKzgProof', 'computeCells'), weight: 4 }, { arbitrary: fc.constant<Method>('computeCellsAndKzgProofs'), weight: 2 }),
      blob: fc.nat(BLOBS.length - 1),
      arg: fc.nat(1),
      sync: fc.boolean(),
      // a blob field element ≥ r at this index (-1: none): ScalarEncodingError naming it, as c-kzg refuses it
      bad: fc.oneof({ arbitrary: fc.constant(-1), weight: 6 }, { arbitrary: fc.constantFrom(0, 1, 2047, 4095), weight: 1 }) as fc.Arbitrary<number>,
    });
    const op = fc.oneof(
      { arbitrary: callOp, weight: 6 },
      { arbitrary: fc.record({ op: fc.constant('dispose' as const), k: fc.nat(1) }), weight: 1 },
      { arbitrary: fc.record({ op: fc.constantFrom('tick' as const, 'settle' as const) }), weight: 2 },
      { arbitrary: fc.record({ op: fc.constant('msm' as const), seed: fc.nat(1000) }), weight: 1 },
    );
    const objects = fc.array(fc.record({ threads: fc.constantFrom(1, 2), tables: fc.boolean() }), { minLength: 1, maxLength: 2 });
    const scenario = fc.record({ objects, ops: fc.array(op, { minLength: 3, maxLength: 8 }) });
    type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;
    const call = (k: number, method: Method, blob: number, sync = false, arg = 0, bad = -1) => ({ op: 'call' as const, k, method, blob, arg, sync, bad });
    const examples: [Scenario][] = [
      // three cells-and-proofs in flight, a sync call among them, dispose while they run, calls after it
      [{ objects: [{ threads: 2, tables: false }], ops: [call(0, 'computeCellsAndKzgProofs', 0), call(0, 'computeCellsAndKzgProofs', 1), call(0, 'blobToKzgCommitment', 2, true), call(0, 'computeCellsAndKzgProofs', 2), { op: 'dispose', k: 0 }, call(0, 'computeKzgProof', 3), call(0, 'computeCells', 3, true), { op: 'settle' }] }],
      // two Kzg objects, one disposed while both have calls in flight (a bad blob among them); the other goes on
      [{ objects: [{ threads: 1, tables: true }, { threads: 2, tables: false }], ops: [call(0, 'computeCellsAndKzgProofs', 3), call(1, 'computeBlobKzgProof', 0, false, 1), { op: 'msm', seed: 7 }, call(0, 'computeCellsAndKzgProofs', 2, false, 0, 4095), call(1, 'computeCellsAndKzgProofs', 1, true), { op: 'dispose', k: 1 }, { op: 'tick' }, call(0, 'computeKzgProof', 2, true, 1), call(1, 'blobToKzgCommitment', 2), call(0, 'computeCellsAndKzgProofs', 1)] }],
    ];
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const failures = await runScenario(s);
        assert.deepEqual(failures, [], `scenario ${JSON.stringify(s)}`);
      }),
      { numRuns: 6, examples, endOnFailure: true, includeErrorInReport: true },
    );
  });
});

/** Why loadKzg(options) did not reject with InvalidOptionError naming `option`, or undefined when it did. */
async function optionMismatch(options: unknown, option: string): Promise<string | undefined> {
  let kzg: Kzg | undefined;
  try {
    kzg = await loadKzg(options as LoadKzgOptions);
  } catch (e) {
    if (!(e instanceof InvalidOptionError)) return `rejected with ${describeError(e)}, not InvalidOptionError`;
    return e.option === option ? undefined : `InvalidOptionError names option ${JSON.stringify(e.option)}, not ${JSON.stringify(option)} (${e.message})`;
  }
  kzg.dispose();
  return 'loaded a Kzg';
}

type ScenarioOp = { op: 'call'; k: number; method: Method; blob: number; arg: number; sync: boolean; bad: number } | { op: 'dispose'; k: number } | { op: 'tick' } | { op: 'settle' } | { op: 'msm'; seed: number };

/** An MSM of the curve beside the KZG calls: 32 points k_i·G (ZCash bytes, from noble) and scalars from `seed`; noble's (Σ s_i·k_i)·G as the answer. */
const curveMsm = (() => {
  const { r } = bls12_381.params;
  const logs = Array.from({ length: 32 }, (_, i) => (BigInt(i + 1) * 0x5deece66dn) ** 5n % r);
  const points = new Uint8Array(96 * logs.length);
  logs.forEach((k, i) => points.set(noble.G1.Point.BASE.multiply(k).toBytes(false), 96 * i));
  const key = (p: { x: bigint; y: bigint; infinity: boolean }): string => (p.infinity ? 'infinity' : `${p.x.toString(16)}:${p.y.toString(16)}`);
  return (seed: number): { result: Promise<string>; expected: () => string } => {
    const scalars = logs.map((_, i) => ((BigInt(seed) + 1n) * 0x9e3779b97f4a7c15n * BigInt(i + 3) + BigInt(i)) % r);
    const log = scalars.reduce((acc, s, i) => (acc + s * logs[i]) % r, 0n);
    return {
      result: bls12_381.g1.msm(points, scalars).then(key),
      expected: () => (log === 0n ? 'infinity' : key({ ...noble.G1.Point.BASE.multiply(log).toAffine(), infinity: false })),
    };
  };
})();

/** `BLOBS[b]` with field element `at` set to 2^256 − 1 (≥ r). */
function badBlob(b: number, at: number): Uint8Array {
  const blob = BLOBS[b].slice();
  blob.fill(0xff, 32 * at, 32 * at + 32);
  return blob;
}

type Outcome = { ok: string[] } | { error: unknown };

/**
 * Runs the ops in order on fresh Kzg objects: each call gets fresh input buffers, refilled right
 * after the call; async calls are not awaited until a 'settle' (or the end), a 'tick' lets them run
 * one macrotask; every result is overwritten by the "caller" once recorded. Then every outcome is
 * checked: c-kzg's bytes for calls made before their Kzg's dispose() (ScalarEncodingError naming
 * the element for a bad blob, which c-kzg refuses too), DisposedError after it (thrown by a sync
 * method, a rejection of an async one); the curve's MSMs against noble.
 */
async function runScenario(s: { objects: { threads: number; tables: boolean }[]; ops: ScenarioOp[] }): Promise<string[]> {
  const kzgs = await Promise.all(s.objects.map((options) => loadKzg(options)));
  const disposed = kzgs.map(() => false);
  const outcomes: { label: string; outcome: Promise<Outcome>; check: (r: Outcome) => string | undefined }[] = [];
  const record = (result: unknown): { ok: string[] } => {
    const ps = parts(result);
    const ok = ps.map(hex);
    for (const p of ps) p.fill(0x77);
    return { ok };
  };
  const equal = (want: () => string[]) => (r: Outcome) => {
    if ('error' in r) return describeError(r.error);
    const answer = want();
    const bad = answer.filter((w, i) => r.ok[i] !== w).length;
    return r.ok.length === answer.length && !bad ? undefined : `${bad} of ${answer.length} results differ from the oracle's`;
  };
  try {
    for (const [step, o] of s.ops.entries()) {
      if (o.op === 'tick') await new Promise((resolve) => setImmediate(resolve));
      else if (o.op === 'settle') await Promise.all(outcomes.map((x) => x.outcome));
      else if (o.op === 'msm') {
        const { result, expected } = curveMsm(o.seed);
        outcomes.push({ label: `op ${step}: bls12_381.g1.msm (seed ${o.seed})`, outcome: result.then((ok) => ({ ok: [ok] }), (error: unknown) => ({ error })), check: equal(() => [expected()]) });
      } else if (o.op === 'dispose') {
        kzgs[o.k % kzgs.length].dispose();
        disposed[o.k % kzgs.length] = true;
      } else {
        const k = o.k % kzgs.length;
        const call: Call = { method: o.method, blob: o.blob, arg: o.arg };
        const blob = o.bad < 0 ? BLOBS[o.blob].slice() : badBlob(o.blob, o.bad);
        const original = argOf(call);
        const arg = original?.slice();
        let outcome: Promise<Outcome>;
        if (o.sync) {
          try {
            outcome = Promise.resolve(record(start(kzgs[k], call, blob, arg, true)));
          } catch (error) {
            outcome = Promise.resolve({ error });
          }
        } else {
          let promise: Promise<unknown>;
          try {
            promise = start(kzgs[k], call, blob, arg, false) as Promise<unknown>;
          } catch (e) {
            promise = Promise.reject(new Error(`threw at the call instead of rejecting: ${describeError(e)}`));
          }
          outcome = promise.then(record, (error: unknown) => ({ error }));
        }
        blob.set(BLOBS[(o.blob + 1) % BLOBS.length]);
        if (arg) arg.set(argOf(call, 1)!);
        const label = `op ${step}: ${o.sync ? 'sync ' : ''}${o.method} on Kzg ${k}, blob ${o.blob}${o.bad < 0 ? '' : ` with element ${o.bad} ≥ r`}, arg ${o.arg}`;
        const afterDispose = disposed[k];
        const refused = (r: Outcome, also: (e: unknown) => boolean = () => false) => ('error' in r && (r.error instanceof ScalarEncodingError ? r.error.index === o.bad : also(r.error)) ? undefined : `${'error' in r ? describeError(r.error) : 'a result'}, not ScalarEncodingError with index ${o.bad}`);
        let check: (r: Outcome) => string | undefined;
        if (o.bad >= 0) {
          assert.ok(oracle.refusesBlob(badBlob(o.blob, o.bad)), 'c-kzg refuses the bad blob');
          // after dispose() either error is right: the docs give no order
          check = (r) => refused(r, (e) => afterDispose && e instanceof DisposedError);
        } else if (afterDispose) {
          check = (r) => ('error' in r && r.error instanceof DisposedError ? undefined : `after dispose(): ${'error' in r ? describeError(r.error) : 'a result'}, not DisposedError`);
        } else check = equal(() => expected(call));
        outcomes.push({ label, outcome, check });
      }
    }
  } finally {
    await Promise.all(outcomes.map((x) => x.outcome));
    kzgs.forEach((kzg, k) => disposed[k] || kzg.dispose());
  }
  const failures: string[] = [];
  for (const { label, outcome, check } of outcomes) {
    const why = check(await outcome);
    if (why) failures.push(`${label}: ${why}`);
  }
  return failures;
}
