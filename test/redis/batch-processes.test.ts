import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type BatchItem, type BatchReport, type BatchStore, MomoClient } from 'momo-partner-sdk';
import { redisBatchStore } from 'momo-partner-sdk/redis';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ConnectedClient, connectClient, type Library } from './support/clients';
import { until } from './support/instances';
import { RedisCluster } from './support/redis-cluster';
import { describeWithRedis, RedisServer } from './support/redis-server';
import type { BatchRunnerInput } from './workers/batch-runner';

const WORKER = fileURLToPath(new URL('./workers/batch-runner.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LEASE_MS = 1_500;
/** Processes start slowly on a busy machine (tsx compiles the SDK in each). */
const SLOW = { timeout: 180_000 };

const PAYEE = { ok: '46733123999', rejected: '46733123451' };
const INVALID = new Set([17, 111, 222]);
/** 300 payout rows: every 10th refused by its payee, three invalid (never sent). */
const ITEMS: BatchItem[] = Array.from({ length: 300 }, (_, i) => ({
  key: `row-${i}`,
  body: {
    amount: `${10 + (i % 7)}.00`,
    currency: 'EUR',
    externalId: `row-${i}`,
    payee: {
      partyIdType: 'MSISDN',
      partyId: INVALID.has(i) ? 'not-a-number' : i % 10 === 3 ? PAYEE.rejected : PAYEE.ok,
    },
  },
}));

/** A child process running the batch (test/redis/workers/batch-runner.ts). */
class Runner {
  sent = 0;
  report: Promise<BatchReport>;
  readonly #child: ChildProcess;
  readonly #ready: Promise<void>;
  readonly #progress: (() => void)[] = [];

  constructor(input: BatchRunnerInput) {
    this.#child = fork(WORKER, [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let ready = () => {};
    this.#ready = new Promise((resolve) => {
      ready = resolve;
    });
    this.report = new Promise((resolve, reject) => {
      this.#child.on('message', (m: { type: string; sent?: number; report?: BatchReport }) => {
        if (m.type === 'ready') ready();
        if (m.type === 'progress') {
          this.sent = m.sent ?? 0;
          for (const check of this.#progress) check();
        }
        if (m.type === 'report') resolve(m.report as BatchReport);
      });
      this.#child.once('exit', (code, signal) => reject(new Error(`exited (${signal ?? code})`)));
    });
    this.report.catch(() => {}); // the killed one never reports
    this.#child.send(input);
  }

  ready(): Promise<void> {
    return this.#ready;
  }

  run(): void {
    this.#child.send('run');
  }

  /** Resolves once the process reports at least `n` items sent. */
  hasSent(n: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => this.sent >= n && resolve();
      this.#progress.push(check);
      check();
    });
  }

  /** SIGKILL, for real: no clean-up of any kind. */
  kill(): Promise<void> {
    return new Promise((resolve) => {
      if (this.#child.exitCode !== null || this.#child.signalCode !== null) return resolve();
      this.#child.once('exit', () => resolve());
      this.#child.kill('SIGKILL');
    });
  }
}

/**
 * Three processes run one batch of 300 rows on one Redis against one simulator (its
 * caps on); one is killed mid-run; the batch is run again until it ends.
 */
