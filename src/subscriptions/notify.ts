import type {
  Subscription,
  SubscriptionCharge,
  SubscriptionStore,
} from '../contracts/subscription-store';
import type { SubscriptionChargeEvent, SubscriptionRunnerOptions } from './types';

/** The runner's `onCharge`. */
export type OnCharge = NonNullable<SubscriptionRunnerOptions['onCharge']>;

/** What `onCharge` (and the pass's report) is given for `charge`: a copy, without its mark. */
export function eventOf(sub: Subscription, charge: SubscriptionCharge): SubscriptionChargeEvent {
  const { notified: _, ...rest } = structuredClone(charge);
  return { key: sub.key, ...rest, subscriptionStatus: sub.status };
}

/** The charges whose outcome is recorded but whose `onCharge` has not returned yet. */
export const unnotified = (sub: Subscription): SubscriptionCharge[] =>
  sub.charges.filter((charge) => charge.notified === false);

/** `onCharge` threw (or left the store's transaction failed): the pass reports it so. */
export class OnChargeFailed extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'OnChargeFailed';
  }
}

/**
 * Writes `sub` (compare-and-set on `expected`) with the `onCharge` its marked charges are
 * owed: with a store that has `putInTransaction`, in the transaction that writes them
 * (`tx` its handle; written without the marks, which are then cleared here too: both
 * commit, or neither); otherwise a plain `put`, marks and all (`deliverAfter` runs them).
 * Resolves with the new version, or undefined when another writer came first.
 */
export async function putNotifying(
  store: SubscriptionStore,
  sub: Subscription,
  expected: number | undefined,
  onCharge: OnCharge | undefined,
): Promise<number | undefined> {
  const marked = onCharge && store.putInTransaction ? unnotified(sub) : [];
  if (marked.length === 0 || !onCharge || !store.putInTransaction) return store.put(sub, expected);
  const written = structuredClone(sub);
  for (const charge of written.charges) delete charge.notified;
  let ran = false;
  let version: number | undefined;
  try {
    version = await store.putInTransaction(written, expected, async (tx) => {
      ran = true;
      for (const charge of marked) await onCharge(eventOf(sub, charge), tx);
    });
  } catch (error) {
    throw ran ? new OnChargeFailed(error) : error;
  }
  if (version !== undefined) for (const charge of marked) delete charge.notified;
  return version;
}

/**
 * A store without transactions: `onCharge` for each marked charge of `sub` (recorded
 * already, marks and all), oldest first, each mark cleared once it returns (the caller's
 * next write records that). Stops at the first throw, which it resolves with (the rest
 * stay marked: the next pass runs them again).
 */
export async function deliverAfter(
  sub: Subscription,
  onCharge: OnCharge,
): Promise<OnChargeFailed | undefined> {
  for (const charge of unnotified(sub)) {
    try {
      await onCharge(eventOf(sub, charge), undefined);
    } catch (error) {
      return new OnChargeFailed(error);
    }
    delete charge.notified;
  }
  return undefined;
}
