import type { JournalOutcome } from '../contracts/journal';
import { landedAnswer } from '../core/answer';
import type { Operation } from '../core/operation';
import { sendsOf } from '../core/sends';
import { isTransient } from '../core/transient';
import { isApiError, isAuthenticationError, isRateLimitError, isValidationError } from '../errors';

/**
 * What a creating call's failure means for the one payment it carried, once the client's
 * own retries are spent: the one classification the journal keeper, the batch runner,
 * the outbox relay and subscriptions share (what each does with each kind:
 * docs/architecture.md, "What each driver does with each failure"). Built on the core's
 * rules: `isTransient` (which reads the business refusals of `core/business-refusal.ts`;
 * a failure the client does not retry because resending cannot change the answer is a
 * refusal) and what the call's attempts did on the wire (`core/sends.ts`).
 * - `invalid`: refused before sending (a ValidationError): nothing was sent, and this
 *   body never will be.
 * - `landed`: a 409 RESOURCE_ALREADY_EXIST on a first send (or the operation's own "landed"
 *   answer, the core's `landedAnswer`): an earlier send (before a crash) landed.
 * - `unknown` (not known yet): a 408, a 5xx or a lost connection that outlived the
 *   retries; or any answer at all after an attempt whose fate is unknown (an answer to a
 *   retry says nothing of an earlier attempt that may have landed: a 401, 403, 429 or
 *   4xx refusal included). The provider may hold the payment: a lookup, or a send under
 *   the same reference id, tells.
 * - `rate-limited`: a 429, every earlier attempt's fate known; the same call again,
 *   under the same reference id, after `retryAfterMs`.
 * - `credentials`: a 401 or a 403 (on the call or on its token request), every earlier
 *   attempt's fate known: the provider refused the client, not the payment; nothing was
 *   created, and the same reference id is sent again once the credentials work.
 * - `never-sent`: no attempt's request left the client (queued past its deadline, held
 *   by a pause too long to wait out, its token request failing): the same reference id
 *   again, later; never "maybe sent".
 * - `refused`: a 4xx about this payment, or a 500 business refusal (`INVALID_CURRENCY`,
 *   `NOT_ENOUGH_FUNDS`, ...), every earlier attempt's fate known: nothing was created and
 *   resending cannot change the answer; final, FAILED with `code`.
 */
export type SendFailure =
  | { kind: 'rate-limited'; retryAfterMs: number }
  | { kind: 'landed' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'refused'; code: string }
  | { kind: 'credentials' }
  | { kind: 'never-sent' }
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
  if (isValidationError(error)) {
    return {
      kind: 'invalid',
      reason: error.issues.map((i) => `${i.path}: ${i.message}`).join('; '),
    };
  }
  if (isApiError(error) && landedAnswer(op, { status: error.status, code: error.code })) {
    return { kind: 'landed' };
  }
  const sends = sendsOf(error);
  // An answer to a retry says nothing of an earlier attempt that may have landed.
  if (sends?.fateUnknown === true) return { kind: 'unknown' };
  if (isRateLimitError(error)) {
    return { kind: 'rate-limited', retryAfterMs: error.retryAfterMs ?? 1000 };
  }
  if (stopsTheRun(error)) return { kind: 'credentials' };
  if (sends?.reached === false) return { kind: 'never-sent' };
  // Not transient: the client did not resend it, as the same request gets the same answer.
  if (isApiError(error) && !isTransient(error)) {
    return { kind: 'refused', code: error.code ?? `HTTP_${error.status}` };
  }
  return { kind: 'unknown' };
}

/**
 * How the journal settles a creating call's failure: a refusal FAILED with its code; a
 * call that sent nothing NOT_FOUND (the provider holds no such transaction; a driver
 * sending it again records it pending again); anything else left pending (undefined),
 * for a lookup to settle: the credentials refused included, since every driver sends
 * the same reference id again once they work (never recorded as refused meanwhile). An
 * invalid input is never recorded (the transport checks it before the record).
 */
export function journalOutcome(
  failure: SendFailure,
): { outcome: JournalOutcome; how: { reason?: string } } | undefined {
  if (failure.kind === 'refused') return { outcome: 'FAILED', how: { reason: failure.code } };
  if (failure.kind === 'never-sent') return { outcome: 'NOT_FOUND', how: {} };
  if (failure.kind === 'invalid') return { outcome: 'REJECTED', how: {} };
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
