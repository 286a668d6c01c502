/**
 * pippin/snarkjs takes its inputs at the call and hands back memory the caller owns, whatever the
 * caller does next, with stock ffjavascript's multiExpAffine as the oracle: bases refilled while the
 * engine converts them (the cache must not keep the new bytes with the old points), inputs of every
 * kind changed right after the call (miss and hit), results changed by the caller, several calls in
 * flight over one reused buffer, uninstall() with calls in flight (the cache ends empty), and a fuzz
 * of installSnarkjsEngine's options (every wrong value an InvalidOptionError naming it).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as ffjavascript from 'ffjavascript';
import { installSnarkjsEngine, type FfjsCurve, type FfjsGroup, type SnarkjsEngine } from '../src/snarkjs/index.js';
import { MAX_THREADS } from '../src/api/options.js';
import { InvalidOptionError } from '../src/errors.js';
import { terminateCurves } from '../scripts/snarkjs-fixtures.js';
import { adversarialBases, adversarialScalars, ff, FIELDS, rng } from './helpers/snarkjs.js';

type CurveName = 'bn128' | 'bls12381';
type GroupName = 'G1' | 'G2';
const METHODS: [CurveName, GroupName][] = [['bn128', 'G1'], ['bn128', 'G2'], ['bls12381', 'G1'], ['bls12381', 'G2']];

let curves: Record<CurveName, FfjsCurve>;
let stock: Record<CurveName, Record<GroupName, FfjsGroup['multiExpAffine']>>;

before(async () => {
  curves = { bn128: await ff.buildBn128(), bls12381: await ff.buildBls12381() };
  stock = {
    bn128: { G1: curves.bn128.G1.multiExpAffine, G2: curves.bn128.G2.multiExpAffine },
    bls12381: { G1: curves.bls12381.G1.multiExpAffine, G2: curves.bls12381.G2.multiExpAffine },
  };
});

after(async () => {
  await terminateCurves();
});

/** ffjavascript's own MSM on private copies of the bytes. */
function stockMsm(c: CurveName, g: GroupName, bases: Uint8Array, scalars: Uint8Array): Promise<Uint8Array> {
  return stock[c][g].call(curves[c][g], new Uint8Array(bases), new Uint8Array(scalars));
}

async function assertStock(c: CurveName, g: GroupName, got: Uint8Array, bases: Uint8Array, scalars: Uint8Array, what: string): Promise<void> {
  const G = curves[c][g];
  const want = await stockMsm(c, g, bases, scalars);
  assert.equal(got.length, want.length, `${what}: Jacobian, as stock`);
  assert.ok(G.eq(got, want), `${what}: equals stock ffjavascript`);
}

interface Refillable {
  set(bytes: Uint8Array, offset: number): void;
}
const BigBuffer = (ffjavascript as unknown as { BigBuffer: new (n: number) => Refillable }).BigBuffer;

/** `bytes` in the memory a caller may pass: a Uint8Array, a Node Buffer, a subarray at an offset, a SharedArrayBuffer view, ffjavascript's BigBuffer. */
const KINDS: Record<string, (bytes: Uint8Array) => Refillable> = {
  Uint8Array: (b) => b.slice(),
  Buffer: (b) => Buffer.from(b),
  'subarray at offset 7': (b) => {
    const big = new Uint8Array(b.length + 13).fill(0xa5);
    big.set(b, 7);
    return big.subarray(7, 7 + b.length);
  },
  SharedArrayBuffer: (b) => {
    const shared = new Uint8Array(new SharedArrayBuffer(b.length));
    shared.set(b);
    return shared;
  },
  BigBuffer: (b) => {
    const big = new BigBuffer(b.length);
    big.set(b, 0);
    return big;
  },
};

function inputs(c: CurveName, g: GroupName, n: number, seed: number) {
  const next = rng(seed);
  return { bases: adversarialBases(curves[c][g], n, next), scalars: adversarialScalars(FIELDS[c].r, n, next) };
}

