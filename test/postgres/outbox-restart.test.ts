import { MomoClient } from 'momo-partner-sdk';
import { expect, it } from 'vitest';
import { PAYEE, useSimulator } from '../batches/harness';
import { until } from '../redis/support/instances';
import { describeWithPostgres } from '../support/postgres-server';
import {
  createOrders,
  creates,
  expectEachSentOnce,
  type PlacedOrder,
  placeOrder,
  providerOptions,
  settleOrder,
  TRANSFER,
} from './outbox-crash-support';
import { allDelivered } from './outbox-support';
import { usePostgres } from './support';

// Issue 26 (c): the database restarted (`pg_ctl stop -m immediate`, then started again)
// while the relay has intents in flight: payments waiting on their payers learn their
// final status while the database is down, and orders are placed after it is back. The
// relay, never restarted, records every outcome, delivers each once and sends the new
// intents by itself. Real PostgreSQL, real HTTP.
const SLOW = { timeout: 120_000 };

describeWithPostgres('the outbox relay across a database restart', () => {
  const pg15 = usePostgres();
  const h = useSimulator(50);

  it('loses nothing and goes on by itself', SLOW, async () => {
    const pool = pg15.pool();
    const db = await pg15.freshState();
    await createOrders(pool, db.schema);
    const logs: string[] = [];
    const log = (message: string) => void logs.push(message);
    const database = () => logs.filter((m) => m.startsWith('outbox relay: database:'));
    const logger = { info: log, warn: log, error: log };
    const momo = new MomoClient({ ...providerOptions(h), logger });
    const relay = db.outbox.start(momo, {
      logger,
      concurrency: 8,
      onSettled: settleOrder(db.schema),
    });
    try {
      // 40 orders (every 5th rolled back); ten of them wait on a payer until the test settles.
      const placed: PlacedOrder[] = [];
      for (let i = 0; i < 40; i++) {
        const payee = i % 4 === 1 ? PAYEE.pending : PAYEE.ok;
        placed.push(await placeOrder(pool, db, `before-${i}`, payee, i % 5 !== 4));
      }
      const waiting = placed.filter((p, i) => p.committed && i % 4 === 1);
      // In flight: every waiting payment sent, recorded SENT and looked up at least once.
      await until(async () => {
        const rows = await Promise.all(waiting.map((p) => db.outbox.get(p.key)));
        return rows.every((row) => row?.status === 'SENT') && lookedUp(waiting, 0);
      }, 60_000);

      await pg15.server().stop();
      // The payers decide while the database is down; the relay's waits learn it.
      const from = h.sim.requests.length;
      waiting.forEach((p, i) => {
        if (i % 2) h.sim.settle(p.referenceId, 'SUCCESSFUL');
        else h.sim.settle(p.referenceId, 'FAILED', { code: 'EXPIRED', message: 'Expired.' });
      });
      await until(() => lookedUp(waiting, from), 30_000);
      await until(() => database().some((m) => m.endsWith('retrying')), 30_000); // it noticed
      await pg15.server().restart();

      // Orders placed once it is back: the same relay sends them.
      const after = h.sim.requests.length;
      for (let i = 0; i < 10; i++) {
        placed.push(await placeOrder(pool, db, `after-${i}`, PAYEE.ok));
      }
      await allDelivered(pool, db.schema, 60_000); // retried while a query fails
      expect(creates(h.sim, after).length).toBeGreaterThanOrEqual(10);
      await expectEachSentOnce(h.sim, pool, db, placed);
      // Said once when it went away (per kind of error), once when it was back.
      expect(database().at(-1)).toBe('outbox relay: database: back');
      expect(database().length).toBeLessThan(8);
      for (const [i, p] of waiting.entries()) {
        expect((await db.outbox.get(p.key))?.status).toBe(i % 2 ? 'SUCCESSFUL' : 'FAILED');
      }
    } finally {
      await relay.stop();
    }
  });

  /** Every one of `payments` looked up at the provider since request number `from`. */
  function lookedUp(payments: PlacedOrder[], from: number): boolean {
    const paths = new Set(
      h.sim.requests
        .slice(from)
        .filter((r) => r.method === 'GET')
        .map((r) => r.path),
    );
    return payments.every((p) => paths.has(`${TRANSFER}/${p.referenceId}`));
  }
});
