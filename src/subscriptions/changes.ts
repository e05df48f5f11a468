import type { ClientSurface } from '../client-surface';
import type { Subscription, SubscriptionStore } from '../contracts/subscription-store';
import { ValidationError } from '../errors';
import { nextMandateNumber, requestMandate } from './mandate';
import { epochMs } from './plan';
import { mandateTerms, planTerms, sameTerms } from './terms';

const issue = (path: string, message: string) => new ValidationError([{ path, message }]);

/** What a change to a subscription's record needs. */
export interface ChangeContext {
  momo: ClientSurface;
  store: SubscriptionStore;
  secret: string;
  now: number;
}

/**
 * Changes the stored subscription of `key` with `change` (which may call the provider),
 * written by compare-and-set, read again and redone when another writer came first.
 */
async function update(
  ctx: ChangeContext,
  key: string,
  change: (sub: Subscription) => Promise<void> | void,
): Promise<Subscription> {
  for (;;) {
    const stored = await ctx.store.get(key);
    if (!stored) throw issue('key', `no subscription ${JSON.stringify(key)}`);
    const sub = stored.subscription;
    if (sub.status === 'CANCELLED' || sub.status === 'ENDED') {
      throw issue('key', `subscription ${JSON.stringify(key)} is ${sub.status}`);
    }
    await change(sub);
    sub.dueAt = Math.min(sub.dueAt ?? ctx.now, ctx.now); // the next pass looks at it
    sub.updatedAt = ctx.now;
    if ((await ctx.store.put(sub, stored.version)) !== undefined) {
      const { lease: _, ...written } = sub;
      return written;
    }
  }
}

/**
 * `subs.changePlan(key, planId, { from })`: the payer is asked for a new mandate stating
 * the new plan's terms; they apply from the first period starting after its approval (and
 * at or after `from`), the old terms until then (docs/subscriptions.md). Terms the same as the
 * mandate's: the plan is changed at once, no mandate asked for. A plan of another interval
 * is refused (the periods are counted by the interval the payer agreed to).
 */
export async function changePlan(
  ctx: ChangeContext,
  key: string,
  planId: string,
  options: { from?: Date | number | undefined } = {},
): Promise<Subscription> {
  const plan = await ctx.store.getPlan(planId);
  if (!plan) throw issue('plan', `no plan ${JSON.stringify(planId)}: define it with subs.plan()`);
  const from = options.from === undefined ? ctx.now : epochMs(options.from);
  if (from === undefined) throw issue('from', 'must be a Date or epoch milliseconds');
  return update(ctx, key, async (sub) => {
    const current = await ctx.store.getPlan(sub.plan);
    const terms = planTerms(plan);
    const agreed = current ? mandateTerms(sub.mandate, current) : sub.mandate.terms;
    if (agreed && JSON.stringify(agreed.every) !== JSON.stringify(terms.every)) {
      throw issue('plan', 'charges at another interval: cancel and subscribe again');
    }
    if (agreed && sameTerms(agreed, terms)) {
      sub.plan = plan.id;
      return;
    }
    if (sub.change) sub.replaced = [...(sub.replaced ?? []), sub.change.mandate];
    const step = {
      momo: ctx.momo,
      secret: ctx.secret,
      now: ctx.now,
      waitMs: 0,
      recheckMs: 0,
      save: async () => {},
      changed: () => {},
    };
    const mandate = await requestMandate(step, sub, plan, nextMandateNumber(sub), terms);
    sub.change = { plan: plan.id, from, mandate };
  });
}

/** `subs.pause(key, { until })`: the periods starting from now until then are skipped. */
export function pause(
  ctx: ChangeContext,
  key: string,
  until: Date | number,
): Promise<Subscription> {
  const end = epochMs(until);
  if (end === undefined || end <= ctx.now) throw issue('until', 'must be a Date after now');
  return update(ctx, key, (sub) => {
    sub.pause = { from: sub.pause?.from ?? ctx.now, until: end };
  });
}

/** `subs.resume(key)`: the pause ends now (the periods from now on are charged). */
export function resume(ctx: ChangeContext, key: string): Promise<Subscription> {
  return update(ctx, key, (sub) => {
    if (sub.pause) sub.pause = { from: sub.pause.from, until: Math.min(sub.pause.until, ctx.now) };
  });
}
