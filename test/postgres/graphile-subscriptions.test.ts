import { subscriptionTasks } from 'momo-partner-sdk/graphile-worker';
import { type RunDueReport, Subscriptions } from 'momo-partner-sdk/subscriptions';
import { createSimulator } from 'momo-partner-sdk/testing';
import { expect, it } from 'vitest';
import { until } from '../redis/support/instances';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

// subscriptionTasks(subs) on graphile-worker 0.17: runDue as a task of two worker pools
// (two pools on one database, as two processes), its passes kept apart by the advisory
// lock however many ticks run at once, and its crontab line as graphile-worker parses it.
describeWithPostgres('graphile-worker: subscriptionTasks (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  it('runs runDue as a job, one pass at a time across workers; each period charged once', {
    timeout: 120_000,
  }, async () => {
    const gw = await import('graphile-worker');
    const quiet = new gw.Logger(() => () => {});
    const state = await pg15.freshState();
    const workerSchema = `${state.schema}_gw`;
    const sim = createSimulator({ settleMs: 0 });
    const subs = new Subscriptions(sim.client(), {
      store: state.subscriptionStore,
      secret: 'graphile-subscriptions-secret',
    });
    await subs.plan({ id: 'monthly', amount: '20', currency: 'EUR', every: 'month' });
    for (const key of ['m-1', 'm-2', 'm-3']) {
      const member = await subs.subscribe({
        key,
        plan: 'monthly',
        startAt: new Date(),
        mandateDays: 90,
        payer: { partyIdType: 'MSISDN', partyId: '233244123453' },
      });
      sim.decide(member.mandate.referenceId, 'approve');
    }
    // The partner's object around runDue: counts passes running at once, and holds each a
    // little, so that ticks taken together by both pools would overlap without the lock.
    let running = 0;
    let most = 0;
    const counted = {
      async runDue() {
        most = Math.max(most, ++running);
        try {
          return await subs.runDue();
        } finally {
          await new Promise((resolve) => setTimeout(resolve, 200));
          running--;
        }
      },
    };
    const passes: RunDueReport[] = [];
    const billing = subscriptionTasks(counted, { onPass: (report) => passes.push(report) });
    const parsed = gw.parseCrontab(billing.crontab);
    expect(
      parsed.map((item) => [item.task, item.options.maxAttempts, item.options.jobKey]),
    ).toEqual([['momo:subscriptions', 1, 'momo-subscriptions-tick']]);

    const utils = await gw.makeWorkerUtils({
      pgPool: pg15.pool(),
      schema: workerSchema,
      logger: quiet,
    });
    await utils.migrate();
    const options = { schema: workerSchema, concurrency: 4, noHandleSignals: true, logger: quiet };
    const runners = await Promise.all(
      [pg15.newPool(), pg15.newPool()].map((pgPool) =>
        gw.run({ ...options, pgPool, taskList: billing.taskList }),
      ),
    );
    try {
      // Eight ticks at once (a backlog, or workers that each scheduled one).
      await utils.addJobs(
        Array.from({ length: 8 }, () => ({ identifier: 'momo:subscriptions', payload: {} })),
      );
      await until(async () => {
        const { rows } = await pg15
          .pool()
          .query(`SELECT count(*)::int AS n FROM "${workerSchema}"._private_jobs`);
        return rows[0].n === 0;
      }, 60_000);
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
      await utils.release();
    }
    expect(most).toBe(1);
    expect(passes.length).toBeGreaterThanOrEqual(1);
    expect(passes.reduce((n, p) => n + p.counts.successful, 0)).toBe(3);
    const charges = sim.transactions.filter((t) => t.operation === 'collection.requestToPay');
    expect(charges.map((t) => t.status)).toEqual(['SUCCESSFUL', 'SUCCESSFUL', 'SUCCESSFUL']);
  });
});
