import type { Subscription, SubscriptionMandate } from '../contracts/subscription-store';
import type { Plan, StepContext } from './context';
import { DAY } from './period';
import { cancelAtProvider, create, expiryOf, ids, look, operations } from './provider';

/** A mandate is renewed (a new pre-approval for the payer to approve) this long before it expires. */
export const RENEW_BEFORE_MS = 7 * DAY;

/** The pre-approval's body: the payer, the plan's currency, and the mandate's validity. */
export function mandateBody(sub: Subscription, plan: Plan) {
  return {
    payer: sub.payer,
    payerCurrency: plan.currency,
    ...(plan.payerMessage !== undefined ? { payerMessage: plan.payerMessage } : {}),
    validityTime: sub.mandateDays * 86_400,
  };
}

/** Asks the payer for mandate `n` (under its derived id: a second ask is a 409, not a second prompt). */
export async function requestMandate(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  n: number,
): Promise<SubscriptionMandate> {
  const referenceId = await ids.mandate(ctx.secret, sub.key, n);
  const sent = await create(
    ctx.momo,
    operations.mandate(),
    mandateBody(sub, plan),
    referenceId,
    sub.key,
  );
  if (sent.kind === 'refused')
    return { referenceId, number: n, status: 'DECLINED', reason: sent.code };
  return { referenceId, number: n, status: 'PENDING' };
}

/** Looks a PENDING mandate up: APPROVED (with its expiry), DECLINED, or still PENDING. */
async function check(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  mandate: SubscriptionMandate,
) {
  const body = mandateBody(sub, plan);
  const found = await look(ctx.momo, operations.mandate(), mandate.referenceId, 0, {
    payer: body.payer,
    payerCurrency: body.payerCurrency,
  });
  if (found.status === 'NOT_SENT') return requestMandate(ctx, sub, plan, mandate.number);
  if (found.status === 'SUCCESSFUL') {
    const expiresAt = expiryOf(found.result) ?? ctx.now + sub.mandateDays * DAY;
    return { ...mandate, status: 'APPROVED' as const, expiresAt };
  }
  if (found.status === 'FAILED') {
    return { ...mandate, status: 'DECLINED' as const, reason: found.reason ?? 'UNKNOWN' };
  }
  return mandate;
}

/**
 * Brings the mandate up to date at `ctx.now`: a pending one looked up, a renewal asked for
 * 7 days before expiry and swapped in once approved, an expired one replaced by its
 * renewal. Resolves with whether charges may be made now (an approved, unexpired
 * mandate). A declined first mandate, or an expiry with the renewal declined, cancels.
 */
export async function refreshMandate(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
): Promise<boolean> {
  for (let round = 0; round < 4; round++) {
    if (sub.mandate.status === 'PENDING') sub.mandate = await check(ctx, sub, plan, sub.mandate);
    if (sub.mandate.status === 'DECLINED') {
      stop(sub, sub.mandate.reason ?? 'APPROVAL_REJECTED');
      return false;
    }
    if (sub.renewal?.status === 'PENDING') sub.renewal = await check(ctx, sub, plan, sub.renewal);
    if (sub.renewal?.status === 'APPROVED') {
      sub.mandate = sub.renewal; // the newer mandate; the old one runs out by itself
      sub.renewal = undefined;
      continue;
    }
    const { expiresAt } = sub.mandate;
    if (sub.mandate.status !== 'APPROVED' || expiresAt === undefined)
      return sub.mandate.status === 'APPROVED';
    const expired = ctx.now >= expiresAt;
    if (!sub.renewal && ctx.now >= expiresAt - RENEW_BEFORE_MS) {
      sub.renewal = await requestMandate(ctx, sub, plan, sub.mandate.number + 1);
      await ctx.save(sub); // asked: recorded at once
      continue;
    }
    if (!expired) return true;
    sub.mandate = { ...sub.mandate, status: 'EXPIRED' };
    if (sub.renewal?.status === 'DECLINED') {
      stop(sub, `MANDATE_EXPIRED: renewal ${sub.renewal.reason ?? 'declined'}`);
    }
    return false;
  }
  return sub.mandate.status === 'APPROVED' && (sub.mandate.expiresAt ?? Infinity) > ctx.now;
}

/** Stops the subscription for good: no charge is made again. */
export function stop(sub: Subscription, reason: string): void {
  sub.status = 'CANCELLED';
  sub.reason = reason;
  sub.nextChargeAt = undefined;
  sub.dueAt = undefined;
}

/**
 * A stopped subscription's approved mandates (and renewal) cancelled at the provider, as
 * `cancel` does: best effort (a failure leaves the mandate to run out; no charge is made
 * under it either way).
 */
export async function releaseMandates(ctx: StepContext, sub: Subscription): Promise<void> {
  for (const mandate of [sub.mandate, sub.renewal]) {
    if (mandate?.status !== 'APPROVED') continue;
    try {
      if (await cancelAtProvider(ctx.momo, sub.payer, mandate.expiresAt))
        mandate.status = 'CANCELLED';
    } catch {
      // Left to expire.
    }
  }
}
