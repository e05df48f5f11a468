import type {
  Subscription,
  SubscriptionMandate,
  SubscriptionTerms,
} from '../contracts/subscription-store';
import type { Plan, StepContext } from './context';
import { DAY, firstPeriodFrom, periodStart } from './period';
import { create, expiryOf, ids, look, operations } from './provider';
import { intervalOf, mandateMessage, mandateTerms } from './terms';

/** A mandate is renewed (a new pre-approval for the payer to approve) this long before it expires. */
export const RENEW_BEFORE_MS = 7 * DAY;

/** The pre-approval's body: the payer, the terms' currency, the message stating the terms, its validity. */
export function mandateBody(
  sub: Subscription,
  plan: Plan,
  terms: SubscriptionTerms,
  referenceId: string,
) {
  return {
    payer: sub.payer,
    payerCurrency: terms.currency,
    payerMessage: mandateMessage(terms, plan, referenceId),
    validityTime: sub.mandateDays * 86_400,
  };
}

/** The number of the next mandate asked for (renewal or plan change): above every one it had. */
export function nextMandateNumber(sub: Subscription): number {
  const all = [sub.mandate, sub.renewal, sub.change?.mandate, ...(sub.replaced ?? [])];
  return Math.max(...all.map((m) => m?.number ?? 0)) + 1;
}

/**
 * Asks the payer for mandate `n` stating `terms` (under its derived id: a second ask is a
 * 409, not a second prompt).
 */
export async function requestMandate(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  n: number,
  terms: SubscriptionTerms,
): Promise<SubscriptionMandate> {
  const referenceId = await ids.mandate(ctx.secret, sub, n);
  const body = mandateBody(sub, plan, terms, referenceId);
  const sent = await create(ctx.momo, operations.mandate(), body, referenceId, sub.key);
  const mandate = { referenceId, number: n, terms };
  if (sent.kind === 'refused') return { ...mandate, status: 'DECLINED', reason: sent.code };
  return { ...mandate, status: 'PENDING' };
}

/** Looks a PENDING mandate up: APPROVED (with its expiry), DECLINED, or still PENDING. */
async function check(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  mandate: SubscriptionMandate,
): Promise<SubscriptionMandate> {
  const terms = mandateTerms(mandate, plan);
  const found = await look(ctx.momo, operations.mandate(), mandate.referenceId, 0, {
    payer: sub.payer,
    payerCurrency: terms.currency,
  });
  if (found.status === 'NOT_SENT') {
    const again = await requestMandate(ctx, sub, plan, mandate.number, terms);
    return {
      ...again,
      ...(mandate.fromPeriod !== undefined ? { fromPeriod: mandate.fromPeriod } : {}),
    };
  }
  if (found.status === 'SUCCESSFUL') {
    const expiresAt = expiryOf(found.result) ?? ctx.now + sub.mandateDays * DAY;
    return { ...mandate, status: 'APPROVED', expiresAt };
  }
  if (found.status === 'FAILED') {
    return { ...mandate, status: 'DECLINED', reason: found.reason ?? 'UNKNOWN' };
  }
  return mandate;
}

/** `mandate` replaced (renewed, or a plan change applied): kept for `cancel`. */
function replace(sub: Subscription, next: SubscriptionMandate): void {
  sub.replaced = [...(sub.replaced ?? []), sub.mandate];
  sub.mandate = next;
}

/**
 * Whether a renewal is needed: a period starts at or after the mandate's expiry and
 * before `endAt` (none: no renewal is asked for).
 */
function renewalNeeded(sub: Subscription, plan: Plan, expiresAt: number): boolean {
  if (sub.endAt === undefined) return true;
  const every = intervalOf(sub, plan);
  const n = Math.max(sub.period, firstPeriodFrom(sub.startAt, every, expiresAt));
  return periodStart(sub.startAt, every, n) < sub.endAt;
}

/**
 * Brings the mandates up to date at `ctx.now`: a pending one looked up; a plan change's
 * mandate, once approved, applied from the first period starting after its approval
 * (declined: the old terms go on); a renewal asked for 7 days before expiry (only when a
 * period falls after it) and swapped in once approved. Resolves with whether charges may
 * be made now (an approved, unexpired mandate). A declined first mandate, or an expiry
 * with its renewal declined, cancels (the reason naming the renewal).
 */
