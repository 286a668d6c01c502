/**
 * The one parser of MSM options (msm, msmSync): own properties only, every enumerated value
 * checked against a frozen list, every failure an InvalidOptionError naming the entry point, the
 * option, the value and what is allowed. Prototype keys ('toString', '__proto__', …) are plain
 * unknown names here, never table lookups.
 */
import { InvalidOptionError } from '../errors.js';
import type { MsmProgress } from '../msm/progress.js';

export const VALIDATIONS = Object.freeze(['full', 'on-curve', 'none'] as const);
/**
 * How much of each input point is checked: `'full'` (on the curve and in the prime-order subgroup;
 * the default), `'on-curve'` or `'none'` (docs/validation.md).
 *
 * @example
 * ```ts
 * import { bls12_381, type Validation } from 'pippin';
 * await bls12_381.init();
 * const validate: Validation = 'on-curve';
 * console.log(bls12_381.g1.msmSync([{ x: 0n, y: 2n }], [3n], { validate }).infinity); // → true
 * ```
 */
export type Validation = (typeof VALIDATIONS)[number];
export const SCALAR_ENDIANS = Object.freeze(['le', 'be'] as const);
export type ScalarEndian = (typeof SCALAR_ENDIANS)[number];
export const OPTION_NAMES = Object.freeze(['pointFormat', 'scalarEndian', 'validate', 'windowBits', 'threads', 'onStats', 'onProgress', 'signal', 'maxMemoryBytes', 'chunkPoints'] as const);

export const WINDOW_BITS = Object.freeze({ min: 2, max: 16 });
export { MAX_THREADS } from '../runtime/pool.js';
import { MAX_THREADS } from '../runtime/pool.js';
/** maxMemoryBytes: 1 MiB … 4 GiB (the Wasm32 limit) */
export const MEMORY_BYTES = Object.freeze({ min: 2 ** 20, max: 2 ** 32 });
/** chunkPoints: 1 … 2^24 */
export const CHUNK_POINTS = Object.freeze({ min: 1, max: 2 ** 24 });

/** Options after parsing: defaults filled in, `undefined` where the library chooses. */
export interface ParsedMsmOptions<F extends string, S = unknown> {
  readonly pointFormat: F | undefined;
  readonly scalarEndian: ScalarEndian;
  readonly validate: Validation;
  readonly windowBits: number | undefined;
  readonly threads: number | undefined;
  readonly onStats: ((stats: S) => void) | undefined;
  readonly onProgress: ((progress: MsmProgress) => void) | undefined;
  readonly signal: AbortSignal | undefined;
  readonly maxMemoryBytes: number | undefined;
  readonly chunkPoints: number | undefined;
}

export interface OptionContext<F extends string> {
  /** the point formats of the curve */
  formats: readonly F[];
  /** names the call in messages, e.g. 'bls12-381.g1.msm' */
  entry: string;
  /** options this entry does not implement, with the reason: given (not undefined), they raise InvalidOptionError */
  unsupported?: Partial<Record<(typeof OPTION_NAMES)[number], string>>;
}

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

function describeKey(k: string | symbol): string {
  return typeof k === 'symbol' ? clip(k.toString()) : clip(JSON.stringify(k));
}

const listed = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');

/** `value` if it is one of `allowed` (exact string match), else InvalidOptionError. */
export function parseChoice<T extends string>(value: unknown, allowed: readonly T[], option: string, entry: string): T {
  if (typeof value === 'string' && allowed.includes(value as T)) return value as T;
  throw new InvalidOptionError(`${entry}: option ${option} must be one of ${listed(allowed)}, got ${describeValue(value)}`, option, value);
}

function parseInteger(value: unknown, min: number, max: number, option: string, entry: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  throw new InvalidOptionError(`${entry}: option ${option} must be an integer in ${min}…${max}, got ${describeValue(value)}`, option, value);
}

