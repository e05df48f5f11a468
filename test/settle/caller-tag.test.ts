import { InMemoryJournal, isValidationError } from 'momo-partner-sdk';
import { Batches, memoryBatchStore } from 'momo-partner-sdk/batches';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { tagOf, transfer } from '../support/caller-tag';

describe("a journal entry says whose payment it is (the caller's tag)", () => {
  it("is the call's tag option, else the body's externalId, else absent", async () => {
    expect(await tagOf(new InMemoryJournal(), 'order-7', { tag: 'payroll-11/row-42' })).toBe(
      'payroll-11/row-42',
    );
    expect(await tagOf(new InMemoryJournal(), 'order-7')).toBe('order-7');
    const journal = new InMemoryJournal();
    const momo = createSimulator().client({ journal });
    const { referenceId } = await momo.disbursement.transfer(transfer());
    expect(await journal.get(referenceId)).not.toHaveProperty('tag');
  });

  it('survives a restart: a new client reads it from the pending list', async () => {
    const journal = new InMemoryJournal();
    const sim = createSimulator();
    await sim.client({ journal }).disbursement.transfer(transfer('order-8'));
    const [entry] = await sim.client({ journal }).journal.pending();
    expect(entry?.tag).toBe('order-8');
  });

  it('a bad tag, or a tag on a call that creates nothing, is refused naming options.tag, and nothing is sent', async () => {
    const sim = createSimulator();
    const momo = sim.client();
    for (const tag of ['', 'line\nbreak', 'x'.repeat(402), 'lone \ud800', 7 as unknown as string]) {
      const error = await momo.disbursement.transfer(transfer('o'), { tag }).catch((e) => e);
      expect(isValidationError(error)).toBe(true);
      expect(error.issues.map((i: { path: string }) => i.path)).toEqual(['options.tag']);
    }
    const error = await momo.disbursement.getBalance({ tag: 'x' } as never).catch((e) => e);
    expect(isValidationError(error) && error.issues[0]?.path).toBe('options.tag');
    expect(sim.requests.filter((r) => r.method === 'POST' && !r.path.includes('token'))).toEqual(
      [],
    );
  });

  it("a batch's items are tagged <batch id>/<item key>", async () => {
    const journal = new InMemoryJournal();
    const momo = createSimulator({ settleMs: 5 }).client({ journal });
    const payee = { partyIdType: 'MSISDN' as const, partyId: '46700000001' }; // settles
    const items = ['a', 'b'].map((key) => ({ key, body: { ...transfer(`ext-${key}`), payee } }));
    const report = await new Batches(momo).run(items, {
      id: 'payroll-11',
      operation: 'disbursement.transfer',
      store: memoryBatchStore(),
    });
    const tags = await Promise.all(
      report.items.map(async (item) => (await journal.get(item.referenceId ?? ''))?.tag),
    );
    expect(tags).toEqual(['payroll-11/a', 'payroll-11/b']);
  });
});
