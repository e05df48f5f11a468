import {
  isValidationError,
  MomoClient,
  type OutboxPayment,
  type ValidationError,
} from 'momo-partner-sdk';
import type { PostgresState } from 'momo-partner-sdk/postgres';
import type pg from 'pg';
import { expect, it, vi } from 'vitest';
import { PAYEE, useSimulator } from '../batches/harness';
import { describeWithPostgres } from '../support/postgres-server';
import { allDelivered, freshShop, markOrder, order, orderStatuses, payout } from './outbox-support';
import { usePostgres } from './support';

const h = useSimulator();

/** The order route for a payout in a currency the account does not take (500 INVALID_CURRENCY). */
async function orderInCedis(pool: pg.Pool, db: PostgresState & { schema: string }, key: string) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`INSERT INTO "${db.schema}".orders (id, status) VALUES ($1, 'NEW')`, [key]);
    const intent = payout(key, PAYEE.ok);
    const body = { ...(intent.body as object), currency: 'GHS' };
    const { referenceId } = await db.outbox.enqueue(client, { ...intent, body });
    await client.query('COMMIT');
    return referenceId;
  } finally {
    client.release();
  }
}

/** A logger that keeps its lines. */
function lines() {
  const said: string[] = [];
  const say = (message: string) => said.push(message);
  return { said, logger: { debug: say, info: say, warn: say, error: say } };
}

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ValidationError,
  );

