import { MomoClient, type MomoClientOptions } from 'momo-partner-sdk';
import { Batches } from 'momo-partner-sdk/batches';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from '../batches/harness';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

const h = useSimulator();
/** A client of the simulator with the Postgres parts it is given. */
const client = (parts: Pick<MomoClientOptions, 'tokenStore' | 'journal'>) =>
  new MomoClient({
    ...h.sim.credentials,
    baseUrl: h.server.url,
    polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 10_000 },
    ...parts,
  });
const tokenRequests = () => h.sim.requests.filter((r) => r.path === '/disbursement/token/').length;

describeWithPostgres(
  'MomoClient on the Postgres state (real PostgreSQL, the simulator over HTTP)',
  () => {
    const pg15 = usePostgres();

    it('makes one token request for several instances going cold at once', async () => {
      const { schema } = await pg15.freshState();
      const instances = Array.from({ length: 5 }, () => {
        const db = createPostgresState(pg15.newPool(), { schema });
        return client({ tokenStore: db.tokenStore, journal: db.journal });
      });
      const balances = await Promise.all(instances.map((momo) => momo.disbursement.getBalance()));
      expect(balances).toHaveLength(5);
      expect(tokenRequests()).toBe(1);
      // A sixth instance, started later, uses the stored token.
      const late = createPostgresState(pg15.newPool(), { schema });
      await client({ tokenStore: late.tokenStore }).disbursement.getBalance();
      expect(tokenRequests()).toBe(1);
    });

    it('locks the refresh: one holder at a time; a dead holder’s lock lapses after its ttl', async () => {
      const { tokenStore } = await pg15.freshState();
      const release = await tokenStore.lock('k', 60_000);
      expect(release).toBeTypeOf('function');
      expect(await tokenStore.lock('k', 60_000)).toBeUndefined();
      await release?.();
      const dead = await tokenStore.lock('k', 1); // its holder never releases it
      expect(dead).toBeTypeOf('function');
      await new Promise((resolve) => setTimeout(resolve, 20)); // the database's clock runs past 1 ms
      const next = await tokenStore.lock('k', 60_000);
      expect(next).toBeTypeOf('function');
      await dead?.(); // the dead holder's late release leaves the new holder's lock alone
      expect(await tokenStore.lock('k', 60_000)).toBeUndefined();
    });

    it('keeps a newer token when an older refused one is deleted', async () => {
      const { tokenStore } = await pg15.freshState();
      const token = (accessToken: string) => ({
        accessToken,
        tokenType: 'access_token',
        issuedAt: Date.now(),
        expiresAt: Date.now() + 3_600_000,
      });
      await tokenStore.set('k', token('new'));
      await tokenStore.delete('k', 'old');
      expect((await tokenStore.get('k'))?.accessToken).toBe('new');
      await tokenStore.delete('k', 'new');
      expect(await tokenStore.get('k')).toBeUndefined();
      await tokenStore.set('k', { ...token('gone'), expiresAt: Date.now() - 1 }); // expired: not kept
      expect(await tokenStore.get('k')).toBeUndefined();
    });

    it('runs a batch on it with the journal beside it; a re-run sends nothing', async () => {
      const db = await pg15.freshState();
      const momo = client({ tokenStore: db.tokenStore, journal: db.journal });
      const items = [row('r1', PAYEE.ok), row('r2', PAYEE.notFound), row('r3', PAYEE.ok)];
      const report = await new Batches(momo).run(items, {
        id: 'payroll-2026-11',
        store: db.batchStore,
      });
      expect(report.items.map((i) => [i.key, i.status])).toEqual([
        ['r1', 'SUCCESSFUL'],
        ['r2', 'FAILED'],
        ['r3', 'SUCCESSFUL'],
      ]);
      expect(await db.journal.pending()).toEqual([]);
      const r1 = await db.journal.get(report.items[0]?.referenceId as string);
      expect(r1).toMatchObject({ tag: 'payroll-2026-11/r1', outcome: 'SUCCESSFUL' });
      expect(r1?.baseUrl).toBe(h.server.url); // the platform it was sent to

      const posts = h.sim.transactions.length;
      const again = await new Batches(client({ journal: db.journal })).run(items, {
        id: 'payroll-2026-11',
        store: createPostgresState(pg15.newPool(), { schema: db.schema }).batchStore,
      });
      expect(again.items.map((i) => i.referenceId)).toEqual(report.items.map((i) => i.referenceId));
      expect(h.sim.transactions).toHaveLength(posts);
    });
  },
);
