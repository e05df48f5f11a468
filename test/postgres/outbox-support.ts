import type { OutboxPayment } from 'momo-partner-sdk';
import {
  createPostgresState,
  type PostgresPoolClient,
  type PostgresState,
  type PostgresStateOptions,
} from 'momo-partner-sdk/postgres';
import type pg from 'pg';
import { vi } from 'vitest';
import { row } from '../batches/harness';
import type { usePostgres } from './support';

/** A payout intent for order `key` to `payee` (the simulator's magic numbers decide it). */
export const payout = (key: string, payee: string) => ({
  ...row(key, payee),
  operation: 'disbursement.transfer',
});

/** The partner's order route: BEGIN, the order row, the intent, COMMIT (or ROLLBACK). */
export async function order(
  pool: pg.Pool,
  db: PostgresState & { schema: string },
  key: string,
  payee: string,
  commit = true,
): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`INSERT INTO "${db.schema}".orders (id, status) VALUES ($1, 'NEW')`, [key]);
    const { referenceId } = await db.outbox.enqueue(client, payout(key, payee));
    await client.query(commit ? 'COMMIT' : 'ROLLBACK');
    return referenceId;
  } finally {
    client.release();
  }
}

/** A shop: a fresh migrated state (with `options`) and its orders table beside it. */
export async function freshShop(
  pg15: ReturnType<typeof usePostgres>,
  options: PostgresStateOptions = {},
): Promise<PostgresState & { schema: string }> {
  const schema = pg15.freshSchema();
  const db = Object.assign(createPostgresState(pg15.pool(), { ...options, schema }), { schema });
  await db.migrate();
  await ordersTable(pg15.pool(), schema);
  return db;
}

/** The partner's orders table, beside the SDK's in the state's schema. */
export async function ordersTable(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`CREATE TABLE "${schema}".orders (id text PRIMARY KEY, status text NOT NULL)`);
}

/** The orders' statuses, by id. */
export async function orderStatuses(pool: pg.Pool, schema: string) {
  const { rows } = await pool.query(`SELECT id, status FROM "${schema}".orders ORDER BY id`);
  return Object.fromEntries(rows.map((r) => [r.id, r.status]));
}

/** onSettled as a shop writes it: the order's status, in the relay's transaction. */
export function markOrder(schema: string, seen: OutboxPayment[] = []) {
  return async (payment: OutboxPayment, tx: PostgresPoolClient) => {
    seen.push(payment);
    await tx.query(`UPDATE "${schema}".orders SET status = $1 WHERE id = $2`, [
      payment.status,
      payment.key,
    ]);
  };
}

/** Resolves once every committed intent of the schema is delivered. */
export async function allDelivered(pool: pg.Pool, schema: string, timeout = 20_000) {
  await vi.waitFor(
    async () => {
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM "${schema}".outbox WHERE delivered_at IS NULL`,
      );
      if (rows[0]?.n !== 0) throw new Error(`${rows[0]?.n} not delivered yet`);
    },
    { timeout, interval: 20 },
  );
}

/** How many times each reference id was POSTed (created) at the server. */
export function postsPerId(ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}
