import { findPaymentOperation, type PaymentOperation } from '../catalogue/operations';
import type { ClientSurface } from '../client-surface';
import type { SubscriptionChargeStatus } from '../contracts/subscription-store';
import { isNotFoundError, isWaitTimeoutError } from '../errors';
import { reasonCode, sendFailure, stopsTheRun } from '../payments/failure';
import { derivedReferenceId } from '../payments/ids';
import { pacedCalls } from '../payments/pacing';
import { mismatchReason } from '../payments/verify';

/**
 * The provider's side of a subscription: its pre-approvals, requests to pay and invoices,
 * each created under a reference id derived from the subscription's key and the secret,
 * so that a lost store, a crash or a second runner re-sends under the same id (a 409)
 * and never charges twice. A 409's transaction is compared with what was meant before
 * it counts (docs/subscriptions.md, "Charges").
 */

const DOMAIN = 'momo-subscription:v1';

/** What a subscription's ids are derived from: its key, and its identity where it has one. */
type Owner = { key: string; id?: string | undefined };

/** The name of an id within its subscription: the identity first (absent: a record of an earlier version). */
const scoped = (sub: Owner, name: string) => (sub.id === undefined ? name : `${sub.id}/${name}`);

/**
 * The reference ids of a subscription: its identity, its mandate n, its charge (period,
 * attempt), and its invoice of a period, each derived from the key, the identity and the
 * secret (another subscription under the same key has other ids).
 */
export const ids = {
  identity: (secret: string, key: string, defining: readonly unknown[]) =>
    derivedReferenceId(secret, key, `identity:${JSON.stringify(defining)}`, DOMAIN),
  mandate: (secret: string, sub: Owner, n: number) =>
    derivedReferenceId(secret, sub.key, scoped(sub, `mandate:${n}`), DOMAIN),
  charge: (secret: string, sub: Owner, period: number, attempt: number) =>
    derivedReferenceId(secret, sub.key, scoped(sub, `charge:${period}:${attempt}`), DOMAIN),
  invoice: (secret: string, sub: Owner, period: number) =>
    derivedReferenceId(secret, sub.key, scoped(sub, `invoice:${period}`), DOMAIN),
};

/** Where a creating call left it. */
export type Sent =
  | { kind: 'accepted' }
  /** A 409: sent earlier under this id (compare before it counts). */
  | { kind: 'landed' }
  /** Refused: nothing created; final with this code. */
  | { kind: 'refused'; code: string }
  /** Not known (network, 5xx after the client's retries): the same id again later. */
  | { kind: 'unknown' };

/** The catalogue's entry of a creating call a subscription makes (derived from the tables). */
function operation(name: string): PaymentOperation {
  const op = findPaymentOperation(name);
  if (!op) throw new Error(`the catalogue has no payment operation ${name}`);
  return op;
}

/** What a subscription creates at the provider: its mandates, charges and invoices. */
export const operations = {
  mandate: () => operation('collection.preApproval'),
  charge: () => operation('collection.requestToPay'),
  invoice: () => operation('collection.createInvoice'),
};

/**
 * Sends a creating call through the catalogue (the client's public method its table names,
 * paced by the client's admission stage alone) under `referenceId`, and sorts its
 * failure (credentials and permissions are thrown).
 */
export async function create(
  momo: ClientSurface,
  op: PaymentOperation,
  body: unknown,
  referenceId: string,
  tag: string,
): Promise<Sent> {
  try {
    const options = { referenceId, tag, ...pacedCalls(undefined) };
    const accepted = (await op.create(momo, body as never, options)) as { landedEarlier?: boolean };
    return accepted.landedEarlier === true ? { kind: 'landed' } : { kind: 'accepted' };
  } catch (error) {
    if (stopsTheRun(error)) throw error;
    const failure = sendFailure(error);
    if (failure.kind === 'landed') return { kind: 'landed' };
    if (failure.kind === 'refused') return { kind: 'refused', code: failure.code };
    if (failure.kind === 'invalid') return { kind: 'refused', code: 'INVALID_INPUT' };
    return { kind: 'unknown' }; // a 500 business refusal is 'refused' above (the kernel's rule)
  }
}

/** A transaction's state as the provider gives it (or NOT_SENT: it holds no such id). */
export interface Looked {
  status: SubscriptionChargeStatus | 'NOT_SENT';
  reason?: string;
  /** The provider's result, for a comparison or a mandate's expiry. */
  result?: unknown;
}

/**
 * Waits up to `waitMs` for a final status (0: one lookup); a 404 is NOT_SENT. With
 * `body`, the provider's transaction is compared with it: a difference is FAILED
 * `TRANSACTION_MISMATCH`-like (the reason names the field), never SUCCESSFUL.
 */
export async function look(
  momo: ClientSurface,
  op: PaymentOperation,
  referenceId: string,
  waitMs: number,
  body?: unknown,
): Promise<Looked> {
  let result: unknown;
  try {
    result =
      waitMs > 0
        ? await op.wait(momo, referenceId, { timeoutMs: waitMs })
        : await op.lookup(momo, referenceId, {});
  } catch (error) {
    if (isNotFoundError(error)) return { status: 'NOT_SENT' };
    if (isWaitTimeoutError(error)) return { status: 'PENDING' };
    if (stopsTheRun(error)) throw error;
    return { status: 'PENDING' }; // not known now: looked up again on the next pass
  }
  const mismatch = body === undefined ? undefined : mismatchReason(body, result);
  if (mismatch !== undefined)
    return { status: 'FAILED', reason: `TRANSACTION_MISMATCH: ${mismatch}`, result };
  const status = (result as { status?: unknown }).status;
  if (status === 'SUCCESSFUL') return { status, result };
  if (status === 'FAILED') {
    const r = result as { reason?: unknown; errorReason?: unknown };
    return { status, reason: reasonCode(r.reason ?? r.errorReason), result };
  }
  return { status: 'PENDING', result };
}

/** Epoch ms of a pre-approval's `expirationDateTime` (epoch ms or s, or a date-time text). */
export function expiryOf(result: unknown): number | undefined {
  const value = (result as { expirationDateTime?: unknown } | undefined)?.expirationDateTime;
  if (typeof value === 'number' && Number.isFinite(value))
    return value < 1e11 ? value * 1000 : value;
  if (typeof value === 'string') {
    const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
    return Number.isFinite(ms) ? (ms < 1e11 ? ms * 1000 : ms) : undefined;
  }
  return undefined;
}
