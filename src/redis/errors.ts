import { MomoError, ValidationError } from 'momo-partner-sdk';

/**
 * Redis cannot be reached: not connected, timed out, a cluster without a quorum. The SDK
 * carries on with in-process state and logs one warning per component until it is back.
 * A MomoError (`isMomoError` is true), named by no operation: it is no call's failure.
 */
export class RedisUnavailableError extends MomoError {
  override readonly name = 'RedisUnavailableError';
}

/**
 * Redis answered and refused the command (`CROSSSLOT`, `WRONGTYPE`, `NOAUTH`, `NOPERM`,
 * `OOM`...): a configuration to fix, not an outage. The SDK still keeps the payment going
 * in memory, but reports it as an error, again and again, and `momo.health()` says
 * `failing`. The message holds the command and the error code only (never keys or values).
 */
export class RedisCommandError extends MomoError {
  override readonly name = 'RedisCommandError';
  /** The first word of Redis' answer, e.g. `CROSSSLOT`. */
  readonly code: string;
  readonly command: string;

  constructor(command: string, code: string) {
    super(`Redis refused ${command}: ${code}`);
    this.command = command;
    this.code = code;
  }
}

// Pinned as the SDK's own error classes are: a partner's minifier may rename classes, and
// the brand that `isMomoError` reads is made of the class names.
Object.defineProperty(RedisUnavailableError, 'name', { value: 'RedisUnavailableError' });
Object.defineProperty(RedisCommandError, 'name', { value: 'RedisCommandError' });

/** Reply codes that mean "try again later", not "wrong": an outage, not a refusal. */
const TRANSIENT = new Set(['CLUSTERDOWN', 'LOADING', 'TRYAGAIN', 'MASTERDOWN', 'BUSY']);
const REPLY_CLASSES = new Set(['ErrorReply', 'SimpleError', 'BlobError', 'ReplyError']);

/** Any failure of a command, as one of the two errors above (the driver's detail dropped). */
export function toRedisError(error: unknown, command: string): Error {
  if (error instanceof RedisUnavailableError || error instanceof RedisCommandError) return error;
  const isReply =
    error instanceof Error &&
    (REPLY_CLASSES.has(error.constructor.name) || REPLY_CLASSES.has(error.name));
  if (!isReply) {
    const code = (error as { code?: unknown } | null)?.code;
    const why = typeof code === 'string' ? code : error instanceof Error ? error.name : 'error';
    return new RedisUnavailableError(`Redis could not run ${command} (${why})`);
  }
  const code = /^[A-Z][A-Z_-]*/.exec(error.message)?.[0] ?? 'ERR';
  if (TRANSIENT.has(code)) return new RedisUnavailableError(`Redis is unavailable (${code})`);
  return new RedisCommandError(command, code);
}

/** A ValidationError for one bad option of the package. */
export function optionError(path: string, message: string): ValidationError {
  return new ValidationError([{ path, message }], { operation: 'redis' });
}