export async function refreshMandate(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
): Promise<boolean> {
  for (let round = 0; round < 6; round++) {
    if (sub.mandate.status === 'PENDING') sub.mandate = await check(ctx, sub, plan, sub.mandate);
    if (sub.mandate.status === 'DECLINED') {
      stop(sub, sub.mandate.reason ?? 'APPROVAL_REJECTED');
      return false;
    }
    if (await applyChange(ctx, sub, plan)) continue;
    if (sub.renewal?.status === 'PENDING') sub.renewal = await check(ctx, sub, plan, sub.renewal);
    if (sub.renewal?.status === 'APPROVED') {
      replace(sub, sub.renewal); // the newer mandate (its terms the same); the old one kept for cancel
      sub.renewal = undefined;
      continue;
    }
    const { expiresAt } = sub.mandate;
    const expired = expiresAt !== undefined && ctx.now >= expiresAt;
    if (sub.mandate.status === 'APPROVED' && expiresAt !== undefined && !sub.renewal) {
      if (ctx.now >= expiresAt - RENEW_BEFORE_MS && renewalNeeded(sub, plan, expiresAt)) {
        const n = nextMandateNumber(sub);
        sub.renewal = await requestMandate(ctx, sub, plan, n, mandateTerms(sub.mandate, plan));
        await ctx.save(sub); // asked: recorded at once
        continue;
      }
    }
    if (sub.mandate.status === 'APPROVED' && !expired) return true;
    if (sub.mandate.status === 'APPROVED') sub.mandate = { ...sub.mandate, status: 'EXPIRED' };
    if (sub.mandate.status === 'EXPIRED' && sub.renewal?.status === 'DECLINED') {
      stop(
        sub,
        `renewal ${sub.renewal.number} ${sub.renewal.reason ?? 'declined'} after the mandate expired`,
      );
    }
    return false;
  }
  return sub.mandate.status === 'APPROVED' && (sub.mandate.expiresAt ?? Infinity) > ctx.now;
}

/**
 * A plan change's mandate: looked up while pending; once approved, `fromPeriod` set (the
 * first period starting after its approval and at or after `from`) and applied when the
 * subscription reaches it; declined, dropped (the old terms go on). True when it was applied.
 */
async function applyChange(ctx: StepContext, sub: Subscription, plan: Plan): Promise<boolean> {
  const change = sub.change;
  if (!change) return false;
  if (change.mandate.status === 'PENDING') {
    change.mandate = await check(ctx, sub, plan, change.mandate);
  }
  if (change.mandate.status === 'DECLINED' || change.mandate.status === 'EXPIRED') {
    sub.replaced = [...(sub.replaced ?? []), change.mandate];
    sub.change = undefined;
    return false;
  }
  if (change.mandate.status !== 'APPROVED') return false;
  if (change.mandate.fromPeriod === undefined) {
    const every = intervalOf(sub, plan);
    const at = Math.max(ctx.now + 1, change.from);
    change.mandate.fromPeriod = Math.max(sub.period, firstPeriodFrom(sub.startAt, every, at));
  }
  return applyApprovedChange(sub);
}

/**
 * An approved plan change applied once the subscription reaches its `fromPeriod`: its
 * mandate (and terms) in force, the old one kept for `cancel`, a renewal of the old terms
 * set aside. True when applied.
 */
export function applyApprovedChange(sub: Subscription): boolean {
  const change = sub.change;
  const from = change?.mandate.fromPeriod;
  if (change?.mandate.status !== 'APPROVED' || from === undefined || sub.period < from)
    return false;
  replace(sub, change.mandate);
  if (sub.renewal) sub.replaced = [...(sub.replaced ?? []), sub.renewal]; // of the old terms
  sub.renewal = undefined;
  sub.plan = change.plan;
  sub.change = undefined;
  return true;
}

/** Stops the subscription for good: no charge is made again. */
export function stop(sub: Subscription, reason: string): void {
  sub.status = 'CANCELLED';
  sub.reason = reason;
  sub.nextChargeAt = undefined;
  sub.dueAt = undefined;
}