async function withEngine<T>(names: CurveName[], run: (engine: SnarkjsEngine) => Promise<T>): Promise<T> {
  const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: names, minPoints: 1 });
  try {
    return await run(engine);
  } finally {
    await engine.uninstall();
  }
}

describe('pippin/snarkjs takes its inputs at the call', () => {
  for (const [c, g] of [['bn128', 'G1'], ['bls12381', 'G2']] as const) {
    test(`${c} ${g}: bases refilled while they are converted; the call and later calls with either content equal stock`, async () => {
      await withEngine([c], async (engine) => {
        const G = curves[c][g];
        const a = inputs(c, g, 60, 11);
        const b = inputs(c, g, 60, 12);
        const buffer = a.bases.slice();
        const convert = G.batchLEMtoU;
        let conversions = 0;
        // the caller refills its buffer once the engine has started converting
        G.batchLEMtoU = function (this: FfjsGroup, x: Uint8Array) {
          const out = convert.call(this, x);
          if (conversions++ === 0) buffer.set(b.bases);
          return out;
        };
        let first: Uint8Array;
        try {
          first = await G.multiExpAffine(buffer, a.scalars);
        } finally {
          G.batchLEMtoU = convert;
        }
        assert.equal(conversions, 1);
        await assertStock(c, g, first, a.bases, a.scalars, 'the call made with the first contents');
        await assertStock(c, g, await G.multiExpAffine(b.bases.slice(), b.scalars), b.bases, b.scalars, 'a later call with the refilled contents');
        await assertStock(c, g, await G.multiExpAffine(a.bases.slice(), b.scalars), a.bases, b.scalars, 'a later call with the first contents');
        await assertStock(c, g, await G.multiExpAffine(b.bases.slice(), a.scalars), b.bases, a.scalars, 'the refilled contents again');
        assert.equal(engine.stats().calls[g], 4);
      });
    });
  }

  test('inputs changed right after the call (Uint8Array, Buffer, subarray, SharedArrayBuffer, BigBuffer; miss and hit): every replaced method equals stock on the inputs given', async () => {
    await withEngine(['bn128', 'bls12381'], async (engine) => {
      let seed = 100;
      for (const [c, g] of METHODS) {
        const G = curves[c][g];
        for (const [kind, wrap] of Object.entries(KINDS)) {
          const given = inputs(c, g, 24, seed++);
          const other = inputs(c, g, 24, seed++);
          for (const cache of ['miss', 'hit']) {
            const bases = wrap(given.bases);
            const scalars = wrap(given.scalars);
            const pending = G.multiExpAffine(bases, scalars);
            bases.set(other.bases, 0);
            scalars.set(other.scalars, 0);
            await assertStock(c, g, await pending, given.bases, given.scalars, `${c} ${g} ${kind} (${cache})`);
          }
        }
      }
      const s = engine.stats();
      assert.equal(s.calls.G1 + s.calls.G2, METHODS.length * Object.keys(KINDS).length * 2);
      assert.equal(s.cache.hits, METHODS.length * Object.keys(KINDS).length, 'the second call with the same bases is a hit');
    });
  });

  test('results belong to the caller: changing them changes no later result', async () => {
    await withEngine(['bn128', 'bls12381'], async () => {
      for (const [c, g] of METHODS) {
        const G = curves[c][g];
        const { bases, scalars } = inputs(c, g, 20, 300);
        const zeros = new Uint8Array(scalars.length);
        const zero = G.zero.slice();
        const first = await G.multiExpAffine(bases, scalars);
        const atInfinity = await G.multiExpAffine(bases, zeros);
        assert.notEqual(first.buffer, bases.buffer);
        assert.notEqual(first.buffer, scalars.buffer);
        first.fill(0xff);
        atInfinity.fill(0x01);
        assert.deepEqual(G.zero, zero, `${c} ${g}: the curve's zero is untouched`);
        await assertStock(c, g, await G.multiExpAffine(bases, scalars), bases, scalars, `${c} ${g} again`);
        const again = await G.multiExpAffine(bases, zeros);
        assert.ok(G.eq(again, zero), `${c} ${g}: infinity again`);
        await assertStock(c, g, again, bases, zeros, `${c} ${g} infinity`);
      }
    });
  });

  test('calls in flight together over one reused buffer (new and cached bases, both curves) each equal stock', async () => {
    await withEngine(['bn128', 'bls12381'], async () => {
      const calls: { c: CurveName; g: GroupName; bases: Uint8Array; scalars: Uint8Array; result: Promise<Uint8Array> }[] = [];
      let seed = 400;
      for (const [c, g] of METHODS) {
        const G = curves[c][g];
        const sets = [inputs(c, g, 30, seed++), inputs(c, g, 30, seed++), inputs(c, g, 30, seed++)];
        const buffer = new Uint8Array(sets[0].bases.length);
        const scalarBuffer = new Uint8Array(sets[0].scalars.length);
        for (const k of [0, 1, 0, 2, 1, 0]) {
          buffer.set(sets[k].bases);
          scalarBuffer.set(sets[(k + 1) % 3].scalars);
          calls.push({ c, g, bases: sets[k].bases, scalars: sets[(k + 1) % 3].scalars, result: G.multiExpAffine(buffer, scalarBuffer) });
        }
      }
      const results = await Promise.all(calls.map((x) => x.result));
      for (let i = 0; i < calls.length; i++) await assertStock(calls[i].c, calls[i].g, results[i], calls[i].bases, calls[i].scalars, `call ${i} (${calls[i].c} ${calls[i].g})`);
    });
  });
});

