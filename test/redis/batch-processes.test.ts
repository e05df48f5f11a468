import { redisBatchStore } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  expectWholeBatchTakenOver,
  oneBatchOneKilled,
  transferRows,
} from '../support/batch-processes';
import { ProviderProcess } from '../support/provider-process';
import { type ConnectedClient, connectClient, type Library } from './support/clients';
import { RedisCluster } from './support/redis-cluster';
import { describeWithRedis, RedisServer } from './support/redis-server';

const SETTLE_MS = 150;
/** Processes start slowly on a busy machine (tsx compiles the SDK in each). */
const SLOW = { timeout: 180_000 };

const PAYEE = { ok: '46733123999', rejected: '46733123451' };
const INVALID = new Set([17, 111, 222]);
/** 500 payout rows: every 10th refused by its payee, three invalid (never sent). */
const ITEMS = transferRows(500, (i) =>
  INVALID.has(i) ? 'not-a-number' : i % 10 === 3 ? PAYEE.rejected : PAYEE.ok,
);

/**
 * Four processes run one batch of 500 rows on one Redis (the store's default lease,
 * 15 s) against the provider in its own process (its caps on); one is SIGKILLed mid-run;
 * each of the three others, run once, ends with the whole batch final.
 */
async function fourProcessesOneKilled(redisUrl: string, library: Library, label: string) {
  const provider = await ProviderProcess.start({
    settleMs: SETTLE_MS,
    limits: { lookupsPerSecond: 200, createsPerSecond: 200 },
  });
  const redis: ConnectedClient = await connectClient(library, redisUrl);
  try {
    const prefix = `bp-${label}-${process.pid}:`;
    const after = await oneBatchOneKilled({
      processes: 4,
      killAfter: 40,
      input: {
        simulator: provider.client,
        store: { kind: 'redis', url: redisUrl, library, prefix },
        batchId: 'payroll-2026-11',
        items: ITEMS,
      },
      probe: redisBatchStore(redis.client, { prefix }),
    });
    expect(after.survivors).toHaveLength(3);
    await expectWholeBatchTakenOver(
      after,
      provider,
      { total: 500, rejected: 3, failed: 50, successful: 447 },
      SETTLE_MS,
    );
    for (const { report } of after.survivors) {
      for (const i of INVALID) expect(report.items[i]?.status).toBe('REJECTED');
    }
  } finally {
    await redis.close();
    await provider.close();
  }
}

describeWithRedis('one batch, four processes, one killed (real redis-server)', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(() => server?.dispose());

  it(
    'each survivor ends with all 500 final within 15 s of the kill, every row created once',
    SLOW,
    async () => {
      await fourProcessesOneKilled(server.url, 'node-redis', 'single');
    },
  );
});

describeWithRedis(
  'one batch, four processes, one killed (real 3-master Redis Cluster)',
  () => {
    let cluster: RedisCluster;
    beforeAll(async () => {
      cluster = await RedisCluster.start();
    }, 60_000);
    afterAll(() => cluster?.dispose());

    it(
      'each survivor ends with all 500 final within 15 s of the kill, every row created once',
      SLOW,
      async () => {
        await fourProcessesOneKilled(cluster.urls.join(','), 'ioredis-cluster', 'cluster');
      },
    );
  },
  { cli: true },
);
