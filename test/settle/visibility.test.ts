import { InMemoryJournal, type JournalOutcome, type JournalRecord } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { describe, expect, it, vi } from 'vitest';

const PENDING_PAYEE = '46733123453'; // stays PENDING until sim.settle()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A journal that can go away, and whose writes take a while once it is back (as Redis). */
class SlowFlakyJournal {
  readonly inner = new InMemoryJournal();
  down = false;
  #check() {
    if (this.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  }
  async record(entry: JournalRecord) {
    this.#check();
    await sleep(15);
    await this.inner.record(entry);
  }
  async finish(referenceId: string, outcome: JournalOutcome, at: number) {
    this.#check();
    await sleep(15);
    await this.inner.finish(referenceId, outcome, at);
  }
  async get(referenceId: string) {
    this.#check();
    return this.inner.get(referenceId);
  }
  async pending() {
    this.#check();
    return this.inner.pending();
  }
}

describe('no journal entry is ever invisible', () => {
  it('during an outage, and at every moment of the copy once the journal is back', async () => {
    const sim = createSimulator();
    const journal = new SlowFlakyJournal();
    const momo = sim.client({ journal, logger: { warn() {}, info() {}, error() {} } });
    const deposit = () =>
      momo.disbursement.deposit({
        amount: '10',
        currency: 'EUR',
        externalId: 'order-1',
        payee: { partyIdType: 'MSISDN', partyId: PENDING_PAYEE },
      });
    const before = await Promise.all([deposit(), deposit()]); // in the journal
    journal.down = true;
    const during = await Promise.all(Array.from({ length: 6 }, deposit)); // in memory only
    const all = [...before, ...during].map((accepted) => accepted.referenceId).sort();
    const listed = async () => (await momo.journal.pending()).map((e) => e.referenceId).sort();
    expect(await listed()).toEqual(all); // while it cannot be read

    journal.down = false; // the first answer starts the copy: 6 slow writes
    const seen: string[][] = [];
    for (let i = 0; i < 12; i++) {
      seen.push(await listed());
      await sleep(10);
    }
    for (const list of seen) expect(list).toEqual(all);
    // The copy ended: the journal itself holds every one.
    await vi.waitFor(
      async () =>
        expect((await journal.inner.pending()).map((e) => e.referenceId).sort()).toEqual(all),
      { timeout: 10_000 },
    );

    // resume() right after another outage sees them all too.
    journal.down = true;
    const more = await deposit();
    journal.down = false;
    for (const id of [...all, more.referenceId]) sim.settle(id, 'SUCCESSFUL');
    const outcomes = await momo.journal.resume({ concurrency: 3 });
    expect(outcomes.map((o) => o.entry.referenceId).sort()).toEqual(
      [...all, more.referenceId].sort(),
    );
    expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set(['SUCCESSFUL']));
    expect(await momo.journal.pending()).toEqual([]);
  });
});
