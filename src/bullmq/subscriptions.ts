import type { RunDueReport } from '../subscriptions/types';
import type { BullJobLike, BullQueueLike } from './types';

/** What `subscriptionJobs` needs of `new Subscriptions(momo, options)`. */
export interface SubscriptionsLike {
  runDue(): Promise<RunDueReport>;
}

/** What `subscriptionJobs` returns: the worker's processor, and the scheduling of the passes. */
export interface SubscriptionJobs {
  /** Give to a BullMQ `Worker` on the queue `schedule` was given: one job, one `runDue` pass. */
  processor(job: BullJobLike): Promise<RunDueReport>;
  /**
   * Makes `queue` run one pass every `every` ms (BullMQ's job scheduler, id
   * `momo.subscriptions`; calling it again from every process updates the one scheduler)
   * and sets its global concurrency to 1: one pass at a time across all workers. Give it
   * a queue of its own.
   */
  schedule(queue: BullQueueLike): Promise<void>;
}

export const SUBSCRIPTIONS_SCHEDULER = 'momo.subscriptions';

/**
 * Subscriptions on BullMQ (docs/engines.md): `runDue` as the job scheduler's repeatable
 * job. One pass at a time (the queue's global concurrency); each subscription is claimed
 * by the pass that works on it in any case (the subscription store's lease), so a pass
 * that outlives a lost lock charges no period twice.
 */
export function subscriptionJobs(
  subs: SubscriptionsLike,
  options: { every: number },
): SubscriptionJobs {
  const every = options?.every;
  if (!Number.isFinite(every) || every <= 0) {
    throw new TypeError('subscriptionJobs: options.every must be a positive number of ms');
  }
  return {
    processor: () => subs.runDue(),
    async schedule(queue) {
      await queue.setGlobalConcurrency(1);
      await queue.upsertJobScheduler(
        SUBSCRIPTIONS_SCHEDULER,
        { every },
        { name: SUBSCRIPTIONS_SCHEDULER, opts: { removeOnComplete: 100, removeOnFail: 100 } },
      );
    },
  };
}
