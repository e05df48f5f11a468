import { createRedisState } from 'momo-partner-sdk/redis';
import { expect, it } from 'vitest';
import { connectClient, CLUSTER_LIBRARIES } from './support/clients';
import { RedisCluster } from './support/redis-cluster';

it('smoke', { timeout: 60_000 }, async () => {
  const cluster = await RedisCluster.start();
  try {
    for (const library of CLUSTER_LIBRARIES) {
      const c = await connectClient(library, cluster.urls.join(','));
      const s = createRedisState(c.client, { prefix: `${library}:` });
      const entry = { product: 'disbursement' as const, operation: 'disbursement.deposit', referenceId: 'a0c2b1f4-3f5e-4d6a-9b7c-8d9e0f1a2b3c', createdAt: 1, baseUrl: 'x', targetEnvironment: 'y' };
      await s.journal.record(entry);
      expect(await s.journal.pending()).toEqual([entry]);
      await s.tokenStore.set('momo:a:b:c', { accessToken: 't', tokenType: 'x', issuedAt: 1, expiresAt: Date.now() + 10000 });
      expect((await s.tokenStore.get('momo:a:b:c'))?.accessToken).toBe('t');
      const release = await s.tokenStore.lock('momo:a:b:c', 1000);
      expect(release).toBeTypeOf('function');
      await release?.();
      const got: unknown[] = [];
      const stop = await s.callbackBus.subscribe((e) => got.push(e));
      await s.callbackBus.publish({ referenceId: entry.referenceId, result: { status: 'SUCCESSFUL' } } as never);
      for (let i = 0; i < 100 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(got).toHaveLength(1);
      await stop();
      await s.close();
      await c.close();
    }
  } finally {
    await cluster.dispose();
  }
});
