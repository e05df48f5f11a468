import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './output';

/** The flags a command takes, as node:util parseArgs declares them. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>;
type Options = CommandOptions;

/** Flags every command takes. */
const COMMON = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies Options;

/** What a command reads from its arguments. */
export interface ParsedCommand {
  readonly positionals: readonly string[];
  /** A string flag's value, if given. */
  text(name: string): string | undefined;
  /** Whether a boolean flag was given. */
  flag(name: string): boolean;
  /** Every value of a flag declared `multiple: true` (or the one of a string flag), in order. */
  texts(name: string): string[];
}

/**
 * node:util parseArgs, strict, with `--help`/`--version` added and every parse failure
 * turned into a UsageError (exit code 2). `positionals` bounds how many are allowed.
 */
export function parseCommand(
  args: string[],
  options: Options,
  positionals: { min: number; max: number; names: string },
): ParsedCommand {
  let values: Record<string, unknown>;
  let given: string[];
  try {
    ({ values, positionals: given } = parseArgs({
      args,
      options: { ...options, ...COMMON },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const parsed: ParsedCommand = {
    positionals: given,
    text: (name) => (typeof values[name] === 'string' ? (values[name] as string) : undefined),
    flag: (name) => values[name] === true,
    texts: (name) => {
      const value = values[name];
      if (typeof value === 'string') return [value];
      return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    },
  };
  const wantsInfo = parsed.flag('help') || parsed.flag('version');
  if (!wantsInfo && given.length < positionals.min) {
    throw new UsageError(`Missing ${positionals.names}.`);
  }
  if (given.length > positionals.max) {
    throw new UsageError(`Unexpected argument: ${given.slice(positionals.max).join(' ')}`);
  }
  return parsed;
}

/** A flag's value, else its (non-empty) environment variable's, else the fallback. */
export function flagOrEnv(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: string,
): string;
export function flagOrEnv(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string | undefined;
export function flagOrEnv(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback?: string,
): string | undefined {
  return flag ?? (env[name] || fallback);
}

/** A positive whole number given as a flag value. */
export function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`${flag} must be a positive whole number`);
  return Number(value);
}

/** One of a fixed set of words, or a UsageError listing them. */
export function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`Unknown ${what}: ${value} (one of ${allowed.join(', ')})`);
}
