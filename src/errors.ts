/**
 * The one error tree. Every error names the operation and, where there is one, the
 * reference id, so the caller can always resume by lookup. Guards work across realms
 * and duplicated copies of the package: they read a brand, not the prototype.
 */
const BRAND = Symbol.for('momo-partner-sdk.error-kinds');
const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

export interface ErrorContext {
  /** Operation name, e.g. `disbursement.deposit`. */
  operation?: string | undefined;
  referenceId?: string | undefined;
  cause?: unknown;
}

export class MomoError extends Error {
  readonly operation: string | undefined;
  readonly referenceId: string | undefined;

  constructor(message: string, context: ErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = new.target.name;
    this.operation = context.operation;
    this.referenceId = context.referenceId;
    const kinds: string[] = [];
    let ctor: { name: string } | null = new.target;
    while (ctor && ctor !== Error) {
      kinds.push(ctor.name);
      ctor = Object.getPrototypeOf(ctor);
    }
    Object.defineProperty(this, BRAND, { value: kinds, enumerable: false });
  }

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

export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. `payee.partyId` or `options.referenceId`. */
  path: string;
  message: string;
}

/** Bad input caught before sending: nothing was sent. */
export class ValidationError extends MomoError {
  readonly issues: readonly ValidationIssue[];
  /** The first offending field. */
  readonly field: string;

  constructor(issues: readonly ValidationIssue[], context: ErrorContext = {}) {
    const summary = issues.map((i) => `${i.path || '(input)'} ${i.message}`).join('; ');
    super(`${prefix(context)}invalid input: ${summary}. Nothing was sent.`, context);
    this.issues = issues;
    this.field = issues[0]?.path ?? '';
  }
}

export interface ApiErrorInit extends ErrorContext {
  status: number;
  code?: string | undefined;
  /** The server's own message. */
  serverMessage?: string | undefined;
  category?: string | undefined;
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
  readonly status: number;
  readonly code: string | undefined;
  /** The standard-style error body's `errorCategory`, when the body had one. */
  readonly category: string | undefined;
  readonly body: unknown;
  /**
   * Diagnostic response headers only (content-type, date, retry-after, request and
   * correlation ids, www-authenticate, rate-limit headers), with secrets scrubbed.
   */
  readonly headers: Record<string, string>;
  /**
   * From the answer's Retry-After (a 429, a 503...), when it had one: the retry loop and
   * `wait()` both wait at least this long before asking again.
   */
  readonly retryAfterMs: number | undefined;

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

export class BadRequestError extends ApiError {}
export class AuthenticationError extends ApiError {}
export class NotFoundError extends ApiError {}
export class ConflictError extends ApiError {}
export class GoneError extends ApiError {}
export class ServerError extends ApiError {}

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
  readonly status: number;
  readonly body: unknown;
  readonly issues: readonly ValidationIssue[];

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
  readonly lastStatus: unknown;

  constructor(
    init: ErrorContext & { referenceId: string; lastStatus: unknown; timeoutMs: number },
  ) {
    super(
      `${prefix(init)}not final after ${init.timeoutMs} ms (referenceId ${init.referenceId}); look it up again later`,
      init,
    );
    this.lastStatus = init.lastStatus;
  }
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

export const isMomoError = guard(MomoError, 'MomoError');
export const isValidationError = guard(ValidationError, 'ValidationError');
export const isApiError = guard(ApiError, 'ApiError');
export const isBadRequestError = guard(BadRequestError, 'BadRequestError');
export const isAuthenticationError = guard(AuthenticationError, 'AuthenticationError');
export const isNotFoundError = guard(NotFoundError, 'NotFoundError');
export const isConflictError = guard(ConflictError, 'ConflictError');
export const isGoneError = guard(GoneError, 'GoneError');
export const isRateLimitError = guard(RateLimitError, 'RateLimitError');
export const isServerError = guard(ServerError, 'ServerError');
export const isConnectionError = guard(ConnectionError, 'ConnectionError');
export const isTimeoutError = guard(TimeoutError, 'TimeoutError');
export const isUnexpectedResponseError = guard(UnexpectedResponseError, 'UnexpectedResponseError');
export const isWaitTimeoutError = guard(WaitTimeoutError, 'WaitTimeoutError');
export const isConsentDeniedError = guard(ConsentDeniedError, 'ConsentDeniedError');
export const isConsentExpiredError = guard(ConsentExpiredError, 'ConsentExpiredError');
