import * as z from 'zod/mini';
import { ValidationError } from '../errors';
import { looseString, partyOut, reason } from '../schemas/common';
import { toIssues } from '../schemas/validate';

/** GSMA-style lower-case states, as the standard-style interface may send them. */
const STATES: Record<string, string> = {
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
const callbackBody = z.looseObject({
  referenceId: z.optional(z.string()),
  serverCorrelationId: z.optional(z.string()),
  status: z.string().check(z.minLength(1, { error: 'must not be empty' })),
  reason: z.optional(reason),
  financialTransactionId: z.optional(looseString),
  externalId: z.optional(looseString),
  amount: z.optional(looseString),
  currency: z.optional(z.string()),
  payer: z.optional(partyOut),
  payee: z.optional(partyOut),
});

export type CallbackBody = z.infer<typeof callbackBody>;

/** A callback body as a typed event. Its claims are unverified until looked up. */
export type CallbackEvent = Omit<CallbackBody, 'status'> & {
  /** `PENDING`, `SUCCESSFUL` or `FAILED` (GSMA `completed`/`failed` mapped); others pass through. */
  status: string;
  /** The reference id named by the body (`referenceId` or `serverCorrelationId`), if any. */
  referenceId?: string | undefined;
};

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
      throw new ValidationError([{ path: '(body)', message: 'is not JSON' }], {
        operation: 'parseCallback',
      });
    }
  }
  const parsed = callbackBody.safeParse(value);
  if (!parsed.success) {
    const issues = toIssues(parsed.error);
    throw new ValidationError(
      issues.map((i) => ({ ...i, path: i.path || '(body)' })),
      { operation: 'parseCallback' },
    );
  }
  const event = parsed.data;
  const status = STATES[event.status.toLowerCase()] ?? event.status.toUpperCase();
  const referenceId = event.referenceId ?? event.serverCorrelationId;
  return { ...event, status, ...(referenceId === undefined ? {} : { referenceId }) };
}
