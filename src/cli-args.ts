/**
 * Command-line flags for the CLI and the benchmark scripts: `node:util` parseArgs in strict mode,
 * plus value checks. Every problem becomes a UsageError, a one-line message naming the flag, the
 * value and what is allowed; `runCli` prints it with the usage and exits with code 2.
 */
import { parseArgs } from 'node:util';
import { integerRangeText, isIntegerIn } from './api/option-kit.js';

/** A bad command line (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `--help` (or `-h`) was given: `runCli` prints the usage and exits with 0. */
export class HelpRequested extends Error {
  override name = 'HelpRequested';
}

/** Flag declarations as parseArgs takes them (no defaults: the checkers below apply those). */
export type FlagSpecs = Record<string, { type: 'string' | 'boolean'; short?: string }>;
/** What was given: strings, or true for booleans; absent flags are undefined. */
export interface ParsedFlags<O extends FlagSpecs> {
  values: { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };
  positionals: string[];
}

/**
 * `parseArgs` with strict checking; its errors become UsageErrors that name the flag. Every command
 * also takes `--help` / `-h`, which throws HelpRequested (runCli prints the usage).
 */
export function parseFlags<const O extends FlagSpecs>(argv: string[], options: O, allowPositionals = false): ParsedFlags<O> {
  const withHelp = { ...options, help: { type: 'boolean', short: 'h' } } as const;
  let parsed: ParsedFlags<O> & { values: { help?: boolean } };
  try {
    parsed = parseArgs({ args: argv, options: withHelp, strict: true, allowPositionals }) as typeof parsed;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) throw e;
    const message = (e as Error).message;
    const flag = /'(-[^' ]*)/.exec(message)?.[1] ?? '';
    const known = Object.keys(options).map((k) => `--${k}`).join(', ');
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown flag ${flag} (flags: ${known})`);
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      throw new UsageError(`unexpected argument '${/'([^']*)'/.exec(message)?.[1] ?? ''}' (flags: ${known})`);
    }
    if (/does not take an argument/.test(message)) throw new UsageError(`${flag} takes no value`);
    if (/ambiguous/.test(message)) throw new UsageError(`${flag} needs a value (one starting with '-' is written ${flag}=VALUE)`);
    if (/missing/.test(message)) throw new UsageError(`${flag} needs a value`);
    throw new UsageError(message.split('\n')[0]);
  }
  if (parsed.values.help) throw new HelpRequested();
  return parsed;
}

/** A decimal integer in [min, max] (no sign, no exponent, no spaces), or `dflt` when absent. */
export function intFlag(flag: string, raw: string | undefined, dflt: number, min: number, max: number): number {
  if (raw === undefined) return dflt;
  const v = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(v) || !isIntegerIn(v, min, max)) throw new UsageError(`--${flag}: '${raw}' is not ${integerRangeText(min, max)}`);
  return v;
}

/** Comma-separated integers, each in [min, max], duplicates dropped. */
export function intListFlag(flag: string, raw: string | undefined, dflt: readonly number[], min: number, max: number): number[] {
  if (raw === undefined) return [...dflt];
  const items = raw.split(',').map((s) => s.trim());
  const values = items.map((s) => Number(s));
  if (items.some((s, i) => !/^\d+$/.test(s) || !Number.isSafeInteger(values[i]) || !isIntegerIn(values[i], min, max))) {
    throw new UsageError(`--${flag}: '${raw}' is not a list of integers in ${min}…${max} (comma-separated)`);
  }
  return [...new Set(values)];
}

/** One of `allowed`, or `dflt` when absent. */
export function choiceFlag<T extends string>(flag: string, raw: string | undefined, dflt: T, allowed: readonly T[]): T {
  if (raw === undefined) return dflt;
  if (!(allowed as readonly string[]).includes(raw)) throw new UsageError(`--${flag}: '${raw}' is not one of ${allowed.join(', ')}`);
  return raw as T;
}

/** Comma-separated non-empty names (each one of `allowed` when given), duplicates dropped. */
export function listFlag<T extends string = string>(flag: string, raw: string | undefined, dflt: readonly T[], allowed?: readonly T[]): T[] {
  if (raw === undefined) return [...dflt];
  const items = raw.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new UsageError(`--${flag}: '${raw}' has an empty item`);
  const bad = allowed && items.find((s) => !(allowed as readonly string[]).includes(s));
  if (bad !== undefined) throw new UsageError(`--${flag}: '${bad}' is not one of ${allowed!.join(', ')}`);
  return [...new Set(items)] as T[];
}

/**
 * Runs `main`; a number it returns is the exit code (process.exit). A UsageError prints
 * `name: message` and the usage to stderr and exits with 2; any other error exits with 1 (its
 * stack when `stack`, else one line).
 */
export function runCli(name: string, usage: string, main: () => Promise<number | void>, stack = false): void {
  main().then(
    (code) => {
      if (typeof code === 'number') process.exit(code);
    },
    (e: unknown) => {
      if (e instanceof HelpRequested) {
        console.log(usage);
        process.exit(0);
      }
      if (e instanceof UsageError) {
        console.error(`${name}: ${e.message}\n${usage}`);
        process.exit(2);
      }
      console.error(e instanceof Error ? (stack ? (e.stack ?? e.message) : `${e.name}: ${e.message}`) : e);
      process.exit(1);
    },
  );
}
