import type {
  PlanInterval,
  Subscription,
  SubscriptionCharge,
  SubscriptionMandate,
  SubscriptionTerms,
} from '../contracts/subscription-store';
import { canonicalDecimal } from '../payments/decimal';
import type { Plan } from './context';

/**
 * The terms a payer agreed to (DESIGN 10.3): a pre-approval carries no amount and no
 * frequency, so the terms its message stated are kept with the mandate, and they, not the
 * plan as it is now, say what a charge under it may ask.
 */

/** A plan's terms now (what a new mandate for it states). */
export const planTerms = (plan: Plan): SubscriptionTerms => ({
  amount: plan.amount,
  currency: plan.currency,
  every: typeof plan.every === 'object' ? { days: plan.every.days } : plan.every,
});

/**
 * The terms of a mandate: those it stated, or (a mandate asked for before terms were
 * kept) the plan's, as it was charged under until then.
 */
export const mandateTerms = (mandate: SubscriptionMandate, plan: Plan): SubscriptionTerms =>
  mandate.terms ?? planTerms(plan);

/**
 * The money of the next charge of `sub`'s current period: fixed by the period's first
 * charge (its retries and re-sends keep it), else the terms its mandate stated (the plan's,
 * for a mandate kept before terms were; undefined with neither), never the plan as it is
 * now (DESIGN 10.3).
 */
export function periodMoney(
  sub: Subscription,
  plan: Plan | undefined,
): { amount: string; currency: string } | undefined {
  const first = sub.charges.find((c) => c.period === sub.period && c.amount !== undefined);
  const terms = sub.mandate.terms ?? (plan ? planTerms(plan) : undefined);
  const amount = first?.amount ?? terms?.amount;
  const currency = first?.currency ?? terms?.currency;
  return amount !== undefined && currency !== undefined ? { amount, currency } : undefined;
}

/** The interval the subscription's periods are counted by: its mandate's. */
export const intervalOf = (sub: Subscription, plan: Plan): PlanInterval =>
  mandateTerms(sub.mandate, plan).every;

/** The interval in words, as a mandate's message states it. */
export function intervalText(every: PlanInterval): string {
  if (every === 'day') return 'a day';
  if (every === 'week') return 'a week';
  if (every === 'month') return 'a month';
  return every.days === 1 ? 'a day' : `every ${every.days} days`;
}

/**
 * A mandate's `payerMessage`: the terms it states, the plan's own message, and a short
 * reference of its own (the first 8 hex digits of its reference id), by which `cancel`
 * tells it apart in the provider's list of approved pre-approvals. At most 160 characters.
 */
export function mandateMessage(terms: SubscriptionTerms, plan: Plan, referenceId: string): string {
  const stated = `${terms.amount} ${terms.currency} ${intervalText(terms.every)}`;
  const ref = mandateTag(referenceId);
  const note = plan.payerMessage === undefined ? '' : ` (${plan.payerMessage})`;
  const full = `${stated}${note}, ${ref}`;
  return full.length <= 160 ? full : `${stated}, ${ref}`;
}

/** The tag in a mandate's message naming it. */
export const mandateTag = (referenceId: string): string =>
  `ref ${referenceId.replace(/-/g, '').slice(0, 8)}`;

/** The same terms (the amount as a decimal: "50" is "50.00"). */
export const sameTerms = (a: SubscriptionTerms, b: SubscriptionTerms): boolean =>
  compareDecimal(a.amount, b.amount) === 0 &&
  a.currency === b.currency &&
  JSON.stringify(a.every) === JSON.stringify(b.every);

/** Whether `charge` asks no more than `terms` allow: the same currency, an amount not above. */
export function withinTerms(
  charge: Pick<SubscriptionCharge, 'amount' | 'currency'>,
  terms: SubscriptionTerms,
): boolean {
  if (charge.amount === undefined || charge.currency === undefined) return false;
  return charge.currency === terms.currency && compareDecimal(charge.amount, terms.amount) <= 0;
}

/**
 * -1, 0 or 1 as decimal amount `a` is below, at or above `b`, on the kernel's one
 * spelling of an amount (`canonicalDecimal`): the longer whole part is the larger, then
 * digit by digit.
 */
export function compareDecimal(a: string, b: string): number {
  const [aw = '', af = ''] = canonicalDecimal(a).split('.');
  const [bw = '', bf = ''] = canonicalDecimal(b).split('.');
  if (aw.length !== bw.length) return aw.length < bw.length ? -1 : 1;
  const scale = Math.max(af.length, bf.length);
  const x = aw + af.padEnd(scale, '0');
  const y = bw + bf.padEnd(scale, '0');
  return x === y ? 0 : x < y ? -1 : 1;
}
