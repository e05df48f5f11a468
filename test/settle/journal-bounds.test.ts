import { InMemoryJournal } from 'momo-partner-sdk';
import { v4 as uuidv4 } from 'uuid';
import { describe, expect, it } from 'vitest';

const record = (referenceId: string, createdAt: number) => ({
  product: 'disbursement' as const,
  operation: 'disbursement.deposit',
  referenceId,
  createdAt,
  baseUrl: 'https://sandbox.momodeveloper.mtn.com',
  targetEnvironment: 'sandbox',
});

describe('the in-memory journal bounds', () => {
  it('never drops a pending entry, however many are in flight', async () => {
    const journal = new InMemoryJournal({ maxEntries: 100 });
    const ids = Array.from({ length: 1_000 }, () => uuidv4());
    for (const [i, id] of ids.entries()) await journal.record(record(id, i));
    const pending = await journal.pending();
    expect(pending).toHaveLength(1_000);
    expect(pending.map((e) => e.referenceId)).toEqual(ids);
  });

  it('keeps at most maxEntries finished entries, dropping the oldest first', async () => {
    const journal = new InMemoryJournal({ maxEntries: 3 });
    const ids = Array.from({ length: 5 }, () => uuidv4());
    for (const [i, id] of ids.entries()) await journal.record(record(id, i));
    for (const id of ids) await journal.finish(id, 'SUCCESSFUL', Date.now());
    expect(await journal.pending()).toEqual([]);
    expect(await journal.get(ids[0] as string)).toBeUndefined();
    expect(await journal.get(ids[1] as string)).toBeUndefined();
    expect((await journal.get(ids[4] as string))?.outcome).toBe('SUCCESSFUL');
    expect(journal.size).toBe(3);
  });

  it('forgets finished entries after retentionMs', async () => {
    const journal = new InMemoryJournal({ retentionMs: 1_000 });
    const id = uuidv4();
    await journal.record(record(id, 0));
    await journal.finish(id, 'FAILED', Date.now() - 2_000);
    expect(await journal.get(id)).toBeUndefined();
  });
});
