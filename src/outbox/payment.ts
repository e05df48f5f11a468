import { batchOperation, type PaymentOperation } from '../catalogue/operations';
import type { ClientSurface } from '../client-surface';
import type {
  OutboxClaim,
  OutboxOutcome,
  OutboxPayment,
  OutboxSetback,
  OutboxStore,
} from '../contracts/outbox-store';
import { isWaitTimeoutError } from '../errors';
import type { HeldClaim } from '../payments/claims';
import { type Delivery, deliverAtLeastOnce } from '../payments/deliver';
import { failureNote, reasonCode, sendFailure } from '../payments/failure';
import { pause } from '../payments/time';
import { AdoptedCheck, MISMATCH_CODE } from '../payments/verify';
import type { RelayLog } from './relay-log';
import { databaseRetryIn, retryIn } from './retry-timing';

/** What every payment a relay holds shares. */
export interface RelayContext<Tx> {
  momo: ClientSurface;
  store: OutboxStore<Tx>;
  onSettled: ((payment: OutboxPayment, tx: Tx) => Promise<void> | void) | undefined;
  /** A tenant's client (`tenantClient`), for the intents enqueued with a tenant. */
  tenantClient: ((tenant: string) => Promise<ClientSurface> | ClientSurface) | undefined;
  /** What the relay cannot reach, and each payment's refusal. */
  log: RelayLog;
  /** Aborted by `relay.stop()`. */
  stopping: AbortSignal;
}

/**
 * A claimed row and its lease, kept by the kernel's claim holder: lost when a renewal
 * finds another relay took it over, or the lease ran out unrenewed (writes are retried
 * until then).
 */
export interface Held {
  claim: OutboxClaim;
  lease: HeldClaim;
}

/** Sent (by this call; 'existed': by an earlier one, a 409), final without being created, or to try later (and why). */
type Sent =
  | 'sent'
  | 'existed'
  | { final: OutboxOutcome }
  | { retryInMs: number; setback: OutboxSetback };

/**
 * One claimed payment's way: the creating call under its stored reference id (QUEUED),
 * SENT recorded, the send slot freed, its wait to a final status, then the outcome recorded
 * and delivered (`onSettled`) in one transaction. Every write is fenced by the claim: a
 * relay whose lease was taken over records nothing and delivers nothing.
 */
export async function relayPayment<Tx>(
  ctx: RelayContext<Tx>,
  held: Held,
  freeSendSlot: () => void,
): Promise<void> {
  const { claim } = held;
  if (ctx.stopping.aborted) return giveBack(ctx, held, 0); // claimed as the relay stopped
  if (claim.settled) return deliver(ctx, held, outcomeOf(claim));
  const spec = batchOperation(claim.operation);
  if (!spec) return deliver(ctx, held, { status: 'FAILED', reason: 'UNKNOWN_OPERATION' });
  const momo = await clientOf(ctx, held);
  if (momo === undefined) return; // given back: not this relay's to send now
  const own = { ...ctx, momo }; // every call of this payment with its own tenant's client
  let adopted: AdoptedCheck | undefined; // a 409's transaction, compared with the row
  if (claim.status === 'QUEUED') {
    const sent = await send(own, held, spec);
    if (typeof sent !== 'string') {
      if ('final' in sent) return deliver(own, held, sent.final);
      return giveBack(own, held, sent.retryInMs, undefined, sent.setback);
    }
    if (sent === 'existed') adopted = new AdoptedCheck(claim.body);
    // The send is done: its slot is free before SENT is recorded (a crash meanwhile
    // only means a re-send under the same reference id, whose 409 proves it).
    freeSendSlot();
    if (!(await record(own.log, held, () => own.store.markSent(claim.key, claim.token)))) return;
  }
  freeSendSlot(); // the wait holds no send slot
  if (own.stopping.aborted) return giveBack(own, held, 0);
  const signal = AbortSignal.any([held.lease.signal, own.stopping]);
  let final: Awaited<ReturnType<PaymentOperation['wait']>>;
  const waitFor = (options: { signal: AbortSignal }) =>
    spec.wait(own.momo, claim.referenceId, options);
  try {
    final = await (adopted ? adopted.wait({ signal }, waitFor) : waitFor({ signal }));
  } catch (error) {
    if (held.lease.lost) return; // its new owner carries on
    if (adopted?.reason !== undefined) return deliver(own, held, mismatched);
    if (own.stopping.aborted) return giveBack(own, held, 0);
    if (!isWaitTimeoutError(error)) own.log.failing('provider', error);
    const setback = { error: { ...failureNote(error), at: Date.now() }, maybeSent: true };
    return giveBack(own, held, retryIn(claim.attempts), undefined, setback); // looked up again later
  }
  const ftid = final.financialTransactionId;
  await deliver(own, held, {
    status: final.status === 'SUCCESSFUL' ? 'SUCCESSFUL' : 'FAILED',
    ...(final.status === 'SUCCESSFUL' ? {} : { reason: reasonCode(final.reason) }),
    ...(ftid === undefined ? {} : { financialTransactionId: ftid }),
  });
}

