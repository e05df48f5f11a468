import { isMomoError, isValidationError, isWaitTimeoutError } from '../errors';

/** Exit codes: documented in the README ("Command line"); scripts rely on them. */
export const ExitCode = {
  ok: 0,
  /** A bug or an unexpected failure of the CLI itself. */
  internal: 1,
  /** Unknown command or flag, a missing or malformed value: nothing was sent. */
  usage: 2,
  /** The service answered with an error, or did not answer (connection, timeout). */
  api: 3,
  /** The operation's final status is FAILED. */
  failed: 4,
  /** `--wait` ran out of time before a final status. */
  waitTimeout: 5,
  /** `doctor`: at least one check failed. */
  checkFailed: 6,
} as const;

/** A failure the CLI explains itself (what happened, which MOMO_* variable to change). */
export class CliFailure extends Error {
  override name = 'CliFailure';

  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** Bad usage: printed with the command's usage text, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Where a command writes, and what it reads: the process, or a test's stand-in. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether stderr is a terminal (a live progress line), rather than a file or a pipe. */
  readonly errIsTTY?: boolean;
}

export function processIo(): Io {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    env: process.env,
    errIsTTY: process.stderr.isTTY === true,
  };
}

/** One line of JSON on stdout: what `--json` prints. */
export function printJson(io: Io, value: unknown): void {
  io.out(`${JSON.stringify(value)}\n`);
}

/**
 * Reports an error on stderr and chooses the exit code. SDK errors carry messages that
 * never contain a secret; other errors are reported by message only.
 */
export function reportError(io: Io, error: unknown, usage: string): number {
  const message = error instanceof Error ? error.message : String(error);
  io.err(`momo-partner-sdk: ${message}\n`);
  if (error instanceof UsageError) {
    io.err(`\n${usage}`);
    return ExitCode.usage;
  }
  if (error instanceof CliFailure) return error.exitCode;
  if (isValidationError(error)) return ExitCode.usage;
  if (isWaitTimeoutError(error)) return ExitCode.waitTimeout;
  if (isMomoError(error)) return ExitCode.api;
  return ExitCode.internal;
}
