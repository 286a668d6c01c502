/**
 * parseMsmOptions: defaults, non-object options, unknown keys, every option's accepted and refused
 * values (prototype names as keys and as values, inherited properties never read), message form,
 * and a fast-check property against an independent validity model. The options toolkit under it
 * (takeOptionBag and the option… readers every entry uses): the same checks, null never a default,
 * nested `{ maxBytes }`-style objects, one MAX_THREADS for the API, the pool and the CLI.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  parseMsmOptions, describeValue, takeOptionBag, optionInteger, optionThreads, optionBoolean, optionChoice, optionChoiceList, optionFunction, optionObject, optionValue, optionError, MAX_THREADS, type OptionBag,
} from '../src/api/options.js';
import { InvalidOptionError, PippinError } from '../src/errors.js';
import { intFlag, UsageError } from '../src/cli-args.js';
import { startThreads } from '../src/runtime/pool.js';

const formats = ['zcash', 'zcash-compressed', 'arkworks'] as const;
const ctx = { formats, entry: 'bls12-381.g1.msm' };
const parse = (o: unknown) => parseMsmOptions(o, ctx);
const KNOWN = ['pointFormat', 'scalarEndian', 'validate', 'windowBits', 'threads', 'onStats', 'onProgress', 'signal', 'maxMemoryBytes', 'chunkPoints'];
const DEFAULTS = { pointFormat: undefined, scalarEndian: 'le', validate: 'full', windowBits: undefined, threads: undefined, onStats: undefined, onProgress: undefined, signal: undefined, maxMemoryBytes: undefined, chunkPoints: undefined };
const PROTO_NAMES = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString'];

/** Asserts an InvalidOptionError for `option` carrying `value`, its message naming entry and option. */
function refuses(o: unknown, option: string, value: unknown, what = `${option} = ${describeValue(value)}`): InvalidOptionError {
  let err: unknown;
  try {
    parse(o);
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof InvalidOptionError, `${what}: expected InvalidOptionError, got ${String(err)}`);
  assert.ok(err instanceof PippinError);
  assert.equal(err.name, 'InvalidOptionError');
  assert.equal(err.option, option, what);
  assert.ok(Object.is(err.value, value), `${what}: value carried`);
  assert.equal(err.index, -1);
  assert.ok(err.message.startsWith('bls12-381.g1.msm: '), err.message);
  assert.ok(err.message.includes(option), err.message);
  assert.ok(err.message.length < 400, `bounded message: ${err.message.length}`);
  return err;
}

/** An object with one own property (also '__proto__', which a literal would treat as the prototype). */
function own(key: string, value: unknown): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  return o;
}

