import { isValidationError } from 'momo-partner-sdk';
import { Batches } from 'momo-partner-sdk/batches';
import { expect, it } from 'vitest';
import { PAYEE, row, useSimulator } from '../batches/harness';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

// DESIGN 9.2 on PostgreSQL: a NUL in a key used to stop the whole batch in its check pass
// (PostgreSQL refuses 0x00 in text), and lone surrogates, written as U+FFFD, made two
// keys share one row. Now each bad key is REJECTED before any statement names it.
const h = useSimulator();

describeWithPostgres('key rules on the PostgreSQL stores (real PostgreSQL)', () => {
  const pg15 = usePostgres();
  const rows = async (schema: string) =>
    (
      await pg15.pool().query(`SELECT batch_id, key FROM "${schema}".batch_items ORDER BY key`)
    ).rows.map((r) => `${r.batch_id}/${r.key}`);

  it('a NUL in a key is REJECTED before any store write; the batch goes on and pays the rest', async () => {
    const { batchStore, schema } = await pg15.freshState();
    const items = [row('emp\u00001', PAYEE.ok), row('emp-2', PAYEE.ok)];
    const report = await new Batches(h.client()).run(items, { id: 'payroll', store: batchStore });

    expect(report.items.map((i) => [i.status, i.reason])).toEqual([
      ['REJECTED', 'key: must not hold control characters (it holds U+0000 at position 3)'],
      ['SUCCESSFUL', undefined],
    ]);
    expect(await rows(schema)).toEqual(['payroll/emp-2']);
    expect(h.transferPosts()).toEqual([report.items[1]?.referenceId]);
  });

  it('two lone-surrogate keys, or batch ids, no longer share one row', async () => {
    const { batchStore, schema } = await pg15.freshState();
    const momo = h.client();
    const report = await new Batches(momo).run([row('emp-\ud800', PAYEE.ok)], {
      id: 'batch-a',
      store: batchStore,
    });
    const again = await new Batches(momo).run([row('emp-\ud801', PAYEE.ok)], {
      id: 'batch-a',
      store: batchStore,
    });
    expect([report.items[0]?.status, again.items[0]?.status]).toEqual(['REJECTED', 'REJECTED']);
    for (const id of ['batch-\ud800', 'batch-\udbff']) {
      const error = await new Batches(momo)
        .run([row('emp-1', PAYEE.ok)], { id, store: batchStore })
        .catch((e) => e);
      expect(isValidationError(error) && error.issues[0]?.path).toBe('id');
      expect(isValidationError(await batchStore.open(id).catch((e) => e))).toBe(true);
    }
    expect(await rows(schema)).toEqual([]);
    expect(h.transferPosts()).toEqual([]);
  });

  it('db.outbox.enqueue refuses a bad key naming key, and writes nothing', async () => {
    const db = await pg15.freshState();
    const client = await pg15.pool().connect();
    try {
      await client.query('BEGIN');
      for (const key of ['order\u00001', 'x'.repeat(201), 'order-\ud800', 'order\u009b']) {
        const intent = { key, operation: 'disbursement.transfer', body: row('b', PAYEE.ok).body };
        const error = await db.outbox.enqueue(client, intent).catch((e) => e);
        expect(isValidationError(error), String(error)).toBe(true);
        expect(error.issues.map((i: { path: string }) => i.path)).toEqual(['key']);
      }
      await client.query('COMMIT'); // the partner's transaction was not poisoned
    } finally {
      client.release();
    }
    const count = await pg15.pool().query(`SELECT count(*)::int AS n FROM "${db.schema}".outbox`);
    expect(count.rows[0]?.n).toBe(0);
  });
});
