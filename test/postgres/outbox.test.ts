import { isValidationError, type ValidationError } from 'momo-partner-sdk';
import { createPostgresState, PostgresSchemaError } from 'momo-partner-sdk/postgres';
import type pg from 'pg';
import { expect, it, vi } from 'vitest';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

/** A payment request for an order, as a shop's checkout would make it. */
const payment = (orderId: string, amount = '1500') => ({
  key: orderId,
  operation: 'collection.requestToPay',
  body: {
    amount,
    currency: 'EUR',
    externalId: orderId,
    payer: { partyIdType: 'MSISDN', partyId: '46733123999' },
    payerMessage: 'Order',
    payeeNote: orderId,
  },
});

describeWithPostgres('db.outbox.enqueue in the partner’s transaction (real PostgreSQL)', () => {
  const pg15 = usePostgres();

  /** The partner's own table, in the state's schema. */
  async function shop() {
    const db = await pg15.freshState();
    await pg15.pool().query(`CREATE TABLE "${db.schema}".orders (id text PRIMARY KEY, total int)`);
    /** BEGIN, the order row, `work`, COMMIT (or ROLLBACK when `commit` is false). */
    const order = async <T>(
      id: string,
      work: (client: pg.PoolClient) => Promise<T>,
      commit = true,
    ): Promise<T> => {
      const client = await pg15.pool().connect();
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO "${db.schema}".orders VALUES ($1, 1500)`, [id]);
        const result = await work(client);
        await client.query(commit ? 'COMMIT' : 'ROLLBACK');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    };
    const orders = async () =>
      (await pg15.pool().query(`SELECT id FROM "${db.schema}".orders ORDER BY id`)).rows.map(
        (r) => r.id,
      );
    return { db, order, orders };
  }

  /** The refusal `work` ends in, after which the partner's transaction must still commit. */
  async function refusal(
    order: Awaited<ReturnType<typeof shop>>['order'],
    id: string,
    work: (client: pg.PoolClient) => Promise<unknown>,
  ): Promise<ValidationError> {
    return order(id, async (client) => {
      const error = await work(client).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isValidationError(error), String(error)).toBe(true);
      return error as ValidationError;
    });
  }

  it('returns the reference id at once; the intent is QUEUED once the order commits', async () => {
    const { db, order } = await shop();
    const { referenceId } = await order('o-1', (client) =>
      db.outbox.enqueue(client, payment('o-1')),
    );
    expect(referenceId).toMatch(/^[0-9a-f-]{36}$/);
    await order('o-2', (client) => db.outbox.enqueue(client, payment('o-2')));
    expect(await db.outbox.get('o-1')).toEqual({
      key: 'o-1',
      operation: 'collection.requestToPay',
      referenceId,
      status: 'QUEUED',
      amount: '1500', // as enqueued, for the books
      currency: 'EUR',
      attempts: 0,
    });
    expect((await db.outbox.pending()).map((p) => p.key)).toEqual(['o-1', 'o-2']);
  });

  it('writes an intent in three statements on your client; its NOTIFY only when inserted', async () => {
    const { db, order } = await shop();
    const listener = await pg15.pool().connect();
    const notified: string[] = [];
    listener.on('notification', (n) => notified.push(n.channel));
    await listener.query(`LISTEN "${db.schema}.outbox"`);
    try {
      const statements: string[] = [];
      const counting = (client: pg.PoolClient) =>
        Object.assign(Object.create(client), {
          query: (text: string, values?: unknown[]) => {
            statements.push(text.trim().split(/\s+/)[0] ?? '');
            return client.query(text, values);
          },
        });
      await order('o-1', (client) => db.outbox.enqueue(counting(client), payment('o-1')));
      expect(statements).toEqual(['SAVEPOINT', 'WITH', 'RELEASE']);
      await order('o-1-again', (client) => db.outbox.enqueue(client, payment('o-1')));
      await order('o-2', (client) => db.outbox.enqueue(client, payment('o-2')));
      // Commit order: o-2's NOTIFY comes after anything the same-key enqueue sent.
      await vi.waitFor(() => expect(notified).toHaveLength(2));
      expect(notified).toEqual([`${db.schema}.outbox`, `${db.schema}.outbox`]);
    } finally {
      listener.release(true);
    }
  });

  it('leaves no trace of an intent whose transaction rolled back', async () => {
    const { db, order, orders } = await shop();
    await order('o-gone', (client) => db.outbox.enqueue(client, payment('o-gone')), false);
    expect(await db.outbox.get('o-gone')).toBeUndefined();
    expect(await db.outbox.pending()).toEqual([]);
    expect(await orders()).toEqual([]);
  });

  it('is invisible to others until the transaction commits', async () => {
    const { db } = await shop();
    const client = await pg15.pool().connect();
    await client.query('BEGIN');
    await db.outbox.enqueue(client, payment('o-open'));
    const other = createPostgresState(pg15.newPool(), { schema: db.schema });
    expect(await other.outbox.get('o-open')).toBeUndefined();
    expect(await other.outbox.pending()).toEqual([]);
    await client.query('COMMIT');
    client.release();
    expect((await other.outbox.get('o-open'))?.status).toBe('QUEUED');
  });

  it('returns the same reference id for the same key and body; refuses another body', async () => {
    const { db, order } = await shop();
    const first = await order('o-1', (client) => db.outbox.enqueue(client, payment('o-1')));
    const client = await pg15.pool().connect();
    try {
      await client.query('BEGIN');
      // The same intent with its body's keys in another order: the same payment.
      const { payeeNote, ...rest } = payment('o-1').body;
      const reordered = { ...payment('o-1'), body: { payeeNote, ...rest } };
      expect(await db.outbox.enqueue(client, reordered)).toEqual(first);
      const error = await db.outbox.enqueue(client, payment('o-1', '99')).catch((e: unknown) => e);
      expect(isValidationError(error)).toBe(true);
      expect((error as ValidationError).field).toBe('key');
      expect((error as Error).message).toMatch(/another operation or body/);
      await client.query('COMMIT'); // the transaction is still usable
    } finally {
      client.release();
    }
    expect(await db.outbox.pending()).toEqual([{ ...(await db.outbox.get('o-1')) }]);
    expect((await db.outbox.get('o-1'))?.referenceId).toBe(first.referenceId);
  });

  it('refuses bad intents naming the field, stores nothing, the order still commits', async () => {
    const { db, order, orders } = await shop();
    const cases: [unknown, string][] = [
      [{ ...payment('a'), key: '' }, 'key'],
      [{ ...payment('b'), key: 42 }, 'key'],
      [{ ...payment('c'), operation: 'collection.requestToPayX' }, 'operation'],
      [{ ...payment('d'), operation: undefined }, 'operation'],
      [payment('e', 'lots'), 'body.amount'],
      [{ ...payment('f'), body: undefined }, 'body'],
      [{ ...payment('g'), callbackUrl: 'not a url' }, 'callbackUrl'],
      [null, 'intent'],
    ];
    let n = 0;
    for (const [intent, field] of cases) {
      const error = await refusal(order, `o-${++n}`, (client) =>
        db.outbox.enqueue(client, intent as never),
      );
      expect(error.field, JSON.stringify(intent)).toBe(field);
    }
    expect(await db.outbox.pending()).toEqual([]);
    expect(await orders()).toHaveLength(cases.length);
  });

  it('refuses the pool, a client outside a transaction and one in a failed transaction', async () => {
    const { db, order } = await shop();
    const onPool = await refusal(order, 'o-1', () =>
      db.outbox.enqueue(pg15.pool() as never, payment('o-1')),
    );
    expect(onPool.field).toBe('client');
    expect(onPool.message).toMatch(/not the pool/);

    const client = await pg15.pool().connect();
    try {
      const outside = await db.outbox.enqueue(client, payment('o-2')).catch((e: unknown) => e);
      expect((outside as ValidationError).field).toBe('client');
      expect((outside as Error).message).toMatch(/outside a transaction/);

      await client.query('BEGIN');
      await client.query('SELECT 1/0').catch(() => undefined);
      const failed = await db.outbox.enqueue(client, payment('o-3')).catch((e: unknown) => e);
      expect((failed as ValidationError).field).toBe('client');
      expect((failed as Error).message).toMatch(/failed transaction/);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await db.outbox.pending()).toEqual([]);
  });

  it('says to run migrate() when the outbox table is missing; the transaction goes on', async () => {
    const schema = pg15.freshSchema();
    const db = createPostgresState(pg15.pool(), { schema });
    const client = await pg15.pool().connect();
    try {
      await client.query('BEGIN');
      const error = await db.outbox.enqueue(client, payment('o-1')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PostgresSchemaError);
      expect((error as Error).message).toMatch(/run db\.migrate\(\)/);
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    await expect(db.outbox.pending()).rejects.toBeInstanceOf(PostgresSchemaError);
  });
});