describe('uninstall with calls in flight', () => {
  test('calls started before uninstall() resolve correctly, calls after it run stock; the cache is empty afterwards', async () => {
    const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bn128', 'bls12381'], minPoints: 1 });
    const G1 = curves.bn128.G1;
    const G2 = curves.bls12381.G2;
    const hookedG2 = G2.multiExpAffine;
    const sets = [inputs('bn128', 'G1', 40, 501), inputs('bls12381', 'G2', 40, 502), inputs('bn128', 'G1', 40, 503), inputs('bls12381', 'G2', 40, 504)];
    const cached = inputs('bn128', 'G1', 40, 505);
    await G1.multiExpAffine(cached.bases, cached.scalars);
    const before = [G1.multiExpAffine(sets[0].bases, sets[0].scalars), G2.multiExpAffine(sets[1].bases, sets[1].scalars), G1.multiExpAffine(cached.bases, sets[0].scalars)];
    const callsBefore = engine.stats().calls;
    const uninstalled = engine.uninstall();
    // made while uninstall() runs: through the curve, and through a reference to the engine's method
    const during = [G1.multiExpAffine(sets[2].bases, sets[2].scalars), hookedG2(sets[3].bases, sets[3].scalars)];
    const results = await Promise.all([...before, ...during]);
    await uninstalled;
    const expected = [[0, 'bn128', 'G1', sets[0]], [1, 'bls12381', 'G2', sets[1]], [2, 'bn128', 'G1', { bases: cached.bases, scalars: sets[0].scalars }], [3, 'bn128', 'G1', sets[2]], [4, 'bls12381', 'G2', sets[3]]] as const;
    for (const [i, c, g, x] of expected) await assertStock(c, g, results[i], x.bases, x.scalars, `call ${i}`);
    await new Promise((r) => setTimeout(r, 50));
    const s = engine.stats();
    assert.deepEqual([s.cache.entries, s.cache.bytes], [0, 0], 'nothing cached after uninstall');
    assert.deepEqual(s.calls, { G1: callsBefore.G1 + 2, G2: callsBefore.G2 + 1 }, 'the calls made during uninstall ran stock');
    assert.equal(G1.multiExpAffine, stock.bn128.G1);
    assert.equal(G2.multiExpAffine, stock.bls12381.G2);
    assert.ok(G2.eq(await hookedG2.call(G2, sets[1].bases, sets[1].scalars), await stockMsm('bls12381', 'G2', sets[1].bases, sets[1].scalars)));
    assert.equal(engine.stats().cache.entries, 0);
  });
});

