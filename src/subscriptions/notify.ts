import type {
  Subscription,
  SubscriptionCharge,
  SubscriptionStore,
} from '../contracts/subscription-store';
import { deliverAtLeastOnce, type HookFailed } from '../payments/deliver';
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
  constructor(failed: HookFailed) {
    const cause = failed.cause;
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'OnChargeFailed';
  }
}

/** `onCharge` for each of `marked`, oldest first: the hook the kernel's mechanism delivers. */
const hookOf =
  (sub: Subscription, marked: SubscriptionCharge[], onCharge: OnCharge) => async (tx: unknown) => {
    for (const charge of marked) await onCharge(eventOf(sub, charge), tx);
  };

/**
 * Writes `sub` (compare-and-set on `expected`) with the `onCharge` its marked charges are
 * owed, on the kernel's one mechanism (`deliverAtLeastOnce`, src/payments/deliver.ts):
 * with a store that has `putInTransaction`, in the transaction that writes them (written
 * without the marks, then cleared here too: both commit, or neither); otherwise a plain
 * `put`, marks and all (`deliverAfter` delivers them at the end of the pass). Resolves
 * with the new version, or undefined when another writer came first; throws
 * `OnChargeFailed` when the hook threw.
 */
export async function putNotifying(
  store: SubscriptionStore,
  sub: Subscription,
  expected: number | undefined,
  onCharge: OnCharge | undefined,
): Promise<number | undefined> {
  const marked = onCharge && store.putInTransaction ? unnotified(sub) : [];
  if (marked.length === 0 || !onCharge || !store.putInTransaction) return store.put(sub, expected);
  const putInTransaction = store.putInTransaction.bind(store);
  const written = structuredClone(sub);
  for (const charge of written.charges) delete charge.notified;
  let version: number | undefined;
  const delivery = await deliverAtLeastOnce('onCharge', hookOf(sub, marked, onCharge), {
    recordOwed: async (deliver) => {
      version = await putInTransaction(written, expected, deliver);
      return version !== undefined;
    },
    recordDelivered: async () => version !== undefined, // delivered in the transaction
  });
  if (delivery.outcome === 'failed') throw new OnChargeFailed(delivery.error);
  if (version !== undefined) for (const charge of marked) delete charge.notified;
  return version;
}

/**
 * A store without transactions, at the end of a subscription's pass: the marked charges
 * of `sub` (recorded owed already by the pass's writes) delivered on the kernel's
 * mechanism, the marks cleared once `onCharge` returned (the pass's last write records
 * that). Resolves with the failure, if the hook threw (the marks stay: the next pass
 * delivers them again).
 */
export async function deliverAfter(
  sub: Subscription,
  onCharge: OnCharge,
): Promise<OnChargeFailed | undefined> {
  const marked = unnotified(sub);
  if (marked.length === 0) return undefined;
  const delivery = await deliverAtLeastOnce('onCharge', hookOf(sub, marked, onCharge), {
    recordOwed: async () => true, // written with its marks by the pass's writes
    recordDelivered: async () => {
      for (const charge of marked) delete charge.notified; // written by the pass's last write
      return true;
    },
  });
  return delivery.outcome === 'failed' ? new OnChargeFailed(delivery.error) : undefined;
}
