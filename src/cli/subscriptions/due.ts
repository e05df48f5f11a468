import type {
  Subscription,
  SubscriptionPlan,
  SubscriptionStore,
} from '../../contracts/subscription-store';
import { addDecimal } from '../../payments/decimal';
import { periodMoney } from '../../subscriptions/terms';

/** What is due by a time for one plan (its currency): `subscriptions due`'s row. */
export interface DueGroup {
  plan: string;
  /** The currency of the terms its subscriptions were approved under (else the plan's; '' with neither). */
  currency: string;
  /** Subscriptions of the plan due by then (a charge, a retry, or a mandate to look at). */
  subscriptions: number;
  /** Their next charges due by then (ACTIVE or PAST_DUE): one per subscription. */
  charges: number;
  /** How many of those are retries (the subscription PAST_DUE). */
  retries: number;
  /**
   * The charges' amount, an exact decimal: each its own subscription's (its period's amount
   * if already charged, else the terms its mandate stated), never the plan's current amount.
   */
  amount: string;
  /** Due, but waiting for the payer to approve the mandate (charged once approved). */
  awaitingMandate: number;
}

/** `subscriptions due`'s answer. */
export interface DueReport {
  until: string;
  subscriptions: number;
  groups: DueGroup[];
  /** The charges' amounts per currency. */
  totals: Record<string, string>;
}

/**
 * The subscriptions whose `dueAt` is at or before `until`, read from the store's due index
 * (never every subscription), grouped per plan and currency.
 */
export async function dueBy(store: SubscriptionStore, until: Date): Promise<DueReport> {
  const at = until.getTime();
  // A stopped subscription is in the due index only while it watches a mandate its payer
  // has not answered (docs/assumptions.md ST10): nothing of it is due to collect.
  const subs = (await store.list({ dueBefore: at + 1 })).filter(
    (s) => s.status !== 'CANCELLED' && s.status !== 'ENDED',
  );
  const plans = new Map<string, SubscriptionPlan | undefined>();
  const groups = new Map<string, DueGroup>();
  const totals: Record<string, string> = {};
  for (const sub of subs) {
    if (!plans.has(sub.plan)) plans.set(sub.plan, await store.getPlan(sub.plan));
    const plan = plans.get(sub.plan);
    // The subscription's own terms: a plan redefined since its mandate changes none of them.
    const money = periodMoney(sub, plan);
    const currency = money?.currency ?? plan?.currency ?? '';
    const id = `${sub.plan}\u0000${currency}`;
    const group = groups.get(id) ?? emptyGroup(sub.plan, currency);
    groups.set(id, group);
    group.subscriptions += 1;
    if (sub.status === 'PENDING_MANDATE') group.awaitingMandate += 1;
    if (!chargeDue(sub, at)) continue;
    group.charges += 1;
    if (sub.status === 'PAST_DUE') group.retries += 1;
    if (!money) continue;
    group.amount = addDecimal(group.amount, money.amount);
    totals[currency] = addDecimal(totals[currency] ?? '0', money.amount);
  }
  const sorted = [...groups.values()].sort(
    (a, b) => a.plan.localeCompare(b.plan) || a.currency.localeCompare(b.currency),
  );
  return { until: until.toISOString(), subscriptions: subs.length, groups: sorted, totals };
}

const emptyGroup = (plan: string, currency: string): DueGroup => ({
  plan,
  currency,
  subscriptions: 0,
  charges: 0,
  retries: 0,
  amount: '0',
  awaitingMandate: 0,
});

/** A charge (or retry) is due by `at`: the subscription collects, and its next charge is then. */
function chargeDue(sub: Subscription, at: number): boolean {
  const collecting = sub.status === 'ACTIVE' || sub.status === 'PAST_DUE';
  return collecting && sub.nextChargeAt !== undefined && sub.nextChargeAt <= at;
}

/** The human text of `subscriptions due`. */
export function dueText(report: DueReport, dir: string): string {
  const n = report.subscriptions;
  const lines = [
    `subscriptions due by ${report.until} (${dir}): ${n} subscription${n === 1 ? '' : 's'}`,
  ];
  for (const g of report.groups) {
    const retries = g.retries > 0 ? ` (${g.retries} retr${g.retries === 1 ? 'y' : 'ies'})` : '';
    const money = g.currency ? `${g.amount} ${g.currency}` : 'plan not found';
    const waiting = g.awaitingMandate > 0 ? `; ${g.awaitingMandate} awaiting the mandate` : '';
    lines.push(`  ${g.plan}: ${g.charges} charges${retries}, ${money}${waiting}`);
  }
  for (const [currency, amount] of Object.entries(report.totals)) {
    lines.push(`  total ${currency}: ${amount}`);
  }
  return `${lines.join('\n')}\n`;
}
