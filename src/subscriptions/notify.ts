import type {
  Subscription,
  SubscriptionCharge,
  SubscriptionStore,
} from '../contracts/subscription-store';
import { deliverAtLeastOnce, type HookFailed, OWED } from '../payments/deliver';
import type { SubscriptionChargeEvent, SubscriptionRunnerOptions } from './types';

/** The runner's `onCharge`. */
export type OnCharge = NonNullable<SubscriptionRunnerOptions['onCharge']>;

/** What `onCharge` (and the pass's report) is given for `charge`: a copy, without its mark. */
export function eventOf(sub: Subscription, charge: SubscriptionCharge): SubscriptionChargeEvent {
  const { notified: _, delivered: __, ...rest } = structuredClone(charge);
  const tenant = sub.tenant === undefined ? {} : { tenant: sub.tenant };
  return { key: sub.key, ...tenant, ...rest, subscriptionStatus: sub.status };
}

/**
 * Whether `charge`'s outcome is still owed its `onCharge`: the kernel's mark
 * (`delivered: false`), or `notified: false`, the mark records of earlier versions carry
 * (read, so that none written before is lost; never written).
 */
export const owedOnCharge = (charge: SubscriptionCharge): boolean =>
  charge.delivered === false || charge.notified === false;

/** Marks `charge`'s outcome owed its `onCharge`, with the kernel's one mark. */
export function markOwed(charge: SubscriptionCharge): void {
  Object.assign(charge, OWED);
}

/** `onCharge` returned (or committed) for `charge`: its mark gone, whichever it was. */
function clearMark(charge: SubscriptionCharge): void {
  delete charge.delivered;
  delete charge.notified;
}

/** The charges whose outcome is recorded but whose `onCharge` has not returned yet. */
export const unnotified = (sub: Subscription): SubscriptionCharge[] =>
  sub.charges.filter(owedOnCharge);

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
  for (const charge of written.charges) clearMark(charge);
  let version: number | undefined;
  const delivery = await deliverAtLeastOnce('onCharge', hookOf(sub, marked, onCharge), {
    recordOwed: async (deliver) => {
      version = await putInTransaction(written, expected, deliver);
      return version !== undefined;
    },
    recordDelivered: async () => version !== undefined, // delivered in the transaction
  });
  if (delivery.outcome === 'failed') throw new OnChargeFailed(delivery.error);
  if (version !== undefined) for (const charge of marked) clearMark(charge);
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
      for (const charge of marked) clearMark(charge); // written by the pass's last write
      return true;
    },
  });
  return delivery.outcome === 'failed' ? new OnChargeFailed(delivery.error) : undefined;
}