describe('parseMsmOptions', () => {
  it('undefined and {} give the defaults as a frozen plain object', () => {
    for (const o of [undefined, {}, Object.create(null)]) {
      const p = parse(o);
      assert.deepEqual({ ...p }, DEFAULTS);
      assert.deepEqual(Object.keys(p).sort(), [...KNOWN].sort());
      assert.ok(Object.isFrozen(p));
      assert.equal(Object.getPrototypeOf(p), Object.prototype);
    }
  });

  it('options that are not a non-array object are refused, naming `options`', () => {
    for (const o of [null, 0, 5, NaN, '', 'full', true, false, 5n, Symbol('o'), [], [1, 2], ['validate'], () => ({}), function validate() {}]) {
      const err = refuses(o, 'options', o, `options = ${describeValue(o)}`);
      assert.match(err.message, /options must be an object or undefined, got /);
    }
    assert.match(refuses(null, 'options', null).message, /got null$/);
    const arr = [1, 2];
    assert.match(refuses(arr, 'options', arr).message, /got an array of length 2$/);
  });

  it('unknown keys are refused, naming the key and listing the known ones', () => {
    for (const key of ['foo', 'windowbits', 'WindowBits', 'thread', 'format', 'endian', '', '0', ...PROTO_NAMES]) {
      const err = refuses(own(key, 1), key, 1, `key ${key}`);
      assert.ok(err.message.includes(`unknown option ${JSON.stringify(key)}`), err.message);
      for (const k of KNOWN) assert.ok(err.message.includes(k), `${err.message} lists ${k}`);
    }
    // '__proto__' as an own key from JSON, and as a known option's sibling
    const fromJson = JSON.parse('{"validate":"none","__proto__":{"validate":"none"}}') as Record<string, unknown>;
    refuses(fromJson, '__proto__', Object.getOwnPropertyDescriptor(fromJson, '__proto__')?.value, 'JSON __proto__');
    const sym = Symbol('validate');
    const err = refuses({ [sym]: 'none' }, 'Symbol(validate)', 'none', 'symbol key');
    assert.ok(err.message.includes('Symbol(validate)'));
  });

  it('a key whose value is undefined counts as absent (known or not)', () => {
    const p = parse({ pointFormat: undefined, scalarEndian: undefined, validate: undefined, windowBits: undefined, threads: undefined, onStats: undefined, foo: undefined, toString: undefined });
    assert.deepEqual({ ...p }, DEFAULTS);
  });

  it('inherited properties are never read (a prototype carrying options, or poisoned Object.prototype names)', () => {
    const proto = { validate: 'none', windowBits: '8', threads: 0, scalarEndian: 'BE', pointFormat: 'toString', foo: 1 };
    const p = parse(Object.create(proto));
    assert.deepEqual({ ...p }, DEFAULTS);
    const q = parse(Object.assign(Object.create(proto), { validate: 'on-curve' }));
    assert.equal(q.validate, 'on-curve');
    class Opts {
      windowBits = 9;
      get validate(): string {
        return 'none';
      }
    }
    // the accessor lives on the prototype: not an own property, not read
    assert.deepEqual({ ...parse(new Opts()) }, { ...DEFAULTS, windowBits: 9 });
  });

  it('own properties count also when non-enumerable; each value is read once', () => {
    const o = {};
    Object.defineProperty(o, 'validate', { value: 'none', enumerable: false });
    assert.equal(parse(o).validate, 'none');
    let reads = 0;
    const g = {
      get windowBits() {
        reads++;
        return reads === 1 ? 8 : '8';
      },
    };
    assert.equal(parse(g).windowBits, 8);
    assert.equal(reads, 1);
  });

  it('pointFormat: exactly one of the curve formats', () => {
    for (const f of formats) assert.equal(parse({ pointFormat: f }).pointFormat, f);
    for (const v of ['ZCASH', 'zcash ', 'eip196', 'arkworks-compressed', '', 0, 1, null, true, ['zcash'], { name: 'zcash' }, ...PROTO_NAMES]) {
      const err = refuses(own('pointFormat', v), 'pointFormat', v);
      assert.ok(err.message.includes('"zcash", "zcash-compressed", "arkworks"'), err.message);
    }
    const other = parseMsmOptions({ pointFormat: 'eip196' }, { formats: ['eip196', 'arkworks'] as const, entry: 'bn254.g1.msmSync' });
    assert.equal(other.pointFormat, 'eip196');
  });

  it("scalarEndian: 'le' | 'be' exactly", () => {
    assert.equal(parse({ scalarEndian: 'le' }).scalarEndian, 'le');
    assert.equal(parse({ scalarEndian: 'be' }).scalarEndian, 'be');
    for (const v of ['BE', 'LE', 'big', 'little', 'be ', '', 0, 1, true, null, ...PROTO_NAMES]) refuses(own('scalarEndian', v), 'scalarEndian', v);
  });

  it("validate: 'full' | 'on-curve' | 'none', default 'full'", () => {
    for (const v of ['full', 'on-curve', 'none'] as const) assert.equal(parse({ validate: v }).validate, v);
    for (const v of ['FULL', 'oncurve', 'on_curve', 'None', '', 0, 1, 2, true, false, null, {}, ...PROTO_NAMES]) {
      const err = refuses(own('validate', v), 'validate', v);
      assert.ok(err.message.includes('"full", "on-curve", "none"'), err.message);
    }
  });

  it('windowBits: an integer in 2…16 of type number', () => {
    for (let c = 2; c <= 16; c++) assert.equal(parse({ windowBits: c }).windowBits, c);
    for (const v of ['8', '', -1, -8, 0, 1, 17, 40, 2.5, 8.000001, NaN, Infinity, -Infinity, -0, 8n, null, true, [8], new Number(8), ...PROTO_NAMES]) {
      refuses(own('windowBits', v), 'windowBits', v);
    }
    assert.equal(refuses({ windowBits: '8' }, 'windowBits', '8').message, 'bls12-381.g1.msm: option windowBits must be an integer in 2…16, got "8" (a string)');
    assert.equal(refuses({ windowBits: 2.5 }, 'windowBits', 2.5).message, 'bls12-381.g1.msm: option windowBits must be an integer in 2…16, got 2.5');
  });

  it('threads: an integer in 1…256', () => {
    for (const t of [1, 2, 3, 64, 256]) assert.equal(parse({ threads: t }).threads, t);
    for (const v of [0, -1, 257, 1e9, 1.5, '2', 2n, NaN, Infinity, null, false, ...PROTO_NAMES]) refuses(own('threads', v), 'threads', v);
  });

  it('onStats: a function (kept by reference)', () => {
    for (const f of [() => {}, function named() {}, async () => {}, class {}]) assert.equal(parse({ onStats: f }).onStats, f);
    for (const v of ['f', 1, null, {}, [], true, ...PROTO_NAMES]) refuses(own('onStats', v), 'onStats', v);
  });

  it('maxMemoryBytes: an integer in 2^20…2^32; chunkPoints: an integer in 1…2^24', () => {
    for (const b of [2 ** 20, 256 * 2 ** 20, 2 ** 32]) assert.equal(parse({ maxMemoryBytes: b }).maxMemoryBytes, b);
    for (const v of [0, 2 ** 20 - 1, 2 ** 32 + 1, 1.5e6 + 0.5, '1e9', 2n ** 30n, NaN, Infinity, null, ...PROTO_NAMES]) refuses(own('maxMemoryBytes', v), 'maxMemoryBytes', v);
    for (const c of [1, 7, 2 ** 24]) assert.equal(parse({ chunkPoints: c }).chunkPoints, c);
    for (const v of [0, -1, 2 ** 24 + 1, 2.5, '8', 8n, NaN, null, ...PROTO_NAMES]) refuses(own('chunkPoints', v), 'chunkPoints', v);
  });

  it('onProgress: a function (kept by reference)', () => {
    for (const f of [() => {}, function named() {}, async () => {}]) assert.equal(parse({ onProgress: f }).onProgress, f);
    for (const v of ['f', 1, null, {}, [], true, ...PROTO_NAMES]) refuses(own('onProgress', v), 'onProgress', v);
  });

  it('messages show values bounded and typed', () => {
    const long = 'x'.repeat(10_000);
    const err = refuses({ validate: long }, 'validate', long);
    assert.ok(err.message.length < 200, err.message);
    assert.match(refuses({ threads: 2n }, 'threads', 2n).message, /got 2n \(a bigint\)$/);
    const obj = { a: 1, b: 'x', c: {}, d: [], e: 5 };
    assert.match(refuses({ threads: obj }, 'threads', obj).message, /got \{"a": 1, "b": "x", "c": \{…\}, "d": \[…\], …\} \(an object\)$/);
  });

  it('the result is a snapshot: later changes to the input do not show', () => {
    const o: Record<string, unknown> = { validate: 'none', windowBits: 5 };
    const p = parse(o);
    o.validate = 'full';
    o.windowBits = '8';
    assert.equal(p.validate, 'none');
    assert.equal(p.windowBits, 5);
    assert.throws(() => {
      (p as { validate: string }).validate = 'toString';
    }, TypeError);
  });

  it('property: accepted exactly when every own defined key is known and its value allowed (independent model)', () => {
    const keys = fc.constantFrom(...KNOWN, ...PROTO_NAMES, 'foo', 'WindowBits', 'scalarendian');
    const values = fc.oneof(
      fc.constantFrom('le', 'be', 'BE', 'big', 'full', 'on-curve', 'none', 'FULL', ...formats, 'eip196', '8', '', ...PROTO_NAMES),
      fc.integer({ min: -5, max: 300 }),
      fc.double(),
      fc.constantFrom(undefined, null, true, 8n, () => {}, {}, [16]),
    );
    const allowed = (k: string, v: unknown): boolean => {
      if (v === undefined) return true;
      const int = (lo: number, hi: number) => typeof v === 'number' && Math.floor(v) === v && v >= lo && v <= hi;
      switch (k) {
        case 'pointFormat':
          return v === 'zcash' || v === 'zcash-compressed' || v === 'arkworks';
        case 'scalarEndian':
          return v === 'le' || v === 'be';
        case 'validate':
          return v === 'full' || v === 'on-curve' || v === 'none';
        case 'windowBits':
          return int(2, 16);
        case 'threads':
          return int(1, 256);
        case 'maxMemoryBytes':
          return int(2 ** 20, 2 ** 32);
        case 'chunkPoints':
          return int(1, 2 ** 24);
        case 'onStats':
        case 'onProgress':
          return typeof v === 'function';
        default:
          return false;
      }
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, values), { maxLength: 5 }), (entries) => {
        const o: Record<string, unknown> = {};
        for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
        const ok = Object.keys(o).every((k) => allowed(k, o[k]));
        let res: ReturnType<typeof parse> | undefined;
        let err: unknown;
        try {
          res = parse(o);
        } catch (e) {
          err = e;
        }
        if (ok) {
          assert.equal(err, undefined);
          for (const k of KNOWN) {
            const given = Object.getOwnPropertyDescriptor(o, k)?.value;
            assert.ok(Object.is((res as unknown as Record<string, unknown>)[k], given ?? (DEFAULTS as Record<string, unknown>)[k]), k);
          }
        } else {
          assert.ok(err instanceof InvalidOptionError, String(err));
          assert.ok(Object.hasOwn(o, err.option) && !allowed(err.option, o[err.option]), `names a refused key: ${err.option}`);
          assert.ok(Object.is(err.value, o[err.option]));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

const ENTRY = 'someEntry';
const NAMES = ['count', 'flag', 'mode', 'list', 'fn', 'tables'] as const;
type Name = (typeof NAMES)[number];
const bagOf = (o: unknown) => takeOptionBag(o, ENTRY, NAMES);

/** Runs `f`, asserts an InvalidOptionError naming `option` and carrying `value`; returns its message. */
function kitRefuses(f: () => unknown, option: string, value: unknown): string {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof InvalidOptionError, `${option}: expected InvalidOptionError, got ${String(err)}`);
  assert.equal(err.option, option);
  assert.ok(Object.is(err.value, value), `${option}: value carried`);
  assert.ok(err.message.startsWith(`${ENTRY}: `), err.message);
  return err.message;
}

describe('options toolkit', () => {
  it('takeOptionBag: undefined and plain objects (also null-prototype and class instances) give their own defined values', () => {
    assert.equal(bagOf(undefined).values.size, 0);
    assert.equal(bagOf(Object.create(null)).values.size, 0);
    class Opts {
      count = 3;
    }
    assert.deepEqual([...bagOf(new Opts()).values], [['count', 3]]);
    const b = bagOf({ count: 1, flag: undefined, other: undefined, mode: null });
    assert.deepEqual([...b.values], [['count', 1], ['mode', null]], 'undefined counts as absent, null is kept as a given value');
    assert.equal(bagOf(Object.create({ count: 'inherited' })).values.size, 0, 'inherited properties are not read');
  });

  it('takeOptionBag: anything but a plain object or undefined is refused as `options`', () => {
    for (const o of [null, 0, 'x', true, 1n, Symbol('o'), [], [1], () => ({}), new Map([['count', 1]]), new Set(), new Date(0), /count/, new Uint8Array(2), new ArrayBuffer(4), Promise.resolve({})]) {
      const m = kitRefuses(() => bagOf(o), 'options', o);
      assert.match(m, /^someEntry: options must be an object or undefined, got /);
    }
  });

  it('takeOptionBag: an unknown own key (string or symbol, enumerable or not) is refused, naming it and the known ones', () => {
    const hidden = {};
    Object.defineProperty(hidden, 'secret', { value: 1, enumerable: false });
    const sym = Symbol('count');
    for (const [o, key, value] of [[{ counts: 2 }, 'counts', 2], [hidden, 'secret', 1], [{ [sym]: 1 }, 'Symbol(count)', 1], [JSON.parse('{"__proto__": 5}'), '__proto__', 5]] as const) {
      const m = kitRefuses(() => bagOf(o), key, value);
      assert.ok(m.includes(`unknown option`) && m.includes(`(known: ${NAMES.join(', ')})`), m);
    }
  });

  it('takeOptionBag reads each value once (a getter is not called again by the readers)', () => {
    let reads = 0;
    const bag = bagOf({
      get count() {
        reads++;
        return reads === 1 ? 5 : 'five';
      },
    });
    assert.equal(optionInteger(bag, 'count', 0, 10), 5);
    assert.equal(optionInteger(bag, 'count', 0, 10), 5);
    assert.equal(reads, 1);
  });

  it('null is a wrong value for every reader, with a hint that it is not the default', () => {
    const bag = bagOf({ count: null, flag: null, mode: null, list: null, fn: null, tables: null });
    const readers: [Name, (b: OptionBag<Name>) => unknown][] = [
      ['count', (b) => optionInteger(b, 'count', 0, 9)],
      ['flag', (b) => optionBoolean(b, 'flag')],
      ['mode', (b) => optionChoice(b, 'mode', ['a', 'b'])],
      ['list', (b) => optionChoiceList(b, 'list', ['a', 'b'])],
      ['fn', (b) => optionFunction(b, 'fn')],
      ['tables', (b) => optionObject(b, 'tables', ['maxBytes'], (t) => optionInteger(t, 'maxBytes', 0, 9))],
    ];
    for (const [name, read] of readers) {
      const m = kitRefuses(() => read(bag), name, null);
      assert.match(m, new RegExp(`option ${name} must be .*, got null \\(null is not a default: leave the option out\\)$`));
      assert.equal(read(bagOf({})), undefined, `${name} absent: undefined`);
    }
  });

  it('optionInteger / optionThreads: numbers that are integers in range; MAX_THREADS is the one limit (API, pool, CLI)', () => {
    assert.equal(optionInteger(bagOf({ count: 0 }), 'count', 0, 3), 0);
    assert.equal(optionInteger(bagOf({ count: 3 }), 'count', 0, 3), 3);
    for (const v of [-1, 4, 1.5, NaN, Infinity, '2', 2n, true, [2], new Number(2)]) {
      assert.equal(kitRefuses(() => optionInteger(bagOf({ count: v }), 'count', 0, 3), 'count', v), `someEntry: option count must be an integer in 0…3, got ${describeValue(v)}`);
    }
    assert.equal(MAX_THREADS, 256);
    assert.equal(optionThreads(bagOf({ count: MAX_THREADS }), 'count'), MAX_THREADS);
    kitRefuses(() => optionThreads(bagOf({ count: MAX_THREADS + 1 }), 'count'), 'count', MAX_THREADS + 1);
    kitRefuses(() => optionThreads(bagOf({ count: 0 }), 'count'), 'count', 0);
    assert.throws(() => parseMsmOptions({ threads: MAX_THREADS + 1 }, ctx), InvalidOptionError);
    assert.equal(parseMsmOptions({ threads: MAX_THREADS }, ctx).threads, MAX_THREADS);
    assert.equal(intFlag('threads', String(MAX_THREADS), 1, 1, MAX_THREADS), MAX_THREADS);
    assert.throws(() => intFlag('threads', String(MAX_THREADS + 1), 1, 1, MAX_THREADS), (e: unknown) => e instanceof UsageError && e.message === `--threads: '${MAX_THREADS + 1}' is not an integer in 1…${MAX_THREADS}`);
  });

  it('startThreads refuses n outside 1…MAX_THREADS with the same wording, and its options as every entry does', async () => {
    for (const n of [0, MAX_THREADS + 1, 2.5, '2']) {
      await assert.rejects(startThreads(n as number), (e: unknown) => e instanceof InvalidOptionError && e.option === 'n' && e.message === `startThreads: n must be an integer in 1…${MAX_THREADS}, got ${describeValue(n)}`);
    }
    for (const [options, option] of [[null, 'options'], [[], 'options'], [{ createWorker: null }, 'createWorker'], [{ createWorker: 'worker.js' }, 'createWorker'], [{ workers: 2 }, 'workers']] as const) {
      await assert.rejects(startThreads(1, options as never), (e: unknown) => e instanceof InvalidOptionError && e.option === option && e.message.startsWith('startThreads: '));
    }
  });

  it('optionBoolean, optionChoice, optionFunction: exact types', () => {
    assert.equal(optionBoolean(bagOf({ flag: false }), 'flag'), false);
    for (const v of [0, 1, 'true', new Boolean(true)]) assert.match(kitRefuses(() => optionBoolean(bagOf({ flag: v }), 'flag'), 'flag', v), /must be true or false, got /);
    assert.equal(optionChoice(bagOf({ mode: 'b' }), 'mode', ['a', 'b']), 'b');
    for (const v of ['A', 'b ', '', 'toString', 1, ['a']]) assert.match(kitRefuses(() => optionChoice(bagOf({ mode: v }), 'mode', ['a', 'b']), 'mode', v), /must be one of "a", "b", got /);
    const f = () => 1;
    assert.equal(optionFunction(bagOf({ fn: f }), 'fn'), f);
    for (const v of ['f', {}, 1]) assert.match(kitRefuses(() => optionFunction(bagOf({ fn: v }), 'fn'), 'fn', v), /must be a function, got /);
  });

  it('optionChoiceList: a non-empty array of distinct allowed names, copied and frozen', () => {
    const given = ['b', 'a'];
    const got = optionChoiceList(bagOf({ list: given }), 'list', ['a', 'b']);
    assert.deepEqual(got, ['b', 'a']);
    assert.ok(Object.isFrozen(got) && got !== given);
    given[0] = 'x';
    assert.deepEqual(got, ['b', 'a']);
    for (const v of [[], ['a', 'a'], ['c'], ['a', 1], 'a', { 0: 'a', length: 1 }, new Set(['a'])]) {
      assert.match(kitRefuses(() => optionChoiceList(bagOf({ list: v }), 'list', ['a', 'b']), 'list', v), /must be a non-empty array of distinct names among "a", "b", got /);
    }
  });

  it('optionObject: exact keys; errors inside name the outer option (path in the message) and carry its whole value', () => {
    const read = (o: unknown) => optionObject(bagOf({ tables: o }), 'tables', ['maxBytes'], (t) => optionInteger(t, 'maxBytes', 0, 100) ?? 7);
    assert.equal(read({ maxBytes: 5 }), 5);
    assert.equal(read({}), 7);
    for (const v of [{ maxBytes: -1 }, { maxBytes: '5' }, { maxBytes: null }]) {
      assert.match(kitRefuses(() => read(v), 'tables', v), /^someEntry: option tables\.maxBytes must be an integer in 0…100, got /);
    }
    for (const v of [{ maxBytes: 5, extra: 1 }, { maxbytes: 5 }]) {
      assert.match(kitRefuses(() => read(v), 'tables', v), /^someEntry: option tables must be an object with keys maxBytes \(unknown key "(extra|maxbytes)"\), got /);
    }
    for (const v of ['yes', true, [5], new Map()]) assert.match(kitRefuses(() => read(v), 'tables', v), /must be an object with keys maxBytes, got /);
    // nested twice: still the outermost option
    const deep = { inner: { n: 'x' } };
    const m = kitRefuses(() => optionObject(bagOf({ tables: deep }), 'tables', ['inner'], (t) => optionObject(t, 'inner', ['n'], (u) => optionInteger(u, 'n', 0, 1))), 'tables', deep);
    assert.match(m, /option tables\.inner\.n must be an integer in 0…1, got "x"/);
  });

  it('optionValue and optionError: custom checks read the same way', () => {
    const bag = bagOf({ mode: 42 });
    assert.equal(optionValue(bag, 'mode'), 42);
    const e = optionError(bag, 'mode', 42, 'a module');
    assert.ok(e instanceof InvalidOptionError);
    assert.deepEqual([e.option, e.value, e.message], ['mode', 42, 'someEntry: option mode must be a module, got 42']);
  });

  it('property: every reader accepts exactly its model, and a refusal names the option', () => {
    const values = fc.oneof(fc.integer({ min: -3, max: 12 }), fc.double(), fc.constantFrom(null, true, false, 'a', 'b', 'c', '', 5n, [], ['a'], ['a', 'b'], ['a', 'a'], {}, { maxBytes: 3 }, { maxBytes: -3 }, { n: 1 }, () => {}));
    const models: [Name, (b: OptionBag<Name>) => unknown, (v: unknown) => boolean][] = [
      ['count', (b) => optionInteger(b, 'count', 0, 9), (v) => typeof v === 'number' && Math.floor(v) === v && v >= 0 && v <= 9],
      ['flag', (b) => optionBoolean(b, 'flag'), (v) => v === true || v === false],
      ['mode', (b) => optionChoice(b, 'mode', ['a', 'b']), (v) => v === 'a' || v === 'b'],
      ['list', (b) => optionChoiceList(b, 'list', ['a', 'b']), (v) => Array.isArray(v) && v.length > 0 && v.every((x) => x === 'a' || x === 'b') && new Set(v).size === v.length],
      ['fn', (b) => optionFunction(b, 'fn'), (v) => typeof v === 'function'],
      ['tables', (b) => optionObject(b, 'tables', ['maxBytes'], (t) => optionInteger(t, 'maxBytes', 0, 9)), (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).every((k) => k === 'maxBytes') && (!('maxBytes' in v) || (v as { maxBytes: number }).maxBytes >= 0)],
    ];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: models.length - 1 }), values, (i, v) => {
        const [name, read, ok] = models[i];
        const bag = bagOf({ [name]: v });
        if (ok(v)) assert.doesNotThrow(() => read(bag));
        else {
          assert.throws(() => read(bag), (e: unknown) => e instanceof InvalidOptionError && e.option === name && Object.is(e.value, v));
        }
      }),
      { numRuns: 1000 },
    );
  });
});
