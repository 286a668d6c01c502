/**
 * parseMsmOptions: defaults, non-object options, unknown keys, every option's accepted and refused
 * values (prototype names as keys and as values, inherited properties never read), message form,
 * and a fast-check property against an independent validity model.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseMsmOptions, describeValue } from '../src/api/options.js';
import { InvalidOptionError, PippinError } from '../src/errors.js';

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
