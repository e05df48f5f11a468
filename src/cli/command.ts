import type { Io } from './output';

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
