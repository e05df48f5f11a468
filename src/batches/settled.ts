import type { BatchHandle, BatchOutcome } from '../contracts/batch-store';
import type { HeldClaim } from '../payments/claims';
import { deliverAtLeastOnce, owed } from '../payments/deliver';
import type { BatchRunOptions, SettledBatchItem } from './types';

/** What the item's slot tells of it (the runner's `ItemState`). */
interface SlotLike {
  readonly key: string;
  readonly operation: string;
  referenceId?: string;
  amount?: string;
  currency?: string;
}

/** The final outcome of an item as its store records it. */
export type FinalOutcome = BatchOutcome & { status: 'SUCCESSFUL' | 'FAILED' };

/**
 * Records an item's final outcome, and runs the run's `onItemSettled` for it at least
 * once, on the kernel's one mechanism (src/payments/deliver.ts): in the store's
 * transaction when the store has one, else after a write marked `delivered: false` (a
 * crash between the two: the next run looks the item up again and runs the hook again).
 * Resolves to undefined, or to the reason the item stays UNRESOLVED when the hook threw
 * (the outcome then kept unrecorded, or marked).
 */
export async function recordFinal(
  run: { handle: BatchHandle; options: BatchRunOptions },
  slot: SlotLike,
  outcome: FinalOutcome,
  claim: HeldClaim,
): Promise<string | undefined> {
  const { handle } = run;
  const hook = run.options.onItemSettled;
  const item = hook && settledItem(handle.id, slot, outcome);
  const delivery = await deliverAtLeastOnce<unknown>(
    'onItemSettled',
    hook && ((tx) => hook(item as SettledBatchItem, tx)),
    {
      recordOwed: (deliver) =>
        claim.write((t) => handle.recordOutcome(slot.key, owed(outcome), t, deliver)),
      recordDelivered: () => claim.write((t) => handle.recordOutcome(slot.key, outcome, t)),
    },
  );
  if (delivery.outcome !== 'failed') return undefined; // done, or fenced out: its new owner records it
  return `${delivery.error.message} (the outcome is not recorded: the next run runs it again)`;
}

function settledItem(batchId: string, slot: SlotLike, outcome: FinalOutcome): SettledBatchItem {
  const item: SettledBatchItem = {
    batchId,
    key: slot.key,
    operation: slot.operation,
    referenceId: slot.referenceId as string,
    status: outcome.status,
  };
  if (outcome.reason !== undefined) item.reason = outcome.reason;
  if (outcome.financialTransactionId !== undefined) {
    item.financialTransactionId = outcome.financialTransactionId;
  }
  if (slot.amount !== undefined) item.amount = slot.amount;
  if (slot.currency !== undefined) item.currency = slot.currency;
  return item;
}
