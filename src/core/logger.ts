import type { Logger } from './options';
import type { SecretScrubber } from './secret';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Log = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

/**
 * Wraps the partner's logger: callers pass only secret-free fields (no headers ever),
 * and the text is scrubbed once more against every known secret before it leaves.
 * A logger that throws never breaks a payment.
 */
export function makeLog(logger: Logger | undefined, scrubber: SecretScrubber): Log {
  if (!logger) return () => {};
  return (level, message, fields) => {
    const write = logger[level];
    if (typeof write !== 'function') return;
    try {
      write.call(logger, scrubber.scrub(message), fields && scrubber.scrubValue(fields));
    } catch {
      // A broken logger must not change the outcome of a call.
    }
  };
}