describeWithPostgres('the outbox: a refusal ends, it says why, cancel (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  it('a 500 business refusal is FAILED with its code at once: onSettled runs with it, one log line names it', async () => {
    const db = await freshShop(pg15);
    const pool = pg15.pool();
    const refusedId = await orderInCedis(pool, db, 'o-cedis');
    const paidId = await order(pool, db, 'o-paid', PAYEE.ok);
    const seen: (OutboxPayment & { at: number })[] = [];
    const mark = markOrder(db.schema);
    const { said, logger } = lines();
    const relay = db.outbox.start(h.client(), {
      logger,
      onSettled: async (payment, tx) => {
        seen.push({ ...payment, at: Date.now() });
        await mark(payment, tx);
      },
    });
    await allDelivered(pool, db.schema);
    await relay.stop();

    expect(await db.outbox.get('o-cedis')).toEqual({
      key: 'o-cedis',
      operation: 'disbursement.transfer',
      referenceId: refusedId,
      status: 'FAILED',
      reason: 'INVALID_CURRENCY',
      attempts: 0,
      amount: '10.00',
      currency: 'GHS',
    });
    expect(await orderStatuses(pool, db.schema)).toEqual({
      'o-cedis': 'FAILED',
      'o-paid': 'SUCCESSFUL',
    });
    const refused = seen.find((p) => p.key === 'o-cedis');
    expect(refused).toMatchObject({ status: 'FAILED', reason: 'INVALID_CURRENCY' });
    // Sent once: not retried by the client, nor by the relay.
    expect(h.transferPosts().filter((id) => id === refusedId)).toHaveLength(1);
    expect(h.transferPosts().filter((id) => id === paidId)).toHaveLength(1);
    // Within a second of the answer (the contract); here it takes tens of milliseconds. A
    // loaded 2-core machine gets 3 s of slack: before, the refusal was never settled at all.
    const answeredAt = h.sim.requests.find((r) => r.headers['x-reference-id'] === refusedId)?.at;
    expect((refused?.at ?? Infinity) - (answeredAt ?? 0)).toBeLessThan(3000);
    // One line, naming the payment and the code; the provider is not said to be down.
    expect(said.filter((line) => line.includes('o-cedis'))).toEqual([
      'outbox relay: payment "o-cedis" refused by the provider: INVALID_CURRENCY; FAILED, not retried',
    ]);
    expect(said.filter((line) => line.startsWith('outbox relay: provider'))).toEqual([]);
  });

  it.each([
    [408, 'REQUEST_TIMEOUT', 'ApiError'],
    [500, 'INTERNAL_PROCESSING_ERROR', 'ServerError'],
  ])(
    'a %i past the retries is not known yet: QUEUED with attempts and lastError, not cancellable, sent again later',
    async (status, code, name) => {
      const db = await freshShop(pg15);
      const pool = pg15.pool();
      const referenceId = await order(pool, db, 'o-1', PAYEE.ok);
      h.sim.inject({
        kind: 'status',
        status,
        body: { code, message: 'try later' },
        match: 'POST /disbursement/v1_0/transfer',
      });
      const before = Date.now();
      const seen: OutboxPayment[] = [];
      const relay = db.outbox.start(h.client({ maxRetries: 0 }), {
        onSettled: markOrder(db.schema, seen),
      });
      try {
        // Given back to wait (1 s before its next try).
        await vi.waitFor(async () => expect((await db.outbox.get('o-1'))?.attempts).toBe(1), {
          timeout: 10_000,
          interval: 20,
        });
        const waiting = await db.outbox.get('o-1');
        expect(waiting).toMatchObject({ status: 'QUEUED', attempts: 1, lastError: { name, code } });
        expect(waiting?.lastError?.at).toBeGreaterThanOrEqual(before);
        expect(Object.keys(waiting?.lastError ?? {}).sort()).toEqual(['at', 'code', 'name']);
        expect(await db.outbox.pending()).toEqual([waiting]);
        // The provider may hold it: cancel refuses.
        const refusal = await refusalOf(db.outbox.cancel('o-1'));
        expect(isValidationError(refusal)).toBe(true);
        expect(refusal?.issues[0]?.path).toBe('key');
        expect(refusal?.message).toMatch(/not known/);

        await allDelivered(pool, db.schema);
      } finally {
        await relay.stop();
      }
      expect(await db.outbox.get('o-1')).toMatchObject({
        status: 'SUCCESSFUL',
        attempts: 1,
        lastError: { name, code },
      });
      expect(seen.map((p) => [p.key, p.status])).toEqual([['o-1', 'SUCCESSFUL']]);
      expect(h.transferPosts()).toEqual([referenceId, referenceId]); // the same id again
    },
  );

  it('cancel() ends a QUEUED intent never sent as CANCELLED: onSettled runs with it, nothing is sent', async () => {
    const db = await freshShop(pg15);
    const pool = pg15.pool();
    await order(pool, db, 'o-1', PAYEE.ok);
    const cancelled = await db.outbox.cancel('o-1', 'customer left');
    expect(cancelled).toMatchObject({ key: 'o-1', status: 'CANCELLED', reason: 'customer left' });
    expect(await db.outbox.get('o-1')).toEqual(cancelled);
    expect(await db.outbox.pending()).toEqual([]);
    expect(await db.outbox.cancel('o-1')).toEqual(cancelled); // again: as it is

    const seen: OutboxPayment[] = [];
    const relay = db.outbox.start(h.client(), { onSettled: markOrder(db.schema, seen) });
    await allDelivered(pool, db.schema);
    await relay.stop();
    expect(seen).toEqual([cancelled]);
    expect(await orderStatuses(pool, db.schema)).toEqual({ 'o-1': 'CANCELLED' });
    expect(h.transferPosts()).toEqual([]);

    const unknown = await refusalOf(db.outbox.cancel('o-none'));
    expect(unknown?.issues).toEqual([{ path: 'key', message: expect.stringMatching(/o-none/) }]);
    const bad = await refusalOf(db.outbox.cancel('o-1', 7 as never));
    expect(bad?.issues[0]?.path).toBe('reason');
  });

  it('cancel() refuses an intent that was SENT (money may move) and changes nothing', async () => {
    const db = await freshShop(pg15);
    const pool = pg15.pool();
    await order(pool, db, 'o-1', PAYEE.pending);
    const relay = db.outbox.start(h.client());
    try {
      await vi.waitFor(async () => expect((await db.outbox.get('o-1'))?.status).toBe('SENT'), {
        timeout: 10_000,
        interval: 20,
      });
      const refusal = await refusalOf(db.outbox.cancel('o-1', 'too late'));
      expect(isValidationError(refusal)).toBe(true);
      expect(refusal?.issues[0]?.path).toBe('key');
      expect(refusal?.message).toMatch(/SENT.*money may move/);
      expect(await db.outbox.get('o-1')).toMatchObject({ status: 'SENT', attempts: 0 });
    } finally {
      await relay.stop();
    }
  });

  it('the journal on PostgreSQL keeps a refusal FAILED with its code', async () => {
    const db = await freshShop(pg15);
    const momo = new MomoClient({
      ...h.sim.credentials,
      baseUrl: h.server.url,
      journal: db.journal,
    });
    const body = { ...(payout('j-1', PAYEE.ok).body as object), currency: 'GHS' };
    const refused = await momo.disbursement.transfer(body as never).catch((e) => e);
    expect(refused).toMatchObject({ status: 500, code: 'INVALID_CURRENCY' });
    expect(await db.journal.get(refused.referenceId)).toMatchObject({
      outcome: 'FAILED',
      reason: 'INVALID_CURRENCY',
    });
    expect(await db.journal.pending()).toEqual([]);
  });
});
