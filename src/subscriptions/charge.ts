import type { Subscription, SubscriptionCharge } from '../contracts/subscription-store';
import type { Plan, StepContext } from './context';
import { create, ids, type Looked, look, operations } from './provider';

/** The request to pay of a charge: the plan's amount and currency, from the payer. */
export function chargeBody(sub: Subscription, plan: Plan) {
  return {
    amount: plan.amount,
    currency: plan.currency,
    payer: sub.payer,
    ...(plan.payerMessage !== undefined ? { payerMessage: plan.payerMessage } : {}),
  };
}

function invoiceBody(sub: Subscription, plan: Plan) {
  const fallback = plan.invoiceFallback as NonNullable<Plan['invoiceFallback']>;
  return {
    amount: plan.amount,
    currency: plan.currency,
    validityDuration: String(fallback.validityDays * 86_400),
    intendedPayer: sub.payer,
    payee: fallback.payee,
    ...(plan.payerMessage !== undefined ? { description: plan.payerMessage } : {}),
  };
}

/** A new charge of `sub`'s current period: recorded PENDING first, then sent. */
export async function newCharge(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  attempt: number,
): Promise<SubscriptionCharge> {
  const referenceId = await ids.charge(ctx.secret, sub.key, sub.period, attempt);
  const charge: SubscriptionCharge = {
    period: sub.period,
    attempt,
    referenceId,
    status: 'PENDING',
    at: ctx.now,
  };
  sub.charges.push(charge);
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
    chargeBody(sub, plan),
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
    look(ctx.momo, operations.charge(), charge.referenceId, waitMs, chargeBody(sub, plan));
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
  const referenceId = await ids.invoice(ctx.secret, sub.key, charge.period);
  charge.invoice = { referenceId, status: 'PENDING' };
  await ctx.save(sub);
  const sent = await create(
    ctx.momo,
    operations.invoice(),
    invoiceBody(sub, plan),
    referenceId,
    `${sub.key}/${charge.period}`,
  );
  if (sent.kind === 'refused')
    charge.invoice = { referenceId, status: 'FAILED', reason: sent.code };
}

async function followInvoice(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  charge: SubscriptionCharge,
) {
  const invoice = charge.invoice as NonNullable<SubscriptionCharge['invoice']>;
  if (invoice.status !== 'PENDING') return;
  const body = invoiceBody(sub, plan);
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
    referenceId: invoice.referenceId,
    status: found.status,
    ...(found.reason !== undefined ? { reason: found.reason } : {}),
  };
  charge.at = ctx.now;
}

function settle(
  charge: SubscriptionCharge,
  found: Pick<Looked, 'status' | 'reason'>,
  now: number,
): void {
  if (found.status !== 'SUCCESSFUL' && found.status !== 'FAILED') return;
  charge.status = found.status;
  if (found.status === 'FAILED') charge.reason = found.reason ?? 'UNKNOWN';
  charge.at = now;
}

/** Whether the charge paid its period (itself, or by its invoice). */
export const paid = (charge: SubscriptionCharge): boolean =>
  charge.status === 'SUCCESSFUL' || charge.invoice?.status === 'SUCCESSFUL';
