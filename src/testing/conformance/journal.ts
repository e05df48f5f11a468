import type { Journal, JournalOutcome, JournalRecord } from 'momo-partner-sdk';
import {
  type ConformanceCase,
  type ConformanceOptions,
  type ConformanceReport,
  checkCases,
  type StoreCase,
  storeCases,
} from './cases';
import { same } from './expect';

/** Options of `checkJournal(make, options)`. */
export interface JournalConformanceOptions extends ConformanceOptions {
  /** Another journal object over the same state (a restarted process's). Default: the same object. */
  reopen?: ((journal: Journal) => Journal | Promise<Journal>) | undefined;
}

const PLATFORM = { baseUrl: 'https://api.example.test', targetEnvironment: 'sandbox' };
const id = (c: string) => `${c.repeat(8)}-0a1b-4c2d-8e3f-405162738495`;
const entry = (referenceId: string, extra: Partial<JournalRecord> = {}): JournalRecord => ({
  product: 'disbursement',
  operation: 'disbursement.deposit',
  referenceId,
  createdAt: 1_760_000_000_000,
  ...PLATFORM,
  ...extra,
});

/** The journal contract (`Journal`) as cases, each over a fresh journal from `make()`. */
export function journalCases(
  make: () => Journal | Promise<Journal>,
  options: JournalConformanceOptions = {},
): ConformanceCase[] {
  return storeCases(CASES, make, options);
}

/** Runs every case of the journal contract and resolves with the report. */
export async function checkJournal(
  make: () => Journal | Promise<Journal>,
  options: JournalConformanceOptions = {},
): Promise<ConformanceReport> {
  return checkCases('journal', journalCases(make, options), options);
}

type Case = StoreCase<Journal>;
const pendingIds = async (journal: Journal) => (await journal.pending()).map((e) => e.referenceId);

const CASES: Case[] = [
  [
    'records a pending entry: get() and pending() give it back as recorded',
    async (journal) => {
      const tagged = entry(id('a'), {
        tag: 'payroll/row-1',
        product: 'collection',
        tenant: 'merchant-42', // momo-partner-sdk/tenants reads it back
      });
      const plain = entry(id('b'), { createdAt: tagged.createdAt + 1 });
      await journal.record(tagged);
      await journal.record(plain);
      same(await journal.get(id('a')), tagged, 'get() of a pending entry with a tag and a tenant');
      same(await journal.get(id('b')), plain, 'get() of a pending entry without one');
      same(await journal.pending(), [tagged, plain], 'pending()');
      same(await journal.get(id('c')), undefined, 'get() of an id never recorded');
    },
  ],
  [
    'keeps the first record of an id already pending',
    async (journal) => {
      await journal.record(entry(id('a')));
      await journal.record(entry(id('a'), { operation: 'remittance.transfer', createdAt: 5 }));
      same(await journal.pending(), [entry(id('a'))], 'pending() after a second record');
    },
  ],
  [
    'lists pending entries oldest first; those of one millisecond in the order recorded',
    async (journal) => {
      const ids = ['f', 'e', 'd', 'c', 'b', 'a'].map(id); // an order by id fails
      for (const referenceId of ids) await journal.record(entry(referenceId));
      const older = id('9');
      await journal.record(entry(older, { createdAt: entry(older).createdAt - 1 }));
      same(await pendingIds(journal), [older, ...ids], 'pending() order');
    },
  ],
  [
    'finishes an entry: out of pending(), get() gives its outcome and finishedAt',
    async (journal) => {
      const outcomes: JournalOutcome[] = ['SUCCESSFUL', 'FAILED', 'REJECTED', 'NOT_FOUND'];
      const ids = ['a', 'b', 'c', 'd'].map(id);
      for (const referenceId of [...ids, id('e')]) await journal.record(entry(referenceId));
      const now = Date.now();
      for (const [i, referenceId] of ids.entries()) {
        await journal.finish(referenceId, outcomes[i] as JournalOutcome, now + i);
      }
      same(await pendingIds(journal), [id('e')], 'pending() after four finished');
      for (const [i, referenceId] of ids.entries()) {
        const outcome = { outcome: outcomes[i], finishedAt: now + i };
        same(await journal.get(referenceId), { ...entry(referenceId), ...outcome }, 'get()');
      }
    },
  ],
  [
    'keeps the first outcome of a finished id',
    async (journal) => {
      await journal.record(entry(id('a')));
      const now = Date.now();
      await journal.finish(id('a'), 'SUCCESSFUL', now);
      await journal.finish(id('a'), 'FAILED', now + 1);
      const first = { ...entry(id('a')), outcome: 'SUCCESSFUL', finishedAt: now };
      same(await journal.get(id('a')), first, 'get() after a second finish');
    },
  ],
  [
    'leaves alone an id it does not hold',
    async (journal) => {
      await journal.finish(id('a'), 'SUCCESSFUL', Date.now());
      same(await journal.get(id('a')), undefined, 'get() after finish() of an unknown id');
      same(await journal.pending(), [], 'pending()');
    },
  ],
  [
    'records a finished id again as pending, the newest record',
    async (journal) => {
      for (const c of ['a', 'b']) await journal.record(entry(id(c)));
      await journal.finish(id('a'), 'SUCCESSFUL', Date.now());
      await journal.record(entry(id('a')));
      same(await pendingIds(journal), [id('b'), id('a')], 'pending() order');
      same(await journal.get(id('a')), entry(id('a')), 'get() of the id recorded again');
    },
  ],
  [
    'matches a reference id whatever its letter case',
    async (journal) => {
      const upper = id('a').toUpperCase();
      await journal.record(entry(upper));
      await journal.record(entry(id('a'), { operation: 'remittance.transfer' }));
      same(await pendingIds(journal), [upper], 'pending() after the lower-case id again');
      const now = Date.now();
      await journal.finish(id('a'), 'FAILED', now);
      const finished = { ...entry(upper), outcome: 'FAILED', finishedAt: now };
      same(await journal.get('AaAaAaAa-0A1B-4c2d-8E3F-405162738495'), finished, 'get()');
    },
  ],
  [
    'gives copies: changing an entry it returned changes nothing it holds',
    async (journal) => {
      await journal.record(entry(id('a')));
      const got = await journal.get(id('a'));
      if (got) got.operation = 'changed';
      const listed = await journal.pending();
      if (listed[0]) listed[0].createdAt = 0;
      same(await journal.get(id('a')), entry(id('a')), 'get() after changing what it gave');
    },
  ],
  [
    'keeps what it recorded for the next journal over the same state',
    async (journal, _ctx, reopen) => {
      await journal.record(entry(id('a')));
      await journal.record(entry(id('b'), { createdAt: entry(id('a')).createdAt + 1 }));
      const now = Date.now();
      await journal.finish(id('a'), 'SUCCESSFUL', now);
      const next = await reopen(journal);
      same(await pendingIds(next), [id('b')], "the next journal's pending()");
      const finished = { ...entry(id('a')), outcome: 'SUCCESSFUL', finishedAt: now };
      same(await next.get(id('a')), finished, "the next journal's get()");
    },
  ],
];
