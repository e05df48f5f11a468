import type { Subscription, SubscriptionMandate } from '../contracts/subscription-store';
import type { Plan, StepContext } from './context';
import { DAY } from './period';
import { expiryOf, look, operations } from './provider';
import { mandateTerms } from './terms';

/**
 * Mandates a stopped subscription asked for that the payer had not answered when it
 * stopped (docs/assumptions.md ST10). The provider cannot cancel a pending pre-approval,
 * and a payer may still approve it later: an approved one nobody charges under would let
 * any request to pay from this partner to this payer through without a prompt. So the
 * stopped subscription stays due while one is pending: each look finds it approved
 * (cancelled at once by the pass, as every approved mandate of a stopped subscription
 * is), declined, or still pending (looked at again, less often as time goes by), until
 * `mandateDays` after the stop.
 */

/** Every mandate of `sub` still awaiting the payer's answer. */
export function unanswered(sub: Subscription): SubscriptionMandate[] {
  const all = [sub.mandate, sub.renewal, sub.change?.mandate, ...(sub.replaced ?? [])];
  return all.filter((m): m is SubscriptionMandate => m?.status === 'PENDING');
}

/**
 * Looks each unanswered mandate of a stopped `sub` up: APPROVED (with its expiry: the
 * pass then cancels it), DECLINED, or left PENDING. Never asks for one again. A lookup
 * that fails leaves it pending (looked at again).
 */
export async function lookUnanswered(
  ctx: StepContext,
  sub: Subscription,
  plan: Plan,
): Promise<void> {
  for (const mandate of unanswered(sub)) {
    try {
      const found = await look(ctx.momo, operations.mandate(), mandate.referenceId, 0, {
        payer: sub.payer,
        payerCurrency: mandateTerms(mandate, plan).currency,
      });
      if (found.status === 'SUCCESSFUL') {
        mandate.status = 'APPROVED';
        mandate.expiresAt = expiryOf(found.result) ?? ctx.now + sub.mandateDays * DAY;
      } else if (found.status === 'FAILED') {
        mandate.status = 'DECLINED';
        mandate.reason = found.reason ?? 'UNKNOWN';
      } else if (found.status === 'NOT_SENT') {
        mandate.status = 'CANCELLED'; // the provider holds none: nothing to approve
        mandate.reason = 'NOT_SENT';
      }
    } catch {
      // Not known now: looked at again.
    }
  }
}

/**
 * When a stopped subscription is looked at next: while a mandate is unanswered, after
 * `recheckMs`, then less often (an eighth of the time since the stop, at most a day),
 * until `mandateDays` after the stop; then (and with none unanswered) never.
 */
export function watchDueAt(sub: Subscription, now: number, recheckMs: number): number | undefined {
  const pending = unanswered(sub);
  if (pending.length === 0) return undefined;
  sub.stoppedAt ??= now;
  if (now >= sub.stoppedAt + sub.mandateDays * DAY) {
    for (const mandate of pending) {
      mandate.status = 'EXPIRED';
      mandate.reason = 'UNANSWERED'; // not approved within mandateDays of the stop
    }
    return undefined;
  }
  const wait = Math.min(DAY, Math.max(recheckMs, (now - sub.stoppedAt) / 8));
  return Math.max(now + 1, Math.round(now + wait));
}
