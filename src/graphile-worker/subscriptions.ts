/**
 * `subscriptionTasks(subs)`: `runDue` as a graphile-worker cron task. graphile-worker's
 * `known_crontabs` makes each tick one job whatever the number of workers; a pass that
 * outlasts the tick is kept alone by a PostgreSQL advisory lock held on the task's own
 * connection for the pass: a worker killed mid-pass drops its connection and with it the
 * lock, at once (a serial job queue would stay locked by the dead worker for 4 hours).
 */
import { ValidationError } from '../errors';
import { SUBSCRIPTIONS_TASK } from './keys';
import type { GraphileTaskList } from './types';

/** What `subscriptionTasks` needs of `new Subscriptions(momo, options)` (its pass's report: R). */
export interface SubscriptionsRunner<R> {
  runDue(): Promise<R>;
}

/** Options of `subscriptionTasks(subs, options)`. */
export interface SubscriptionTasksOptions<R> {
  /** The cron schedule's five time fields. Default `* * * * *` (a pass each minute). */
  schedule?: string;
  /**
   * The advisory lock's name: passes under one name never overlap, across all workers on
   * the database. Default `momo:subscriptions`; give each `Subscriptions` store its own.
   */
  lockName?: string;
  /** Each pass's report (a tick whose pass found another running reports nothing). */
  onPass?: (report: R) => void;
}

/** A task list for `run({ taskList })` and the crontab line that schedules it. */
export interface SubscriptionTasks {
  taskList: GraphileTaskList;
  /** For `run({ crontab })`: append it to a crontab of your own with a newline. */
  crontab: string;
}

export function subscriptionTasks<R>(
  subs: SubscriptionsRunner<R>,
  options: SubscriptionTasksOptions<R> = {},
): SubscriptionTasks {
  if (typeof subs?.runDue !== 'function') {
    throw new ValidationError([
      { path: 'subs', message: 'must be new Subscriptions(momo, options) (with runDue)' },
    ]);
  }
  const schedule = options.schedule ?? '* * * * *';
  const lockName = options.lockName ?? 'momo:subscriptions';
  const pass = async (_payload: unknown, helpers: Parameters<GraphileTaskList[string]>[1]) => {
    await helpers.withPgClient(async (client) => {
      const { rows } = await client.query(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS held',
        [lockName],
      );
      if (!(rows[0] as { held?: boolean } | undefined)?.held) return; // a pass is running
      try {
        const report = await subs.runDue();
        options.onPass?.(report);
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockName]);
      }
    });
  };
  // max=1: a failed pass is not retried by the engine, the next tick is the retry; the
  // job key keeps one tick waiting when every worker is busy, not a pile of them.
  const crontab = `${schedule} ${SUBSCRIPTIONS_TASK} ?max=1&jobKey=momo-subscriptions-tick`;
  return { taskList: { [SUBSCRIPTIONS_TASK]: pass }, crontab };
}
