import type { OutboxPayment } from 'momo-partner-sdk';
import type { PostgresPoolClient } from 'momo-partner-sdk/postgres';
import type pg from 'pg';
import { expect, it, vi } from 'vitest';
import { PAYEE, useSimulator } from '../batches/harness';
import { describeWithPostgres } from '../support/postgres-server';
import { allDelivered, freshShop, order, orderStatuses } from './outbox-support';
import { usePostgres } from './support';

const h = useSimulator();

/**
 * Holds back the relay's UPDATEs of the outbox whose text matches `pattern` (a statement
 * trigger waiting on an advisory lock this test holds) and logs every UPDATE statement
 * that commits, so a test sees how many statements carried the relay's writes.
 */
async function gate(pool: pg.Pool, schema: string, pattern: string) {
  const key = Number.parseInt(schema.replaceAll(/\D/g, '').slice(-9), 10);
  await pool.query(`CREATE TABLE "${schema}".updates (query text)`);
  await pool.query(`CREATE FUNCTION "${schema}".gate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO "${schema}".updates VALUES (current_query());
      IF current_query() LIKE TG_ARGV[0] THEN PERFORM pg_advisory_xact_lock_shared(${key}); END IF;
      RETURN NULL;
    END $$`);
  await pool.query(`CREATE TRIGGER gate BEFORE UPDATE ON "${schema}".outbox
    FOR EACH STATEMENT EXECUTE FUNCTION "${schema}".gate('${pattern.replaceAll("'", "''")}')`);
  const holder = await pool.connect();
  await holder.query('SELECT pg_advisory_lock($1)', [key]);
  return {
    /** How many statements wait at the gate. */
    waiting: async () => {
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE wait_event = 'advisory' AND query LIKE $1`,
        [pattern],
      );
      return rows[0]?.n as number;
    },
    release: async () => {
      await holder.query('SELECT pg_advisory_unlock($1)', [key]);
      holder.release();
    },
    /** The committed UPDATE statements of the outbox whose text matches `pattern`. */
    passed: async () => {
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM "${schema}".updates WHERE query LIKE $1`,
        [pattern],
      );
      return rows[0]?.n as number;
    },
  };
}

describeWithPostgres(
  'the outbox relay writes in batches, each row fenced (real PostgreSQL)',
  () => {
    const pg15 = usePostgres();

    const shop = () => freshShop(pg15);

    it('frees the send slot before SENT is recorded; marks go together; a taken-over row gets none', async () => {
      const db = await shop();
      const pool = pg15.pool();
      const sent = await gate(pool, db.schema, "%status = 'SENT'%");
      for (const key of ['o-1', 'o-2', 'o-3']) await order(pool, db, key, PAYEE.pending);
      const relay = db.outbox.start(h.client(), { concurrency: 1, pollIntervalMs: 50 });
      // With one send slot, all three are sent while the first SENT is still held back.
      await vi.waitFor(() => expect(h.transferPosts()).toHaveLength(3), { timeout: 10_000 });
      await vi.waitFor(async () => expect(await sent.waiting()).toBe(1));
      // Meanwhile another relay takes o-2 over (this one's lease ran out while it stalled).
      await pool.query(
        `UPDATE "${db.schema}".outbox SET claim_owner = 'relay-other',
         claim_token = '999999:relay-other', claim_expires = clock_timestamp() + interval '1 hour'
       WHERE key = 'o-2'`,
      );
      await sent.release();
      await vi.waitFor(async () => {
        expect((await db.outbox.get('o-1'))?.status).toBe('SENT');
        expect((await db.outbox.get('o-3'))?.status).toBe('SENT');
      });
      await relay.stop();
      const { rows } = await pool.query(
        `SELECT status, claim_token FROM "${db.schema}".outbox WHERE key = 'o-2'`,
      );
      expect(rows).toEqual([{ status: 'QUEUED', claim_token: '999999:relay-other' }]);
      expect(await sent.passed()).toBeLessThanOrEqual(3);
    });

    it('delivers many outcomes per transaction; a throw of one onSettled holds back only that one', async () => {
      const db = await shop();
      const pool = pg15.pool();
      await pool.query(`CREATE TABLE "${db.schema}".ledger (key text, status text)`);
      const delivered = await gate(pool, db.schema, '%delivered_at = now()%');
      const keys = Array.from({ length: 12 }, (_, i) => `o-${String(i).padStart(2, '0')}`);
      for (const key of keys) await order(pool, db, key, PAYEE.ok);
      const calls = new Map<string, number>();
      const onSettled = async (payment: OutboxPayment, tx: PostgresPoolClient) => {
        calls.set(payment.key, (calls.get(payment.key) ?? 0) + 1);
        await tx.query(`INSERT INTO "${db.schema}".ledger VALUES ($1, $2)`, [
          payment.key,
          payment.status,
        ]);
        await tx.query(`UPDATE "${db.schema}".orders SET status = $1 WHERE id = $2`, [
          payment.status,
          payment.key,
        ]);
        if (payment.key === 'o-07' && calls.get('o-07') === 1)
          throw new Error('order service down');
      };
      const relay = db.outbox.start(h.client(), { concurrency: 12, onSettled });
      // Every payment is final at the provider while the first deliveries are held back.
      await vi.waitFor(() => expect(h.transferLookups()).toBeGreaterThanOrEqual(12), {
        timeout: 10_000,
      });
      await vi.waitFor(async () => expect(await delivered.waiting()).toBeGreaterThan(0));
      await delivered.release();
      await allDelivered(pool, db.schema);
      await relay.stop();
      const { rows } = await pool.query(
        `SELECT key, count(*)::int AS n FROM "${db.schema}".ledger GROUP BY key ORDER BY key`,
      );
      expect(rows).toEqual(keys.map((key) => ({ key, n: 1 }))); // rolled-back runs left nothing
      expect(Object.values(await orderStatuses(pool, db.schema))).toEqual(
        Array(12).fill('SUCCESSFUL'),
      );
      expect(calls.get('o-07')).toBeGreaterThanOrEqual(2);
      expect(await delivered.passed()).toBeLessThan(12);
    });
  },
);
