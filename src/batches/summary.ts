import { addDecimal, isDecimalText } from '../payments/decimal';
import type { BatchProgress, BatchReport, BatchReportItem, BatchSummary } from './types';

/** The money an item moves, when its body names an amount and a currency. */
export interface Money {
  amount: string;
  currency: string;
}

export function moneyOf(body: unknown): Money | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as { amount?: unknown; currency?: unknown; money?: unknown };
  const source = b.money && typeof b.money === 'object' ? (b.money as typeof b) : b;
  const { amount, currency } = source;
  return isDecimalText(amount) && typeof currency === 'string' ? { amount, currency } : undefined;
}

/** The report: the summary counted from the items (in input order) and their money. */
export function buildReport(
  items: BatchReportItem[],
  moneyAt: (index: number) => Money | undefined,
): BatchReport {
  const summary: BatchSummary = {
    total: items.length,
    successful: 0,
    failed: 0,
    rejected: 0,
    skipped: 0,
    unresolved: 0,
    amounts: {},
    failures: {},
  };
  items.forEach((item, index) => {
    const field = STATUS_FIELD[item.status];
    summary[field] += 1;
    if (item.status === 'FAILED') {
      const code = item.reason ?? 'UNKNOWN';
      summary.failures[code] = (summary.failures[code] ?? 0) + 1;
    }
    const m = moneyAt(index);
    if (m && (item.status === 'SUCCESSFUL' || item.status === 'FAILED')) {
      const sums = summary.amounts[m.currency] ?? { successful: '0', failed: '0' };
      summary.amounts[m.currency] = sums;
      const side = item.status === 'SUCCESSFUL' ? 'successful' : 'failed';
      sums[side] = addDecimal(sums[side], m.amount);
    }
  });
  return { summary, items };
}

const STATUS_FIELD = {
  SUCCESSFUL: 'successful',
  FAILED: 'failed',
  REJECTED: 'rejected',
  SKIPPED: 'skipped',
  UNRESOLVED: 'unresolved',
} as const;

/** The counts `onProgress` gets, kept as items move. */
export class ProgressCounts {
  readonly counts: BatchProgress = {
    total: 0,
    rejected: 0,
    skipped: 0,
    sent: 0,
    successful: 0,
    failed: 0,
    pending: 0,
  };
  readonly #listener: ((progress: BatchProgress) => void) | undefined;

  constructor(listener: ((progress: BatchProgress) => void) | undefined) {
    this.#listener = listener;
  }

  /** Applies a change and tells the listener (a throw of its own is ignored). */
  change(apply: (counts: BatchProgress) => void): void {
    apply(this.counts);
    this.counts.pending = this.counts.sent - this.counts.successful - this.counts.failed;
    if (!this.#listener) return;
    try {
      this.#listener({ ...this.counts });
    } catch {
      // The partner's progress display must not stop payments.
    }
  }
}
