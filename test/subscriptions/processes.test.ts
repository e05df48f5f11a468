/**
 * Subscriptions at scale (issue 34's first "must show", DESIGN 9.3): subscriptions
 * charged every day on the simulator's clock by three runner processes on one shared
 * store (PostgreSQL, Redis), one of them SIGKILLed every few seconds and started again,
 * every callback delivered twice, and the store lost half way (deleted, the members
 * signed up again): from the provider's own records, each (subscription, period) paid by
 * exactly one request to pay (none twice, none missed), and each charge's status in the
 * store the provider's.
 *
 * CI runs 100 subscriptions x 20 periods; the issue's size is
 * `SUBS_SCALE_SUBSCRIPTIONS=1000 SUBS_SCALE_PERIODS=100` (docs/subscriptions.md, "Tested
 * at scale", has that run's figures).
 */
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { createRedisState } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { usePostgres } from '../postgres/support';
import { type ConnectedClient, connectClient } from '../redis/support/clients';
import { describeWithRedis, RedisServer } from '../redis/support/redis-server';
import { describeWithPostgres } from '../support/postgres-server';
import { runAtScale, type ScaleResult, scale } from '../support/subscription-processes';

const { subscriptions, periods, loseAtPeriod } = scale();
/** Generous: the CI size takes well under a minute alone; the machine may be loaded. */
const TIMEOUT_MS = Math.max(300_000, subscriptions * periods * 40);
const report = process.env.SUBS_SCALE_REPORT === '1';

function expectEachPeriodPaidOnce(result: ScaleResult): void {
  if (report) {
    const { charges: _, stored: __, ...figures } = result;
    console.log(JSON.stringify({ subscriptions, periods, ...figures }, null, 2));
  }
  const paid = new Map<string, number>();
  for (const charge of result.charges) {
    expect(charge.tag, charge.referenceId).toMatch(/^member-\d+\/\d+$/);
    expect(charge.status, charge.tag).toBe('SUCCESSFUL'); // every payer here pays
    paid.set(charge.tag as string, (paid.get(charge.tag as string) ?? 0) + 1);
  }
  let twice = 0;
  let missed = 0;
  for (let i = 0; i < subscriptions; i++) {
    for (let period = 0; period < periods; period++) {
      const n = paid.get(`member-${i}/${period}`) ?? 0;
      if (n === 0) missed++;
      if (n > 1) twice++;
    }
  }
  // Before the store's view: the provider's records decide.
  expect({ twice, missed, charges: result.charges.length }).toEqual({
    twice: 0,
    missed: 0,
    charges: subscriptions * periods, // and none for a period past the end
  });
  // Every subscription ended, its last period charged (those that did not, as they are).
  const unfinished = result.stored
    .filter((s) => s.status !== 'ENDED' || s.period !== periods)
    .map(({ charges, payer: _, ...s }) => ({ ...s, lastCharges: charges.slice(-2) }));
  expect(unfinished.slice(0, 3)).toEqual([]);
  expect(result.stored).toHaveLength(subscriptions);
  // The store agrees with the provider: every charge it holds has the provider's status.
  const held = new Map(result.charges.map((c) => [c.referenceId, c.status]));
  for (const sub of result.stored) {
    for (const charge of sub.charges) {
      expect(charge.status, `${sub.key}/${charge.period}`).toBe(held.get(charge.referenceId));
    }
  }
  // Every callback was delivered twice (to a live receiver, or to a killed one's port).
  expect(result.counts.deliveries).toBeGreaterThanOrEqual(2 * subscriptions * periods);
  expect(result.kills).toBeGreaterThan(0);
}

describeWithPostgres('subscriptions at scale on PostgreSQL: 3 runner processes, SIGKILLs', () => {
  const pg15 = usePostgres();

  it(
    `${subscriptions} subscriptions x ${periods} periods: each paid once, the provider's status`,
    async () => {
      const db = await pg15.freshState();
      const probe = createPostgresState(pg15.newPool(), { schema: db.schema });
      const result = await runAtScale({
        subscriptions,
        periods,
        store: { kind: 'postgres', config: pg15.server().config, schema: db.schema },
        probe: probe.subscriptionStore,
        lose: async () => {
          await pg15
            .pool()
            .query(`TRUNCATE "${db.schema}".subscriptions, "${db.schema}".subscription_plans`);
        },
        loseAtPeriod,
        killEveryMs: 3_000,
        log: report ? (line) => console.error(`[postgres] ${line}`) : undefined,
      });
      expectEachPeriodPaidOnce(result);
    },
    TIMEOUT_MS,
  );
});

describeWithRedis('subscriptions at scale on Redis: 3 runner processes, SIGKILLs', () => {
  let server: RedisServer;
  let redis: ConnectedClient;
  beforeAll(async () => {
    server = await RedisServer.start();
    redis = await connectClient('node-redis', server.url);
  });
  afterAll(async () => {
    await redis?.close();
    await server?.dispose();
  });

  it(
    `${subscriptions} subscriptions x ${periods} periods: each paid once, the provider's status`,
    async () => {
      const state = createRedisState(redis.client, { prefix: 'gym:' });
      try {
        const result = await runAtScale({
          subscriptions,
          periods,
          store: { kind: 'redis', url: server.url, library: 'node-redis', prefix: 'gym:' },
          probe: state.subscriptionStore,
          lose: async () => {
            const client = redis.client as unknown as {
              sendCommand(args: string[]): Promise<unknown>;
            };
            await client.sendCommand(['FLUSHDB']); // this test's own server
          },
          loseAtPeriod,
          killEveryMs: 3_000,
          log: report ? (line) => console.error(`[redis] ${line}`) : undefined,
        });
        expectEachPeriodPaidOnce(result);
      } finally {
        await state.close();
      }
    },
    TIMEOUT_MS,
  );
});
