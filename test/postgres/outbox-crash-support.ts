/**
 * What the outbox crash tests (issue 26 b, c, d) add to ./outbox-support: a relay's
 * client options that can cross to a child process, the orders table counting the
 * deliveries that committed, and the end-state check (each committed intent created
 * once under its enqueued reference id, final, delivered once; nothing of a rolled-back
 * one ever sent).
 */
import type { MomoClientOptions } from 'momo-partner-sdk';
import type { PostgresState } from 'momo-partner-sdk/postgres';
import type { RecordedRequest, Simulator } from 'momo-partner-sdk/testing';
import type pg from 'pg';
import { expect } from 'vitest';
import type { Harness } from '../batches/harness';
import { markOrder, order, ordersTable } from './outbox-support';

export const TRANSFER = '/disbursement/v1_0/transfer';

/** What a relay's client needs to reach the simulator (also over IPC to a child). */
export type ProviderOptions = Pick<
  MomoClientOptions,
  'baseUrl' | 'targetEnvironment' | 'subscriptionKey' | 'apiUser' | 'polling'
>;

/** The simulator's loopback server as a relay's client options: waits outlast the test. */
export const providerOptions = (h: Harness): ProviderOptions => ({
  ...h.sim.credentials,
  baseUrl: h.server.url,
  polling: { initialDelayMs: 50, maxDelayMs: 200, timeoutMs: 120_000 },
});

/** The partner's orders, counting the deliveries that committed (one is the promise). */
export async function createOrders(pool: pg.Pool, schema: string): Promise<void> {
  await ordersTable(pool, schema);
  await pool.query(`ALTER TABLE "${schema}".orders ADD COLUMN deliveries int NOT NULL DEFAULT 0`);
}

/** `onSettled` of these tests: the order's status (as a shop's), and one more delivery. */
export function settleOrder(schema: string) {
  const mark = markOrder(schema);
  return async (...[payment, tx]: Parameters<typeof mark>): Promise<void> => {
    await mark(payment, tx);
    await tx.query(`UPDATE "${schema}".orders SET deliveries = deliveries + 1 WHERE id = $1`, [
      payment.key,
    ]);
  };
}

export interface PlacedOrder {
  key: string;
  referenceId: string;
  committed: boolean;
}

/** An order and its payout intent in one transaction, committed or rolled back. */
export async function placeOrder(
  pool: pg.Pool,
  db: PostgresState & { schema: string },
  key: string,
  payee: string,
  commit = true,
): Promise<PlacedOrder> {
  return { key, referenceId: await order(pool, db, key, payee, commit), committed: commit };
}

/** Transfers (creating calls) the simulator received, from request number `from` on. */
export const creates = (sim: Simulator, from = 0): RecordedRequest[] =>
  sim.requests.slice(from).filter((r) => r.method === 'POST' && r.path === TRANSFER);

/** The order rows of the schema, by id. */
export async function ordersOf(
  pool: pg.Pool,
  schema: string,
): Promise<Map<string, { status: string; deliveries: number }>> {
  const { rows } = await pool.query<{ id: string; status: string; deliveries: number }>(
    `SELECT id, status, deliveries FROM "${schema}".orders`,
  );
  return new Map(rows.map((r) => [r.id, { status: r.status, deliveries: r.deliveries }]));
}

/**
 * The end state every outbox crash test asks for: each committed order's payout created
 * exactly once on the provider, under the reference id enqueue answered (every creating
 * call for it carried that id: a re-send is the same id, answered 409), final in
 * `outbox.get` with the provider's status, its order updated by exactly one committed
 * delivery; nothing pending; a rolled-back order's intent never sent, never stored.
 * Returns how many creating calls each committed key took.
 */
export async function expectEachSentOnce(
  sim: Simulator,
  pool: pg.Pool,
  db: PostgresState & { schema: string },
  placed: PlacedOrder[],
): Promise<Map<string, number>> {
  const posts = creates(sim);
  const orders = await ordersOf(pool, db.schema);
  const sends = new Map<string, number>();
  for (const { key, referenceId, committed } of placed) {
    const mine = posts.filter((r) => externalId(r) === key || idOf(r) === referenceId);
    const created = sim.transactions.filter((tx) => externalId(tx) === key);
    if (!committed) {
      expect(mine, `${key} rolled back: never sent`).toEqual([]);
      expect(created, key).toEqual([]);
      expect(await db.outbox.get(key), key).toBeUndefined();
      expect(orders.has(key), key).toBe(false);
      continue;
    }
    expect(
      created.map((tx) => tx.referenceId),
      `${key}: created once, under its id`,
    ).toEqual([referenceId]);
    expect(new Set(mine.map(idOf)), key).toEqual(new Set([referenceId]));
    const status = created[0]?.status;
    expect(await db.outbox.get(key), key).toMatchObject({ key, referenceId, status });
    expect(['SUCCESSFUL', 'FAILED']).toContain(status);
    expect(orders.get(key), key).toEqual({ status, deliveries: 1 });
    sends.set(key, mine.length);
  }
  expect(await db.outbox.pending()).toEqual([]);
  return sends;
}

/** The X-Reference-Id a creating call carried. */
export const idOf = (r: RecordedRequest) => r.headers['x-reference-id']?.toLowerCase() ?? '';
/** The key a payout was sent for (its externalId). */
export const externalId = (r: { body: unknown }) => (r.body as { externalId?: string }).externalId;
