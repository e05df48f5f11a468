import type {
  Subscription,
  SubscriptionPlan,
  SubscriptionStore,
} from '../contracts/subscription-store';
import { addDecimal } from '../payments/decimal';
import { paid } from './charge';
import { RENEW_BEFORE_MS } from './mandate';
import { periodStart } from './period';
import { intervalOf, mandateTerms } from './terms';

/** One period of one subscription, as finance reads it. */
export interface ReportPeriod {
  key: string;
  plan: string;
  period: number;
  /** Epoch ms the period starts. */
  startsAt: number;
  amount: string;
  currency: string;
  /**
   * PAID (by a charge or its invoice), ARREARS (left unpaid, billing going on), UNPAID
   * (its last charge failed and the subscription stopped), INVOICED (an invoice
   * outstanding), PENDING (a charge awaiting its outcome, or retries to come), SKIPPED (a
   * pause), DUE (not charged yet).
   */
  status: 'PAID' | 'ARREARS' | 'UNPAID' | 'INVOICED' | 'PENDING' | 'SKIPPED' | 'DUE';
  /** The charge (or invoice) that paid it, and when its outcome was recorded. */
  referenceId?: string;
  paidAt?: number;
}

/** What `subs.report({ from, to })` gives (for the finance team: docs/subscriptions.md). */
export interface SubscriptionsReport {
  from: number;
  to: number;
  /** Every period starting in [from, to) of every subscription, by key then period. */
  periods: ReportPeriod[];
  /** Who is in arrears (every unpaid period, whenever it started): how much, since when. */
  arrears: { key: string; periods: number[]; amount: string; currency: string; since: number }[];
  /** Invoices sent and not paid yet. */
  invoices: {
    key: string;
    period: number;
    referenceId: string;
    amount: string;
    currency: string;
    sentAt?: number;
  }[];
  /** Mandates expiring by `to` + 7 days whose renewal is not approved yet. */
  renewals: { key: string; mandate: number; expiresAt: number; renewal?: string }[];
}

function periodOf(sub: Subscription, plan: SubscriptionPlan | undefined, period: number) {
  const charges = sub.charges.filter((c) => c.period === period);
  const terms = plan ? mandateTerms(sub.mandate, plan) : sub.mandate.terms;
  const first = charges.find((c) => c.amount !== undefined);
  const amount = first?.amount ?? terms?.amount ?? '0';
  const currency = first?.currency ?? terms?.currency ?? '';
  const payer = charges.find(paid);
  const last = charges.at(-1);
  let status: ReportPeriod['status'] = 'DUE';
  if (payer) status = 'PAID';
  else if ((sub.arrears ?? []).includes(period)) status = 'ARREARS';
  else if ((sub.skipped ?? []).includes(period)) status = 'SKIPPED';
  else if (last?.invoice?.status === 'PENDING') status = 'INVOICED';
  else if (last?.status === 'FAILED' && (sub.status === 'CANCELLED' || sub.status === 'ENDED'))
    status = 'UNPAID';
  else if (last) status = 'PENDING';
  const paidBy = payer?.status === 'SUCCESSFUL' ? payer : undefined;
  const at = paidBy ? (paidBy.settledAt ?? paidBy.at) : (payer?.invoice?.settledAt ?? payer?.at);
  const referenceId = paidBy?.referenceId ?? payer?.invoice?.referenceId;
  return {
    amount,
    currency,
    status,
    ...(referenceId !== undefined ? { referenceId } : {}),
    ...(at !== undefined && payer ? { paidAt: at } : {}),
  };
}

/** The report over every subscription of `store` (a list of all: run it as a report, not per request). */
export async function buildReport(
  store: SubscriptionStore,
  from: number,
  to: number,
): Promise<SubscriptionsReport> {
  const subs = (await store.list({})).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const plans = new Map<string, SubscriptionPlan | undefined>();
  const report: SubscriptionsReport = {
    from,
    to,
    periods: [],
    arrears: [],
    invoices: [],
    renewals: [],
  };
  for (const sub of subs) {
    if (!plans.has(sub.plan)) plans.set(sub.plan, await store.getPlan(sub.plan));
    const plan = plans.get(sub.plan);
    const every = plan ? intervalOf(sub, plan) : sub.mandate.terms?.every;
    if (every === undefined) continue;
    for (let p = 0; p < 100_000; p++) {
      const startsAt = periodStart(sub.startAt, every, p);
      if (startsAt >= to || (sub.endAt !== undefined && startsAt >= sub.endAt)) break;
      if (startsAt < from) continue;
      const stopped = sub.status === 'CANCELLED' || sub.status === 'ENDED';
      // Stopped: the periods it never reached are not rows, but those it left in arrears
      // (ended with its mandate unapproved, say) are: finance is owed them.
      const listed = sub.charges.some((c) => c.period === p) || sub.arrears?.includes(p);
      if (p >= sub.period && stopped && !listed) {
        if (sub.arrears?.some((a) => a > p)) continue;
        break;
      }
      report.periods.push({
        key: sub.key,
        plan: sub.plan,
        period: p,
        startsAt,
        ...periodOf(sub, plan, p),
      });
    }
    const owed = (sub.arrears ?? []).filter(
      (p) => !sub.charges.some((c) => c.period === p && paid(c)),
    );
    if (owed.length > 0) {
      const rows = owed.map((p) => periodOf(sub, plan, p));
      report.arrears.push({
        key: sub.key,
        periods: owed,
        amount: rows.map((r) => r.amount).reduce(addDecimal),
        currency: rows[0]?.currency ?? '',
        since: periodStart(sub.startAt, every, Math.min(...owed)),
      });
    }
    for (const c of sub.charges) {
      if (c.invoice?.status !== 'PENDING') continue;
      const row = periodOf(sub, plan, c.period);
      report.invoices.push({
        key: sub.key,
        period: c.period,
        referenceId: c.invoice.referenceId,
        amount: row.amount,
        currency: row.currency,
        ...(c.invoice.at !== undefined ? { sentAt: c.invoice.at } : {}),
      });
    }
    const { expiresAt } = sub.mandate;
    const live = sub.status !== 'CANCELLED' && sub.status !== 'ENDED';
    if (
      live &&
      sub.mandate.status === 'APPROVED' &&
      expiresAt !== undefined &&
      expiresAt <= to + RENEW_BEFORE_MS
    ) {
      report.renewals.push({
        key: sub.key,
        mandate: sub.mandate.number,
        expiresAt,
        ...(sub.renewal ? { renewal: sub.renewal.status } : {}),
      });
    }
  }
  return report;
}
