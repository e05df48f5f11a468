import { inspectSymbol } from './inspect';

/**
 * The one error tree. Every error names the operation and, where there is one, the
 * reference id, so the caller can always resume by lookup. Guards work across realms
 * and duplicated copies of the package: they read a brand, not the prototype.
 */
const BRAND = Symbol.for('momo-partner-sdk.error-kinds');

/** What every error is told about where it happened. */
export interface ErrorContext {
  /** Operation name, e.g. `disbursement.deposit`. */
  operation?: string | undefined;
  /** The call's X-Reference-Id, for creating calls and lookups. */
  referenceId?: string | undefined;
  /** The underlying error, kept as `error.cause`. */
  cause?: unknown;
}

/** The root of every error the SDK throws; test for it with `isMomoError`. */
export class MomoError extends Error {
  // The fields of this tree are `declare`d and set by the constructors, in the order they
  // are declared: the same own properties in the same order as class fields, without each
  // name written twice in the bundle (docs/size-and-startup.md).
  /** The operation that failed, e.g. `disbursement.deposit`. */
  declare readonly operation: string | undefined;
  /** The reference id of the call, when it has one: look the operation up by it. */
  declare readonly referenceId: string | undefined;

  constructor(message: string, context: ErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.operation = context.operation;
    this.referenceId = context.referenceId;
    this.name = new.target.name;
    const kinds: string[] = [];
    let ctor: { name: string } | null = new.target;
    while (ctor && ctor !== Error) {
      kinds.push(ctor.name);
      ctor = Object.getPrototypeOf(ctor);
    }
    Object.defineProperty(this, BRAND, { value: kinds, enumerable: false });
  }

  /** The error's fields for logs and JSON, without `cause` and never with a secret. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (value !== undefined && key !== 'cause') out[key] = value;
    }
    return out;
  }

  /** Short, secret-free rendering for `util.inspect` and `console.log`. */
  [inspectSymbol](): string {
    return `${this.stack ?? `${this.name}: ${this.message}`}\n${JSON.stringify(this.toJSON(), null, 2)}`;
  }
}

/** One problem with the input: which field, and what is wrong with it. */
export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. `payee.partyId` or `options.referenceId`. */
  path: string;
  /** What is wrong, e.g. `must be a UUID version 4`. */
  message: string;
}

/** Bad input caught before sending: nothing was sent. */
export class ValidationError extends MomoError {
  /** Every problem found, in input order. */
  declare readonly issues: readonly ValidationIssue[];
  /** The first offending field. */
  declare readonly field: string;

  /**
   * `consequence` ends the message: what the refusal means where it happened (default
   * "Nothing was sent.", for input to a call; an inbound callback says what it was not).
   */
  constructor(
    issues: readonly ValidationIssue[],
    context: ErrorContext = {},
    consequence = 'Nothing was sent.',
  ) {
    const summary = issues.map((i) => `${i.path || '(input)'} ${i.message}`).join('; ');
    super(`${prefix(context)}invalid input: ${summary}. ${consequence}`, context);
    this.issues = issues;
    this.field = issues[0]?.path ?? '';
  }
}

/** What an `ApiError` is made from (the SDK makes them; exported for subclassing in tests). */
export interface ApiErrorInit extends ErrorContext {
  /** The HTTP status of the answer. */
  status: number;
  /** The service's error code (`code`, `errorCode` or `error` of the body). */
  code?: string | undefined;
  /** The server's own message. */
  serverMessage?: string | undefined;
  /** The standard-style body's `errorCategory`. */
  category?: string | undefined;
  /** The answer's body, parsed when it was JSON, scrubbed of secrets. */
  body?: unknown;
  /** Response headers kept on the error (an allow-list: see error-factory). */
  headers?: Record<string, string>;
  /** What to check, appended to the message (e.g. which credentials a 401 refused). */
  hint?: string | undefined;
  /** From the answer's Retry-After, when it had one. */
  retryAfterMs?: number | undefined;
}

