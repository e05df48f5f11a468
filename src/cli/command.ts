import type { MomoClient } from '../client';
import type { ProductName } from '../core/options';
import { type CommandOptions, type ParsedCommand, parseCommand } from './args';
import {
  CONNECTION_FLAGS,
  clientFromEnv,
  connectionFromEnv,
  productArg,
  refusedCredential,
} from './env';
import { environmentFix, isEnvironmentRefusal } from './environment';
import { CliFailure, ExitCode, type Io, printJson } from './output';
import { tenantEnv } from './tenants-file';

/** One CLI command: its help text and what it does. Returns the exit code. */
export interface Command {
  /** As typed: `simulator`, `sandbox provision`, `token`... */
  readonly name: string;
  /** One line for the global help. */
  readonly summary: string;
  /** The full `--help` text (also printed after a usage error). */
  readonly usage: string;
  run(args: string[], io: Io): Promise<number>;
}

/** A command as `defineCommand` takes it: what it accepts, and what it does with it. */
export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Its own flags; `--help` and `--version` are added. */
  readonly flags?: CommandOptions;
  /** Takes `--base-url`, `--target-environment` and `--json` (an API command). */
  readonly connection?: boolean;
  /** How many positionals it takes, and their names for the "Missing ..." message. */
  readonly positionals?: { min: number; max: number; names: string };
  run(command: CommandRun): Promise<number>;
}

/**
 * What a command runs with: its arguments, parsed (a bad one was already a UsageError,
 * exit code 2), and the set-up the API commands share, each made when first asked for.
 */
export interface CommandRun {
  readonly args: ParsedCommand;
  readonly io: Io;
  /** `--json`: one JSON object on stdout, and no progress on stderr. */
  readonly json: boolean;
  /** The product named by positional `index` (default the first), or a UsageError. */
  product(index?: number): ProductName;
  /** Where requests go: a flag, else its MOMO_* variable, else the default. */
  connection(): { baseUrl: string; targetEnvironment: string };
  /**
   * A client for `product` (or for each of several), from the MOMO_* variables (a
   * UsageError names what is not set).
   */
  client(product: ProductName | readonly ProductName[]): MomoClient;
  /** `--json`: `value` as one JSON line; otherwise the human `text`. */
  print(value: unknown, text: string): void;
  /** A line on stderr (what the command is doing), unless `--json`. */
  progress(text: string): void;
  /**
   * A refused credential or target environment as a CliFailure (exit code 3) that names
   * the MOMO_* variable to change; any other error as it is.
   */
  explain(error: unknown, product: ProductName): unknown;
}

const NO_POSITIONALS = { min: 0, max: 0, names: '' };

/** A command from its spec: the arguments parsed, then `run` with them. */
export function defineCommand(spec: CommandSpec): Command {
  const { name, summary, usage } = spec;
  const flags = spec.connection ? { ...CONNECTION_FLAGS, ...spec.flags } : (spec.flags ?? {});
  return {
    name,
    summary,
    usage,
    async run(argv, io) {
      const args = parseCommand(argv, flags, spec.positionals ?? NO_POSITIONALS);
      return spec.run(commandRun(args, io));
    },
  };
}

function commandRun(args: ParsedCommand, given: Io): CommandRun {
  // `--tenant`: the tenant's credential set in place of the environment's MOMO_* ones.
  const io = args.text('tenant') === undefined ? given : { ...given, env: tenantEnv(given, args) };
  const json = args.flag('json');
  const connection = () => connectionFromEnv(io, args);
  return {
    args,
    io,
    json,
    product: (index = 0) => productArg(args.positionals[index] ?? ''),
    connection,
    client: (product) => clientFromEnv(io, args, product),
    print: (value, text) => (json ? printJson(io, value) : io.out(text)),
    progress: (text) => {
      if (!json) io.err(`${text}\n`);
    },
    explain(error, product) {
      const refused = refusedCredential(error, io.env, product);
      if (refused) return new CliFailure(refused, ExitCode.api);
      if (!isEnvironmentRefusal(error)) return error;
      const fix = environmentFix(connection().targetEnvironment);
      return new CliFailure(`${product}: ${fix}`, ExitCode.api);
    },
  };
}
