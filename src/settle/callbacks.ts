import type { JournalKeeper } from './journal-keeper';
import { lookupOf, type OperationsByName } from './lookups';
import type { Tracked } from './registry';

/**
 * An operation this process never created or awaited, as the journal (shared by every
 * instance when it is Redis) knows it: its name, hence the lookup that confirms it.
 */
export async function trackedByJournal(
  ctx: OperationsByName & { readonly journal: JournalKeeper },
  referenceId: string,
): Promise<Tracked | undefined> {
  const entry = await ctx.journal.get(referenceId);
  // Another platform's operation can only be confirmed there: unknown here.
  if (!entry || !ctx.journal.isHere(entry)) return undefined;
  return { operation: entry.operation, confirmedBy: lookupOf(ctx, entry.operation) };
}
