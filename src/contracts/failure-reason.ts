/**
 * The provider's reason codes (specification 7.1: an error's `code`, and a FAILED
 * transaction's `reason.code`), each with what it means for the next try: whether a new
 * attempt later (a new payment, not a resend) may succeed, and whether the payer can do
 * something about it (top up, approve, raise a limit).
 */
export interface FailureReasonInfo {
  /** A later attempt may succeed: funds, limits, an unanswered prompt, a provider fault. */
  readonly retryable: boolean;
  /** The payer can change the outcome (top up, approve the prompt, raise a limit). */
  readonly payerActionable: boolean;
}

const reason = (retryable: boolean, payerActionable: boolean): FailureReasonInfo =>
  Object.freeze({ retryable, payerActionable });

/** Every reason code of the specification, with `retryable` and `payerActionable`. */
export const FailureReason = Object.freeze({
  NOT_ENOUGH_FUNDS: reason(true, true),
  PAYER_LIMIT_REACHED: reason(true, true),
  APPROVAL_REJECTED: reason(true, true),
  EXPIRED: reason(true, true),
  PAYMENT_NOT_APPROVED: reason(true, true),
  TRANSACTION_CANCELED: reason(true, true),
  INTERNAL_PROCESSING_ERROR: reason(true, false),
  SERVICE_UNAVAILABLE: reason(true, false),
  PAYER_NOT_FOUND: reason(false, false),
  PAYEE_NOT_FOUND: reason(false, false),
  NOT_ALLOWED: reason(false, false),
  PAYEE_NOT_ALLOWED_TO_RECEIVE: reason(false, false),
  NOT_ALLOWED_TARGET_ENVIRONMENT: reason(false, false),
  INVALID_CALLBACK_URL_HOST: reason(false, false),
  INVALID_CURRENCY: reason(false, false),
  RESOURCE_NOT_FOUND: reason(false, false),
  RESOURCE_ALREADY_EXIST: reason(false, false),
});

/** A reason code the specification names. */
export type FailureReasonCode = keyof typeof FailureReason;

/** The table's row for `code`; undefined for a code the specification does not name. */
export function failureReason(code: string | undefined): FailureReasonInfo | undefined {
  return code !== undefined && Object.hasOwn(FailureReason, code)
    ? FailureReason[code as FailureReasonCode]
    : undefined;
}
