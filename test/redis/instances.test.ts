import type { JournalEntry } from 'momo-partner-sdk';
import { RedisJournal } from 'momo-partner-sdk/redis';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { connectClient, type Library } from './support/clients';
import { Instance, until } from './support/instances';
import { describeWithRedis, RedisServer } from './support/redis-server';

const PENDING_PAYEE = '46733123453'; // stays PENDING until sim.settle()
let prefixes = 0;
/** Processes start slowly on a busy machine (tsx compiles the SDK in each): a generous bound. */
const SLOW = { timeout: 90_000 };

describeWithRedis('many instances on one Redis (real processes, real redis-server)', () => {
  let redis: RedisServer;
  let sim: Simulator;
  let http: ListeningServer;
  let instances: Instance[] = [];
  let prefix: string;

  beforeAll(async () => {
    redis = await RedisServer.start();
  });
  afterAll(() => redis?.dispose());
  afterEach(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    instances = [];
    await http?.close();
  });

  async function start(settleMs = 100) {
    sim = createSimulator({ settleMs });
    http = await sim.listen({ port: 0 });
    prefix = `mp${++prefixes}-${process.pid}:`;
  }

  /** Starts `count` processes at once (each takes a while: tsx compiles the SDK). */
  async function processes(count: number): Promise<Instance[]> {
    const started = await Promise.all(Array.from({ length: count }, () => Instance.spawn()));
    instances.push(...started);
    return started;
  }

  async function spawn(
    library: Library,
    extra: Record<string, unknown> = {},
    redisUrl = redis.url,
  ) {
    const [instance] = (await processes(1)) as [Instance];
    return init(instance, library, extra, redisUrl);
  }

  async function init(
    instance: Instance,
    library: Library,
    extra: Record<string, unknown> = {},
    redisUrl = redis.url,
  ) {
    const { baseUrl: _, ...credentials } = sim.credentials;
    const simulator = { ...credentials, baseUrl: http.url };
    const init = { simulator, redisUrl, prefix, library, ...extra };
    const ready = await instance.call<{ callbackPort?: number }>('init', init);
    return { instance, ...ready };
  }

  const tokenRequests = (product: string) =>
    sim.requests.filter((r) => r.method === 'POST' && r.path === `/${product}/token/`).length;

  it(
    '4 cold processes x 50 concurrent calls make one token request per product; a 401 refreshes once for all',
    SLOW,
    async () => {
      await start();
      const libraries: Library[] = ['node-redis', 'node-redis', 'node-redis-v4', 'ioredis'];
      const all = await processes(libraries.length);
      await Promise.all(all.map((instance, i) => init(instance, libraries[i] as Library)));
      type Burst = { ok: number; failed: string[] };
      const burst = (list: Instance[]) =>
        Promise.all(list.map((instance) => instance.call<Burst>('balances', { count: 50 })));

      for (const result of await burst(all)) expect(result).toEqual({ ok: 50, failed: [] });
      expect(tokenRequests('disbursement')).toBe(1);
      expect(tokenRequests('collection')).toBe(1);

      sim.revokeTokens(); // every process now holds a token the service refuses
      const [first, ...others] = all as [Instance, ...Instance[]];
      expect(await burst([first])).toEqual([{ ok: 50, failed: [] }]);
      expect(tokenRequests('disbursement')).toBe(2);
      expect(tokenRequests('collection')).toBe(2);
      // The others meet their own 401 once, re-read the store and find the new token.
      for (const result of await burst(others)) expect(result).toEqual({ ok: 50, failed: [] });
      expect(tokenRequests('disbursement')).toBe(2);
      expect(tokenRequests('collection')).toBe(2);

      sim.revokeTokens(); // and all four refused at once: still one refresh
      for (const result of await burst(all)) expect(result).toEqual({ ok: 50, failed: [] });
      expect(tokenRequests('disbursement')).toBe(3);
      expect(tokenRequests('collection')).toBe(3);
    },
  );

  it(
    "a callback delivered to process B ends process A's wait at once, by A's own lookup",
    SLOW,
    async () => {
      await start();
      const [first, second] = (await processes(2)) as [Instance, Instance];
      const b = await init(first, 'ioredis', { serveCallbacks: true });
      // A would not poll for a minute: only the fan-out can end its wait in time.
      const a = await init(second, 'node-redis', {
        callbackUrl: `http://127.0.0.1:${b.callbackPort}/momo/callbacks/{referenceId}`,
        polling: { initialDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 120_000 },
      });
      const waited = a.instance.call<{ status: string }>('depositAndWait', {
        payee: PENDING_PAYEE,
      });
      const { referenceId } = await a.instance.event('accepted');
      const lookups = () =>
        sim.requests.filter(
          (r) => r.method === 'GET' && r.path === `/disbursement/v1_0/deposit/${referenceId}`,
        ).length;

      // A forged callback: B accepts it as a claim, confirms by lookup (PENDING), trusts
      // nothing and wakes nobody.
      const forged = await fetch(
        `http://127.0.0.1:${b.callbackPort}/momo/callbacks/${referenceId}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'SUCCESSFUL', amount: '10', currency: 'EUR' }),
        },
      );
      expect(forged.status).toBe(202);
      await until(() => lookups() === 1);

      sim.settle(referenceId, 'SUCCESSFUL'); // the service calls B back
      const result = await Promise.race([
        waited,
        new Promise((_, reject) => setTimeout(() => reject(new Error('A was not woken')), 10_000)),
      ]);
      expect(result).toMatchObject({ status: 'SUCCESSFUL' });
      await until(() => sim.callbacks[0]?.status !== undefined);
      expect(sim.callbacks.map((c) => c.status)).toEqual([202]); // accepted, confirmed after
      // B's check of the forged callback and of the real one (one lookup after the
      // interval, as the first said PENDING); A's lookup on B's hint.
      expect(lookups()).toBe(3);
    },
  );

  it(
    'a process killed after sending, before the 202: another lists it pending and resumes it; one transaction',
    SLOW,
    async () => {
      await start(100);
      sim.inject({ kind: 'delay', ms: 10_000, match: 'POST /disbursement/v1_0/deposit' });
      const a = await spawn('node-redis');
      a.instance.call('deposit').catch(() => {}); // never answered: the process dies first
      await until(() => sim.transactions.length === 1);
      await a.instance.kill();
      const [sent] = sim.transactions;

      const b = await spawn('ioredis'); // a new process, started after the crash
      const pending = await b.instance.call<JournalEntry[]>('pending');
      expect(pending).toEqual([
        {
          product: 'disbursement',
          operation: 'disbursement.deposit',
          referenceId: sent?.referenceId,
          createdAt: expect.any(Number),
          baseUrl: http.url,
          targetEnvironment: 'sandbox',
          tag: 'ext-1', // the body's externalId: whose payment it is
        },
      ]);
      expect(pending[0]?.createdAt).toBeLessThanOrEqual(sent?.createdAt ?? 0); // recorded before it left
      const outcomes = await b.instance.call('resume');
      expect(outcomes).toEqual([{ referenceId: sent?.referenceId, status: 'SUCCESSFUL' }]);
      expect(sim.transactions).toHaveLength(1);
      expect(await b.instance.call('pending')).toEqual([]);
    },
  );

  it(
    'Redis stopped mid-run: payments go on with one warning, and shared state recovers',
    SLOW,
    async () => {
      await start(20);
      const own = await RedisServer.start(); // this test stops its Redis
      try {
        const fast = { initialDelayMs: 20, maxDelayMs: 100, timeoutMs: 10_000 };
        const { instance } = await spawn('node-redis', { polling: fast }, own.url);
        type Payment = { referenceId: string; status: string };
        const statuses = (list: Payment[]) => list.map((p) => p.status);

        expect(statuses(await instance.call<Payment[]>('payments', { count: 2 }))).toEqual([
          'SUCCESSFUL',
          'SUCCESSFUL',
        ]);
        await own.stop();
        const during = await instance.call<Payment[]>('payments', { count: 3 });
        expect(statuses(during)).toEqual(['SUCCESSFUL', 'SUCCESSFUL', 'SUCCESSFUL']);
        const warnings = () => instance.logs.filter((l) => l.level === 'warn');
        expect(warnings()).toHaveLength(1);
        expect(warnings()[0]?.message).toMatch(/shared state unavailable/);

        await own.start(); // empty: no persistence
        await until(() => instance.call<boolean>('redisReady'));
        const after = await instance.call<Payment[]>('payments', { count: 2 });
        expect(statuses(after)).toEqual(['SUCCESSFUL', 'SUCCESSFUL']);
        expect(warnings()).toHaveLength(1);
        expect(
          instance.logs.some((l) => l.level === 'info' && /reachable again/.test(l.message)),
        ).toBe(true);
        expect(tokenRequests('disbursement')).toBe(1); // the in-process token carried on

        // What was journaled in memory during the outage reached Redis once it was back.
        const reader = await connectClient('node-redis', own.url);
        try {
          const journal = new RedisJournal(reader.client, { prefix });
          await until(async () => {
            const entries = await Promise.all(during.map((p) => journal.get(p.referenceId)));
            return entries.every((entry) => entry?.outcome === 'SUCCESSFUL');
          });
          expect(await journal.pending()).toEqual([]);
        } finally {
          await reader.close();
        }
        await instance.close(); // before its Redis goes away for good
      } finally {
        await own.dispose();
      }
    },
  );
});
