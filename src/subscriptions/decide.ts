import { failureReason } from '../contracts/failure-reason';
import type { Subscription, SubscriptionCharge } from '../contracts/subscription-store';
import { ABOVE_TERMS, paid } from './charge';
import type { Plan, StepContext } from './context';
import { stop } from './mandate';
import { delayMs, periodStart } from './period';
import { intervalOf } from './terms';

/** The payer declined the charge's prompt: retried once at most, never dunned (docs/assumptions.md, ST7). */
const DECLINED = 'APPROVAL_REJECTED';

/** Whether a failure's reason is worth another attempt (a reason the table does not name: yes). */
function retryable(code: string | undefined): boolean {
  if (code === undefined) return true;
  if (code === ABOVE_TERMS) return false;
  return failureReason(code)?.retryable ?? !code.startsWith('TRANSACTION_MISMATCH');
}

/**
 * Whether `charge` was the period's last attempt: the plan's retries spent, a payer's
 * decline already retried once, or a charge above its mandate's terms (never sent again).
 */
export const spent = (plan: Plan, charge: SubscriptionCharge): boolean =>
  charge.attempt > plan.retry.length ||
  (charge.reason === DECLINED && charge.attempt >= 2) ||
  charge.reason === ABOVE_TERMS;

/** The period left unpaid (in arrears) and billing moved on to the next one. */
export function toArrears(sub: Subscription, plan: Plan, why: string): void {
  if (!(sub.arrears ?? []).includes(sub.period)) sub.arrears = [...(sub.arrears ?? []), sub.period];
  sub.status = 'PAST_DUE';
  sub.reason = `arrears: period ${sub.period} ${why}`;
  sub.period += 1;
  sub.nextChargeAt = periodStart(sub.startAt, intervalOf(sub, plan), sub.period);
}

/** What a charge's outcome does to the subscription; true when `collect` may go on at once. */
export async function decide(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
  charge: SubscriptionCharge,
): Promise<boolean> {
  if (paid(charge)) {
    ctx.changed(sub, charge);
    sub.period += 1;
    sub.nextChargeAt = periodStart(sub.startAt, intervalOf(sub, plan), sub.period);
    sub.status = 'ACTIVE';
    sub.reason = undefined;
    await ctx.save(sub);
    return true;
  }
  if (charge.invoice?.status === 'PENDING') {
    sub.status = 'PAST_DUE';
    sub.reason = `invoiced after ${charge.reason ?? 'FAILED'}`;
    await ctx.save(sub);
    return false; // the payer's to pay: looked up on each pass
  }
  if (charge.status === 'PENDING') {
    await ctx.save(sub);
    return false;
  }
  ctx.changed(sub, charge);
  let goOn = false;
  if (charge.invoice) {
    // The invoice unpaid: the plan's policy (default: the period in arrears, billing goes on).
    const why = `invoice ${charge.invoice.reason ?? 'FAILED'}`;
    if (plan.arrears?.unpaid === 'cancel') stop(sub, `schedule spent: ${why}`);
    else {
      toArrears(sub, plan, `unpaid: ${why}`);
      goOn = true;
    }
  } else if (charge.reason?.startsWith('TRANSACTION_MISMATCH')) {
    // The id holds another transaction: held for the operator, never charged again blindly.
    sub.status = 'PAST_DUE';
    sub.reason = charge.reason;
    sub.nextChargeAt = undefined;
  } else if (!spent(plan, charge) && retryable(charge.reason)) {
    sub.status = 'PAST_DUE';
    sub.reason = charge.reason;
    sub.nextChargeAt = ctx.now + (delayMs(plan.retry[charge.attempt - 1] ?? '1d') as number);
  } else if (!retryable(charge.reason) && charge.reason !== ABOVE_TERMS) {
    stop(sub, charge.reason ?? 'FAILED');
  } else if (plan.invoiceFallback) {
    sub.status = 'PAST_DUE'; // its invoice follows
    sub.reason = charge.reason;
    await ctx.save(sub);
    return true; // its invoice is sent at once, by the next round of `collect`
  } else if (charge.reason === DECLINED || charge.reason === ABOVE_TERMS) {
    toArrears(sub, plan, charge.reason); // not dunned: unpaid, and billing goes on
    goOn = true;
  } else {
    stop(sub, `schedule spent: ${charge.reason ?? 'FAILED'}`);
  }
  await ctx.save(sub);
  return goOn;
}
