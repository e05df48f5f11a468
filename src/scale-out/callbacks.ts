import type { Tracked } from '../callbacks/registry';
import type { ClientContext } from '../context';
import type { StatusLike } from '../schemas/common';
import { lookupOf } from './lookups';

/**
 * An operation this process never created or awaited, as the journal (shared by every
 * instance when it is Redis) knows it: its name, hence the lookup that confirms it.
 */
export async function trackedByJournal(
  ctx: ClientContext,
  referenceId: string,
): Promise<Tracked | undefined> {
  const entry = await ctx.journal.get(referenceId);
  // Another platform's operation can only be confirmed there: unknown here.
  if (!entry || !ctx.journal.isHere(entry)) return undefined;
  const lookup = lookupOf(ctx, entry.operation);
  const api = ctx.api;
  return {
    operation: entry.operation,
    lookup: lookup && ((signal) => api.lookup(lookup, referenceId, signal ? { signal } : {})),
  };
}

/**
 * What a callback taught this instance, passed on: a final result confirmed by a lookup
 * is marked in the journal and published to every instance's waits (as a hint: each
 * looks it up again). An operation with no lookup is marked from the callback's own final
 * status only once its callback token was checked (the handler calls this then), and is
 * never published: nothing waits on it, and a bus message proves nothing.
 */
export async function shareOutcome(
  ctx: ClientContext,
  referenceId: string,
  confirmed: StatusLike | undefined,
  claimed: string,
): Promise<void> {
  const status = confirmed ? confirmed.status : claimed;
  if (status !== 'SUCCESSFUL' && status !== 'FAILED') return;
  await ctx.journal.finish(referenceId, status);
  if (confirmed) await ctx.callbackBus.publish(referenceId, confirmed);
}
