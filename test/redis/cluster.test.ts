import type { JournalEntry } from 'momo-partner-sdk';
import { RedisJournal } from 'momo-partner-sdk/redis';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { expectPendingInRecordOrder } from '../support/journal-order';
import { CLUSTER_LIBRARIES, connectClient, type Library } from './support/clients';
import { Instance, until } from './support/instances';
import { RedisCluster } from './support/redis-cluster';
import { describeWithRedis } from './support/redis-server';

const PENDING_PAYEE = '46733123453'; // stays PENDING until sim.settle()
let prefixes = 0;
/** Processes start slowly on a busy machine (tsx compiles the SDK in each): a generous bound. */
const SLOW = { timeout: 120_000 };

describeWithRedis(
  'many instances on a real 3-master Redis Cluster (node-redis createCluster, ioredis Cluster)',
  () => {
    let cluster: RedisCluster;
    let sim: Simulator;
    let http: ListeningServer;
    let instances: Instance[] = [];
    let prefix: string;

    beforeAll(async () => {
      cluster = await RedisCluster.start();
    }, 60_000);
    afterAll(() => cluster?.dispose());
    afterEach(async () => {
      await Promise.all(instances.map((instance) => instance.close()));
      instances = [];
      await http?.close();
    });

    async function start(settleMs = 100) {
      sim = createSimulator({ settleMs });
      http = await sim.listen({ port: 0 });
      prefix = `cl${++prefixes}-${process.pid}:`;
    }

    async function processes(count: number): Promise<Instance[]> {
      const started = await Promise.all(Array.from({ length: count }, () => Instance.spawn()));
      instances.push(...started);
      return started;
    }

    async function init(instance: Instance, library: Library, extra: Record<string, unknown> = {}) {
      const { baseUrl: _, ...credentials } = sim.credentials;
      const simulator = { ...credentials, baseUrl: http.url };
      const redisUrl = cluster.urls.join(',');
      const ready = await instance.call<{ callbackPort?: number }>('init', {
        simulator,
        redisUrl,
        prefix,
        library,
        ...extra,
      });
      return { instance, ...ready };
    }

    const tokenRequests = () =>
      sim.requests.filter((r) => r.method === 'POST' && r.path === '/disbursement/token/').length;

    it.each(CLUSTER_LIBRARIES)(
      '%s: the journal lists entries of the same millisecond in record order',
      async (library) => {
        const connected = await connectClient(library, cluster.urls.join(','));
        try {
          const journal = new RedisJournal(connected.client, { prefix: `order${++prefixes}:` });
          await expectPendingInRecordOrder(journal);
        } finally {
          await connected.close();
        }
      },
    );

    it('4 cold processes x 50 deposits at once make one token request', SLOW, async () => {
      await start();
      const libraries: Library[] = [
        'node-redis-cluster',
        'ioredis-cluster',
        'node-redis-cluster',
        'ioredis-cluster',
      ];
      const all = await processes(libraries.length);
      await Promise.all(all.map((instance, i) => init(instance, libraries[i] as Library)));
      type Burst = { ok: number; failed: string[] };
      const bursts = await Promise.all(
        all.map((instance) => instance.call<Burst>('deposits', { count: 50 })),
      );
      for (const burst of bursts) expect(burst).toEqual({ ok: 50, failed: [] });
      expect(tokenRequests()).toBe(1);
      expect(sim.transactions).toHaveLength(200);
      // Every write reached the cluster: no component fell back to memory.
      for (const instance of all) {
        const health = await instance.call<Record<string, { state: string }>>('health');
        expect(Object.values(health).map((c) => c.state)).toEqual(['ok', 'ok', 'ok']);
        expect(instance.logs.filter((l) => l.level !== 'info')).toEqual([]);
      }
    });

    it("a callback received by one instance ends another's wait()", SLOW, async () => {
      await start();
      for (const [receiver, waiter] of [
        ['ioredis-cluster', 'node-redis-cluster'],
        ['node-redis-cluster', 'ioredis-cluster'],
      ] as const) {
        const [first, second] = (await processes(2)) as [Instance, Instance];
        const b = await init(first, receiver, { serveCallbacks: true });
        // A would not poll for a minute: only the fan-out can end its wait in time.
        const a = await init(second, waiter, {
          callbackUrl: `http://127.0.0.1:${b.callbackPort}/momo/callbacks/{referenceId}`,
          polling: { initialDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 120_000 },
        });
        const waited = a.instance.call<{ status: string }>('depositAndWait', {
          payee: PENDING_PAYEE,
        });
        const { referenceId } = await a.instance.event('accepted');
        sim.settle(referenceId, 'SUCCESSFUL'); // the service calls B back
        const result = await Promise.race([
          waited,
          new Promise((_, reject) => setTimeout(() => reject(new Error('not woken')), 15_000)),
        ]);
        expect(result).toMatchObject({ referenceId, status: 'SUCCESSFUL' });
        const lookups = sim.requests.filter(
          (r) => r.method === 'GET' && r.path === `/disbursement/v1_0/deposit/${referenceId}`,
        );
        // B's confirmation, and A's one lookup on B's hint (a bus message is a hint, never an outcome)
        expect(lookups).toHaveLength(2);
      }
    });

    it(
      'SIGKILL with 100 deposits in flight: a new instance resumes all 100; one transaction each',
      SLOW,
      async () => {
        await start(100);
        sim.inject({
          kind: 'delay',
          ms: 30_000,
          match: 'POST /disbursement/v1_0/deposit',
          times: 100,
        });
        const [doomed] = (await processes(1)) as [Instance];
        await init(doomed, 'node-redis-cluster');
        doomed.call('deposits', { count: 100 }).catch(() => {}); // never answered: it dies first
        await until(() => sim.transactions.length === 100, 30_000);
        await doomed.kill();
        const sent = new Set(sim.transactions.map((t) => t.referenceId));

        const [heir] = (await processes(1)) as [Instance];
        await init(heir, 'ioredis-cluster'); // started after the crash, another library
        const pending = await heir.call<JournalEntry[]>('pending');
        expect(new Set(pending.map((e) => e.referenceId))).toEqual(sent);
        const outcomes = await heir.call<{ referenceId: string; status: string }[]>('resume');
        expect(outcomes).toHaveLength(100);
        expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set(['SUCCESSFUL']));
        expect(new Set(outcomes.map((o) => o.referenceId))).toEqual(sent);
        expect(sim.transactions).toHaveLength(100); // nothing sent twice
        expect(await heir.call('pending')).toEqual([]);
      },
    );
  },
  { cli: true },
);
