import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MomoClient, type OutboxPayment, toNodeListener } from 'momo-partner-sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PAYEE, useSimulator } from '../batches/harness';
import { until } from '../redis/support/instances';
import { describeWithPostgres } from '../support/postgres-server';
import {
  createOrders,
  ordersOf,
  placeOrder,
  providerOptions,
  settleOrder,
} from './outbox-crash-support';
import { usePostgres } from './support';

// Issue 26 (d): a forged callback for an outbox payment (SUCCESSFUL, while the provider
// still has it PENDING) is checked by a status lookup before anything is marked: the
// outbox row stays SENT and onSettled does not run. The provider's own callback, once
// the payer declines, ends it FAILED. The relay's client receives callbacks on a
// loopback node:http server (momo.callbacks.handler); its polling is slow, so that the
// callbacks, not a poll, decide. Real PostgreSQL, real HTTP both ways.
const CALLBACKS = '/momo/callbacks/';

describeWithPostgres('a forged callback for an outbox payment', () => {
  const pg15 = usePostgres();
  const h = useSimulator(50);
  const receiver: { base: string; listener?: ReturnType<typeof toNodeListener> } = { base: '' };
  const server = createServer((req, res) => {
    if (req.url?.startsWith(CALLBACKS) && receiver.listener) {
      return void receiver.listener(req, res);
    }
    res.writeHead(404).end();
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${CALLBACKS}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('is confirmed by lookup first: nothing marked until the provider settles it', async () => {
    const pool = pg15.pool();
    const db = await pg15.freshState();
    await createOrders(pool, db.schema);
    const momo = new MomoClient({
      ...providerOptions(h),
      callbackUrl: `${receiver.base}{referenceId}`,
      polling: { initialDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 600_000 },
    });
    // Every callback looked up at once (docs/simulator.md: no PENDING answer reused).
    receiver.listener = toNodeListener(momo.callbacks.handler({ confirmIntervalMs: 0 }));
    const delivered: OutboxPayment[] = [];
    const settle = settleOrder(db.schema);
    const relay = db.outbox.start(momo, {
      onSettled: async (payment, tx) => {
        delivered.push(payment);
        await settle(payment, tx);
      },
    });
    try {
      const order = await placeOrder(pool, db, 'order-forged', PAYEE.pending);
      await until(async () => (await db.outbox.get(order.key))?.status === 'SENT', 20_000);
      expect(h.sim.transaction(order.referenceId)).toMatchObject({
        status: 'PENDING',
        callbackUrl: `${receiver.base}${order.referenceId}`,
      });

      const forged = await fetch(`${receiver.base}${order.referenceId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          referenceId: order.referenceId,
          externalId: order.key,
          amount: '10.00',
          currency: 'EUR',
          financialTransactionId: '123456789',
          payee: { partyIdType: 'MSISDN', partyId: PAYEE.pending },
          status: 'SUCCESSFUL',
        }),
      });
      // Pending here: accepted as a claim, and the lookup decides (it says PENDING).
      expect(forged.status).toBe(202);
      const looked = () =>
        h.sim.requests.filter((r) => r.method === 'GET' && r.path.includes(order.referenceId));
      await until(async () => looked().length >= 1);
      // The lookup it made is the only thing it passed on (a PENDING status): nothing marked.
      expect(await db.outbox.get(order.key)).toMatchObject({ status: 'SENT' });
      expect(delivered).toEqual([]);
      expect((await ordersOf(pool, db.schema)).get(order.key)).toEqual({
        status: 'NEW',
        deliveries: 0,
      });

      // The payee declines: the provider's callback, confirmed by lookup, ends it.
      h.sim.settle(order.referenceId, 'FAILED', {
        code: 'APPROVAL_REJECTED',
        message: 'The payee declined.',
      });
      await until(async () => (await ordersOf(pool, db.schema)).get(order.key)?.deliveries === 1);
      expect(await db.outbox.get(order.key)).toMatchObject({
        status: 'FAILED',
        reason: 'APPROVAL_REJECTED',
        referenceId: order.referenceId,
      });
      expect(delivered.map((p) => [p.key, p.status])).toEqual([[order.key, 'FAILED']]);
      expect((await ordersOf(pool, db.schema)).get(order.key)?.status).toBe('FAILED');
      expect(await db.outbox.pending()).toEqual([]);
    } finally {
      await relay.stop();
    }
  });
});
