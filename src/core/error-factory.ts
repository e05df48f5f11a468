import {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  GoneError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnexpectedResponseError,
  type ValidationIssue,
} from '../errors';
import { explainRefusal, refusedCredentials, type SentValues } from './business-refusal';
import type { ResponseHeaders } from './raw-headers';
import { parseRetryAfter } from './time';

/** Removes every secret the client knows from a text (the client's SecretScrubber). */
export interface Scrubber {
  scrub(text: string): string;
  scrubValue<T>(value: T): T;
}

export interface ErrorResponse {
  status: number;
  body: unknown;
  headers: ResponseHeaders;
  operation: string;
  referenceId?: string | undefined;
  /** Applied to the kept header values (the body is the caller's to scrub). */
  scrubber?: Scrubber | undefined;
  /** What was sent, for messages that name the refused value (never a secret). */
  sent?: SentValues | undefined;
}

/**
 * The response headers an error keeps: those that help diagnose or trace a failure.
 * Any other header is dropped: a proxy or gateway that echoes request headers (the
 * subscription key, the Basic credential, the bearer token) must not put them into
 * `error.headers`, JSON or `util.inspect`. Kept values are scrubbed all the same.
 */
export const KEPT_ERROR_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'date',
  'retry-after',
  'www-authenticate',
  'x-request-id',
  'x-correlation-id',
  'x-correlationid',
  'x-reference-id',
  'request-id',
  'apim-request-id',
  'traceparent',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]);

/** A credential-shaped value (`Basic …`, `Bearer …`) is redacted even when unknown. */
const AUTH_VALUE = /\b(Basic|Bearer)\s+[^\s,"]+/gi;

export function keptHeaders(headers: ResponseHeaders, scrubber?: Scrubber): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (!KEPT_ERROR_HEADERS.has(name)) continue;
    const safe = value.replace(AUTH_VALUE, '$1 [redacted]');
    kept[name] = scrubber ? scrubber.scrub(safe) : safe;
  }
  return kept;
}

interface ErrorFields {
  code?: string | undefined;
  serverMessage?: string | undefined;
  category?: string | undefined;
}

/**
 * Reads both documented error bodies: `{code, message}` (spec 7.1) and the
 * standard-style `{errorCategory, errorCode, errorDescription, errorDateTime}` (7.2,
 * also GSMA's lower-case `errordescription`), plus `{error}` on 401.
 */
export function readErrorFields(body: unknown): ErrorFields {
  if (typeof body === 'string') return body ? { serverMessage: body.slice(0, 500) } : {};
  if (body === null || typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  if (b.errorCode !== undefined || b.errorCategory !== undefined) {
    return {
      code: text(b.errorCode),
      category: text(b.errorCategory),
      serverMessage: text(b.errorDescription) ?? text(b.errordescription),
    };
  }
  if (b.code !== undefined) return { code: text(b.code), serverMessage: text(b.message) };
  if (b.error !== undefined) {
    return { code: text(b.error), serverMessage: text(b.error_description) ?? text(b.message) };
  }
  return { serverMessage: text(b.message) };
}

/** The one place an HTTP error status becomes a typed error. */
export function createApiError(response: ErrorResponse): ApiError {
  const fields = readErrorFields(response.body);
  const { status, operation } = response;
  const explained =
    response.sent && explainRefusal({ status, operation, ...fields }, response.sent);
  const init: ApiErrorInit = {
    status: response.status,
    ...fields,
    body: response.body,
    headers: keptHeaders(response.headers, response.scrubber),
    operation: response.operation,
    referenceId: response.referenceId,
    hint:
      explained ?? (response.status === 401 ? refusedCredentials(response.operation) : undefined),
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  };
  const ErrorClass = ERROR_BY_STATUS[status] ?? (status >= 500 ? ServerError : ApiError);
  return new ErrorClass(init);
}

/** The error class of each HTTP status the error tree names (5xx: ServerError; any other: ApiError). */
const ERROR_BY_STATUS: Partial<Record<number, typeof ApiError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  429: RateLimitError,
};

/** A 2xx whose body is not of the documented shape; the body kept is scrubbed. */
export function createUnexpectedResponseError(init: {
  operation: string;
  referenceId?: string | undefined;
  status: number;
  body: unknown;
  issues: readonly ValidationIssue[];
  scrubber?: Scrubber | undefined;
}): UnexpectedResponseError {
  const { scrubber, ...rest } = init;
  return new UnexpectedResponseError({
    ...rest,
    body: scrubber ? scrubber.scrubValue(init.body) : init.body,
  });
}
