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
} from '../errors';
import { parseRetryAfter } from './time';

export interface ErrorResponse {
  status: number;
  body: unknown;
  headers: Headers;
  operation: string;
  referenceId?: string | undefined;
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
  const init: ApiErrorInit = {
    status: response.status,
    ...readErrorFields(response.body),
    body: response.body,
    headers: Object.fromEntries(response.headers),
    operation: response.operation,
    referenceId: response.referenceId,
  };
  switch (response.status) {
    case 400:
      return new BadRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 410:
      return new GoneError(init);
    case 429:
      return new RateLimitError({
        ...init,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      });
    default:
      return response.status >= 500 ? new ServerError(init) : new ApiError(init);
  }
}
