import type { JournalRecord } from 'momo-partner-sdk';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { afterEach, expect, it, vi } from 'vitest';
import { expectPendingInRecordOrder } from '../support/journal-order';
import { describeWithPostgres } from '../support/postgres-server';
import { usePostgres } from './support';

const PLATFORM = { baseUrl: 'https://sandbox.momodeveloper.mtn.com', targetEnvironment: 'sandbox' };
const ids = [
  'b1d2e3f4-0a1b-4c2d-8e3f-405162738495',
  'c1d2e3f4-0a1b-4c2d-8e3f-405162738495',
  'd1d2e3f4-0a1b-4c2d-8e3f-405162738495',
] as const;
const entry = (referenceId: string, extra: Partial<JournalRecord> = {}): JournalRecord => ({
  product: 'disbursement',
  operation: 'disbursement.deposit',
  referenceId,
  createdAt: Date.now(),
  ...PLATFORM,
  ...extra,
});

describeWithPostgres('the Postgres journal (real PostgreSQL)', () => {
  const pg15 = usePostgres();
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists pending entries oldest first; a pending id keeps its first record, tag and platform', async () => {
    const { journal } = await pg15.freshState();
    const now = Date.now();
    await journal.record(entry(ids[1], { createdAt: now }));
    await journal.record(entry(ids[0], { createdAt: now - 1_000, tag: 'payroll/row-7' }));
    await journal.record(entry(ids[0], { operation: 'disbursement.transfer', tag: 'other' }));
    expect(await journal.pending()).toEqual([
      entry(ids[0], { createdAt: now - 1_000, tag: 'payroll/row-7' }),
      entry(ids[1], { createdAt: now }),
    ]);
    // Looked up by the id in another case: the same entry, as it was sent.
    expect(await journal.get(ids[0].toUpperCase())).toMatchObject({ referenceId: ids[0] });
  });

  it('keeps the first outcome; an unknown id is left alone', async () => {
    const { journal } = await pg15.freshState();
    const now = Date.now();
    await journal.record(entry(ids[0], { createdAt: now }));
    await journal.finish(ids[0], 'SUCCESSFUL', now + 5);
    await journal.finish(ids[0], 'FAILED', now + 6);
    await journal.finish(ids[2], 'FAILED', now);
    expect(await journal.get(ids[0])).toEqual({
      ...entry(ids[0], { createdAt: now }),
      outcome: 'SUCCESSFUL',
      finishedAt: now + 5,
    });
    expect(await journal.get(ids[2])).toBeUndefined();
    expect(await journal.pending()).toEqual([]);
  });

  it('lists entries of the same millisecond in record order, not id order', async () => {
    await expectPendingInRecordOrder((await pg15.freshState()).journal);
  });

  it('keeps a finished entry readable for retentionMs, then deletes it', async () => {
    const { schema } = await pg15.freshState();
    const { journal } = createPostgresState(pg15.pool(), { schema, retentionMs: 300_000 });
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Date.now();
    await journal.record(entry(ids[0], { createdAt: now }));
    await journal.record(entry(ids[1], { createdAt: now }));
    await journal.finish(ids[0], 'SUCCESSFUL', now);
    vi.setSystemTime(now + 299_000);
    expect(await journal.get(ids[0])).toMatchObject({ outcome: 'SUCCESSFUL' });
    vi.setSystemTime(now + 301_000);
    expect(await journal.get(ids[0])).toBeUndefined(); // retention over
    await journal.finish(ids[1], 'FAILED', now + 301_000); // its sweep deletes the old row
    const { rows } = await pg15.pool().query(`SELECT id FROM "${schema}".journal`);
    expect(rows).toEqual([{ id: ids[1] }]);
  });

  it('is one view for every instance, and durable once record() returns: a crash of the database loses nothing', async () => {
    const a = await pg15.freshState();
    const b = createPostgresState(pg15.newPool(), { schema: a.schema });
    await a.journal.record(entry(ids[0], { tag: 'order-1' }));
    expect((await b.journal.pending()).map((e) => e.tag)).toEqual(['order-1']);
    await pg15.server().stop(); // -m immediate: no shutdown checkpoint, as a crash
    await pg15.server().restart();
    const after = createPostgresState(pg15.newPool(), { schema: a.schema });
    expect((await after.journal.pending()).map((e) => e.referenceId)).toEqual([ids[0]]);
  });
});
