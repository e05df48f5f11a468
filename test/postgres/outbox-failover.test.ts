import type { OutboxPayment } from 'momo-partner-sdk';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import type pg from 'pg';
import { expect, it, vi } from 'vitest';
import { PAYEE, useSimulator } from '../batches/harness';
import { describeWithPostgres } from '../support/postgres-server';
import { allDelivered, freshShop, markOrder, order, postsPerId } from './outbox-support';
import { usePostgres } from './support';

const h = useSimulator();

/** The backends LISTENing on the schema's outbox channel. */
async function listeners(pool: pg.Pool, schema: string): Promise<number[]> {
  const { rows } = await pool.query('SELECT pid FROM pg_stat_activity WHERE query = $1', [
    `LISTEN "${schema}.outbox"`,
  ]);
  return rows.map((r) => r.pid);
}

describeWithPostgres('the outbox relay across relays and failures (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  const shop = (leaseMs?: number) => freshShop(pg15, leaseMs ? { leaseMs } : {});

  it('wakes a relay polling every 60 s by the NOTIFY of the commit', async () => {
    const db = await shop();
    const seen: OutboxPayment[] = [];
    const relay = db.outbox.start(h.client(), {
      pollIntervalMs: 60_000,
      onSettled: markOrder(db.schema, seen),
    });
    await vi.waitFor(async () => expect(await listeners(pg15.pool(), db.schema)).toHaveLength(1));
    const id = await order(pg15.pool(), db, 'o-1', PAYEE.ok);
    await vi.waitFor(() => expect(h.transferPosts()).toEqual([id]), { timeout: 10_000 });
    await db.close(); // stops its relays, releases the LISTEN connection
    await vi.waitFor(async () => expect(await listeners(pg15.pool(), db.schema)).toEqual([]));
    await relay.stop(); // stopped already: resolves at once
  });

  it('goes on polling when its LISTEN client is killed, and the listener comes back', async () => {
    const db = await shop();
    const pool = pg15.pool();
    const polling = db.outbox.start(h.client(), { pollIntervalMs: 100 });
    await vi.waitFor(async () => expect(await listeners(pool, db.schema)).toHaveLength(1));
    const [killed] = await listeners(pool, db.schema);
    await pool.query('SELECT pg_terminate_backend($1)', [killed]);
    const first = await order(pool, db, 'o-1', PAYEE.ok);
    await allDelivered(pool, db.schema);
    expect(h.transferPosts()).toEqual([first]);
    // Back on a new connection: a relay that only the NOTIFY wakes is woken again.
    await vi.waitFor(async () => {
      const now = await listeners(pool, db.schema);
      expect(now).toHaveLength(1);
      expect(now).not.toContain(killed);
    });
    const notified = db.outbox.start(h.client(), { pollIntervalMs: 60_000 });
    await polling.stop();
    const second = await order(pool, db, 'o-2', PAYEE.ok);
    await vi.waitFor(() => expect(h.transferPosts()).toEqual([first, second]), {
      timeout: 10_000,
    });
    await notified.stop();
  });

  it('stops losing nothing: another relay finishes what the stopped one held', async () => {
    const db = await shop();
    const pool = pg15.pool();
    const pending = [];
    for (let i = 0; i < 5; i++) pending.push(await order(pool, db, `o-wait-${i}`, PAYEE.pending));
    const seen: OutboxPayment[] = [];
    const first = db.outbox.start(h.client(), { onSettled: markOrder(db.schema, seen) });
    await vi.waitFor(async () => expect(await db.outbox.pending()).toSatisfy(allSent));
    await first.stop();
    expect(seen).toEqual([]);
    for (const id of pending) h.sim.settle(id, 'SUCCESSFUL');
    // Another instance, its own pool, started later.
    const other = createPostgresState(pg15.newPool(), { schema: db.schema });
    const second = other.outbox.start(h.client(), { onSettled: markOrder(db.schema, seen) });
    await allDelivered(pool, db.schema);
    await second.stop();
    await other.close();
    expect(seen.map((p) => p.status)).toEqual(Array(5).fill('SUCCESSFUL'));
    expect([...postsPerId(h.transferPosts()).values()]).toEqual([1, 1, 1, 1, 1]);
  });

  it('records nothing and runs no onSettled on a relay whose lease was taken over', async () => {
    const db = await shop(300);
    const pool = pg15.pool();
    const id = await order(pool, db, 'o-1', PAYEE.pending);
    const stalled: OutboxPayment[] = [];
    const first = db.outbox.start(h.client(), { onSettled: markOrder(db.schema, stalled) });
    await vi.waitFor(async () => expect((await db.outbox.get('o-1'))?.status).toBe('SENT'));
    // The first relay stalls past its lease (a long pause): its claim runs out.
    await pool.query(
      `UPDATE "${db.schema}".outbox SET claim_expires = clock_timestamp() - interval '1 second'`,
    );
    const other = createPostgresState(pg15.newPool(), { schema: db.schema, leaseMs: 300 });
    const rescued: OutboxPayment[] = [];
    const second = other.outbox.start(h.client(), {
      onSettled: markOrder(db.schema, rescued),
      pollIntervalMs: 50,
    });
    await vi.waitFor(async () => {
      const { rows } = await pool.query(`SELECT claim_owner FROM "${db.schema}".outbox`);
      const owners = rows.map((r) => r.claim_owner);
      expect(owners).toHaveLength(1);
      expect(owners[0]).not.toBeNull();
      return owners;
    });
    h.sim.settle(id, 'SUCCESSFUL');
    await allDelivered(pool, db.schema);
    await Promise.all([first.stop(), second.stop()]);
    await other.close();
    expect(stalled).toEqual([]);
    expect(rescued.map((p) => [p.key, p.status])).toEqual([['o-1', 'SUCCESSFUL']]);
    expect(h.transferPosts()).toEqual([id]);
  });
});

function allSent(payments: OutboxPayment[]): boolean {
  return payments.length === 5 && payments.every((p) => p.status === 'SENT');
}
