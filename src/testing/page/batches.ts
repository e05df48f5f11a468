import { batchItemOf } from '../tagging';
import type { SimTransaction, TransactionStatus } from '../types';

/**
 * A batch as the simulator sees it: the transactions whose caller tag names it
 * (`<batch id>/<item key>`, sent by `sim.client()` and the CLI). Rows never sent (REJECTED,
 * SKIPPED, not reached yet) are not here: the simulator knows only what it received.
 */
export interface PageBatch {
  readonly id: string;
  /** Rows received, in the order they were created. */
  readonly total: number;
  readonly counts: Readonly<Record<TransactionStatus, number>>;
  readonly rows: readonly PageBatchRow[];
}

export interface PageBatchRow {
  readonly key: string;
  readonly referenceId: string;
  readonly operation: string;
  readonly amount?: string;
  readonly currency?: string;
  readonly status: string;
  readonly reason?: string;
}

/** The batches among `transactions`, most recently started first. */
export function batchesOf(transactions: readonly SimTransaction[]): PageBatch[] {
  const batches = new Map<string, PageBatch & { counts: Record<TransactionStatus, number> }>();
  for (const tx of transactions) {
    // A charge under a pre-approval is shown under it (payersOf), not as a batch row:
    // a subscription's charges are tagged `<subscription key>/<period>`.
    if (tx.underPreApproval !== undefined) continue;
    const externalId = (tx.body as { externalId?: unknown } | null)?.externalId;
    const item = batchItemOf(tx.tag, externalId);
    if (!item) continue;
    let batch = batches.get(item.batch);
    if (!batch) {
      batch = {
        id: item.batch,
        total: 0,
        counts: { PENDING: 0, SUCCESSFUL: 0, FAILED: 0 },
        rows: [],
      };
      batches.set(item.batch, batch);
    }
    batch.counts[tx.status] += 1;
    (batch.rows as PageBatchRow[]).push({
      key: item.key,
      referenceId: tx.referenceId,
      operation: tx.operation,
      ...(tx.amount !== undefined ? { amount: tx.amount } : {}),
      ...(tx.currency !== undefined ? { currency: tx.currency } : {}),
      status: tx.status,
      ...(tx.reason ? { reason: tx.reason.code } : {}),
    });
  }
  return [...batches.values()].map((batch) => ({ ...batch, total: batch.rows.length })).reverse();
}
