import { redisBatchStore } from 'momo-partner-sdk/redis';
import { createSimulator, type ListeningServer, type Simulator } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectExactlyOnce, oneBatchOneKilled, transferRows } from '../support/batch-processes';
import { type ConnectedClient, connectClient, type Library } from './support/clients';
import { RedisCluster } from './support/redis-cluster';
import { describeWithRedis, RedisServer } from './support/redis-server';

const LEASE_MS = 1_500;
/** Processes start slowly on a busy machine (tsx compiles the SDK in each). */
const SLOW = { timeout: 180_000 };

const PAYEE = { ok: '46733123999', rejected: '46733123451' };
const INVALID = new Set([17, 111, 222]);
/** 300 payout rows: every 10th refused by its payee, three invalid (never sent). */
const ITEMS = transferRows(300, (i) =>
  INVALID.has(i) ? 'not-a-number' : i % 10 === 3 ? PAYEE.rejected : PAYEE.ok,
);

/**
 * Three processes run one batch of 300 rows on one Redis against one simulator (its
 * caps on); one is killed mid-run; a survivor runs the batch again until it ends.
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
    const prefix = `bp-${label}-${process.pid}:`;
    const { report, records } = await oneBatchOneKilled({
      processes: 3,
      killAfter: 25,
      input: {
        simulator: { ...credentials, baseUrl: http.url },
        store: { kind: 'redis', url: redisUrl, library, prefix },
        batchId: 'payroll-2026-11',
        leaseMs: LEASE_MS,
        items: ITEMS,
      },
      probe: redisBatchStore(redis.client, { prefix, leaseMs: LEASE_MS }),
    });
    expect(report.summary).toMatchObject({ total: 300, rejected: 3, unresolved: 0 });
    for (const i of INVALID) expect(report.items[i]?.status).toBe('REJECTED');
    expectExactlyOnce(sim, report, 8);
    for (const item of report.items) {
      if (item.status !== 'REJECTED')
        expect(records.get(item.key)?.referenceId).toBe(item.referenceId);
    }
  } finally {
    await redis.close();
    await http.close();
  }
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