/**
 * The client that sends this payment: one of the intent's own tenant (none: a client of
 * no tenant), never another's. The relay's client when it is that; else `tenantClient`'s,
 * checked to be the tenant's. Otherwise the payment is given back to wait (nothing sent),
 * its `lastError` saying why, and undefined.
 */
async function clientOf<Tx>(ctx: RelayContext<Tx>, held: Held): Promise<ClientSurface | undefined> {
  const { tenant, attempts } = held.claim;
  if (tenant === ctx.momo.tenant) return ctx.momo;
  let failure: unknown = new TenantMismatchError();
  if (tenant !== undefined && ctx.tenantClient) {
    try {
      const client = await ctx.tenantClient(tenant);
      if (client?.tenant === tenant) return client;
    } catch (error) {
      failure = error; // e.g. an UnknownTenantError, or its resolver failing for now
    }
  }
  ctx.log.failing('tenantClient', failure);
  const setback = { error: { ...failureNote(failure), at: Date.now() }, maybeSent: false };
  await giveBack(ctx, held, retryIn(attempts), undefined, setback);
  return undefined;
}

/** Why a relay sent nothing of an intent: it has no client of the intent's tenant. */
class TenantMismatchError extends Error {
  override name = 'TenantMismatchError';
  constructor() {
    super("the relay has no client of this intent's tenant: nothing sent");
  }
}

/** A row whose reference id the provider holds for another transaction: this one never sent. */
const mismatched: OutboxOutcome = { status: 'FAILED', reason: MISMATCH_CODE };

/**
 * The creating call, once: its failure sorted by the one classification the batch runner
 * and the journal share. A refusal ends the payment FAILED at once, logged as this
 * payment's (the provider answered: it is not down); a failure whose answer is not known
 * is tried again later, the payment no longer cancellable (the provider may hold it).
 */
async function send<Tx>(ctx: RelayContext<Tx>, held: Held, spec: PaymentOperation): Promise<Sent> {
  const { claim } = held;
  const options = {
    referenceId: claim.referenceId,
    tag: claim.key,
    ...(claim.callbackUrl === undefined ? {} : { callbackUrl: claim.callbackUrl }),
  };
  try {
    await spec.create(ctx.momo, claim.body as never, options);
    ctx.log.working('provider');
    return 'sent';
  } catch (error) {
    const failure = sendFailure(error);
    const setback = (maybeSent: boolean) => ({
      error: { ...failureNote(error), at: Date.now() },
      maybeSent,
    });
    switch (failure.kind) {
      case 'landed': // an earlier send (before a crash) landed: compared in the wait
        return 'existed';
      case 'rate-limited': // nothing was created: the same reference id again later
        return { retryInMs: failure.retryAfterMs, setback: setback(false) };
      case 'invalid': // nothing was sent (a body this release refuses)
        return { final: { status: 'FAILED', reason: 'INVALID_INPUT' } };
      case 'refused': // nothing was created, and resending cannot change the answer
        ctx.log.working('provider');
        ctx.log.refused(claim.key, failure.code);
        return { final: { status: 'FAILED', reason: failure.code } };
      case 'never-sent': // nothing left the client: the same reference id again later
      case 'credentials': // refused for every payment: nothing was created
        ctx.log.failing('provider', error);
        return { retryInMs: retryIn(claim.attempts), setback: setback(false) };
      default: // not known yet: the provider may hold it
        ctx.log.failing('provider', error);
        return { retryInMs: retryIn(claim.attempts), setback: setback(true) };
    }
  }
}

