import { failureReason } from '../contracts/failure-reason';
import type { Subscription, SubscriptionCharge } from '../contracts/subscription-store';
import { followCharge, newCharge, paid, sendInvoice } from './charge';
import type { Plan, StepContext } from './context';
import { RENEW_BEFORE_MS, refreshMandate, releaseMandates, stop } from './mandate';
import { delayMs, periodStart } from './period';

/** At most this many periods are collected in one pass (a runner that was off for years). */
const MAX_PERIODS_PER_PASS = 1000;

const isStopped = (sub: Subscription) => sub.status === 'CANCELLED' || sub.status === 'ENDED';

/**
 * One pass over one subscription at `ctx.now`: its mandate brought up to date, then every
 * charge due collected, one period after another (a period's retry or invoice ends the
 * pass). Leaves `status`, `nextChargeAt` and `dueAt` set for the next pass.
 */
export async function step(ctx: StepContext, sub: Subscription, plan: Plan): Promise<void> {
  if (isStopped(sub)) return;
  const ready = await refreshMandate(ctx, sub, plan);
  if (ready && !isStopped(sub)) await collect(ctx, sub, plan);
  if (isStopped(sub)) await releaseMandates(ctx, sub); // ended or stopped: no mandate left live
  settleStatus(ctx, sub);
}

async function collect(ctx: StepContext, sub: Subscription, plan: Plan): Promise<void> {
  for (let n = 0; n < MAX_PERIODS_PER_PASS; n++) {
    const dueAt = sub.nextChargeAt;
    if (dueAt === undefined || dueAt > ctx.now) return;
    if (sub.endAt !== undefined && periodStart(sub.startAt, plan.every, sub.period) >= sub.endAt) {
      sub.status = 'ENDED';
      sub.reason = 'endAt reached';
      sub.nextChargeAt = undefined;
      return;
    }
    const last = lastOfPeriod(sub);
    let charge: SubscriptionCharge;
    if (last && (last.status === 'PENDING' || last.invoice?.status === 'PENDING')) charge = last;
    else if (
      last?.status === 'FAILED' &&
      !last.invoice &&
      spent(plan, last) &&
      plan.invoiceFallback
    ) {
      charge = last; // the retries spent (`decide` let it through): its invoice now
      await sendInvoice(ctx, sub, plan, charge);
    } else charge = await newCharge(ctx, sub, plan, last ? last.attempt + 1 : 1);
    await followCharge(ctx, sub, plan, charge);
    if (!(await decide(ctx, sub, plan, charge))) return;
  }
}

/** What a charge's outcome does to the subscription; true when `collect` may go on at once. */
async function decide(ctx: StepContext, sub: Subscription, plan: Plan, charge: SubscriptionCharge) {
  if (paid(charge)) {
    ctx.changed(sub, charge);
    sub.period += 1;
    sub.nextChargeAt = periodStart(sub.startAt, plan.every, sub.period);
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
  if (charge.invoice) {
    stop(sub, `schedule spent: invoice ${charge.invoice.reason ?? 'FAILED'}`);
  } else if (charge.reason?.startsWith('TRANSACTION_MISMATCH')) {
    // The id holds another transaction: held for the operator, never charged again blindly.
    sub.status = 'PAST_DUE';
    sub.reason = charge.reason;
    sub.nextChargeAt = undefined;
  } else if (!retryable(charge.reason)) {
    stop(sub, charge.reason ?? 'FAILED');
  } else if (!spent(plan, charge)) {
    sub.status = 'PAST_DUE';
    sub.reason = charge.reason;
    sub.nextChargeAt = ctx.now + (delayMs(plan.retry[charge.attempt - 1]) as number);
  } else if (plan.invoiceFallback) {
    sub.status = 'PAST_DUE'; // its invoice follows
    sub.reason = charge.reason;
    await ctx.save(sub);
    return true; // its invoice is sent at once, by the next round of `collect`
  } else {
    stop(sub, `schedule spent: ${charge.reason ?? 'FAILED'}`);
  }
  await ctx.save(sub);
  return false;
}

/** Whether a failure's reason is worth another attempt (a reason the table does not name: yes). */
function retryable(code: string | undefined): boolean {
  if (code === undefined) return true;
  return failureReason(code)?.retryable ?? !code.startsWith('TRANSACTION_MISMATCH');
}

/** Whether `charge` was the period's last attempt (the plan's retries spent). */
const spent = (plan: Plan, charge: SubscriptionCharge) => charge.attempt > plan.retry.length;

function lastOfPeriod(sub: Subscription): SubscriptionCharge | undefined {
  const last = sub.charges.at(-1);
  return last?.period === sub.period ? last : undefined;
}

/** Status and the next time a pass must look at it. */
function settleStatus(ctx: StepContext, sub: Subscription): void {
  if (isStopped(sub)) {
    sub.nextChargeAt = undefined;
    sub.dueAt = undefined;
    return;
  }
  const approved = sub.mandate.status === 'APPROVED';
  if (!approved) sub.status = 'PENDING_MANDATE';
  else if (sub.status === 'PENDING_MANDATE') {
    const last = lastOfPeriod(sub);
    sub.status = last && !paid(last) && last.status !== 'PENDING' ? 'PAST_DUE' : 'ACTIVE';
  }
  // Overdue (a charge or invoice pending, a mandate awaited): looked at again after `recheckMs`.
  const recheck = ctx.now + ctx.recheckMs;
  const times: number[] = [];
  if (sub.nextChargeAt !== undefined)
    times.push(sub.nextChargeAt > ctx.now ? sub.nextChargeAt : recheck);
  if (!approved || sub.renewal?.status === 'PENDING') times.push(recheck);
  if (approved && sub.mandate.expiresAt !== undefined) {
    times.push(sub.renewal ? sub.mandate.expiresAt : sub.mandate.expiresAt - RENEW_BEFORE_MS);
  }
  const next = Math.min(...times);
  sub.dueAt = Number.isFinite(next) ? Math.max(next, ctx.now + 1) : undefined;
}
