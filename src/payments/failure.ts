import type { JournalOutcome } from '../contracts/journal';
import { landedAnswer } from '../core/answer';
import type { Operation } from '../core/operation';
import { isTransient } from '../core/transient';
import { isApiError, isAuthenticationError, isRateLimitError, isValidationError } from '../errors';

/**
 * What a creating call's failure means for the one payment it carried, once the client's
 * own retries are spent: the one classification the journal keeper, the batch runner and
 * the outbox relay share. Built on the core's rule (`isTransient`, which reads the
 * business refusals of `core/business-refusal.ts`): a failure the client does not retry
 * because resending cannot change the answer is a refusal.
 * - `rate-limited`: a 429; the same call again, under the same reference id, after `retryAfterMs`.
 * - `landed`: a 409 RESOURCE_ALREADY_EXIST on a first send (or the operation's own "landed"
 *   answer, the core's `landedAnswer`): an earlier send (before a crash) landed.
 * - `invalid`: refused before sending (a ValidationError): nothing was sent.
 * - `refused`: a 4xx about this payment, or a 500 business refusal (`INVALID_CURRENCY`,
 *   `NOT_ENOUGH_FUNDS`, ...): nothing was created and resending cannot change the answer;
 *   final, FAILED with `code`.
 * - `credentials`: a 401 or 403, the same for every payment (a batch stops; a relay retries later).
 * - `unknown`: a 408, a 5xx or a lost connection that outlived the retries (or anything
 *   else): not known yet; the provider may hold the payment, a lookup or a resend under
 *   the same reference id tells.
 */
export type SendFailure =
  | { kind: 'rate-limited'; retryAfterMs: number }
  | { kind: 'landed' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'refused'; code: string }
  | { kind: 'credentials' }
  | { kind: 'unknown' };

/** A refusal that concerns every payment alike: credentials or permissions. */
export const stopsTheRun = (error: unknown): boolean =>
  isAuthenticationError(error) || (isApiError(error) && error.status === 403);

/** A creating operation's own answer that proves an earlier send landed (default: a 409 duplicate reference id). */
type LandedRule = Pick<Operation<unknown, unknown>, 'landed' | 'creates'>;
const CREATING: LandedRule = { creates: true };

/**
 * Sorts a creating call's failure by `SendFailure`'s rules; `op` names the operation's
 * own "landed" answer where it has one (a standard-style call's `DuplicateRequest`).
 */
export function sendFailure(error: unknown, op: LandedRule = CREATING): SendFailure {
  if (isRateLimitError(error)) {
    return { kind: 'rate-limited', retryAfterMs: error.retryAfterMs ?? 1000 };
  }
  if (isApiError(error) && landedAnswer(op, { status: error.status, code: error.code })) {
    return { kind: 'landed' };
  }
  if (isValidationError(error)) {
    return {
      kind: 'invalid',
      reason: error.issues.map((i) => `${i.path}: ${i.message}`).join('; '),
    };
  }
  if (stopsTheRun(error)) return { kind: 'credentials' };
  // Not transient: the client did not resend it, as the same request gets the same answer.
  if (isApiError(error) && !isTransient(error)) {
    return { kind: 'refused', code: error.code ?? `HTTP_${error.status}` };
  }
  return { kind: 'unknown' };
}

/**
 * How the journal settles a creating call's failure: a refusal FAILED with its code; the
 * credentials or the input refused REJECTED (nothing created: sending it again is safe);
 * anything not known yet left pending (undefined), for a lookup to settle.
 */
export function journalOutcome(
  failure: SendFailure,
): { outcome: JournalOutcome; how: { reason?: string } } | undefined {
  if (failure.kind === 'refused') return { outcome: 'FAILED', how: { reason: failure.code } };
  if (failure.kind === 'credentials' || failure.kind === 'invalid') {
    return { outcome: 'REJECTED', how: {} };
  }
  return undefined;
}

/** The reason code of a FAILED final result (a string, or an object with a `code`). */
export function reasonCode(reason: unknown): string {
  if (typeof reason === 'string') return reason;
  const code = (reason as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}

/** What a failure may say where it is stored or logged: its class name and code, never its message or body. */
export interface FailureNote {
  code?: string;
  name: string;
}

/** The name and code of an error (the provider's code, a network code), cut to 100 characters. */
export function failureNote(error: unknown): FailureNote {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  const note: FailureNote = { name: typeof name === 'string' ? name.slice(0, 100) : 'Error' };
  if (typeof code === 'string' && code !== '') note.code = code.slice(0, 100);
  return note;
}
