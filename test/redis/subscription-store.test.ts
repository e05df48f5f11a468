/**
 * The Redis subscription store end to end: a year of monthly charges by two runners on one
 * server and on a Cluster, and a write that died between its record and its index entry
 * (the entry left early, as the store's first step leaves it) put right by `due()`.
 */
import type { Subscription } from 'momo-partner-sdk';
import {
  createRedisState,
  type NodeRedisClient,
  RedisSubscriptionStore,
} from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gymMonthly, payer, requestsToPay, setup, T0 } from '../subscriptions/support';
import { aYearOn } from '../subscriptions/year';
import { type ConnectedClient, connectClient } from './support/clients';
import { RedisCluster } from './support/redis-cluster';
import { describeWithRedis, RedisServer } from './support/redis-server';

let prefixes = 0;
const prefix = () => `subs${++prefixes}-${process.pid}:`;

const row = (key: string, dueAt: number | undefined): Subscription => ({
  key,
  plan: 'gym-monthly',
  payer: { partyIdType: 'MSISDN', partyId: '233244555700' },
  status: dueAt === undefined ? 'CANCELLED' : 'ACTIVE',
  startAt: 0,
  mandateDays: 30,
  mandate: { referenceId: 'r', number: 0, status: 'APPROVED' },
  period: 0,
  dueAt,
  charges: [],
  createdAt: 0,
  updatedAt: 0,
});

