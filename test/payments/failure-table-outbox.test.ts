/**
 * The outbox column of the kernel's table of failure reactions (docs/architecture.md,
 * "What each driver does with each failure"), on a real PostgreSQL outbox: each kind
 * produced by a real call through the real transport against the simulator, and what
 * the relay does with it. A refusal and a lone "not known yet" (408, 5xx) are pinned by
 * test/postgres/outbox-refusal.test.ts, a 409 (landed) by outbox-adopted.test.ts.
 */
import { MomoClient, type MomoClientOptions, type OutboxPayment } from 'momo-partner-sdk';
import { expect, it, vi } from 'vitest';
import { PAYEE, useSimulator } from '../batches/harness';
import { allDelivered, freshShop, markOrder, order } from '../postgres/outbox-support';
import { usePostgres } from '../postgres/support';
import { describeWithPostgres } from '../support/postgres-server';

const TRANSFER = 'POST /disbursement/v1_0/transfer';
const h = useSimulator();

const client = (options: Partial<MomoClientOptions> = {}) =>
  new MomoClient({
    ...h.sim.credentials,
    baseUrl: h.server.url,
    maxRetries: 0,
    polling: { initialDelayMs: 10, maxDelayMs: 50, timeoutMs: 10_000 },
    ...options,
  });

describeWithPostgres('the outbox relay and each kind of failure (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  /** A shop with one order, its relay started on `momo`; resolves once `o-1` was given back once. */
  async function givenBackOnce(momo: MomoClient) {
    const db = await freshShop(pg15);
    const referenceId = await order(pg15.pool(), db, 'o-1', PAYEE.ok);
    const relay = db.outbox.start(momo);
    await vi.waitFor(async () => expect((await db.outbox.get('o-1'))?.attempts).toBe(1), {
      timeout: 10_000,
      interval: 20,
    });
    return { db, relay, referenceId };
  }

  it('invalid: a stored body this release refuses is FAILED INVALID_INPUT, onSettled runs, nothing sent', async () => {
    const db = await freshShop(pg15);
    const pool = pg15.pool();
    await order(pool, db, 'o-1', PAYEE.ok);
    // As an intent written by another release would be: the client's check refuses it.
    await pool.query(
      `UPDATE "${db.schema}".outbox SET body = jsonb_set(body::jsonb, '{amount}', '"ten"') WHERE key = 'o-1'`,
    );
    const seen: OutboxPayment[] = [];
    const relay = db.outbox.start(client(), { onSettled: markOrder(db.schema, seen) });
    try {
      await allDelivered(pool, db.schema);
    } finally {
      await relay.stop();
    }
    expect(await db.outbox.get('o-1')).toMatchObject({ status: 'FAILED', reason: 'INVALID_INPUT' });
    expect(seen.map((p) => [p.key, p.status, p.reason])).toEqual([
      ['o-1', 'FAILED', 'INVALID_INPUT'],
    ]);
    expect(h.transferPosts()).toEqual([]);
  });

  it('credentials: QUEUED, sent again later under the same id, and paid', async () => {
    h.sim.inject({ kind: 'status', status: 401, match: TRANSFER, times: 2 });
    const { db, relay, referenceId } = await givenBackOnce(client());
    try {
      expect(await db.outbox.get('o-1')).toMatchObject({
        status: 'QUEUED',
        lastError: { name: 'AuthenticationError' },
      });
      await allDelivered(pg15.pool(), db.schema);
    } finally {
      await relay.stop();
    }
    expect(await db.outbox.get('o-1')).toMatchObject({ status: 'SUCCESSFUL' });
    expect(h.transferPosts()).toEqual([referenceId, referenceId, referenceId]); // call, replay, later
  });

  it('credentials: still cancellable (nothing was created)', async () => {
    h.sim.inject({ kind: 'status', status: 401, match: TRANSFER, times: 1_000 });
    const { db, relay } = await givenBackOnce(client());
    try {
      await db.outbox.cancel('o-1', 'keys rotated');
    } finally {
      await relay.stop();
    }
    expect(await db.outbox.get('o-1')).toMatchObject({ status: 'CANCELLED' });
    expect(h.sim.transactions).toHaveLength(0);
  });

  it('rate-limited: sent again after Retry-After under the same id, and paid', async () => {
    h.sim.inject({ kind: 'status', status: 429, headers: { 'retry-after': '1' }, match: TRANSFER });
    const { db, relay, referenceId } = await givenBackOnce(client());
    try {
      expect(await db.outbox.get('o-1')).toMatchObject({
        status: 'QUEUED',
        lastError: { name: 'RateLimitError' },
      });
      await allDelivered(pg15.pool(), db.schema);
    } finally {
      await relay.stop();
    }
    expect(await db.outbox.get('o-1')).toMatchObject({ status: 'SUCCESSFUL' });
    expect(h.transferPosts()).toEqual([referenceId, referenceId]);
  });

  it('not known yet, then a 401: not cancellable, sent again under the same id, paid once', async () => {
    h.sim.inject({ kind: 'drop-after-processing', match: TRANSFER });
    h.sim.inject({ kind: 'status', status: 401, match: TRANSFER, times: 2 });
    const { db, relay, referenceId } = await givenBackOnce(client({ maxRetries: 1 }));
    try {
      expect((await db.outbox.get('o-1'))?.status).toBe('QUEUED');
      await expect(db.outbox.cancel('o-1')).rejects.toThrow(/may have reached the provider/);
      await allDelivered(pg15.pool(), db.schema);
    } finally {
      await relay.stop();
    }
    expect(await db.outbox.get('o-1')).toMatchObject({ status: 'SUCCESSFUL' });
    expect(new Set(h.transferPosts())).toEqual(new Set([referenceId]));
    expect(h.sim.transactions).toHaveLength(1);
  });

  it('never sent: queued past its deadline, sent again later under the same id, each POSTed once', async () => {
    const db = await freshShop(pg15);
    const pool = pg15.pool();
    const ids = [await order(pool, db, 'o-1', PAYEE.ok), await order(pool, db, 'o-2', PAYEE.ok)];
    const relay = db.outbox.start(client({ createRate: 0.5, timeoutMs: 300 }));
    try {
      await allDelivered(pool, db.schema);
    } finally {
      await relay.stop();
    }
    const payments = [await db.outbox.get('o-1'), await db.outbox.get('o-2')];
    expect(payments.map((p) => p?.status)).toEqual(['SUCCESSFUL', 'SUCCESSFUL']);
    const queued = payments.find((p) => p?.attempts === 1);
    expect(queued?.lastError?.name).toBe('TimeoutError'); // one of them was held, unsent
    expect(h.transferPosts().sort()).toEqual([...ids].sort()); // each once: nothing sent twice
  });
});
