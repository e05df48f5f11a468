import type { BatchItem } from '../batches/types';
import type { ClientSurface } from '../client-surface';
import {
  checkContext,
  lookupJob,
  type PaymentJobContext,
  type PaymentJobData,
  type PaymentJobResult,
  type PreparedItems,
  prepareItems,
  runPaymentJob,
} from '../engines';
import type { BullJobLike, BullQueueLike } from './types';

/** Options of `addPayments(queue, options)`. */
export interface AddPaymentsOptions {
  /** The batch id: adding to it again (after the queue was emptied too) continues it. */
  batch: string;
  items: Iterable<BatchItem> | AsyncIterable<BatchItem>;
  /** The workers' secret (checked here; never put in a job). */
  secret: string;
  /** Default operation of items without their own. Default `disbursement.transfer`. */
  operation?: string | undefined;
  /**
   * BullMQ job options added to every job (e.g. `removeOnComplete`). Default attempts 25
   * with exponential backoff from 1 s: only what a retry may cure (the store unreachable)
   * fails a job, and its retry sends nothing twice.
   */
  jobOptions?: Record<string, unknown> | undefined;
}

/** What `addPayments` did: jobs added, and the items refused (why, by input position). */
export interface AddPaymentsResult {
  added: number;
  rejected: PreparedItems['rejected'];
}

/** Job names: `momo.pay` (an item to pay) and `momo.reject` (a bad item's REJECTED record). */
export const PAY_JOB = 'momo.pay';
export const REJECT_JOB = 'momo.reject';

const BULK = 500;
const DEFAULT_JOB_OPTIONS = { attempts: 25, backoff: { type: 'exponential', delay: 1_000 } };

/**
 * One job per item (docs/engines.md), every item checked first: a bad one is REJECTED
 * (returned in `rejected`; its `momo.reject` job records it, sends nothing), never a
 * payment job. Job ids from (batch, key, body) (`momo-<hex>`): BullMQ ignores an item added
 * twice while its job is kept; once removed, a job added again finds the store's record
 * and sends nothing again.
 */
export async function addPayments(
  queue: BullQueueLike,
  options: AddPaymentsOptions,
): Promise<AddPaymentsResult> {
  const prepared = await prepareItems(options);
  const opts = { ...DEFAULT_JOB_OPTIONS, ...options.jobOptions };
  for (let i = 0; i < prepared.jobs.length; i += BULK) {
    const chunk = prepared.jobs.slice(i, i + BULK).map(({ jobId, data }) => ({
      name: data.kind === 'pay' ? PAY_JOB : REJECT_JOB,
      data,
      opts: { ...opts, jobId },
    }));
    await queue.addBulk(chunk);
  }
  return { added: prepared.jobs.length, rejected: prepared.rejected };
}

/** Options of `paymentProcessor(momo, options)`. */
export interface PaymentProcessorOptions extends PaymentJobContext {
  /** How long a job waits for its item to be final before handing it to a lookup. Default 60 s. */
  deadlineMs?: number | undefined;
  /** How long after that the lookup job runs. Default 5 s. */
  lookupDelayMs?: number | undefined;
}

/**
 * The BullMQ worker's options the SDK's guarantees are measured with: a lock of 10 s
 * checked every 5 s, so a killed worker's job is back within the SDK's 15 s lease (the
 * store's claim tells the next worker when it may take the item over), and a job that
 * stalls many times (killed workers) is run again, never failed for it.
 */
export const paymentWorkerOptions = {
  lockDuration: 10_000,
  stalledInterval: 5_000,
  maxStalledCount: 1_000,
} as const;

/**
 * The processor of a BullMQ `Worker` for `addPayments`' jobs (docs/engines.md): each job
 * run on the core (src/engines): a final item completes the job with its outcome (a
 * REJECTED one too: no engine retry); an item not final by `deadlineMs` makes the job a
 * lookup job (`data.lookup`), delayed by `lookupDelayMs`: looked up, never sent again.
 * The outcome is in `store`, where `new Batches(momo).report(batch, { store })` reads it.
 */
export function paymentProcessor(
  momo: ClientSurface,
  options: PaymentProcessorOptions,
): (job: BullJobLike, token?: string) => Promise<PaymentJobResult> {
  checkContext(options);
  const context = { secret: options.secret, store: options.store };
  const deadlineMs = options.deadlineMs ?? 60_000;
  const lookupDelayMs = options.lookupDelayMs ?? 5_000;
  return async (job, token) => {
    const data = job.data as PaymentJobData;
    const result = await runPaymentJob(momo, context, data, {
      deadline: Date.now() + deadlineMs,
    });
    if (result.status !== 'PENDING') return result;
    await job.updateData(lookupJob(data));
    await job.moveToDelayed(Date.now() + lookupDelayMs, token);
    throw delayed(result.reason);
  };
}

/** BullMQ's DelayedError by its name (the worker checks the name): the job waits, not failed. */
function delayed(reason: string): Error {
  const error = new Error(`looked up later: ${reason}`);
  error.name = 'DelayedError';
  return error;
}
