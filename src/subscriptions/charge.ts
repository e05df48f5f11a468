import type { Subscription, SubscriptionCharge } from '../contracts/subscription-store';
import type { Plan, StepContext } from './context';
import { create, ids, type Looked, look, operations } from './provider';
import { mandateTerms, withinTerms } from './terms';

/** Why a charge was not sent: it asks more than its mandate's terms (docs/subscriptions.md). */
export const ABOVE_TERMS = 'ABOVE_MANDATE_TERMS';

/** The money a charge asks: its own (fixed when its period was first charged), else the plan's (a record of an earlier version). */
const moneyOf = (charge: SubscriptionCharge, plan: Plan) => ({
  amount: charge.amount ?? plan.amount,
  currency: charge.currency ?? plan.currency,
});

/**
 * The request to pay of a charge: its amount and currency, from the payer; its
 * `externalId` names the subscription's identity and the period, so that a 409 is adopted
 * only when the provider's transaction is this charge's.
 */
export function chargeBody(sub: Subscription, plan: Plan, charge: SubscriptionCharge) {
  return {
    ...moneyOf(charge, plan),
    payer: sub.payer,
    ...(sub.id !== undefined ? { externalId: `${sub.id}:${charge.period}` } : {}),
    ...(plan.payerMessage !== undefined ? { payerMessage: plan.payerMessage } : {}),
  };
}

function invoiceBody(sub: Subscription, plan: Plan, charge: SubscriptionCharge) {
  const fallback = plan.invoiceFallback as NonNullable<Plan['invoiceFallback']>;
  return {
    ...moneyOf(charge, plan),
    validityDuration: String(fallback.validityDays * 86_400),
    intendedPayer: sub.payer,
    payee: fallback.payee,
    ...(plan.payerMessage !== undefined ? { description: plan.payerMessage } : {}),
  };
}

/**
 * A new charge of `sub`'s current period: its amount the period's (fixed by its first
 * charge; a first charge takes its mandate's terms), recorded PENDING first, then sent,
 * unless it asks more than the mandate's terms: then it is never sent (FAILED
 * `ABOVE_MANDATE_TERMS`).
 */
export async function newCharge(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  attempt: number,
): Promise<SubscriptionCharge> {
  const referenceId = await ids.charge(ctx.secret, sub, sub.period, attempt);
  const first = sub.charges.find((c) => c.period === sub.period && c.amount !== undefined);
  const terms = mandateTerms(sub.mandate, plan);
  const charge: SubscriptionCharge = {
    period: sub.period,
    attempt,
    referenceId,
    status: 'PENDING',
    amount: first?.amount ?? terms.amount,
    currency: first?.currency ?? terms.currency,
    at: ctx.now,
  };
  sub.charges.push(charge);
  if (!withinTerms(charge, terms)) {
    settle(charge, { status: 'FAILED', reason: ABOVE_TERMS }, ctx.now);
    return charge;
  }
  await ctx.save(sub); // the intent first: a crash after the send finds it
  await sendCharge(ctx, sub, plan, charge);
  return charge;
}

async function sendCharge(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  charge: SubscriptionCharge,
) {
  const sent = await create(
    ctx.momo,
    operations.charge(),
    chargeBody(sub, plan, charge),
    charge.referenceId,
    `${sub.key}/${charge.period}`,
  );
  if (sent.kind === 'refused') settle(charge, { status: 'FAILED', reason: sent.code }, ctx.now);
}

/**
 * Follows a charge (and its invoice) to where the provider has it now, waiting up to
 * `waitMs`: a charge the provider does not hold (a crash before its send) is sent again
 * under its id. Every outcome is compared with the charge before it counts.
 */
export async function followCharge(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  charge: SubscriptionCharge,
): Promise<void> {
  if (charge.invoice) return followInvoice(ctx, sub, plan, charge);
  if (charge.status !== 'PENDING') return;
  const lookUp = (waitMs: number) =>
    look(ctx.momo, operations.charge(), charge.referenceId, waitMs, chargeBody(sub, plan, charge));
  let found = await lookUp(ctx.waitMs);
  if (found.status === 'NOT_SENT') {
    await sendCharge(ctx, sub, plan, charge);
    if (charge.status !== 'PENDING') return;
    found = await lookUp(ctx.waitMs);
  }
  settle(charge, found, ctx.now);
}

/** Sends the period's invoice (once the retries are spent) under its derived id. */
export async function sendInvoice(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  charge: SubscriptionCharge,
) {
  const referenceId = await ids.invoice(ctx.secret, sub, charge.period);
  charge.invoice = { referenceId, status: 'PENDING', at: ctx.now };
  await ctx.save(sub);
  const sent = await create(
    ctx.momo,
    operations.invoice(),
    invoiceBody(sub, plan, charge),
    referenceId,
    `${sub.key}/${charge.period}`,
  );
  if (sent.kind === 'refused') {
    charge.invoice = { ...charge.invoice, status: 'FAILED', reason: sent.code, settledAt: ctx.now };
  }
}

async function followInvoice(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  charge: SubscriptionCharge,
) {
  const invoice = charge.invoice as NonNullable<SubscriptionCharge['invoice']>;
  if (invoice.status !== 'PENDING') return;
  const body = invoiceBody(sub, plan, charge);
  const found = await look(
    ctx.momo,
    operations.invoice(),
    invoice.referenceId,
    0, // an invoice waits for the payer: looked up on each pass, never awaited
    { amount: body.amount, currency: body.currency },
  );
  if (found.status === 'NOT_SENT') {
    charge.invoice = undefined;
    return sendInvoice(ctx, sub, plan, charge);
  }
  if (found.status === 'PENDING') return;
  charge.invoice = {
    ...invoice,
    status: found.status,
    ...(found.reason !== undefined ? { reason: found.reason } : {}),
    settledAt: ctx.now, // the attempt's own time (`at`) is kept
  };
}

function settle(
  charge: SubscriptionCharge,
  found: Pick<Looked, 'status' | 'reason'>,
  now: number,
): void {
  if (found.status !== 'SUCCESSFUL' && found.status !== 'FAILED') return;
  charge.status = found.status;
  if (found.status === 'FAILED') charge.reason = found.reason ?? 'UNKNOWN';
  charge.settledAt = now; // the attempt's own time (`at`) is kept
}

/** Whether the charge paid its period (itself, or by its invoice). */
export const paid = (charge: SubscriptionCharge): boolean =>
  charge.status === 'SUCCESSFUL' || charge.invoice?.status === 'SUCCESSFUL';
