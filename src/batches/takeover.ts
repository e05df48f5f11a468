import type { BatchClaimToken, BatchRecord } from '../contracts/batch-store';
import type { ConcurrencyLimit } from '../payments/concurrency-limit';
import { sleep } from '../payments/time';
import { leaseOf } from './claims';
import { adoptRecord, CLAIMED, type ItemState, type RunContext, runItem, TAKEN_OVER } from './item';
import { refusedRecord } from './refused-record';

/** How often an item another process holds is looked at, at most (a third of a short lease). */
const MAX_POLL_MS = 1_000;

type Item = { body: unknown; callbackUrl?: unknown };

/**
 * An item's way when other processes run the same batch (docs/batches.md, "a dead process's
 * work goes on at once"): `runItem`, and while another process holds the item's claim,
 * the item is awaited rather than given up: its record is read every poll (a third of
 * the lease, at most a second) and, once another process recorded it final, it is
 * reported with that outcome; once the claim lapsed (its holder died, or let it go
 * undone), this run claims it (the store's fenced claim) and carries it on under its
 * recorded reference id: an intent never sent is sent, a SENT one only waited on.
 * Past `waitTimeoutMs` from when the awaiting began, the item is UNRESOLVED (claimed by
 * another process, or its claim taken over by another process); without `waitTimeoutMs`
 * it is awaited until it ends or is taken over (the holder's own wait has its deadline;
 * a dead holder's claim lapses in a lease).
 * `stopping`: whether the run stops (an error of another item): nothing more is awaited.
 */
export async function runOrTakeOver(
  run: RunContext,
  slot: ItemState,
  item: Item,
  freeSendSlot: () => void,
  sendLimit: ConcurrencyLimit,
  stopping: () => boolean,
): Promise<void> {
  await runItem(run, slot, item, freeSendSlot);
  if (!heldElsewhere(slot)) return;
  let why = slot.reason as string;
  const { handle, options } = run;
  const leaseMs = leaseOf(handle);
  const pollMs = Math.max(1, Math.min(MAX_POLL_MS, leaseMs / 3));
  const { waitTimeoutMs } = options;
  const deadline =
    waitTimeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + waitTimeoutMs;
  for (;;) {
    try {
      await sleep(Math.max(1, Math.min(pollMs, deadline - Date.now())), options.signal);
    } catch {
      return end(slot, 'UNRESOLVED', why); // stopped: the run rejects with the signal's reason
    }
    // Another item stopped the run: it rejects with that error.
    if (stopping()) return end(slot, 'UNRESOLVED', why);
    const record = await handle.get(slot.key);
    const refused = record && refusedRecord(run, slot, record);
    if (refused) return end(slot, 'REJECTED', refused);
    if (record && adopt(run, slot, record)) return; // another process ended it
    if (Date.now() >= deadline) return end(slot, 'UNRESOLVED', why);
    const token = await claimLapsed(run, slot, leaseMs, sendLimit);
    if (token === undefined) continue;
    end(slot, undefined);
    await runItem(run, slot, item, token.free, token);
    if (!heldElsewhere(slot)) return;
    why = slot.reason as string;
  }
}

/** Whether the item was left to another process that holds (or took over) its claim. */
function heldElsewhere(slot: ItemState): boolean {
  return slot.status === 'UNRESOLVED' && (slot.reason === CLAIMED || slot.reason === TAKEN_OVER);
}

/**
 * The item's claim when its holder's lapsed, with a send slot held when the item may
 * still be sent (a SENT one needs none: it is only waited on); undefined while held.
 */
async function claimLapsed(
  run: RunContext,
  slot: ItemState,
  leaseMs: number,
  sendLimit: ConcurrencyLimit,
): Promise<{ token: BatchClaimToken; askedAt: number; free: () => void } | undefined> {
  let held = slot.sent !== true;
  const free = () => {
    if (held) sendLimit.release();
    held = false;
  };
  if (held) await sendLimit.acquire();
  try {
    const askedAt = Date.now();
    const token = await run.handle.claim(slot.key, run.owner, leaseMs);
    if (token === undefined) free();
    return token === undefined ? undefined : { token, askedAt, free };
  } catch (error) {
    free();
    throw error;
  }
}

/** Sets (or, with undefined, clears) how the item ended; the slot's fields stay in place. */
function end(slot: ItemState, status: ItemState['status'] | undefined, reason?: string): void {
  const fields = slot as { status?: ItemState['status'] | undefined; reason?: string | undefined };
  fields.status = status;
  fields.reason = reason;
}

/**
 * Takes in what the store holds of the item (its reference id, SENT, or its final
 * outcome), counted in the progress once; true when another process ended it.
 */
function adopt(run: RunContext, slot: ItemState, record: BatchRecord): boolean {
  const counted = slot.sent === true;
  end(slot, undefined);
  adoptRecord(slot, record);
  const ended = slot.status !== undefined;
  if (counted && !ended) return false;
  run.progress.change((c) => {
    if (!counted) c.sent += 1;
    if (slot.status === 'SUCCESSFUL') c.successful += 1;
    if (slot.status === 'FAILED') c.failed += 1;
  });
  return ended;
}
