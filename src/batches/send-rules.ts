import {
  isApiError,
  isAuthenticationError,
  isConflictError,
  isRateLimitError,
  isValidationError,
} from '../errors';

/**
 * What a creating call's failure means for the one payment it carried: the rules the
 * batch runner and the outbox relay share.
 * - `rate-limited`: a 429; the same call again, under the same reference id, after `retryAfterMs`.
 * - `landed`: a 409 RESOURCE_ALREADY_EXIST on a first send: an earlier send (before a crash) landed.
 * - `invalid`: refused before sending (a ValidationError): nothing was sent.
 * - `refused`: a 4xx about this payment only: nothing was created; final, FAILED with `code`.
 * - `credentials`: a 401 or 403, the same for every payment (a batch stops; a relay retries later).
 * - `transient`: anything else (network, 5xx after the client's retries): try again later.
 */
export type SendFailure =
  | { kind: 'rate-limited'; retryAfterMs: number }
  | { kind: 'landed' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'refused'; code: string }
  | { kind: 'credentials' }
  | { kind: 'transient' };

/** A refusal that concerns every payment alike: credentials or permissions. */
export const stopsTheRun = (error: unknown): boolean =>
  isAuthenticationError(error) || (isApiError(error) && error.status === 403);

/** Sorts a creating call's failure by `SendFailure`'s rules. */
export function sendFailure(error: unknown): SendFailure {
  if (isRateLimitError(error))
    return { kind: 'rate-limited', retryAfterMs: error.retryAfterMs ?? 1000 };
  if (
    isConflictError(error) &&
    (error.code ?? 'RESOURCE_ALREADY_EXIST') === 'RESOURCE_ALREADY_EXIST'
  ) {
    return { kind: 'landed' };
  }
  if (isValidationError(error)) {
    return {
      kind: 'invalid',
      reason: error.issues.map((i) => `${i.path}: ${i.message}`).join('; '),
    };
  }
  if (stopsTheRun(error)) return { kind: 'credentials' };
  if (isApiError(error) && error.status < 500 && error.status !== 408) {
    return { kind: 'refused', code: error.code ?? `HTTP_${error.status}` };
  }
  return { kind: 'transient' };
}

/** The reason code of a FAILED final result (a string, or an object with a `code`). */
export function reasonCode(reason: unknown): string {
  if (typeof reason === 'string') return reason;
  const code = (reason as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}
