/**
 * The options toolkit every entry parses its options with, so that one mistake gets one
 * InvalidOptionError everywhere: `takeOptionBag` checks the bag (an object or undefined; own keys
 * only, read once; unknown keys refused naming the known ones; a key whose value is `undefined`
 * counts as absent), and the `option…` readers check one value each. `null` is a wrong value for
 * every option, never "the default". Messages read `<entry>: option <name> must be <what is
 * allowed>, got <value>`.
 */
import { InvalidOptionError } from '../errors.js';

/** Most threads any entry takes (`threads` options, the worker pool). */
export const MAX_THREADS = 256;

const MAX_SHOWN = 60;

function clip(s: string): string {
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN - 1)}…` : s;
}

/** A short, bounded description of any value for messages; never throws. */
export function describeValue(v: unknown): string {
  try {
    return describe(v);
  } catch {
    return typeof v === 'function' ? 'a function' : 'an object';
  }
}

function describe(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return `${JSON.stringify(clip(v))} (a string)`;
    case 'number':
      return Object.is(v, -0) ? '-0' : String(v);
    case 'bigint':
      return `${clip(v.toString())}n (a bigint)`;
    case 'boolean':
    case 'undefined':
      return String(v);
    case 'symbol':
      return `${clip(v.toString())} (a symbol)`;
    case 'function': {
      const name = Object.getOwnPropertyDescriptor(v, 'name')?.value;
      return typeof name === 'string' && name ? `function ${clip(name)}` : 'a function';
    }
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of length ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${Object.prototype.toString.call(v).slice(8, -1)}`;
  const keys = Reflect.ownKeys(v as object);
  const shown = keys.slice(0, 4).map((k) => `${describeKey(k)}: ${brief(Object.getOwnPropertyDescriptor(v, k))}`);
  return `${clip(`{${shown.join(', ')}${keys.length > 4 ? ', …' : ''}}`)} (an object)`;
}

/** A property's value inside an object description: primitives shown, the rest elided; getters are not called. */
function brief(d: PropertyDescriptor | undefined): string {
  if (!d || !('value' in d)) return '(getter)';
  const v: unknown = d.value;
  if (typeof v === 'string') return JSON.stringify(clip(v));
  if (typeof v === 'bigint') return `${clip(v.toString())}n`;
  if (typeof v === 'function') return 'ƒ';
  if (typeof v === 'symbol') return v.toString();
  if (v === null || typeof v !== 'object') return String(v);
  return Array.isArray(v) ? '[…]' : '{…}';
}

/** A property key for messages: strings quoted, symbols as `Symbol(…)`, both bounded. */
export function describeKey(k: string | symbol): string {
  return typeof k === 'symbol' ? clip(k.toString()) : clip(JSON.stringify(k));
}

/** Strings for messages: `"a", "b"`. */
export function listChoices(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/** `v` is a number, an integer, in min…max. */
export function isIntegerIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

/** What `isIntegerIn` allows, for messages. */
export function integerRangeText(min: number, max: number): string {
  return `an integer in ${min}…${max}`;
}

/** A plain object: not null, an array, a function, a typed array, a Map, a Date, … (class instances count). */
export function isPlainObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null && Object.prototype.toString.call(v) === '[object Object]';
}

/**
 * The given options of one call: own keys only, each read once, those whose value is `undefined`
 * left out. Nested bags (`{ maxBytes }`-style option values) report errors as their outer option.
 */
export interface OptionBag<K extends string = string> {
  /** names the call in messages, e.g. 'installSnarkjsEngine' */
  readonly entry: string;
  /** the known option names, in the order messages list them */
  readonly known: readonly K[];
  /** the given values (never undefined) */
  readonly values: ReadonlyMap<K, unknown>;
  /** for a nested bag: the outer option, its whole value, and the path prefix in messages ('tables.') */
  readonly outer?: { readonly option: string; readonly value: unknown; readonly path: string };
}

/**
 * Checks an options bag: `undefined` (nothing given) or a plain object whose own keys, symbols and
 * non-enumerable ones included, are all in `known` (a key whose value is undefined counts as absent,
 * known or not). Inherited properties are never read.
 */
export function takeOptionBag<K extends string>(options: unknown, entry: string, known: readonly K[]): OptionBag<K> {
  const values = new Map<K, unknown>();
  if (options === undefined) return { entry, known, values };
  if (!isPlainObject(options)) {
    throw new InvalidOptionError(`${entry}: options must be an object or undefined, got ${describeValue(options)}`, 'options', options);
  }
  readKeys(options, known, values, (key, value) => new InvalidOptionError(`${entry}: unknown option ${describeKey(key)} (known: ${known.join(', ')})`, String(key), value));
  return { entry, known, values };
}

function readKeys<K extends string>(o: object, known: readonly K[], into: Map<K, unknown>, unknown: (key: string | symbol, value: unknown) => InvalidOptionError): void {
  for (const key of Reflect.ownKeys(o)) {
    const value = (o as Record<string | symbol, unknown>)[key];
    if (value === undefined) continue;
    if (typeof key !== 'string' || !(known as readonly string[]).includes(key)) throw unknown(key, value);
    into.set(key as K, value);
  }
}

