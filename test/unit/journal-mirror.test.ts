import { InMemoryJournal } from 'momo-partner-sdk';
import { describe, expect, it } from 'vitest';
import { JournalKeeper } from '../../src/settle/journal-keeper';

const idOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const platform = { baseUrl: 'https://api.example.test', targetEnvironment: 'sandbox' };
const health = { failed() {}, ok() {} };

describe("a shared journal's mirror (what pending() lists while the journal cannot be read)", () => {
  it('keeps the newest 10,000 entries of this process, however many came before', async () => {
    const inner = new InMemoryJournal({ maxEntries: 100_000 });
    let down = false;
    const journal = {
      record: (entry: Parameters<InMemoryJournal['record']>[0]) => inner.record(entry),
      finish: (...args: Parameters<InMemoryJournal['finish']>) => inner.finish(...args),
      get: (id: string) => inner.get(id),
      pending: () => (down ? Promise.reject(new Error('down')) : inner.pending()),
    };
    const keeper = new JournalKeeper(journal, health, platform, undefined);
    const record = (i: number) =>
      keeper.record({
        product: 'disbursement',
        operation: 'disbursement.deposit',
        referenceId: idOf(i),
        createdAt: i,
        ...platform,
      });
    for (let i = 0; i < 25_000; i++) await record(i);
    await keeper.finish(idOf(24_000), 'SUCCESSFUL');
    down = true;
    const listed = (await keeper.pending()).map((entry) => entry.referenceId);
    expect(listed).toHaveLength(9_999);
    expect(listed[0]).toBe(idOf(15_000));
    expect(listed).not.toContain(idOf(24_000));
    expect(listed.at(-1)).toBe(idOf(24_999));
  });
});
