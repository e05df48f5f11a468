import type { Subscription, SubscriptionCharge } from '../contracts/subscription-store';
import type { Plan, StepContext } from './context';
import { periodStart } from './period';
import { intervalOf, mandateTag } from './terms';

/**
 * The rules that say which periods are charged at all (docs/subscriptions.md): `endAt` ends it,
 * a pause skips, a late approval charges at most the plan's `catchUp` held periods.
 */

const isStopped = (sub: Subscription) => sub.status === 'CANCELLED' || sub.status === 'ENDED';

/** The current period's last charge, if any. */
export function lastOfPeriod(sub: Subscription): SubscriptionCharge | undefined {
  const last = sub.charges.at(-1);
  return last?.period === sub.period ? last : undefined;
}

/** Whether the current period has a charge or invoice still waiting for its outcome. */
const inFlight = (sub: Subscription) => {
  const last = lastOfPeriod(sub);
  return last !== undefined && (last.status === 'PENDING' || last.invoice?.status === 'PENDING');
};

/**
 * Ends the subscription at `endAt`, whatever its mandate's state: once its next period
 * starts at or after `endAt`, or once `endAt` has passed with nothing in flight (the
 * periods before it not charged by then are left unpaid, in arrears). A renewal or plan
 * change still pending is set aside in `replaced` (no mandate is asked for after the end;
 * one approved later is cancelled: ST10). True when ended.
 */
export function endIfOver(ctx: StepContext, sub: Subscription, plan: Plan): boolean {
  if (isStopped(sub) || sub.endAt === undefined) return isStopped(sub);
  const every = intervalOf(sub, plan);
  const over = periodStart(sub.startAt, every, sub.period) >= sub.endAt;
  // Past endAt, a mandate that can still charge first charges the periods that started
  // before it (a runner behind the clock must not skip them); one that cannot ends now.
  const stuck = ctx.now >= sub.endAt && !inFlight(sub) && sub.mandate.status !== 'APPROVED';
  if (!over && !stuck) return false;
  const unpaid: number[] = [];
  for (let p = sub.period; periodStart(sub.startAt, every, p) < sub.endAt; p++) {
    if (!(sub.skipped ?? []).includes(p)) unpaid.push(p);
  }
  if (unpaid.length > 0) sub.arrears = [...new Set([...(sub.arrears ?? []), ...unpaid])];
  // A renewal or plan change still pending is set aside, never used; the payer may still
  // approve it, so it stays PENDING in `replaced`: watched and cancelled once approved (ST10).
  for (const pending of [sub.renewal, sub.change?.mandate]) {
    if (pending?.status === 'PENDING') sub.replaced = [...(sub.replaced ?? []), pending];
  }
  if (sub.renewal?.status === 'PENDING') sub.renewal = undefined;
  if (sub.change?.mandate.status === 'PENDING') sub.change = undefined;
  sub.status = 'ENDED';
  sub.reason = 'endAt reached';
  sub.nextChargeAt = undefined;
  return true;
}

/**
 * The current period skipped when it starts within the pause (at or after its `from`,
 * before its `until`) and has no charge yet: neither charged nor in arrears. True when
 * it was skipped.
 */
export function skipIfPaused(sub: Subscription, plan: Plan): boolean {
  if (sub.pause === undefined || lastOfPeriod(sub)) return false;
  const every = intervalOf(sub, plan);
  const starts = periodStart(sub.startAt, every, sub.period);
  if (starts < sub.pause.from || starts >= sub.pause.until) return false;
  sub.skipped = [...(sub.skipped ?? []), sub.period];
  sub.period += 1;
  sub.nextChargeAt = periodStart(sub.startAt, every, sub.period);
  return true;
}

/**
 * A late approval: of the periods held (started by now, none charged yet), only the last
 * `catchUp` of the plan's policy are charged; the older ones are left unpaid, in arrears.
 */
export function limitCatchUp(ctx: StepContext, sub: Subscription, plan: Plan): void {
  const catchUp = plan.arrears?.catchUp;
  if (catchUp === undefined || catchUp === 'all' || lastOfPeriod(sub)) return;
  const every = intervalOf(sub, plan);
  let held = 0;
  while (periodStart(sub.startAt, every, sub.period + held) <= ctx.now) held += 1;
  const drop = held - catchUp;
  for (let i = 0; i < drop; i++) {
    if (sub.endAt !== undefined && periodStart(sub.startAt, every, sub.period) >= sub.endAt) break;
    if (!(sub.skipped ?? []).includes(sub.period))
      sub.arrears = [...(sub.arrears ?? []), sub.period];
    sub.period += 1;
  }
  if (drop > 0) sub.nextChargeAt = periodStart(sub.startAt, every, sub.period);
}

/**
 * Whether the subscription's mandate was revoked at the provider (the payer cancelled
 * it): looked up before a period's first charge, in the payer's list of approved
 * pre-approvals, by the tag its message carries. Not listed, and not expired: revoked.
 */
export async function revoked(ctx: StepContext, sub: Subscription): Promise<boolean> {
  const { mandate } = sub;
  if (mandate.status !== 'APPROVED' || mandate.terms === undefined) return false;
  const { partyIdType, partyId } = sub.payer;
  const idType = partyIdType === 'PARTY_CODE' ? 'id' : partyIdType.toLowerCase();
  let listed: { message?: unknown }[];
  try {
    listed = await ctx.momo.collection.getApprovedPreApprovals(idType as 'msisdn', partyId);
  } catch {
    return false; // not known now: charged as approved (the provider refuses it if it is not)
  }
  // A list whose entries carry no message cannot tell: charged as approved.
  if (listed.some((p) => typeof p.message !== 'string')) return false;
  const tag = mandateTag(mandate.referenceId);
  return !listed.some((p) => (p.message as string).includes(tag));
}

export { isStopped };
