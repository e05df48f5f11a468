import { MomoClient, type OutboxPayment } from 'momo-partner-sdk';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { createSimulator } from 'momo-partner-sdk/testing';
import { expect, it, vi } from 'vitest';
import { PAYEE, useSimulator } from '../batches/harness';
import { describeWithPostgres } from '../support/postgres-server';
import {
  allDelivered,
  freshShop,
  markOrder,
  order,
  orderStatuses,
  payout,
  postsPerId,
} from './outbox-support';
import { usePostgres } from './support';

const h = useSimulator();

describeWithPostgres('the outbox relay (real PostgreSQL, the simulator over HTTP)', () => {
  const pg15 = usePostgres();

  const shop = () => freshShop(pg15);

  it('sends every committed intent once and settles it with the order; rolled-back ones never', async () => {
    const db = await shop();
    const pool = pg15.pool();
    const ids = {
      paid: await order(pool, db, 'o-paid', PAYEE.ok),
      rejected: await order(pool, db, 'o-rejected', PAYEE.rejected),
      gone: await order(pool, db, 'o-gone', PAYEE.ok, false),
    };
    const seen: OutboxPayment[] = [];
    const relay = db.outbox.start(h.client(), { onSettled: markOrder(db.schema, seen) });
    await allDelivered(pool, db.schema);
    await relay.stop();

    expect(h.transferPosts().sort()).toEqual([ids.paid, ids.rejected].sort());
    expect(await db.outbox.get('o-paid')).toMatchObject({
      referenceId: ids.paid,
      status: 'SUCCESSFUL',
      financialTransactionId: expect.any(String),
    });
    expect(await db.outbox.get('o-rejected')).toMatchObject({
      status: 'FAILED',
      reason: 'APPROVAL_REJECTED',
    });
    expect(await db.outbox.get('o-gone')).toBeUndefined();
    expect(await orderStatuses(pool, db.schema)).toEqual({
      'o-paid': 'SUCCESSFUL',
      'o-rejected': 'FAILED',
    });
    expect(seen.map((p) => p.key).sort()).toEqual(['o-paid', 'o-rejected']);
    expect(await db.outbox.pending()).toEqual([]);
  });

  it('shares 100 intents between two relays on two pools: each created exactly once', async () => {
    const db = await shop();
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push(await order(pg15.pool(), db, `o-${i}`, PAYEE.ok));
    const other = createPostgresState(pg15.newPool(), { schema: db.schema });
    const seen: OutboxPayment[] = [];
    const relays = [
      db.outbox.start(h.client(), { concurrency: 4, onSettled: markOrder(db.schema, seen) }),
      other.outbox.start(h.client(), { concurrency: 4, onSettled: markOrder(db.schema, seen) }),
    ];
    await allDelivered(pg15.pool(), db.schema, 60_000);
    await Promise.all(relays.map((relay) => relay.stop()));
    const posts = postsPerId(h.transferPosts());
    expect([...posts.keys()].sort()).toEqual([...ids].sort());
    expect([...posts.values()].every((n) => n === 1)).toBe(true);
    expect(seen).toHaveLength(100);
    const statuses = Object.values(await orderStatuses(pg15.pool(), db.schema));
    expect(statuses.every((s) => s === 'SUCCESSFUL')).toBe(true);
  }, 90_000);

  it('rolls back onSettled’s update and the mark together when it throws, then runs it again', async () => {
    const db = await shop();
    const pool = pg15.pool();
    await pool.query(`CREATE TABLE "${db.schema}".ledger (key text, status text)`);
    const id = await order(pool, db, 'o-1', PAYEE.ok);
    let calls = 0;
    let lookupsBefore = -1;
    const finalSeen: (string | undefined)[] = [];
    const relay = db.outbox.start(h.client(), {
      onSettled: async (payment, tx) => {
        calls += 1;
        await tx.query(`INSERT INTO "${db.schema}".ledger VALUES ($1, $2)`, [
          payment.key,
          payment.status,
        ]);
        if (calls === 1) {
          lookupsBefore = h.transferLookups();
          // Meanwhile the outcome is not marked delivered for anyone else.
          finalSeen.push((await db.outbox.get('o-1'))?.status);
          throw new Error('the order service is down');
        }
      },
    });
    await allDelivered(pool, db.schema);
    await relay.stop();
    expect(calls).toBe(2);
    expect(finalSeen).toEqual(['SENT']);
    const { rows } = await pool.query(`SELECT key, status FROM "${db.schema}".ledger`);
    expect(rows).toEqual([{ key: 'o-1', status: 'SUCCESSFUL' }]); // the first one rolled back
    expect(postsPerId(h.transferPosts()).get(id)).toBe(1);
    expect(h.transferLookups()).toBe(lookupsBefore); // the retry only delivers: no new lookup
  });

  it('records a 4xx refusal as FAILED with its code, nothing created', async () => {
    const sim = createSimulator({ settleMs: 10, enforceCallbackHost: true });
    const server = await sim.listen();
    try {
      const db = await shop();
      const client = await pg15.pool().connect();
      await client.query('BEGIN');
      await db.outbox.enqueue(client, {
        ...payout('o-1', PAYEE.ok),
        callbackUrl: 'https://elsewhere.example/momo',
      });
      await client.query('COMMIT');
      client.release();
      const momo = new MomoClient({ ...sim.credentials, baseUrl: server.url });
      const relay = db.outbox.start(momo);
      await allDelivered(pg15.pool(), db.schema);
      await relay.stop();
      expect(await db.outbox.get('o-1')).toMatchObject({
        status: 'FAILED',
        reason: 'INVALID_CALLBACK_URL_HOST',
      });
      expect(sim.transactions).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('holds no send slot while waiting: with concurrency 1 a pending payment does not stop the next', async () => {
    const db = await shop();
    const pool = pg15.pool();
    const slow = await order(pool, db, 'o-1-slow', PAYEE.pending);
    const seen: OutboxPayment[] = [];
    const relay = db.outbox.start(h.client(), {
      concurrency: 1,
      onSettled: markOrder(db.schema, seen),
      pollIntervalMs: 50,
    });
    await vi.waitFor(async () => expect((await db.outbox.get('o-1-slow'))?.status).toBe('SENT'));
    await order(pool, db, 'o-2-fast', PAYEE.ok);
    await vi.waitFor(() => expect(seen.map((p) => p.key)).toEqual(['o-2-fast']), {
      timeout: 10_000,
    });
    expect((await db.outbox.get('o-1-slow'))?.status).toBe('SENT'); // still waiting
    h.sim.settle(slow, 'SUCCESSFUL');
    await allDelivered(pool, db.schema);
    await relay.stop();
    expect(seen.map((p) => p.key)).toEqual(['o-2-fast', 'o-1-slow']);
  });
  it('waits for a free slot when wake-ups come while every slot is busy (never spins)', async () => {
    const db = await shop();
    const pool = pg15.pool();
    const seen: OutboxPayment[] = [];
    // Only NOTIFYs and freed slots move it: the poll is a minute away.
    const relay = db.outbox.start(h.client(), {
      concurrency: 1,
      onSettled: markOrder(db.schema, seen),
      pollIntervalMs: 60_000,
    });
    const keys = Array.from({ length: 20 }, (_, i) => `o-busy-${String(i).padStart(2, '0')}`);
    await Promise.all(keys.map((key) => order(pool, db, key, PAYEE.ok)));
    await allDelivered(pool, db.schema);
    await relay.stop();
    expect(seen.map((p) => p.key).sort()).toEqual(keys);
    expect(new Set(h.transferPosts()).size).toBe(20);
  });
});