async function threeProcessesOneKilled(redisUrl: string, library: Library, label: string) {
  const sim: Simulator = createSimulator({
    settleMs: 150,
    limits: { lookupsPerSecond: 200, createsPerSecond: 200 },
  });
  const http: ListeningServer = await sim.listen({ port: 0 });
  const redis: ConnectedClient = await connectClient(library, redisUrl);
  try {
    const { baseUrl: _, ...credentials } = sim.credentials;
    const simulator = { ...credentials, baseUrl: http.url };
    const prefix = `bp-${label}-${process.pid}:`;
    const batchId = 'payroll-2026-11';
    const input = {
      simulator,
      redisUrl,
      library,
      prefix,
      batchId,
      leaseMs: LEASE_MS,
      items: ITEMS,
    };

    const runners = [new Runner(input), new Runner(input), new Runner(input)];
    await Promise.all(runners.map((r) => r.ready()));
    for (const r of runners) r.run();
    const [killed, ...others] = runners as [Runner, Runner, Runner];
    await killed.hasSent(25);
    await killed.kill();
    const partial = await Promise.all(others.map((r) => r.report));
    expect(killed.sent).toBeGreaterThanOrEqual(25);
    for (const r of others) expect(r.sent).toBeGreaterThan(0); // one batch, shared
    const claimedByTheDead = partial.flatMap((report) =>
      report.items.filter((i) => i.reason === 'claimed by another process'),
    );
    expect(claimedByTheDead.length).toBeGreaterThan(0);
    const held = [...new Set(claimedByTheDead.map((i) => i.key))];

    // Run again (here, in this process) until it ends: first the dead one's leases run out.
    const store = redisBatchStore(redis.client, { prefix, leaseMs: LEASE_MS });
    const momo = new MomoClient({
      ...simulator,
      polling: { initialDelayMs: 50, maxDelayMs: 200, timeoutMs: 60_000 },
    });
    let report: BatchReport | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      await until(async () => (await claimsLeft(store, batchId, held)) === 0, 30_000);
      report = await momo.batches.run(ITEMS, { id: batchId, store });
      if (report.summary.unresolved === 0) break;
    }
    expectExactlyOnce(sim, report as BatchReport);
    const records = new Map<string, string>();
    for await (const r of (await store.open(batchId)).records()) records.set(r.key, r.referenceId);
    for (const item of (report as BatchReport).items) {
      if (item.status !== 'REJECTED') expect(records.get(item.key)).toBe(item.referenceId);
    }
  } finally {
    await redis.close();
    await http.close();
  }
}

/** How many of `keys` another process still holds (a probe claim, released at once). */
async function claimsLeft(store: BatchStore, id: string, keys: string[]): Promise<number> {
  const batch = await store.open(id);
  let held = 0;
  for (const key of keys) {
    const token = await batch.claim(key, 'probe', LEASE_MS);
    if (token === undefined) held++;
    else await batch.release(key, token);
  }
  return held;
}

function expectExactlyOnce(sim: Simulator, report: BatchReport) {
  expect(report.summary).toMatchObject({ total: 300, rejected: 3, unresolved: 0 });
  const byRow = new Map<string, typeof sim.transactions>();
  for (const t of sim.transactions) {
    const key = (t.body as { externalId: string }).externalId;
    byRow.set(key, [...(byRow.get(key) ?? []), t]);
  }
  const posts = new Map<string, Set<string>>();
  const postCount = new Map<string, number>();
  for (const r of sim.requests) {
    if (r.method !== 'POST' || !r.path.startsWith('/disbursement/v1_0/transfer') || r.limited) {
      continue;
    }
    const key = (r.body as { externalId: string }).externalId;
    posts.set(key, (posts.get(key) ?? new Set()).add(r.headers['x-reference-id'] as string));
    postCount.set(key, (postCount.get(key) ?? 0) + 1);
  }
  for (const [i, item] of report.items.entries()) {
    if (INVALID.has(i)) {
      expect(item.status).toBe('REJECTED');
      expect(byRow.has(item.key)).toBe(false); // never sent
      expect(posts.has(item.key)).toBe(false);
      continue;
    }
    const created = byRow.get(item.key) ?? [];
    expect(created, item.key).toHaveLength(1); // created exactly once
    expect(created[0]?.referenceId).toBe(item.referenceId); // under one reference id
    expect([...(posts.get(item.key) ?? [])]).toEqual([item.referenceId]);
    expect(item.status).toBe(created[0]?.status); // the server's status
  }
  // Only what the killed process had in flight may have been sent twice (answered 409).
  const again = [...postCount.values()].filter((n) => n > 1);
  expect(again.length).toBeLessThanOrEqual(8);
  expect(Math.max(...postCount.values())).toBeLessThanOrEqual(2);
}

describeWithRedis('one batch, three processes, one killed (real redis-server)', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(() => server?.dispose());

  it('creates every valid row exactly once, under one reference id', SLOW, async () => {
    await threeProcessesOneKilled(server.url, 'node-redis', 'single');
  });
});

describeWithRedis(
  'one batch, three processes, one killed (real 3-master Redis Cluster)',
  () => {
    let cluster: RedisCluster;
    beforeAll(async () => {
      cluster = await RedisCluster.start();
    }, 60_000);
    afterAll(() => cluster?.dispose());

    it('creates every valid row exactly once, under one reference id', SLOW, async () => {
      await threeProcessesOneKilled(cluster.urls.join(','), 'ioredis-cluster', 'cluster');
    });
  },
  { cli: true },
);
