/**
 * `addPayments(workerUtils, { batch, items, secret })`: every item checked before any job
 * exists (the core's `prepareItems`), then one job per item in one `addJobs` call, keyed
 * by (batch, key), and the batch's sweep (./sweep.ts). A bad item's job records it
 * REJECTED in the batch store with its reason and sends nothing; an item no job can name
 * (no usable key, a key twice in the call) is only in the result's `rejected`.
 */
import { type PrepareItemsOptions, prepareItems } from '../engines';
import { ValidationError } from '../errors';
import { DEFAULT_SWEEP_EVERY_MS, itemJobKey, PAY_TASK } from './keys';
import { scheduleSweep } from './sweep';
import type { GraphileWorkerUtils } from './types';

/** Options of `addPayments`: the batch, its items, the workers' secret (never put in a job). */
export type AddPaymentsOptions = PrepareItemsOptions & {
  /** Time between the batch's sweeps, as `paymentTasks`' `sweepEveryMs`. Default 3 000. */
  sweepEveryMs?: number | undefined;
};

/** What `addPayments` did. */
export interface AddedPayments {
  /** Jobs added (one per item with a usable key; a bad item's job only records it REJECTED). */
  added: number;
  /** Every item refused, with why (bad ones, and keyless or repeated ones, which got no job). */
  rejected: { index: number; key: string; reason: string }[];
}

/**
 * One job per item. Adding a batch again (its jobs run or not) adds each item's job again
 * under its key: a waiting one is replaced, a completed one runs once more and finds its
 * item final in the store (nothing sent again); a changed item under a used key ends
 * REJECTED.
 */
export async function addPayments(
  workerUtils: GraphileWorkerUtils,
  options: AddPaymentsOptions,
): Promise<AddedPayments> {
  if (typeof workerUtils?.addJobs !== 'function') {
    throw new ValidationError([
      { path: 'workerUtils', message: "must be graphile-worker's makeWorkerUtils() utilities" },
    ]);
  }
  const { jobs, rejected } = await prepareItems(options);
  const specs = jobs.map(({ data }) => ({
    identifier: PAY_TASK,
    payload: data,
    jobKey: itemJobKey(data.batch, data.key),
  }));
  // One statement per 1 000 jobs: a 100,000-item batch is not one giant array parameter.
  for (let at = 0; at < specs.length; at += 1_000) {
    await workerUtils.addJobs(specs.slice(at, at + 1_000));
  }
  if (specs.length > 0) {
    await scheduleSweep(
      workerUtils,
      options.batch,
      options.sweepEveryMs ?? DEFAULT_SWEEP_EVERY_MS,
      true,
    );
  }
  return { added: specs.length, rejected };
}