/**
 * Parses the options of an MSM call. `undefined` gives the defaults; anything else must be a
 * non-array object whose own keys are known option names (a key whose value is `undefined`
 * counts as absent). Inherited properties are never read. Returns a frozen object.
 */
export function parseMsmOptions<F extends string, S = unknown>(options: unknown, ctx: OptionContext<F>): ParsedMsmOptions<F, S> {
  const { entry } = ctx;
  const out: { -readonly [K in keyof ParsedMsmOptions<F, S>]: ParsedMsmOptions<F, S>[K] } = {
    pointFormat: undefined,
    scalarEndian: 'le',
    validate: 'full',
    windowBits: undefined,
    threads: undefined,
    onStats: undefined,
    onProgress: undefined,
    signal: undefined,
    maxMemoryBytes: undefined,
    chunkPoints: undefined,
  };
  if (options === undefined) return Object.freeze(out);
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidOptionError(`${entry}: options must be an object or undefined, got ${describeValue(options)}`, 'options', options);
  }
  const o = options as Record<string | symbol, unknown>;
  for (const key of Reflect.ownKeys(o)) {
    const value = o[key];
    if (value === undefined) continue;
    switch (typeof key === 'string' && (OPTION_NAMES as readonly string[]).includes(key) ? key : undefined) {
      case 'pointFormat':
        out.pointFormat = parseChoice(value, ctx.formats, 'pointFormat', entry);
        break;
      case 'scalarEndian':
        out.scalarEndian = parseChoice(value, SCALAR_ENDIANS, 'scalarEndian', entry);
        break;
      case 'validate':
        out.validate = parseChoice(value, VALIDATIONS, 'validate', entry);
        break;
      case 'windowBits':
        out.windowBits = parseInteger(value, WINDOW_BITS.min, WINDOW_BITS.max, 'windowBits', entry);
        break;
      case 'threads':
        out.threads = parseInteger(value, 1, MAX_THREADS, 'threads', entry);
        break;
      case 'onStats':
        if (typeof value !== 'function') {
          throw new InvalidOptionError(`${entry}: option onStats must be a function, got ${describeValue(value)}`, 'onStats', value);
        }
        out.onStats = value as (stats: S) => void;
        break;
      case 'maxMemoryBytes':
        out.maxMemoryBytes = parseInteger(value, MEMORY_BYTES.min, MEMORY_BYTES.max, 'maxMemoryBytes', entry);
        break;
      case 'chunkPoints':
        out.chunkPoints = parseInteger(value, CHUNK_POINTS.min, CHUNK_POINTS.max, 'chunkPoints', entry);
        break;
      case 'onProgress':
        if (typeof value !== 'function') {
          throw new InvalidOptionError(`${entry}: option onProgress must be a function, got ${describeValue(value)}`, 'onProgress', value);
        }
        out.onProgress = value as (progress: MsmProgress) => void;
        break;
      case 'signal': {
        const sig = value as { aborted?: unknown; addEventListener?: unknown; throwIfAborted?: unknown };
        if (typeof value !== 'object' || value === null || typeof sig.aborted !== 'boolean' || typeof sig.addEventListener !== 'function' || typeof sig.throwIfAborted !== 'function') {
          throw new InvalidOptionError(`${entry}: option signal must be an AbortSignal, got ${describeValue(value)}`, 'signal', value);
        }
        out.signal = value as AbortSignal;
        break;
      }
      default:
        throw new InvalidOptionError(`${entry}: unknown option ${describeKey(key)} (known: ${OPTION_NAMES.join(', ')})`, String(key), value);
    }
  }
  // refused only once valid: a bad value is reported as such first
  for (const [option, why] of Object.entries(ctx.unsupported ?? {}) as [keyof typeof out, string][]) {
    if (out[option] !== undefined) throw new InvalidOptionError(`${entry}: option ${option} is not supported ${why}`, option, out[option]);
  }
  return Object.freeze(out);
}
