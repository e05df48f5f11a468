/**
 * The batch's sweep: what makes a dead worker delay nothing past the SDK's lease, although
 * graphile-worker keeps the jobs it held locked for 4 hours. Every `everyMs` while the
 * batch has item jobs, it looks for those locked longer than the lease; an item whose
 * claim in the batch store has lapsed (no live worker renews it) gets its job added again
 * under the same job key: graphile-worker queues a new job and retires the locked one
 * (its key cleared, its attempts used up, so it never runs again). The new job resumes the
 * item from the store under the same reference id: nothing is sent twice.
 */
import type { BatchStore } from '../contracts/batch-store';
import { DEFAULT_LEASE_MS } from '../engines';
import { isItemJobPayload, itemJobKey, SWEEP_TASK, sweepJobKey } from './keys';
import type { GraphileHelpers, GraphileJobHelpers, GraphileTask } from './types';

export interface SweepOptions {
  store: BatchStore;
  /** graphile-worker's schema, whose job table the sweep reads. */
  workerSchema: string;
  /** Time between sweeps of a batch. */
  everyMs: number;
}

interface JobRow {
  identifier: string;
  key: string;
  payload: unknown;
}

/**
 * The time between a batch's sweeps: `everyMs`, and never more than a fifth of the
 * store's lease, so that a dead worker's item ends final within 1.2 leases whatever the
 * lease (docs/assumptions.md, GW2); never under 100 ms.
 */
export function sweepInterval(everyMs: number, leaseMs: number): number {
  return Math.max(100, Math.min(everyMs, leaseMs / 5));
}

/** Queues the batch's next sweep (`preserve`: keep an earlier one's time, as addPayments does). */
export async function scheduleSweep(
  helpers: GraphileHelpers,
  batch: string,
  everyMs: number,
  preserve = false,
): Promise<void> {
  await helpers.addJob(
    SWEEP_TASK,
    { batch },
    {
      jobKey: sweepJobKey(batch),
      jobKeyMode: preserve ? 'preserve_run_at' : 'replace',
      runAt: new Date(Date.now() + everyMs),
      maxAttempts: 3,
    },
  );
}

export function sweepTask(options: SweepOptions): GraphileTask {
  const owner = `graphile-sweep:${process.pid}:${Math.random().toString(36).slice(2)}`;
  return async (payload, helpers) => {
    const batch = (payload as { batch?: unknown } | null)?.batch;
    if (typeof batch !== 'string') return; // not ours to judge: nothing to sweep
    const handle = await options.store.open(batch);
    // A job locked longer than the store's lease may be a dead worker's.
    const leaseMs = handle.leaseMs ?? DEFAULT_LEASE_MS;
    // Its successor first: a worker killed during this sweep leaves the next one queued.
    await scheduleSweep(helpers, batch, sweepInterval(options.everyMs, leaseMs));
    const rows = await staleItemJobs(helpers, options.workerSchema, batch, leaseMs);
    if (rows === undefined) {
      // Every item job of the batch has completed: the sweeps end here.
      await removeJob(helpers, options.workerSchema, sweepJobKey(batch));
      return;
    }
    for (const row of rows) {
      if (!isItemJobPayload(row.payload)) continue;
      const token = await handle.claim(row.payload.key, owner, leaseMs);
      if (token === undefined) continue; // a live worker renews it: still running
      await handle.release(row.payload.key, token);
      await helpers.addJob(row.identifier, row.payload, { jobKey: row.key });
    }
  };
}

/**
 * The batch's item jobs locked longer than the lease (a dead worker's, or a slow one's),
 * or undefined when the batch has no item job left that may still run (a job that failed
 * for good left out: nothing will run it; a locked one kept, whatever its attempts). Only
 * the stale rows are read, with their payloads: a batch of 20,000 jobs is not read whole
 * at every sweep. Read from graphile-worker 0.17's own tables (its public `jobs` view has
 * no payload); written only through its `add_job` and `remove_job`.
 */
async function staleItemJobs(
  helpers: GraphileJobHelpers,
  workerSchema: string,
  batch: string,
  leaseMs: number,
): Promise<JobRow[] | undefined> {
  const schema = quoteIdentifier(workerSchema);
  // Every item key of the batch starts so: `momo:item:["<batch>",`.
  const prefix = itemJobKey(batch, '').slice(0, -3);
  return helpers.withPgClient(async (client) => {
    const stale = await client.query(
      `SELECT t.identifier, j.key, j.payload
         FROM ${schema}._private_jobs j
         JOIN ${schema}._private_tasks t ON t.id = j.task_id
        WHERE starts_with(j.key, $1)
          AND j.locked_at < now() - make_interval(secs => $2::float8)`,
      [prefix, leaseMs / 1000],
    );
    if (stale.rows.length > 0) return stale.rows as JobRow[];
    const left = await client.query(
      `SELECT 1 FROM ${schema}._private_jobs j
        WHERE starts_with(j.key, $1)
          AND (j.locked_at IS NOT NULL OR j.attempts < j.max_attempts)
        LIMIT 1`,
      [prefix],
    );
    return left.rows.length > 0 ? [] : undefined;
  });
}

async function removeJob(helpers: GraphileHelpers, workerSchema: string, key: string) {
  const schema = quoteIdentifier(workerSchema);
  await helpers.withPgClient((client) => client.query(`SELECT ${schema}.remove_job($1)`, [key]));
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
