import type { Logger, LogLevel } from './options';
import type { SecretScrubber } from './secret';

type Level = Exclude<LogLevel, 'silent'>;
export type Log = (level: Level, message: string, fields?: Record<string, unknown>) => void;

const SEVERITY = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 } as const;

/**
 * Wraps the partner's logger: callers pass only secret-free fields (no headers ever),
 * and the text is scrubbed once more against every known secret before it leaves.
 * Lines below `minLevel` are dropped before any work. A logger that throws never
 * breaks a payment.
 */
export function makeLog(
  logger: Logger | undefined,
  minLevel: LogLevel,
  scrubber: SecretScrubber,
): Log {
  if (!logger || minLevel === 'silent') return () => {};
  const floor = SEVERITY[minLevel];
  return (level, message, fields) => {
    if (SEVERITY[level] < floor) return;
    const write = logger[level];
    if (typeof write !== 'function') return;
    try {
      write.call(logger, scrubber.scrub(message), fields && scrubber.scrubValue(fields));
    } catch {
      // A broken logger must not change the outcome of a call.
    }
  };
}

/** Runs a partner's hook; a hook that throws is ignored, like a broken logger. */
export function callHook<T>(hook: ((info: T) => void) | undefined, info: T): void {
  if (!hook) return;
  try {
    hook(info);
  } catch {
    // Observability must not change the outcome of a call.
  }
}
