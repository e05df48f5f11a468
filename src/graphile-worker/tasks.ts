/**
 * `paymentTasks(momo, { secret, store })`: the task list graphile-worker's `run` takes.
 * `momo:pay` runs one item to its final outcome in the batch store (the core's
 * `runPaymentJob`: ids from (batch, key, secret), nothing sent twice); not final by its
 * deadline, the item's job is handed back as a `momo:lookup` job under the same key
 * (looked up, never sent again); `momo:sweep` re-queues what a dead worker holds (./sweep.ts).
 */
import type { ClientSurface } from '../client-surface';
import type { BatchStore } from '../contracts/batch-store';
import {
  checkContext,
  lookupJob,
  type PaymentJobData,
  type PaymentJobResult,
  runPaymentJob,
} from '../engines';
import {
  DEFAULT_SWEEP_EVERY_MS,
  DEFAULT_WORKER_SCHEMA,
  itemJobKey,
  LOOKUP_TASK,
  PAY_TASK,
  SWEEP_TASK,
} from './keys';
import { scheduleSweep, sweepTask } from './sweep';
import type { GraphileJobHelpers, GraphileTask, GraphileTaskList } from './types';

/** Options of `paymentTasks(momo, options)`. */
export interface PaymentTasksOptions {
  /** The secret the reference ids derive from: the same on every worker, and in `addPayments`. */
  secret: string;
  /** The batch store (`createPostgresState(pool).batchStore`) the outcomes are recorded in. */
  store: BatchStore;
  /** graphile-worker's schema, when not `graphile_worker` (as `run({ schema })`). */
  workerSchema?: string | undefined;
  /** How long a job waits for its item to be final before handing it to a lookup job. Default 60 000. */
  deadlineMs?: number | undefined;
  /** When the lookup job runs, after the job that handed it over. Default 5 000. */
  lookupDelayMs?: number | undefined;
  /** Time between a batch's sweeps. Default 3 000. */
  sweepEveryMs?: number | undefined;
  /**
   * Each job's result (final, or PENDING and handed to a lookup job). The one place a
   * changed item under a used key shows as REJECTED: the store keeps the key's first item.
   */
  onResult?: ((result: PaymentJobResult) => void | Promise<void>) | undefined;
}

export function paymentTasks(momo: ClientSurface, options: PaymentTasksOptions): GraphileTaskList {
  const context = { secret: options?.secret, store: options?.store };
  checkContext(context);
  const everyMs = options.sweepEveryMs ?? DEFAULT_SWEEP_EVERY_MS;
  const deadlineMs = options.deadlineMs ?? 60_000;
  const lookupDelayMs = options.lookupDelayMs ?? 5_000;
  const ensured = new SweepEnsured(everyMs);
  const payment: GraphileTask = async (payload, helpers) => {
    const data = payload as PaymentJobData;
    // A sweep queued for the batch at least every sweep interval by this process: a sweep
    // job lost with a killed worker is replaced by the next job of the batch.
    if (typeof data?.batch === 'string') await ensured.ensure(helpers, data.batch);
    const result = await runPaymentJob(momo, context, data, {
      deadline: Date.now() + deadlineMs,
      ...signalOf(helpers),
    });
    await options.onResult?.(result);
    if (result.status !== 'PENDING') return; // final, in the store: the job completes
    await helpers.addJob(LOOKUP_TASK, lookupJob(data), {
      jobKey: itemJobKey(data.batch, data.key),
      runAt: new Date(Date.now() + lookupDelayMs),
    });
  };
  const sweep = sweepTask({
    store: options.store,
    workerSchema: options.workerSchema ?? DEFAULT_WORKER_SCHEMA,
    everyMs,
  });
  return { [PAY_TASK]: payment, [LOOKUP_TASK]: payment, [SWEEP_TASK]: sweep };
}

/** graphile-worker's abort signal (a graceful shutdown): the job ends PENDING, looked up later. */
function signalOf(helpers: GraphileJobHelpers): { signal?: AbortSignal } {
  const signal = (helpers as { abortSignal?: AbortSignal }).abortSignal;
  return signal ? { signal } : {};
}

/** When this process last queued each batch's sweep. */
class SweepEnsured {
  readonly #at = new Map<string, number>();
  readonly #everyMs: number;

  constructor(everyMs: number) {
    this.#everyMs = everyMs;
  }

  async ensure(helpers: GraphileJobHelpers, batch: string): Promise<void> {
    const last = this.#at.get(batch);
    if (last !== undefined && Date.now() - last < this.#everyMs) return;
    this.#at.set(batch, Date.now());
    if (this.#at.size > 1_000) this.#at.delete(this.#at.keys().next().value as string);
    await scheduleSweep(helpers, batch, this.#everyMs, true);
  }
}
