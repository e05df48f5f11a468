import type { MomoError } from '../errors';

/** Receives SDK log lines. Nothing secret is ever passed to it. */
export interface Logger {
  /** Per-attempt detail (logLevel `debug`). */
  debug?(message: string, fields?: Record<string, unknown>): void;
  /** Notable events, e.g. an earlier attempt that landed. */
  info?(message: string, fields?: Record<string, unknown>): void;
  /** Retries and degraded states. */
  warn?(message: string, fields?: Record<string, unknown>): void;
  /** Failures the SDK could not handle itself. */
  error?(message: string, fields?: Record<string, unknown>): void;
}

/** The least severe level the logger receives; `silent` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** What a hook is told about one HTTP attempt. Never a header, a body or a secret. */
export interface RequestInfo {
  /** `product.method`, e.g. `disbursement.deposit`. */
  operation: string;
  method: string;
  /** The request path, e.g. `/disbursement/v1_0/deposit`. */
  path: string;
  referenceId: string | undefined;
  /** 1 for the first attempt of a call. */
  attempt: number;
}

export interface ResponseInfo extends RequestInfo {
  /** The HTTP status; undefined when no answer came (see `error`). */
  status: number | undefined;
  durationMs: number;
  /** The ConnectionError or TimeoutError of an attempt that got no answer. */
  error?: MomoError;
}

export interface RetryInfo extends RequestInfo {
  /** How long the SDK waits before the next attempt. */
  delayMs: number;
  /** Why the attempt failed. */
  error: MomoError;
}

/**
 * Observes every HTTP attempt, for metrics and tracing. Hooks run synchronously, must
 * not throw (a throwing hook is ignored), and see no secret.
 */
export interface ClientHooks {
  /** Before each HTTP attempt is sent. */
  onRequest?(info: RequestInfo): void;
  /** After each HTTP attempt: its status and duration, or the error of an attempt that got no answer. */
  onResponse?(info: ResponseInfo): void;
  /** Before each retry: why, and how long the SDK waits. */
  onRetry?(info: RetryInfo): void;
}
