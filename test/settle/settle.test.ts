import {
  type CallbackHandler,
  type ConfirmedCallback,
  InMemoryJournal,
  type JournalOutcome,
} from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { v4 as uuidv4 } from 'uuid';
import { describe, expect, it } from 'vitest';

const PENDING_PAYEE = '46733123453'; // stays PENDING until sim.settle()
const body = {
  amount: '10',
  currency: 'EUR',
  externalId: 'order-1',
  payee: { partyIdType: 'MSISDN' as const, partyId: PENDING_PAYEE },
};
/** Waits that sleep long between lookups: only a callback ends them early. */
const slow = { initialDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 120_000 };

/** The partner's journal, counting every outcome it is told, by reference id. */
class CountingJournal extends InMemoryJournal {
  readonly finished: [string, JournalOutcome][] = [];
  override async finish(referenceId: string, outcome: JournalOutcome, at: number) {
    this.finished.push([referenceId, outcome]);
    await super.finish(referenceId, outcome, at);
  }
}

describe('one settle point for every final outcome', () => {
  it('reaches the journal once when a wait, its last lookup and a confirmed callback (and its replay) see it', async () => {
    let handler: CallbackHandler | undefined;
    const delivered: Request[] = [];
    const sim = createSimulator({
      settleMs: 20,
      callbackFetch: async (input, init) => {
        const request = new Request(input, init);
        delivered.push(request.clone());
        return (handler as CallbackHandler)(request);
      },
    });
    const journal = new CountingJournal();
    const momo = sim.client({
      journal,
      polling: slow,
      callbackUrl: 'https://partner.test/momo/{referenceId}',
    });
    const events: ConfirmedCallback[] = [];
    handler = momo.callbacks.handler({ onEvent: (event) => void events.push(event) });

    const accepted = await momo.disbursement.deposit(body);
    const waiting = accepted.wait();
    sim.settle(accepted.referenceId, 'SUCCESSFUL');
    // The callback's confirming lookup is the wait's last: the wait ends on its result.
    const final = await waiting;
    expect(final.status).toBe('SUCCESSFUL');
    expect(events.map((event) => event.status)).toEqual(['SUCCESSFUL']);
    const replay = await handler(delivered[0] as Request);
    expect(await replay.json()).toEqual({ received: true, duplicate: true });

    expect(journal.finished).toEqual([[accepted.referenceId, 'SUCCESSFUL']]);
    expect(await journal.get(accepted.referenceId)).toMatchObject({ outcome: 'SUCCESSFUL' });
  });

  it('marks an id again once it is sent again: no memory of ids settled before', async () => {
    const sim = createSimulator();
    const journal = new CountingJournal(); // shared by two instances, as a Redis journal is
    const a = sim.client({ journal });
    const b = sim.client({ journal });
    /** An id recorded by a process that crashed before its request left, found NOT_FOUND. */
    const crashedBeforeSending = async () => {
      const referenceId = uuidv4();
      await journal.record({
        product: 'disbursement',
        operation: 'disbursement.deposit',
        referenceId,
        createdAt: Date.now() - 60_000,
        baseUrl: 'https://sandbox.momo.test',
        targetEnvironment: 'sandbox',
      });
      expect((await a.journal.resume()).map((outcome) => outcome.status)).toEqual(['NOT_FOUND']);
      return referenceId;
    };

    // Record, finish, record again (sent again, safely, under the same id), finish again.
    const mine = await crashedBeforeSending();
    await a.disbursement.deposit(body, { referenceId: mine });
    sim.settle(mine, 'SUCCESSFUL');
    expect((await a.disbursement.getDeposit(mine)).status).toBe('SUCCESSFUL');
    expect(await a.journal.pending()).toEqual([]);

    // Sent again by another instance: A, which marked it NOT_FOUND, sees it final.
    const theirs = await crashedBeforeSending();
    await b.disbursement.deposit(body, { referenceId: theirs });
    expect((await a.journal.pending()).map((entry) => entry.referenceId)).toEqual([theirs]);
    sim.settle(theirs, 'FAILED');
    expect((await a.disbursement.getDeposit(theirs)).status).toBe('FAILED');
    expect(await a.journal.pending()).toEqual([]);
    expect(await journal.get(theirs)).toMatchObject({ outcome: 'FAILED' });
    expect(journal.finished).toEqual([
      [mine, 'NOT_FOUND'],
      [mine, 'SUCCESSFUL'],
      [theirs, 'NOT_FOUND'],
      [theirs, 'FAILED'],
    ]);
  });
});
