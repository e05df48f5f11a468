import { isValidationError, MomoClient, type SharedRateBudget } from 'momo-partner-sdk';
import { createRedisState } from 'momo-partner-sdk/redis';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPauseShared } from '../support/shared-pause';
import { ARRIVAL_JITTER_MS, mostInWindow } from '../support/sliding-window';
import { CLUSTER_LIBRARIES, connectClient, type Library } from './support/clients';
import { Instance, until } from './support/instances';
import { RedisCluster } from './support/redis-cluster';
import { describeWithRedis, RedisServer } from './support/redis-server';

// One budget per partner, not per process: lookupRate and createRate shared by every
// instance through Redis (`rateBudget`). Real redis-server, real processes, the simulator
// on loopback recording when each request reached it; the assertions count requests in
// sliding seconds and never time how fast anything went.
const N = 5;
/** Processes start slowly on a busy machine (tsx compiles the SDK in each). */
const SLOW = 120_000;
let prefixes = 0;
const nextPrefix = () => `rate${++prefixes}-${process.pid}:`;

/** The GETs and the creating calls that reached the simulator, by arrival time. */
function arrivals(sim: Simulator) {
  const requests = sim.requests;
  return {
    gets: requests.filter((r) => r.method === 'GET').map((r) => r.at),
    creates: requests.filter((r) => r.headers['x-reference-id'] !== undefined).map((r) => r.at),
  };
}
/**
 * When the three processes let their lookups and creating calls go (each one's onRequest
 * hook, on the machine's one clock): the budget's work, without the delay a loaded
 * machine adds between a send and the simulator's reading of it.
 */
async function sendTimes(instances: Instance[]) {
  const all = (
    await Promise.all(
      instances.map((i) => i.call<{ kind: 'get' | 'create'; at: number }[]>('sends', {})),
    )
  ).flat();
  return {
    gets: all.filter((s) => s.kind === 'get').map((s) => s.at),
    creates: all.filter((s) => s.kind === 'create').map((s) => s.at),
  };
}
/** Within N in any sliding second, on the server, less the arrival jitter allowed. */
const withinCap = (times: number[]) => mostInWindow(times, 1_000 - ARRIVAL_JITTER_MS);

describeWithRedis('one rate budget for every process (real redis-server)', () => {
  let server: RedisServer;
  let sim: Simulator;
  let http: ListeningServer;
  let instances: Instance[] = [];

  beforeAll(async () => {
    server = await RedisServer.start();
    instances = await Promise.all(Array.from({ length: 3 }, () => Instance.spawn()));
  }, SLOW);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await server?.dispose();
  });

  /** Three processes, lookupRate and createRate N each, bursting balances and deposits at once. */
  async function burst(shareRates: boolean) {
    sim = createSimulator({ settleMs: 10 });
    http = await sim.listen({ port: 0 });
    try {
      const { baseUrl: _, ...credentials } = sim.credentials;
      const prefix = nextPrefix();
      await Promise.all(
        instances.map((instance) =>
          instance.call('init', {
            simulator: { ...credentials, baseUrl: http.url },
            redisUrl: server.url,
            prefix,
            library: 'node-redis' satisfies Library,
            lookupRate: N,
            createRate: N,
            shareRates,
          }),
        ),
      );
      const done = await Promise.all(
        instances.flatMap((instance) => [
          instance.call<{ ok: number }>('balances', { count: 6 }),
          instance.call<{ ok: number }>('deposits', { count: 4 }),
        ]),
      );
      expect(done.reduce((sum, d) => sum + d.ok, 0)).toBe(3 * (6 + 4));
      return arrivals(sim);
    } finally {
      await http.close();
    }
  }

  it(
    'three processes sharing one budget: never more than N lookups, nor N creating calls, in any sliding second in total',
    async () => {
      await sendTimes(instances); // forget earlier tests' sends
      const { gets, creates } = await burst(true);
      expect(gets).toHaveLength(18);
      expect(creates).toHaveLength(12);
      const sent = await sendTimes(instances);
      expect(sent.gets).toHaveLength(18);
      expect(sent.creates).toHaveLength(12);
      expect(withinCap(sent.gets)).toBeLessThanOrEqual(N);
      expect(withinCap(sent.creates)).toBeLessThanOrEqual(N);
    },
    SLOW,
  );

  it(
    'the same three processes, each with its own budget, go over N together (what the shared one prevents)',
    async () => {
      await sendTimes(instances);
      await burst(false);
      const { gets, creates } = await sendTimes(instances);
      expect(withinCap(gets)).toBeGreaterThan(N);
      expect(withinCap(creates)).toBeGreaterThan(N);
    },
    SLOW,
  );

  it('Redis down: calls still go under the process own budget, and health says so; back: shared again', async () => {
    const down = await RedisServer.start();
    const redis = await connectClient('node-redis', down.url);
    const shared = createRedisState(redis.client, { prefix: nextPrefix() });
    const local = createSimulator({ settleMs: 10 });
    const warnings: string[] = [];
    const momo = local.client({
      lookupRate: N,
      rateBudget: shared.rateBudget,
      logger: { warn: (m) => warnings.push(m), info: () => {}, error: (m) => warnings.push(m) },
    });
    const balances = (count: number) =>
      Promise.all(Array.from({ length: count }, () => momo.disbursement.getBalance()));
    try {
      await balances(3);
      expect(momo.health().rateBudget).toMatchObject({ state: 'ok', failures: 0 });
      await down.stop();
      expect(await balances(8)).toHaveLength(8);
      expect(withinCap(arrivals(local).gets)).toBeLessThanOrEqual(N);
      expect(momo.health().rateBudget).toMatchObject({
        state: 'unavailable',
        cause: 'RedisUnavailableError',
      });
      expect(warnings).toEqual(['shared state unavailable (rate budget): continuing in memory']);

      await down.start();
      await until(async () => {
        await momo.disbursement.getBalance();
        return momo.health().rateBudget?.state === 'ok';
      });
      expect(withinCap(arrivals(local).gets)).toBeLessThanOrEqual(N);
    } finally {
      await shared.close();
      await redis.close();
      await down.dispose();
    }
  }, 60_000);

  it("a 429's pause recorded by one instance holds the other's reservations of its class (JE4)", async () => {
    const connections = await Promise.all(
      [0, 1].map(() => connectClient('node-redis', server.url)),
    );
    const prefix = nextPrefix();
    const [a, b] = connections.map((c) => createRedisState(c.client, { prefix }));
    try {
      await expectPauseShared(a?.rateBudget as SharedRateBudget, b?.rateBudget as SharedRateBudget);
    } finally {
      await Promise.all([a?.close(), b?.close()]);
      await Promise.all(connections.map((c) => c.close()));
    }
  });
});