/**
 * The outcome recorded and `onSettled` run in one transaction, on the kernel's one
 * mechanism (src/payments/deliver.ts). A throw of `onSettled` rolls both back: the
 * outcome is then given back recorded, its delivery owed, and runs again later.
 */
async function deliver<Tx>(ctx: RelayContext<Tx>, held: Held, outcome: OutboxOutcome) {
  const { claim } = held;
  const { onSettled } = ctx;
  const result: { delivery?: Delivery } = {};
  // The store's transaction gives the payment as recorded, with its handle.
  type InStore = { payment: OutboxPayment; tx: Tx };
  await record(ctx.log, held, async () => {
    result.delivery = await deliverAtLeastOnce<InStore>(
      'onSettled',
      onSettled &&
        ((store) =>
          store
            ? onSettled(store.payment, store.tx)
            : onSettled(paymentOf(claim, outcome), undefined as Tx)),
      {
        recordOwed: (run) =>
          ctx.store.settle(claim.key, claim.token, outcome, (payment, tx) => run({ payment, tx })),
        recordDelivered: () => ctx.store.settle(claim.key, claim.token, outcome),
      },
    );
  });
  const { delivery } = result;
  if (delivery?.outcome !== 'failed') {
    if (delivery?.outcome === 'delivered') ctx.log.working('onSettled');
    return;
  }
  ctx.log.failing('onSettled', delivery.error.cause);
  await giveBack(ctx, held, retryIn(claim.attempts), outcome);
}

function giveBack<Tx>(
  ctx: RelayContext<Tx>,
  held: Held,
  ms: number,
  outcome?: OutboxOutcome,
  setback?: OutboxSetback,
) {
  const { key, token } = held.claim;
  const write = () => ctx.store.giveBack(key, token, ms, outcome, setback);
  return record(ctx.log, held, write).then(() => {});
}

/**
 * A fenced write, tried again while the database fails and the lease may still run
 * (after that the write would be refused anyway: another relay looks the payment up).
 */
async function record<T>(log: RelayLog, held: Held, write: () => Promise<T>) {
  for (let failures = 0; ; failures++) {
    if (!held.lease.live()) return false; // taken over, or lapsed unrenewed: write nothing
    try {
      const result = await write();
      log.working('database');
      return result;
    } catch (error) {
      log.failing('database', error);
      if (!held.lease.live()) return false;
      await pause(databaseRetryIn(failures), held.lease.signal);
    }
  }
}

/** The payment as its outcome leaves it (for a store that settled outside a transaction). */
function paymentOf(claim: OutboxClaim, outcome: OutboxOutcome): OutboxPayment {
  const { body: _body, callbackUrl: _url, token: _token, settled: _settled, ...payment } = claim;
  return { ...payment, ...outcome };
}

/** The outcome recorded before (by a relay, or by `cancel()`), delivered now. */
function outcomeOf(claim: OutboxClaim): OutboxOutcome {
  const { status } = claim;
  return {
    status: status === 'SUCCESSFUL' || status === 'CANCELLED' ? status : 'FAILED',
    ...(claim.reason === undefined ? {} : { reason: claim.reason }),
    ...(claim.financialTransactionId === undefined
      ? {}
      : { financialTransactionId: claim.financialTransactionId }),
  };
}
