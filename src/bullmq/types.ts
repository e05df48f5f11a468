/**
 * What the adapter needs of BullMQ, written out (not imported): the entry loads nothing
 * of `bullmq` (an optional peer), and a partner's own `Queue` and `Job` fit these shapes.
 */

/** A BullMQ `Queue`, as `addPayments` and `schedule` use it. */
export interface BullQueueLike {
  readonly name: string;
  addBulk(
    jobs: { name: string; data: unknown; opts?: Record<string, unknown> }[],
  ): Promise<unknown[]>;
  upsertJobScheduler(
    id: string,
    repeat: { every: number },
    template?: { name?: string; data?: unknown; opts?: Record<string, unknown> },
  ): Promise<unknown>;
  setGlobalConcurrency(concurrency: number): Promise<unknown>;
}

/** A BullMQ `Job`, as the processors use it. */
export interface BullJobLike {
  readonly id?: string | undefined;
  readonly name: string;
  readonly data: unknown;
  updateData(data: unknown): Promise<void>;
  moveToDelayed(timestamp: number, token?: string): Promise<void>;
}
