import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MomoClient } from 'momo-partner-sdk';
import { reconcile } from 'momo-partner-sdk/reconcile';
import { createRedisState, RedisJournal } from 'momo-partner-sdk/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, useLoopbackSimulator } from '../cli/support';
import {
  booksCsv,
  expectEachReported,
  expectReport,
  sendByEveryRoad,
} from '../reconcile/store-scenario';
import {
  CLUSTER_LIBRARIES,
  type ConnectedClient,
  connectClient,
  LIBRARIES,
} from './support/clients';
import { RedisCluster } from './support/redis-cluster';
import { describeWithRedis, RedisServer } from './support/redis-server';

let prefixes = 0;
const freshPrefix = () => `rc${++prefixes}-${process.pid}:`;
const PLATFORM = { baseUrl: 'http://127.0.0.1:1', targetEnvironment: 'sandbox' };

describeWithRedis('reconcile from the Redis state (real redis-server)', () => {
  const { sim, url, env } = useLoopbackSimulator();
  let server: RedisServer;
  let dir = '';
  beforeAll(async () => {
    server = await RedisServer.start();
    dir = await mkdtemp(join(tmpdir(), 'momo-reconcile-redis-'));
  });
  afterAll(async () => {
    await server?.dispose();
    await rm(dir, { recursive: true, force: true });
  });
  /** A client of the loopback simulator on `journal`, as the CLI's would be. */
  const clientOn = (journal: RedisJournal) =>
    new MomoClient({
      ...sim.credentials,
      baseUrl: url(),
      journal,
      polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 10_000 },
    });

  for (const library of LIBRARIES) {
    describe(library, () => {
      let redis: ConnectedClient;
      beforeAll(async () => {
        redis = await connectClient(library, server.url);
      });
      afterAll(() => redis?.close());

      it('reconcile(momo, books, { journal, batchStore }): a duplicate, an unchecked amount and what the books lack', async () => {
        const state = createRedisState(redis.client, { prefix: freshPrefix() });
        const momo = clientOn(state.journal);
        const sent = await sendByEveryRoad(momo, sim, state.batchStore);
        const result = await reconcile(momo, sent.books, {
          journal: state.journal,
          batchStore: state.batchStore,
        });
        expectEachReported(sent, result.items);
        await state.close();
      });
    });
  }

  it('the journal lists an entry while it is pending, then until its retention ends (and forgets it from its index)', async () => {
    const redis = await connectClient('node-redis', server.url);
    try {
      const prefix = freshPrefix();
      const journal = new RedisJournal(redis.client, { prefix, retentionMs: 300 });
      const entry = (referenceId: string, createdAt: number) => ({
        ...PLATFORM,
        product: 'disbursement' as const,
        operation: 'disbursement.transfer',
        referenceId,
        createdAt,
      });
      const [first, second] = [crypto.randomUUID(), crypto.randomUUID()];
      const now = Date.now();
      await journal.record(entry(first, now - 10));
      await journal.record(entry(second, now));
      await journal.finish(first, 'SUCCESSFUL', now);
      const listed = async (options = {}) => {
        const ids: string[] = [];
        for await (const e of journal.entries(options)) ids.push(e.referenceId);
        return ids;
      };
      expect(await listed()).toEqual([first, second]);
      expect(await listed({ since: now })).toEqual([second]);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await listed()).toEqual([second]); // the finished one expired
      await journal.record(entry(crypto.randomUUID(), Date.now())); // prunes the index
      const index = `{${prefix}journal}:entries`;
      const members = await (
        redis.client as { sendCommand(a: string[]): Promise<unknown> }
      ).sendCommand(['ZRANGE', index, '0', '-1']);
      expect(members).not.toContain(first.toLowerCase());
      expect(members).toContain(second.toLowerCase());
    } finally {
      await redis.close();
    }
  });

  it('CLI reconcile --from-store redis://...?prefix=: the payments the books lack, from its journal and batches', async () => {
    const redis = await connectClient('node-redis', server.url);
    const prefix = freshPrefix();
    const state = createRedisState(redis.client, { prefix });
    try {
      const sent = await sendByEveryRoad(clientOn(state.journal), sim, state.batchStore);
      const file = join(dir, 'books.csv');
      await writeFile(file, booksCsv(sent));
      const since = new Date(sent.since).toISOString();
      const store = `${server.url}?prefix=${encodeURIComponent(prefix)}`;
      const run = await runCli(
        ['reconcile', file, '--from-store', store, '--batch', sent.batchId, '--since', since],
        env(),
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('2 MATCH, 1 DUPLICATE, 2 MISSING_FROM_BOOKS');
      expectReport(sent, await readFile(join(dir, 'books.report.csv'), 'utf8'));
    } finally {
      await state.close();
      await redis.close();
    }
  });
});

describeWithRedis(
  'reconcile from the Redis state on a real 3-master Redis Cluster',
  () => {
    const { sim, url } = useLoopbackSimulator();
    let cluster: RedisCluster;
    beforeAll(async () => {
      cluster = await RedisCluster.start();
    }, 60_000);
    afterAll(() => cluster?.dispose());

    for (const library of CLUSTER_LIBRARIES) {
      it(`${library}: the journal's entries and the batch store's batches are listed`, async () => {
        const redis = await connectClient(library, cluster.urls.join(','));
        const state = createRedisState(redis.client, { prefix: freshPrefix() });
        try {
          const momo = new MomoClient({
            ...sim.credentials,
            baseUrl: url(),
            journal: state.journal,
            polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 10_000 },
          });
          const sent = await sendByEveryRoad(momo, sim, state.batchStore);
          const result = await reconcile(momo, sent.books, {
            journal: state.journal,
            batchStore: state.batchStore,
          });
          expectEachReported(sent, result.items);
        } finally {
          await state.close();
          await redis.close();
        }
      });
    }
  },
  { cli: true },
);
