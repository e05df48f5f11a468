import { createRedisState } from 'momo-partner-sdk/redis';
import { createSimulator } from 'momo-partner-sdk/testing';
import { expect, it } from 'vitest';
import { connectClient, LIBRARIES } from './support/clients';
import { until } from './support/instances';
import { describeWithRedis, RedisServer } from './support/redis-server';

const PENDING_PAYEE = '46733123453'; // stays PENDING until sim.settle()
let prefixes = 0;

describeWithRedis(
  'no journal entry is ever invisible around a Redis outage (real redis-server)',
  () => {
    for (const library of LIBRARIES) {
      it(`${library}: Redis stopped, deposits sent, Redis restarted empty: pending() at once lists every one, and resume() settles every one`, async () => {
        const server = await RedisServer.start(); // no persistence: it comes back empty
        const redis = await connectClient(library, server.url);
        const shared = createRedisState(redis.client, {
          prefix: `out${++prefixes}-${process.pid}:`,
        });
        const sim = createSimulator({ settleMs: 10 });
        const warnings: string[] = [];
        const momo = sim.client({
          journal: shared.journal,
          tokenStore: shared.tokenStore,
          callbackBus: shared.callbackBus,
          polling: { initialDelayMs: 20, maxDelayMs: 100, timeoutMs: 10_000 },
          logger: { warn: (m) => warnings.push(m), info: () => {}, error: (m) => warnings.push(m) },
        });
        const deposit = () =>
          momo.disbursement.deposit({
            amount: '10',
            currency: 'EUR',
            externalId: 'order-1',
            payee: { partyIdType: 'MSISDN', partyId: PENDING_PAYEE },
          });
        const ready = () => {
          const client = redis.client as { isReady?: boolean; status?: string };
          return client.isReady ?? client.status === 'ready';
        };
        const pendingIds = async () =>
          new Set((await momo.journal.pending()).map((entry) => entry.referenceId));
        try {
          const before = await Promise.all([deposit(), deposit()]); // in Redis
          await server.stop();
          const during = await Promise.all(Array.from({ length: 5 }, deposit)); // in memory
          const all = new Set([...before, ...during].map((accepted) => accepted.referenceId));
          expect(await pendingIds()).toEqual(all); // while Redis is down
          expect(momo.health().journal.state).toBe('unavailable');

          await server.start();
          await until(ready);
          expect(await pendingIds()).toEqual(all); // the first answer starts the copy: still all
          expect(await pendingIds()).toEqual(all);
          expect(momo.health().journal.state).toBe('ok');

          // Once more, now for resume(): down, more deposits, back, resume at once.
          await server.stop();
          const more = await Promise.all(Array.from({ length: 3 }, deposit));
          for (const accepted of more) all.add(accepted.referenceId);
          for (const id of all) sim.settle(id, 'SUCCESSFUL');
          await server.start();
          await until(ready);
          const outcomes = await momo.journal.resume({ concurrency: 4 });
          expect(new Set(outcomes.map((o) => o.entry.referenceId))).toEqual(all);
          expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set(['SUCCESSFUL']));
          expect(await momo.journal.pending()).toEqual([]);
          expect(sim.transactions).toHaveLength(all.size); // nothing sent twice
          // One warning per outage of each component that saw it, never one per call.
          expect(warnings.every((w) => /shared state unavailable/.test(w))).toBe(true);
          expect(warnings.filter((w) => /\(journal\)/.test(w))).toHaveLength(2);
        } finally {
          await shared.close();
          await redis.close();
          await server.dispose();
        }
      });
    }
  },
);
