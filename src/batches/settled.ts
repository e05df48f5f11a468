import type { BatchHandle, BatchOutcome } from '../contracts/batch-store';
import type { HeldClaim } from '../payments/claims';
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
 * Records an item's final outcome, and runs the run's `onItemSettled` for it: in the
 * store's transaction when the store has one (it runs `settled` in its write), else after
 * the write, the outcome first recorded marked `delivered: false` and recorded again
 * without the mark once the hook returned (a crash between the two: the next run looks
 * the item up again and runs the hook again). Resolves to undefined, or to the reason the
 * item stays UNRESOLVED when the hook threw (the outcome then kept unrecorded, or marked).
 */
export async function recordFinal(
  run: { handle: BatchHandle; options: BatchRunOptions },
  slot: SlotLike,
  outcome: FinalOutcome,
  claim: HeldClaim,
): Promise<string | undefined> {
  const { handle } = run;
  const hook = run.options.onItemSettled;
  if (!hook) {
    await claim.write((t) => handle.recordOutcome(slot.key, outcome, t));
    return undefined;
  }
  const item = settledItem(handle.id, slot, outcome);
  let ran = false;
  const settled = async (tx: unknown) => {
    ran = true;
    await hook(item, tx);
  };
  try {
    const marked = { ...outcome, delivered: false as const };
    const written = await claim.write((t) => handle.recordOutcome(slot.key, marked, t, settled));
    if (!written || ran) return undefined; // fenced out (its new owner records it), or done
  } catch (error) {
    if (!ran) throw error; // the store's own failure
    return hookFailed(error);
  }
  try {
    await hook(item, undefined);
  } catch (error) {
    return hookFailed(error);
  }
  await claim.write((t) => handle.recordOutcome(slot.key, outcome, t));
  return undefined;
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

/** The item's reason when its hook threw: the error's name and (short) message. */
function hookFailed(error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  const short = message.length > 200 ? `${message.slice(0, 200)}…` : message;
  return `onItemSettled threw ${name}: ${short} (the outcome is not recorded: the next run runs it again)`;
}
