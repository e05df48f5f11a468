/**
 * The kernel's one way to deliver a final outcome at least once, under every driver's
 * hook (a batch's `onItemSettled`, the outbox's `onSettled`, a subscription's `onCharge`):
 *
 * - the outcome is recorded with its delivery owed (the one marker: `delivered: false`),
 *   and the hook run in the store's transaction that records it when the store has one
 *   (the mark then cleared in that same transaction: both commit, or neither);
 * - a store without transactions records the marked outcome first, then the hook runs,
 *   then the mark is cleared: a crash between the two leaves the mark, and whoever reads
 *   the record next (a re-run, another relay, the next pass) delivers it again;
 * - a hook that throws (or leaves the store's transaction failed) is one error,
 *   `HookFailed`: the delivery stays owed and runs again later, never lost.
 *
 * The hook therefore runs at least once per outcome, and may run more than once: the
 * partner's hook is written to be idempotent (docs/batches.md, docs/postgres.md).
 */

/** The one marker of an outcome recorded whose hook has not returned yet. */
export const OWED = { delivered: false } as const;

/** `outcome` as recorded while its delivery is owed. */
export function owed<T extends object>(outcome: T): T & typeof OWED {
  return { ...outcome, ...OWED };
}

/** How a driver's store records one final outcome for the mechanism. */
export interface OutcomeWrites<Tx> {
  /**
   * Records the outcome marked owed, running `deliver` in the transaction that records
   * it when the store has one (and then not marked: delivered in it). Resolves false when
   * fenced out (another process holds the payment: nothing written, nothing run).
   */
  recordOwed(deliver: (tx: Tx) => Promise<void>): Promise<boolean>;
  /** Records the outcome delivered (no mark): after the hook ran outside a transaction, or when there is no hook. */
  recordDelivered(): Promise<boolean>;
}

/** The hook threw, or left the store's transaction failed: its delivery runs again later. */
export class HookFailed extends Error {
  /** The hook's name as the partner passed it (`onItemSettled`, `onSettled`, `onCharge`). */
  readonly hook: string;

  constructor(hook: string, cause: unknown) {
    super(`${hook} threw ${describe(cause)}`, { cause });
    this.name = 'HookFailed';
    this.hook = hook;
  }
}

/** What became of one delivery. */
export type Delivery =
  | { readonly outcome: 'delivered' }
  | { readonly outcome: 'fenced' }
  | { readonly outcome: 'failed'; readonly error: HookFailed };

const DELIVERED: Delivery = { outcome: 'delivered' };
const FENCED: Delivery = { outcome: 'fenced' };

/**
 * Records a final outcome and delivers it to `hook` at least once (see above). Rejects
 * only with the store's own failure (nothing run: the driver retries the write as any
 * other); a throw of the hook resolves `failed`, the outcome recorded owed when it could be.
 */
export async function deliverAtLeastOnce<Tx>(
  name: string,
  hook: ((tx: Tx | undefined) => Promise<void> | void) | undefined,
  writes: OutcomeWrites<Tx>,
): Promise<Delivery> {
  if (!hook) return (await writes.recordDelivered()) ? DELIVERED : FENCED;
  let ran = false;
  try {
    const written = await writes.recordOwed(async (tx) => {
      ran = true;
      await hook(tx);
    });
    if (!written) return FENCED;
    if (ran) return DELIVERED; // in the transaction that recorded it
  } catch (error) {
    if (!ran) throw error; // the store's own failure
    return { outcome: 'failed', error: new HookFailed(name, error) };
  }
  try {
    await hook(undefined);
  } catch (error) {
    return { outcome: 'failed', error: new HookFailed(name, error) }; // the mark stays
  }
  return (await writes.recordDelivered()) ? DELIVERED : FENCED;
}

/** An error's name and (short) message: never its stack, never a body. */
function describe(error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  const short = message.length > 200 ? `${message.slice(0, 200)}…` : message;
  return `${name}: ${short}`;
}