/** The service answered with an error status. */
export class ApiError extends MomoError {
  /** The HTTP status of the answer. */
  declare readonly status: number;
  /** The service's error code, e.g. `NOT_ALLOWED_TARGET_ENVIRONMENT` or `invalid_subscription_key`. */
  declare readonly code: string | undefined;
  /** The standard-style error body's `errorCategory`, when the body had one. */
  declare readonly category: string | undefined;
  /** The answer's body, parsed when it was JSON, scrubbed of secrets. */
  declare readonly body: unknown;
  /**
   * Diagnostic response headers only (content-type, date, retry-after, request and
   * correlation ids, www-authenticate, rate-limit headers), with secrets scrubbed.
   */
  declare readonly headers: Record<string, string>;
  /**
   * From the answer's Retry-After (a 429, a 503...), when it had one: the retry loop and
   * `wait()` both wait at least this long before asking again.
   */
  declare readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    const detail = [init.code, init.serverMessage].filter(Boolean).join(': ');
    const ref = init.referenceId ? ` (referenceId ${init.referenceId})` : '';
    const hint = init.hint ? `. ${init.hint}` : '';
    super(`${prefix(init)}HTTP ${init.status}${detail ? ` ${detail}` : ''}${ref}${hint}`, init);
    this.status = init.status;
    this.code = init.code;
    this.category = init.category;
    this.body = init.body;
    this.headers = init.headers ?? {};
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 400: the service refused the request's data. */
export class BadRequestError extends ApiError {}
/** 401: a credential was refused; the message names which one. */
export class AuthenticationError extends ApiError {}
/** 404: no such resource (an unknown reference id, for lookups). */
export class NotFoundError extends ApiError {}
/** 409: the reference id was used before (on a first attempt), or the state forbids the call. */
export class ConflictError extends ApiError {}
/** 410: too late (a delivery notification after its window). */
export class GoneError extends ApiError {}
/** 5xx: the service failed; retried unless it is a business refusal (see the message). */
export class ServerError extends ApiError {}

/** 429: too many requests, or a delivery notification already sent. */
export class RateLimitError extends ApiError {
  /** From Retry-After, when the server sent one. */
  declare readonly retryAfterMs: number | undefined;
}

/** No response arrived (network failure); `.cause` says why. */
export class ConnectionError extends MomoError {}

/** No response arrived within the per-attempt timeout. */
export class TimeoutError extends ConnectionError {}

/** A response arrived but its body is not of the documented shape. */
export class UnexpectedResponseError extends MomoError {
  /** The HTTP status of the answer (a 2xx). */
  declare readonly status: number;
  /** The body as received, scrubbed of secrets. */
  declare readonly body: unknown;
  /** How the body differs from the documented shape. */
  declare readonly issues: readonly ValidationIssue[];

  constructor(
    init: ErrorContext & { status: number; body: unknown; issues: readonly ValidationIssue[] },
  ) {
    const summary = init.issues.map((i) => `${i.path || '(body)'} ${i.message}`).join('; ');
    super(`${prefix(init)}unexpected response (HTTP ${init.status}): ${summary}`, init);
    this.status = init.status;
    this.body = init.body;
    this.issues = init.issues;
  }
}

/** `wait()` reached its deadline before the operation became final. */
export class WaitTimeoutError extends MomoError {
  /**
   * The last status seen (e.g. `'PENDING'`, or `'authorization_pending'` for a consent
   * wait); undefined when no lookup answered before the deadline.
   */
  declare readonly lastStatus: string | undefined;
  /** The last looked-up result, whose `status` is `lastStatus`; undefined for consent waits. */
  declare readonly lastResult: WaitTimeoutLastResult | undefined;