describeWithRedis('RedisSubscriptionStore on one server', () => {
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

  it('a year: each period charged once by two runners (createRedisState().subscriptionStore)', async () => {
    const shared = createRedisState(redis.client, { prefix: prefix() });
    try {
      await aYearOn(shared.subscriptionStore);
    } finally {
      await shared.close();
    }
  }, 120_000);

  it('onCharge runs after the write, tx undefined; a throw is kept (delivered: false) and run again', async () => {
    const shared = createRedisState(redis.client, { prefix: prefix() });
    try {
      const world = setup({ store: shared.subscriptionStore });
      await world.subs.plan(gymMonthly);
      await world.subs.subscribe({
        key: 'member-42',
        plan: 'gym-monthly',
        payer: payer('233244555720'),
        startAt: T0,
      });
      const calls: unknown[] = [];
      const onCharge = (charge: { period: number; status: string }, tx?: unknown) => {
        calls.push([charge.period, charge.status, tx]);
        if (calls.length === 1) throw new Error('the ledger is locked');
      };
      const first = await world.subs.runDue({ onCharge });
      expect(first.errors).toEqual([{ key: 'member-42', error: 'onCharge: the ledger is locked' }]);
      expect((await world.subs.get('member-42'))?.charges[0]).toMatchObject({
        status: 'SUCCESSFUL',
        delivered: false,
      });
      world.sim.clock.advance(60_000);
      expect((await world.subs.runDue({ onCharge })).errors).toEqual([]);
      expect(calls).toEqual([
        [0, 'SUCCESSFUL', undefined],
        [0, 'SUCCESSFUL', undefined],
      ]);
      expect((await world.subs.get('member-42'))?.charges[0]).not.toHaveProperty('delivered');
      expect(requestsToPay(world.sim).get('member-42/0')).toEqual({ created: 1, successful: 1 });
    } finally {
      await shared.close();
    }
  });

  it('puts right an index entry left early or stale by a write that died half way', async () => {
    const p = prefix();
    const store = new RedisSubscriptionStore(redis.client, { prefix: p });
    const v = (await store.put(row('a', 5_000), undefined)) as number;
    await store.put(row('b', 7_000), undefined);
    await store.put(row('c', 9_000), undefined);
    const due = `{${p}subs}:due`;
    const raw = (args: string[]) => (redis.client as NodeRedisClient).sendCommand(args);
    // What a write that died after its first step leaves: entries earlier than the records.
    await raw(['ZADD', due, '1000', 'a', '1500', 'c', '100', 'ghost']);
    expect(await store.due(4_000, 10)).toEqual([]); // none of them is due yet
    expect(await store.due(8_000, 1)).toEqual(['a']); // soonest by the records, not the entries
    expect(await store.due(8_000, 10)).toEqual(['a', 'b']);
    // The entries were put right: the records' times, and the ghost (never written) gone.
    const entries = await raw(['ZRANGE', due, '0', '-1', 'WITHSCORES']);
    expect(entries).toEqual(['a', '5000', 'b', '7000', 'c', '9000']);
    // A stop takes the entry out.
    await store.put(row('a', undefined), v);
    expect(await store.due(10_000, 10)).toEqual(['b', 'c']);
    expect((await store.list({ dueBefore: 10_000 })).map((s) => s.key)).toEqual(['b', 'c']);
  });

  it('keeps the index never later than the record while writers race on one key', async () => {
    const p = prefix();
    // Eight writers, each on its own connection (as eight processes): their scripts interleave.
    const clients = await Promise.all(
      Array.from({ length: 8 }, () => connectClient('node-redis', server.url)),
    );
    const stores = clients.map((c) => new RedisSubscriptionStore(c.client, { prefix: p }));
    const first = stores[0] as RedisSubscriptionStore;
    await first.put(row('hot', 50_000), undefined);
    const raw = (args: string[]) => (redis.client as NodeRedisClient).sendCommand(args);
    let wins = 0;
    // Each writer reads, then writes a new dueAt (some stop it) naming what it read: most
    // lose, and the index scripts of winners and losers interleave.
    await Promise.all(
      stores.map(async (store, w) => {
        for (let i = 0; i < 40; i++) {
          const read = await store.get('hot');
          const at =
            (w * 40 + i) % 7 === 0 ? undefined : 1_000 + ((w * 7919 + i * 104_729) % 90_000);
          if ((await store.put(row('hot', at), read?.version)) !== undefined) wins += 1;
          // Read both at one instant (a script: atomic; one server, so any keys may meet).
          const [score, json] = (await raw([
            'EVAL',
            "return { redis.call('ZSCORE', KEYS[1], ARGV[1]) or '', redis.call('HGET', KEYS[2], 's') }",
            '2',
            `{${p}subs}:due`,
            `{${p}sub:hot}`,
            'hot',
          ])) as [string, string];
          const dueAt = (JSON.parse(json) as Subscription).dueAt;
          // An entry may be early (or left by a stop), never later than the record nor missing.
          if (dueAt !== undefined) {
            expect(score).not.toBe('');
            expect(Number(score)).toBeLessThanOrEqual(dueAt);
          }
        }
      }),
    );
    expect(wins).toBeGreaterThan(8);
    const stored = await first.get('hot');
    expect(stored?.version).toBe(wins + 1);
    const dueAt = stored?.subscription.dueAt;
    expect(await first.due(100_000, 10)).toEqual(dueAt === undefined ? [] : ['hot']);
    await Promise.all(clients.map((c) => c.close()));
  });

  it('gives the first of many due at one moment in key order, reading a page, not all', async () => {
    const p = prefix();
    const store = new RedisSubscriptionStore(redis.client, { prefix: p });
    const keys = Array.from({ length: 500 }, (_, i) => `m${String(i).padStart(3, '0')}`);
    for (const key of [...keys].reverse()) await store.put(row(key, 60_000), undefined);
    const monitor = await connectClient('node-redis', server.url);
    const seen: string[] = [];
    try {
      await (
        monitor.client as unknown as { monitor(on: (line: string) => void): Promise<void> }
      ).monitor((line) => seen.push(line));
      expect(await store.due(60_000, 10)).toEqual(keys.slice(0, 10));
      // MONITOR lines come on their own connection: a generous wait for the last of them.
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await monitor.close();
    }
    // One page of entries and their records: 16 of the 500, not all of them.
    const reads = seen.filter((line) => line.includes('"HMGET"'));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(16);
  });
});

describeWithRedis(
  'RedisSubscriptionStore on a 3-master Cluster',
  () => {
    let cluster: RedisCluster;
    let redis: ConnectedClient;
    beforeAll(async () => {
      cluster = await RedisCluster.start();
      redis = await connectClient('ioredis-cluster', cluster.urls.join(','));
    }, 60_000);
    afterAll(async () => {
      await redis?.close();
      await cluster?.dispose();
    });

    it('a year: each period charged once by two runners, the records spread over the slots', async () => {
      const store = new RedisSubscriptionStore(redis.client, { prefix: prefix() });
      await aYearOn(store);
    }, 180_000);
  },
  { cli: true },
);