/** The InvalidOptionError for a wrong value of `name`: `<entry>: option <name> must be <allowed>, got <value>`. */
export function optionError(bag: OptionBag, name: string, value: unknown, allowed: string): InvalidOptionError {
  const hint = value === null ? ' (null is not a default: leave the option out)' : '';
  const path = `${bag.outer?.path ?? ''}${name}`;
  const message = `${bag.entry}: option ${path} must be ${allowed}, got ${describeValue(value)}${hint}`;
  return bag.outer ? new InvalidOptionError(message, bag.outer.option, bag.outer.value) : new InvalidOptionError(message, name, value);
}

/** The value given for `name` (undefined when absent), unchecked: for checks no reader below makes. */
export function optionValue<K extends string>(bag: OptionBag<K>, name: K): unknown {
  return bag.values.get(name);
}

/** An integer in min…max (type number), or undefined when absent. */
export function optionInteger<K extends string>(bag: OptionBag<K>, name: K, min: number, max: number): number | undefined {
  const v = bag.values.get(name);
  if (v === undefined || isIntegerIn(v, min, max)) return v;
  throw optionError(bag, name, v, integerRangeText(min, max));
}

/** `threads`: an integer in 1…MAX_THREADS, or undefined when absent. */
export function optionThreads<K extends string>(bag: OptionBag<K>, name: K): number | undefined {
  return optionInteger(bag, name, 1, MAX_THREADS);
}

/** `true` or `false`, or undefined when absent. */
export function optionBoolean<K extends string>(bag: OptionBag<K>, name: K): boolean | undefined {
  const v = bag.values.get(name);
  if (v === undefined || typeof v === 'boolean') return v;
  throw optionError(bag, name, v, 'true or false');
}

/** Exactly one of `allowed`, or undefined when absent. */
export function optionChoice<K extends string, T extends string>(bag: OptionBag<K>, name: K, allowed: readonly T[]): T | undefined {
  const v = bag.values.get(name);
  if (v === undefined || (typeof v === 'string' && (allowed as readonly string[]).includes(v))) return v as T | undefined;
  throw optionError(bag, name, v, `one of ${listChoices(allowed)}`);
}

/** A non-empty array of distinct members of `allowed` (a frozen copy), or undefined when absent. */
export function optionChoiceList<K extends string, T extends string>(bag: OptionBag<K>, name: K, allowed: readonly T[]): readonly T[] | undefined {
  const v = bag.values.get(name);
  if (v === undefined) return undefined;
  const items = Array.isArray(v) ? [...(v as unknown[])] : [];
  if (items.length === 0 || items.some((c) => typeof c !== 'string' || !(allowed as readonly string[]).includes(c)) || new Set(items).size !== items.length) {
    throw optionError(bag, name, v, `a non-empty array of distinct names among ${listChoices(allowed)}`);
  }
  return Object.freeze(items as T[]);
}

/** An AbortSignal (kept by reference; anything with its `aborted`, `addEventListener` and `throwIfAborted`), or undefined when absent. */
export function optionSignal<K extends string>(bag: OptionBag<K>, name: K): AbortSignal | undefined {
  const v = bag.values.get(name);
  const sig = v as { aborted?: unknown; addEventListener?: unknown; throwIfAborted?: unknown } | undefined;
  if (v === undefined || (typeof v === 'object' && v !== null && typeof sig!.aborted === 'boolean' && typeof sig!.addEventListener === 'function' && typeof sig!.throwIfAborted === 'function')) return v as AbortSignal | undefined;
  throw optionError(bag, name, v, 'an AbortSignal');
}

/** A function (kept by reference), or undefined when absent. */
export function optionFunction<K extends string, F extends (...args: never[]) => unknown>(bag: OptionBag<K>, name: K): F | undefined {
  const v = bag.values.get(name);
  if (v === undefined || typeof v === 'function') return v as F | undefined;
  throw optionError(bag, name, v, 'a function');
}

/**
 * An object option with exact keys (`{ maxBytes }`-style): a plain object whose own keys are all in
 * `keys`, read by `read` from a nested bag whose errors name the outer option; undefined when absent.
 * `allowed` describes the whole option in messages (say so when it also takes other forms).
 */
export function optionObject<K extends string, I extends string, T>(bag: OptionBag<K>, name: K, keys: readonly I[], read: (inner: OptionBag<I>) => T, allowed = `an object with keys ${keys.join(', ')}`): T | undefined {
  const v = bag.values.get(name);
  if (v === undefined) return undefined;
  if (!isPlainObject(v)) throw optionError(bag, name, v, allowed);
  const outer = bag.outer ?? { option: name, value: v, path: '' };
  const inner: OptionBag<I> = { entry: bag.entry, known: keys, values: new Map(), outer: { option: outer.option, value: outer.value, path: `${outer.path}${name}.` } };
  readKeys(v, keys, inner.values as Map<I, unknown>, (key) => optionError(bag, name, v, `${allowed} (unknown key ${describeKey(key)})`));
  return read(inner);
}
