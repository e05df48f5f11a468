import * as z from 'zod/mini';
import { ValidationError } from '../errors';
import { lazy } from '../schemas/lazy';
import {
  looseString,
  type Reason,
  type ResultParty,
  reason,
  resultParty,
  type Tolerant,
  type TransactionStatus,
  tolerant,
} from '../schemas/tolerant';
import { parseWith } from '../schemas/validate';

/** GSMA-style lower-case states, as the standard-style interface may send them. */
const STATES: Record<string, TransactionStatus> = {
  completed: 'SUCCESSFUL',
  successful: 'SUCCESSFUL',
  failed: 'FAILED',
  pending: 'PENDING',
};

/**
 * A callback body (spec 6: payload not shown): MTN sends the status-lookup body without
 * `referenceId`; the standard-style interface carries `serverCorrelationId`. Tolerant:
 * unknown fields are kept, and only `status` is required.
 */
export const callbackBody = lazy(() =>
  tolerant({
    referenceId: z.optional(z.string()),
    serverCorrelationId: z.optional(z.string()),
    status: z.string().check(z.minLength(1, { error: 'must not be empty' })),
    reason: z.optional(reason()),
    financialTransactionId: z.optional(looseString()),
    externalId: z.optional(looseString()),
    amount: z.optional(looseString()),
    currency: z.optional(z.string()),
    payer: z.optional(resultParty()),
    payee: z.optional(resultParty()),
  }),
);

/** A callback body as a typed event. Its claims are unverified until looked up. */
export interface CallbackEvent extends Tolerant {
  /** The reference id named by the body (`referenceId` or `serverCorrelationId`), if any. */
  referenceId?: string | undefined;
  serverCorrelationId?: string | undefined;
  /**
   * Upper-cased, GSMA `completed`/`successful`/`failed`/`pending` mapped to these; any
   * other value passes through upper-cased.
   */
  status: TransactionStatus;
  reason?: Reason | undefined;
  financialTransactionId?: string | undefined;
  externalId?: string | undefined;
  amount?: string | undefined;
  currency?: string | undefined;
  payer?: ResultParty | undefined;
  payee?: ResultParty | undefined;
}

/** What a refused callback body means: nothing of it was taken in (nothing is ever sent). */
const NOT_ACCEPTED = 'The callback was not accepted; nothing was recorded.';

/**
 * Turns a callback body (parsed JSON or its text) into a typed event. A body that is
 * not a JSON object with a `status` throws ValidationError naming the field.
 */

export function parseCallback(body: unknown): CallbackEvent {
  let value = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    try {
      value = JSON.parse(text);
    } catch {
      throw new ValidationError(
        [{ path: '(body)', message: 'is not JSON' }],
        { operation: 'parseCallback' },
        NOT_ACCEPTED,
      );
    }
  }
  const parsed = parseWith(callbackBody, value);
  if (!parsed.ok) {
    throw new ValidationError(
      parsed.issues.map((i) => ({ ...i, path: i.path || '(body)' })),
      { operation: 'parseCallback' },
      NOT_ACCEPTED,
    );
  }
  const event = parsed.value;
  const status =
    STATES[event.status.toLowerCase()] ?? (event.status.toUpperCase() as TransactionStatus);
  const referenceId = event.referenceId ?? event.serverCorrelationId;
  return { ...event, status, ...(referenceId === undefined ? {} : { referenceId }) };
}
