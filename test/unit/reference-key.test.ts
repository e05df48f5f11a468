import { InMemoryJournal } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { referenceKey } from '../../src/core/reference-id';

const ID = '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';

describe('one reference-id key', () => {
  it('is the lower-case id: one key however the id is spelled', () => {
    expect(referenceKey(ID.toUpperCase())).toBe(ID);
    expect(referenceKey(ID)).toBe(ID);
    expect(referenceKey('0F1E2d3c-4B5a-4978-8695-A4b3C2d1E0f9')).toBe(ID);
  });

  it('lets a journal entry recorded in upper case be looked up and settled in lower case', async () => {
    const sim = createSimulator();
    const journal = new InMemoryJournal();
    const momo = sim.client({ journal });
    const accepted = await momo.disbursement.deposit(
      {
        amount: '10',
        currency: 'EUR',
        externalId: 'order-1',
        payee: { partyIdType: 'MSISDN', partyId: '46700000001' },
      },
      { referenceId: ID.toUpperCase() },
    );
    expect(await journal.get(ID)).toMatchObject({ referenceId: ID.toUpperCase() });
    sim.settle(accepted.referenceId, 'SUCCESSFUL');
    const seen = await momo.disbursement.getDeposit(referenceKey(accepted.referenceId));
    expect(seen.status).toBe('SUCCESSFUL');
    expect(await journal.get(ID.toUpperCase())).toMatchObject({ outcome: 'SUCCESSFUL' });
    expect(await momo.journal.pending()).toEqual([]);
  });
});
