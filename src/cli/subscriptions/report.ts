import type { SubscriptionsReport } from '../../subscriptions/report';
import { csvLine } from '../csv';

const iso = (ms: number | undefined) => (ms === undefined ? '' : new Date(ms).toISOString());

const HEADER = [
  'key',
  'plan',
  'period',
  'starts_at',
  'amount',
  'currency',
  'status',
  'reference_id',
  'paid_at',
  'arrears_amount',
  'arrears_since',
  'mandate_expires_at',
];

/**
 * `subscriptions report` as CSV: one row per subscription and period starting in the
 * range (who paid, by which charge or invoice, when), each row also telling its
 * subscription's arrears (amount, since when; every unpaid period, whenever it started)
 * and, for a mandate to renew, when it expires. Cells as `payouts` writes them (a cell
 * a spreadsheet would run as a formula is quoted with a leading apostrophe).
 */
export function reportCsv(report: SubscriptionsReport): string {
  const arrears = new Map(report.arrears.map((a) => [a.key, a]));
  const renewals = new Map(report.renewals.map((r) => [r.key, r]));
  const lines = [csvLine(HEADER)];
  for (const row of report.periods) {
    const owed = arrears.get(row.key);
    lines.push(
      csvLine([
        row.key,
        row.plan,
        String(row.period),
        iso(row.startsAt),
        row.amount,
        row.currency,
        row.status,
        row.referenceId ?? '',
        iso(row.paidAt),
        owed ? `${owed.amount}` : '',
        owed ? iso(owed.since) : '',
        iso(renewals.get(row.key)?.expiresAt),
      ]),
    );
  }
  return lines.join('');
}
