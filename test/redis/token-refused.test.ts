/**
 * DESIGN 10.1: a token the provider refused is never used again by any process sharing
 * the token store, and one new token is fetched for all. Two real processes on one
 * Redis token store; the simulator revokes every token (a key rotation) twice, so that
 * the second time the store holds a token one process never used, refused too.
 */
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { Instance } from './support/instances';
import { describeWithRedis, RedisServer } from './support/redis-server';

const SLOW = { timeout: 90_000 };

describeWithRedis('a refused token on a shared Redis token store (real processes)', () => {
  let redis: RedisServer;
  let sim: Simulator;
  let http: ListeningServer;
  const instances: Instance[] = [];

  beforeAll(async () => {
    redis = await RedisServer.start();
  });
  afterAll(() => redis?.dispose());
  afterEach(async () => {
    await Promise.all(instances.splice(0).map((instance) => instance.close()));
    await http?.close();
  });

  const tokenRequests = () =>
    sim.requests.filter((r) => r.method === 'POST' && r.path === '/disbursement/token/').length;

  it(
    'after a 401, exactly one new token for both processes, and no failed call',
    SLOW,
    async () => {
      sim = createSimulator({ settleMs: 100 });
      http = await sim.listen({ port: 0 });
      const { baseUrl: _, ...credentials } = sim.credentials;
      const init = {
        simulator: { ...credentials, baseUrl: http.url },
        redisUrl: redis.url,
        prefix: `tr-${process.pid}:`,
        library: 'node-redis',
      };
      const [a, b] = (await Promise.all([Instance.spawn(), Instance.spawn()])) as [
        Instance,
        Instance,
      ];
      instances.push(a, b);
      await Promise.all([a.call('init', init), b.call('init', init)]);
      type Burst = { ok: number; failed: string[] };
      const deposits = (instance: Instance) => instance.call<Burst>('deposits', { count: 20 });

      expect(await Promise.all([deposits(a), deposits(b)])).toEqual([
        { ok: 20, failed: [] },
        { ok: 20, failed: [] },
      ]);
      expect(tokenRequests()).toBe(1); // T1, in both processes and the store

      sim.revokeTokens();
      expect(await deposits(a)).toEqual({ ok: 20, failed: [] });
      expect(tokenRequests()).toBe(2); // T2, fetched by A, in the store; B still holds T1

      sim.revokeTokens(); // T2 refused too: B's 401 on T1 finds T2 in the store
      expect(await deposits(b)).toEqual({ ok: 20, failed: [] });
      expect(tokenRequests()).toBe(3); // T2 dropped from the store, T3 fetched once
      expect(await deposits(a)).toEqual({ ok: 20, failed: [] }); // A's 401 on T2 finds T3
      expect(tokenRequests()).toBe(3);
    },
  );
});
