import type { Subscription, SubscriptionCharge } from '../contracts/subscription-store';
import { releaseMandates } from './cancel';
import { followCharge, newCharge, paid, sendInvoice } from './charge';
import type { Plan, StepContext } from './context';
import { decide, spent } from './decide';
import {
  applyApprovedChange,
  nextMandateNumber,
  RENEW_BEFORE_MS,
  refreshMandate,
  requestMandate,
} from './mandate';
import { endIfOver, isStopped, lastOfPeriod, limitCatchUp, revoked, skipIfPaused } from './periods';
import { mandateTerms } from './terms';
import { lookUnanswered, watchDueAt } from './unanswered';

/** At most this many periods are collected in one pass (a runner that was off for years). */
const MAX_PERIODS_PER_PASS = 1000;

/**
 * One pass over one subscription at `ctx.now`: `endAt` first (whatever the mandate's
 * state), its mandates brought up to date, then every charge due collected, one period
 * after another (a period's retry or invoice ends the pass). Leaves `status`,
 * `nextChargeAt` and `dueAt` set for the next pass.
 */
export async function step(ctx: StepContext, sub: Subscription, plan: Plan): Promise<void> {
  if (!endIfOver(ctx, sub, plan)) {
    const ready = await refreshMandate(ctx, sub, plan);
    if (ready && !isStopped(sub)) await collect(ctx, sub, plan);
    endIfOver(ctx, sub, plan);
  }
  if (isStopped(sub)) {
    await lookUnanswered(ctx, sub, plan); // one approved since the stop: cancelled just below
    await releaseMandates(ctx.momo, sub, ctx.now); // no mandate left live
  }
  settleStatus(ctx, sub);
}

async function collect(ctx: StepContext, sub: Subscription, plan: Plan): Promise<void> {
  limitCatchUp(ctx, sub, plan);
  for (let n = 0; n < MAX_PERIODS_PER_PASS; n++) {
    const dueAt = sub.nextChargeAt;
    if (dueAt === undefined || dueAt > ctx.now || endIfOver(ctx, sub, plan)) return;
    applyApprovedChange(sub); // a plan change's terms, from the first period after its approval
    if (skipIfPaused(sub, plan)) continue;
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
    } else {
      if (!last && (await revoked(ctx, sub))) return askAgain(ctx, sub, plan);
      charge = await newCharge(ctx, sub, plan, last ? last.attempt + 1 : 1);
    }
    await followCharge(ctx, sub, plan, charge);
    if (!(await decide(ctx, sub, plan, charge))) return;
  }
}

/**
 * The mandate was revoked at the provider: it is set aside (CANCELLED, reason `REVOKED`)
 * and the payer asked again for a mandate stating the same terms; no charge is sent
 * (it would be an ordinary prompt) until it is approved.
 */
async function askAgain(ctx: StepContext, sub: Subscription, plan: Plan): Promise<void> {
  const old = { ...sub.mandate, status: 'CANCELLED' as const, reason: 'REVOKED' };
  const terms = mandateTerms(sub.mandate, plan);
  const next = await requestMandate(ctx, sub, plan, nextMandateNumber(sub), terms);
  sub.replaced = [...(sub.replaced ?? []), old];
  if (sub.renewal) sub.replaced.push(sub.renewal);
  sub.renewal = undefined;
  sub.mandate = next;
  sub.status = 'PENDING_MANDATE';
  sub.reason = 'mandate revoked at the provider: asked again';
  await ctx.save(sub);
}

/** Status and the next time a pass must look at it. */
function settleStatus(ctx: StepContext, sub: Subscription): void {
  if (isStopped(sub)) {
    sub.nextChargeAt = undefined;
    sub.dueAt = watchDueAt(sub, ctx.now, ctx.recheckMs); // a mandate unanswered: watched
    return;
  }
  const approved = sub.mandate.status === 'APPROVED';
  if (!approved) sub.status = 'PENDING_MANDATE';
  else if (sub.status === 'PENDING_MANDATE') {
    const last = lastOfPeriod(sub);
    sub.status = last && !paid(last) && last.status !== 'PENDING' ? 'PAST_DUE' : 'ACTIVE';
    if (sub.reason?.startsWith('mandate revoked')) sub.reason = undefined;
  }
  // Overdue (a charge or invoice pending, a mandate awaited): looked at again after `recheckMs`.
  const recheck = ctx.now + ctx.recheckMs;
  const times: number[] = [];
  if (sub.nextChargeAt !== undefined)
    times.push(sub.nextChargeAt > ctx.now ? sub.nextChargeAt : recheck);
  if (!approved || sub.renewal?.status === 'PENDING' || sub.change?.mandate.status === 'PENDING')
    times.push(recheck);
  const { expiresAt } = sub.mandate;
  if (approved && expiresAt !== undefined) {
    // Renewed 7 days before, when a period falls after it; else looked at when it expires.
    const early = expiresAt - RENEW_BEFORE_MS;
    times.push(sub.renewal || early <= ctx.now ? expiresAt : early);
  }
  if (sub.endAt !== undefined && sub.endAt > ctx.now) times.push(sub.endAt);
  const next = Math.min(...times);
  sub.dueAt = Number.isFinite(next) ? Math.max(next, ctx.now + 1) : undefined;
}
