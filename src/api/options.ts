/**
 * The one parser of MSM options (msm, msmSync, prepare, prepared msm), on the options toolkit
 * (./option-kit.ts, re-exported here): own properties only, every enumerated value checked against
 * a frozen list, every failure an InvalidOptionError naming the entry point, the option, the value
 * and what is allowed. Prototype keys ('toString', '__proto__', …) are plain unknown names here,
 * never table lookups.
 */
import { InvalidOptionError } from '../errors.js';
import type { MsmProgress } from '../msm/progress.js';
import { optionChoice, optionFunction, optionInteger, optionSignal, optionThreads, takeOptionBag } from './option-kit.js';

export * from './option-kit.js';

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

/**
 * Parses the options of an MSM call. `undefined` gives the defaults; anything else must be a
 * plain object whose own keys are known option names (a key whose value is `undefined` counts as
 * absent; `null` is a wrong value). Inherited properties are never read. Returns a frozen object.
 */
export function parseMsmOptions<F extends string, S = unknown>(options: unknown, ctx: OptionContext<F>): ParsedMsmOptions<F, S> {
  const bag = takeOptionBag(options, ctx.entry, OPTION_NAMES);
  const signal = optionSignal(bag, 'signal');
  const out = {
    pointFormat: optionChoice(bag, 'pointFormat', ctx.formats),
    scalarEndian: optionChoice(bag, 'scalarEndian', SCALAR_ENDIANS) ?? 'le',
    validate: optionChoice(bag, 'validate', VALIDATIONS) ?? 'full',
    windowBits: optionInteger(bag, 'windowBits', WINDOW_BITS.min, WINDOW_BITS.max),
    threads: optionThreads(bag, 'threads'),
    onStats: optionFunction<(typeof OPTION_NAMES)[number], (stats: S) => void>(bag, 'onStats'),
    onProgress: optionFunction<(typeof OPTION_NAMES)[number], (progress: MsmProgress) => void>(bag, 'onProgress'),
    signal,
    maxMemoryBytes: optionInteger(bag, 'maxMemoryBytes', MEMORY_BYTES.min, MEMORY_BYTES.max),
    chunkPoints: optionInteger(bag, 'chunkPoints', CHUNK_POINTS.min, CHUNK_POINTS.max),
  };
  // refused only once valid: a bad value is reported as such first
  for (const [option, why] of Object.entries(ctx.unsupported ?? {}) as [keyof typeof out, string][]) {
    if (out[option] !== undefined) throw new InvalidOptionError(`${ctx.entry}: option ${option} is not supported ${why}`, option, out[option]);
  }
  return Object.freeze(out);
}