describeWithRedis(
  'one rate budget on a real 3-master Redis Cluster (node-redis createCluster, ioredis Cluster)',
  () => {
    let cluster: RedisCluster;
    beforeAll(async () => {
      cluster = await RedisCluster.start();
    }, 60_000);
    afterAll(() => cluster?.dispose());

    for (const library of CLUSTER_LIBRARIES) {
      it(`${library}: two clients on one budget stay within N lookups and N creating calls in any sliding second`, async () => {
        const prefix = nextPrefix();
        const sim = createSimulator({ settleMs: 10 });
        const connections = await Promise.all(
          [0, 1].map(() => connectClient(library, cluster.urls.join(','))),
        );
        const states = connections.map((c) => createRedisState(c.client, { prefix }));
        const clients = states.map((shared) =>
          sim.client({ lookupRate: N, createRate: N, rateBudget: shared.rateBudget }),
        );
        try {
          await Promise.all(
            clients.flatMap((momo) => [
              ...Array.from({ length: 6 }, () => momo.disbursement.getBalance()),
              ...Array.from({ length: 4 }, () =>
                momo.disbursement.deposit({
                  amount: '10',
                  currency: 'EUR',
                  externalId: 'order-1',
                  payee: { partyIdType: 'MSISDN', partyId: '46733123459' },
                }),
              ),
            ]),
          );
          const { gets, creates } = arrivals(sim);
          expect(gets).toHaveLength(12);
          expect(creates).toHaveLength(8);
          expect(withinCap(gets)).toBeLessThanOrEqual(N);
          expect(withinCap(creates)).toBeLessThanOrEqual(N);
          for (const momo of clients) expect(momo.health().rateBudget?.state).toBe('ok');
        } finally {
          await Promise.all(states.map((shared) => shared.close()));
          await Promise.all(connections.map((c) => c.close()));
        }
      }, 60_000);
    }
  },
  { cli: true },
);

describe('the rateBudget option', () => {
  const options = { baseUrl: 'http://127.0.0.1:9', targetEnvironment: 'sandbox' };

  it.each([{}, null, 'redis', { reserve: 'soon' }])(
    'refuses %j, naming rateBudget, before anything is sent',
    (rateBudget) => {
      const error = (() => {
        try {
          new MomoClient({ ...options, lookupRate: N, rateBudget: rateBudget as never });
        } catch (e) {
          return e;
        }
      })();
      expect(isValidationError(error) && error.issues.map((i) => i.path)).toEqual(['rateBudget']);
    },
  );

  it('a budget with no rate to share (neither lookupRate nor createRate) is never asked', async () => {
    const sim = createSimulator({ settleMs: 10 });
    let asked = 0;
    const rateBudget: SharedRateBudget = {
      reserve: async () => {
        asked++;
        return Date.now();
      },
    };
    const momo = sim.client({ rateBudget });
    await momo.disbursement.getBalance();
    expect(asked).toBe(0);
    expect(momo.health()).not.toHaveProperty('rateBudget');
  });

  it('a partner-made budget: each call goes at the moment it reserved, never sooner', async () => {
    const sim = createSimulator({ settleMs: 10 });
    const moments: number[] = [];
    // 40 ms apart, whatever the rate: the budget decides, not the process.
    const rateBudget: SharedRateBudget = {
      reserve: async () => {
        const at = Math.max(Date.now(), (moments.at(-1) ?? 0) + 40);
        moments.push(at);
        return at;
      },
    };
    const momo = sim.client({ lookupRate: 1_000, rateBudget });
    await Promise.all(Array.from({ length: 5 }, () => momo.disbursement.getBalance()));
    const { gets } = arrivals(sim);
    expect(gets).toHaveLength(5);
    for (const [i, at] of gets.entries()) expect(at).toBeGreaterThanOrEqual(moments[i] as number);
    expect(momo.health().rateBudget?.state).toBe('ok');
  });
});