  constructor(
    init: ErrorContext & {
      referenceId: string;
      lastStatus?: string | undefined;
      lastResult?: WaitTimeoutLastResult | undefined;
      timeoutMs: number;
    },
  ) {
    const last = init.lastStatus === undefined ? '' : `, last status ${init.lastStatus}`;
    super(
      `${prefix(init)}not final after ${init.timeoutMs} ms (referenceId ${init.referenceId}${last}); look it up again later`,
      init,
    );
    this.lastStatus = init.lastStatus;
    this.lastResult = init.lastResult;
  }
}

/**
 * The last result a timed-out wait saw: the operation's own lookup result (a
 * `DepositResult`, a `RequestToPayResult`...), typed here by its `status` alone.
 */
export interface WaitTimeoutLastResult {
  readonly status: string;
}

/** The account holder refused the consent request (CIBA `access_denied`). */
export class ConsentDeniedError extends MomoError {}

/** The consent request expired before the account holder answered (`expired_token`). */
export class ConsentExpiredError extends MomoError {}

function prefix(context: ErrorContext): string {
  return context.operation ? `${context.operation}: ` : '';
}

function hasKind(value: unknown, kind: string): boolean {
  if (value === null || typeof value !== 'object') return false;
  const kinds = (value as { [BRAND]?: unknown })[BRAND];
  return Array.isArray(kinds) && kinds.includes(kind);
}

/**
 * A guard, which also pins the class's name: minifiers rename classes, and `error.name`,
 * `constructor.name` and the brand the guards read must stay the documented names.
 */
function guard<T>(ctor: abstract new (...args: never[]) => T, kind: string) {
  Object.defineProperty(ctor, 'name', { value: kind });
  return (value: unknown): value is T => hasKind(value, kind);
}

/** True for any error of this SDK, across realms and duplicated installs. */
export const isMomoError = guard(MomoError, 'MomoError');
/** True for a `ValidationError` (bad input, nothing sent), across realms and duplicated installs. */
export const isValidationError = guard(ValidationError, 'ValidationError');
/** True for an `ApiError` (any error status from the service), across realms and duplicated installs. */
export const isApiError = guard(ApiError, 'ApiError');
/** True for a `BadRequestError` (400), across realms and duplicated installs. */
export const isBadRequestError = guard(BadRequestError, 'BadRequestError');
/** True for an `AuthenticationError` (401), across realms and duplicated installs. */
export const isAuthenticationError = guard(AuthenticationError, 'AuthenticationError');
/** True for a `NotFoundError` (404), across realms and duplicated installs. */
export const isNotFoundError = guard(NotFoundError, 'NotFoundError');
/** True for a `ConflictError` (409), across realms and duplicated installs. */
export const isConflictError = guard(ConflictError, 'ConflictError');
/** True for a `GoneError` (410), across realms and duplicated installs. */
export const isGoneError = guard(GoneError, 'GoneError');
/** True for a `RateLimitError` (429), across realms and duplicated installs. */
export const isRateLimitError = guard(RateLimitError, 'RateLimitError');
/** True for a `ServerError` (5xx), across realms and duplicated installs. */
export const isServerError = guard(ServerError, 'ServerError');
/** True for a `ConnectionError` (no answer; `TimeoutError` included), across realms and duplicated installs. */
export const isConnectionError = guard(ConnectionError, 'ConnectionError');
/** True for a `TimeoutError` (no complete answer within the attempt timeout), across realms and duplicated installs. */
export const isTimeoutError = guard(TimeoutError, 'TimeoutError');
/** True for an `UnexpectedResponseError` (a body not of the documented shape), across realms and duplicated installs. */
export const isUnexpectedResponseError = guard(UnexpectedResponseError, 'UnexpectedResponseError');
/** True for a `WaitTimeoutError` (`wait()` reached its deadline), across realms and duplicated installs. */
export const isWaitTimeoutError = guard(WaitTimeoutError, 'WaitTimeoutError');
/** True for a `ConsentDeniedError` (the account holder said no), across realms and duplicated installs. */
export const isConsentDeniedError = guard(ConsentDeniedError, 'ConsentDeniedError');
/** True for a `ConsentExpiredError` (no answer before the consent request expired), across realms and duplicated installs. */
export const isConsentExpiredError = guard(ConsentExpiredError, 'ConsentExpiredError');