describe('installSnarkjsEngine options', () => {
  const OPTION_NAMES = ['ffjavascript', 'curves', 'validate', 'cacheBytes', 'minPoints', 'threads', 'crossCheck', 'onCall'] as const;
  type Name = (typeof OPTION_NAMES)[number];
  const WRONG: Record<Name, unknown[]> = {
    ffjavascript: [null, 0, 'ffjavascript', [], () => {}, {}, { buildBn128: 1 }, new Map()],
    curves: [null, [], 'bn128', ['bn254'], ['bn128', 'bn128'], [1], {}, new Set(['bn128']), [null]],
    validate: [null, 'subgroup', 'FULL', '', 1, true, ['full']],
    cacheBytes: [null, -1, 1.5, '1024', 2 ** 40 + 1, NaN, Infinity, 1024n, true],
    minPoints: [null, 0, -1, 1.5, '64', 2 ** 30 + 1, 64n],
    threads: [null, 0, MAX_THREADS + 1, 1.5, '2', 2n, false],
    crossCheck: [null, 0, 1, 'true', 'false', {}],
    onCall: [null, 'f', {}, 1, true],
  };
  const VALID: Record<Name, unknown[]> = {
    ffjavascript: [ff],
    curves: [['bn128'], ['bls12381'], ['bls12381', 'bn128']],
    validate: ['on-curve', 'full', 'none', undefined],
    cacheBytes: [0, 2 ** 20, undefined],
    minPoints: [1, 64],
    threads: [1, MAX_THREADS, undefined],
    crossCheck: [false, true],
    onCall: [() => {}, undefined],
  };

  async function refusal(options: unknown): Promise<InvalidOptionError | undefined> {
    try {
      const engine = await installSnarkjsEngine(options as never);
      await engine.uninstall();
      return undefined;
    } catch (e) {
      assert.ok(e instanceof InvalidOptionError, `expected InvalidOptionError, got ${String(e)}`);
      return e;
    }
  }

  test('fuzz: one wrong value among valid ones is an InvalidOptionError naming that option and carrying the value', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...OPTION_NAMES),
        fc.nat(),
        fc.record(Object.fromEntries(OPTION_NAMES.map((k) => [k, fc.constantFrom(...VALID[k])])) as { [K in Name]: fc.Arbitrary<unknown> }, { requiredKeys: ['ffjavascript'] }),
        async (name, pick, valid) => {
          const value = WRONG[name][pick % WRONG[name].length];
          const err = await refusal({ ...valid, [name]: value });
          assert.ok(err, `${name} = ${String(value)} was accepted`);
          assert.equal(err.option, name);
          assert.ok(Object.is(err.value, value));
          assert.ok(err.message.startsWith(`installSnarkjsEngine: option ${name} `), err.message);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('unknown keys, a missing ffjavascript and options that are not an object are refused by name', async () => {
    for (const key of ['extra', 'Curves', 'thread', 'toString', '__proto__']) {
      const o = { ffjavascript: ff };
      Object.defineProperty(o, key, { value: 1, enumerable: true });
      const err = await refusal(o);
      assert.equal(err?.option, key);
      assert.match(err!.message, /^installSnarkjsEngine: unknown option .*\(known: ffjavascript, curves, validate, cacheBytes, minPoints, threads, crossCheck, onCall\)$/);
    }
    for (const o of [undefined, {}, { curves: ['bn128'] }, { ffjavascript: undefined }]) assert.equal((await refusal(o))?.option, 'ffjavascript');
    for (const o of [null, 1, 'ff', [ff], () => ff]) assert.equal((await refusal(o))?.option, 'options');
    // a module without the builder of a requested curve
    const onlyBn = { buildBn128: ff.buildBn128 };
    assert.equal((await refusal({ ffjavascript: onlyBn, curves: ['bls12381'] }))?.option, 'ffjavascript');
  });

  test('valid options install (and uninstall)', async () => {
    const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bls12381', 'bn128'], validate: 'full', cacheBytes: 0, minPoints: 1, threads: 1, crossCheck: true, onCall: () => {} });
    assert.deepEqual(engine.curves, ['bls12381', 'bn128']);
    await engine.uninstall();
  });
});
