import type { BatchIntent, BatchStore } from 'momo-partner-sdk';
import {
  type ConformanceCase,
  type ConformanceOptions,
  type ConformanceReport,
  checkCases,
  type StoreCase,
  storeCases,
} from './cases';
import { all, granted, holds, LAPSE_MARGIN_MS, same } from './expect';

/** Options of `checkBatchStore(make, options)`. */
export interface BatchStoreConformanceOptions extends ConformanceOptions {
  /**
   * Another store object over the same state as `store` (what a restarted process, or
   * another one, opens). Default: `store` itself (a store that lives in memory).
   */
  reopen?: ((store: BatchStore) => BatchStore | Promise<BatchStore>) | undefined;
}

const REFERENCE_ID = '2f1d3b7e-8a4c-4f6e-9b1d-0c2e4a6f8b1d';
const intent = (key: string, extra: Partial<BatchIntent> = {}): BatchIntent => ({
  key,
  operation: 'disbursement.transfer',
  fingerprint: `print-of-${key}`,
  referenceId: REFERENCE_ID,
  ...extra,
});

/**
 * The batch store contract (`BatchStore`) as cases, each over a fresh store from `make()`:
 * for any test runner (`for (const c of batchStoreCases(make)) it(c.name, c.run)`).
 */
export function batchStoreCases(
  make: () => BatchStore | Promise<BatchStore>,
  options: BatchStoreConformanceOptions = {},
): ConformanceCase[] {
  return storeCases(CASES, make, options);
}

/**
 * Runs every case of the batch store contract against stores from `make()` (each case
 * over a fresh one) and resolves with the report; `assertConforms(report)` throws if any failed.
 */
export async function checkBatchStore(
  make: () => BatchStore | Promise<BatchStore>,
  options: BatchStoreConformanceOptions = {},
): Promise<ConformanceReport> {
  return checkCases('batch store', batchStoreCases(make, options), options);
}

type Case = StoreCase<BatchStore>;

const CASES: Case[] = [
  [
    'opens a new batch empty',
    async (store) => {
      const batch = await store.open('payroll-2026-11');
      same(batch.id, 'payroll-2026-11', 'batch.id');
      same(await all(batch.records()), [], 'records() of a new batch');
      same(await batch.get('k1'), undefined, 'get() of a key never recorded');
    },
  ],
  [
    'records an intent under a claim; the first intent of a key wins',
    async (store) => {
      const batch = await store.open('b');
      const token = granted(await batch.claim('k1', 'run-a', 60_000), 'claim of a free key');
      same(await batch.recordIntent(intent('k1'), token), intent('k1'), 'the first intent');
      const again = intent('k1', { fingerprint: 'other', referenceId: 'x' });
      same(await batch.recordIntent(again, token), intent('k1'), 'a second intent of the key');
      same(await batch.get('k1'), intent('k1'), 'get() after two intents');
    },
  ],
  [
    "keeps an intent's tenant, through an outcome, a reopen and records()",
    async (store, _ctx, reopen) => {
      const batch = await store.open('shared');
      const a = intent('k1', { tenant: 'merchant-a' });
      const b = intent('k2', {
        tenant: 'merchant-b',
        referenceId: REFERENCE_ID.replace('2f', '3f'),
      });
      const ta = granted(await batch.claim('k1', 'run-a', 60_000), 'claim of k1');
      const tb = granted(await batch.claim('k2', 'run-b', 60_000), 'claim of k2');
      same(await batch.recordIntent(a, ta), a, "an intent with merchant-a's tenant");
      same(await batch.recordIntent(b, tb), b, "an intent with merchant-b's tenant");
      holds(await batch.recordOutcome('k1', { status: 'SENT' }, ta), 'an outcome of k1');
      const reopened = await (await reopen(store)).open('shared');
      same(await reopened.get('k1'), { ...a, outcome: { status: 'SENT' } }, 'get() of k1 reopened');
      same(await all(reopened.records()), [{ ...a, outcome: { status: 'SENT' } }, b], 'records()');
    },
  ],
  [
    'records outcomes (the last wins) and lists records in first-recorded order',
    async (store) => {
      const batch = await store.open('b');
      for (const key of ['k2', 'k1', 'k3']) {
        const token = granted(await batch.claim(key, 'run-a', 60_000), `claim of ${key}`);
        await batch.recordIntent(intent(key), token);
        same(await batch.recordOutcome(key, { status: 'SENT' }, token), true, 'SENT recorded');
      }
      const token = granted(await batch.claim('k1', 'run-a', 60_000), 'claim renewed');
      const final = { status: 'FAILED', reason: 'PAYEE_NOT_FOUND' } as const;
      same(await batch.recordOutcome('k1', final, token), true, 'a later outcome recorded');
      const records = await all(batch.records());
      same(
        records.map((r) => r.key),
        ['k2', 'k1', 'k3'],
        'records() order',
      );
      same(records[1], { ...intent('k1'), outcome: final }, 'the record with the last outcome');
      same((await batch.get('k2'))?.outcome, { status: 'SENT' }, 'get().outcome');
    },
  ],
  [
    'refuses an outcome for a key without an intent',
    async (store) => {
      const batch = await store.open('b');
      const token = granted(await batch.claim('k1', 'run-a', 60_000), 'claim of a free key');
      same(await batch.recordOutcome('k1', { status: 'SENT' }, token), false, 'recordOutcome');
      same(await batch.get('k1'), undefined, 'get() of a key with no intent');
    },
  ],
  [
    'keeps what it recorded for the next store over the same state',
    async (store, _ctx, reopen) => {
      const batch = await store.open('b');
      const token = granted(await batch.claim('k1', 'run-a', 60_000), 'claim of a free key');
      await batch.recordIntent(intent('k1'), token);
      const success = { status: 'SUCCESSFUL', financialTransactionId: '123' } as const;
      await batch.recordOutcome('k1', success, token);
      await batch.close();
      const next = await (await reopen(store)).open('b');
      same(await all(next.records()), [{ ...intent('k1'), outcome: success }], 'records()');
    },
  ],
  [
    'keeps batches apart, whatever their ids',
    async (store) => {
      const ids = ['a', 'A', '../a', 'a/../../b', 'pay roll ✓', '.', '..', 'pay:{roll}'];
      for (const id of ids) {
        const batch = await store.open(id);
        const token = granted(await batch.claim('k', 'run-a', 60_000), `claim in batch ${id}`);
        await batch.recordIntent(intent('k', { fingerprint: id }), token);
      }
      for (const id of ids) {
        const records = await all((await store.open(id)).records());
        same(
          records.map((r) => r.fingerprint),
          [id],
          `the records of batch ${JSON.stringify(id)}`,
        );
      }
    },
  ],
  [
    'grants one claim when several owners claim a key at once',
    async (store) => {
      const batch = await store.open('b');
      const owners = ['run-a', 'run-b', 'run-c', 'run-d'];
      const tokens = await Promise.all(owners.map((owner) => batch.claim('k1', owner, 60_000)));
      same(tokens.filter((t) => t !== undefined).length, 1, 'claims granted of 4 at once');
    },
  ],
  [
    "refuses a claim while another owner's lease runs, grants it once the lease ran out",
    async (store, { leaseMs, pass }) => {
      const batch = await store.open('b');
      granted(await batch.claim('k1', 'run-a', leaseMs), 'claim of a free key');
      same(await batch.claim('k1', 'run-b', leaseMs), undefined, "claim under run-a's lease");
      granted(await batch.claim('k2', 'run-b', leaseMs), 'claim of another key');
      await pass(leaseMs + LAPSE_MARGIN_MS);
      granted(await batch.claim('k1', 'run-b', leaseMs), 'claim once the lease ran out');
    },
  ],
  [
    'fences off the writes of an owner whose lease was taken over',
    async (store, { leaseMs, pass }) => {
      const batch = await store.open('b');
      const a = granted(await batch.claim('k1', 'run-a', leaseMs), 'claim of a free key');
      await batch.recordIntent(intent('k1'), a);
      await pass(leaseMs + LAPSE_MARGIN_MS);
      const b = granted(await batch.claim('k1', 'run-b', leaseMs), 'claim once it ran out');
      same(await batch.recordOutcome('k1', { status: 'SENT' }, a), false, 'a stale outcome');
      same(await batch.recordIntent(intent('k9'), a), undefined, "an intent under k1's token");
      same(await batch.recordOutcome('k1', { status: 'SENT' }, b), true, "the new owner's");
      same((await batch.get('k1'))?.outcome, { status: 'SENT' }, 'the outcome kept');
    },
  ],
  [
    "runs an outcome's settled hook in its write (a throw rolls it back), or keeps the delivered: false mark",
    async (store) => {
      const batch = await store.open('b');
      const token = granted(await batch.claim('k1', 'run-a', 60_000), 'claim of a free key');
      await batch.recordIntent(intent('k1'), token);
      let ran = 0;
      const settled = async () => {
        ran += 1;
      };
      const success = { status: 'SUCCESSFUL', financialTransactionId: '123' } as const;
      const marked = { ...success, delivered: false } as const;
      same(await batch.recordOutcome('k1', marked, token, settled), true, 'recordOutcome()');
      if (ran === 0) {
        // No transaction: the runner runs the hook after, the mark says it is owed.
        same((await batch.get('k1'))?.outcome, marked, 'the outcome owed its hook');
      } else {
        same(ran, 1, 'settled() runs in the write once');
        same((await batch.get('k1'))?.outcome?.status, 'SUCCESSFUL', 'the outcome');
        const failed = { status: 'FAILED', reason: 'X', delivered: false } as const;
        const threw = await batch
          .recordOutcome('k1', failed, token, async () => {
            throw new Error('the books are down');
          })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        same((threw as Error | undefined)?.message, 'the books are down', 'its throw, rethrown');
        same((await batch.get('k1'))?.outcome?.status, 'SUCCESSFUL', 'the write rolled back');
      }
      same(await batch.recordOutcome('k1', success, token), true, 'the outcome again, unmarked');
      same((await batch.get('k1'))?.outcome, success, 'the outcome once its hook ran');
      await batch.release('k1', token);
      granted(await batch.claim('k1', 'run-b', 60_000), 'claim after the release');
      ran = 0;
      same(await batch.recordOutcome('k1', marked, token, settled), false, 'a fenced write');
      same(ran, 0, 'settled() runs for a fenced write');
    },
  ],
  [
    'renews a claim for its owner with a new token; the old one is fenced',
    async (store) => {
      const batch = await store.open('b');
      const old = granted(await batch.claim('k1', 'run-a', 60_000), 'claim of a free key');
      const renewed = granted(await batch.claim('k1', 'run-a', 60_000), 'claim again');
      holds(renewed !== old, 'a renewal must give a new token (the old one is then refused)');
      same(await batch.recordIntent(intent('k1'), old), undefined, 'an intent under the old');
      same(await batch.recordIntent(intent('k1'), renewed), intent('k1'), 'under the new');
    },
  ],
  [
    "keeps a renewed claim past its first lease: another owner waits for the renewal's",
    async (store, { leaseMs, pass }) => {
      const batch = await store.open('b');
      granted(await batch.claim('k1', 'run-a', leaseMs), 'claim of a free key');
      await pass(leaseMs * 0.6);
      granted(await batch.claim('k1', 'run-a', leaseMs), 'the renewal');
      await pass(leaseMs * 0.6); // past the first lease, inside the renewal's
      same(await batch.claim('k1', 'run-b', leaseMs), undefined, 'claim under the renewal');
      await pass(leaseMs * 0.5);
      granted(await batch.claim('k1', 'run-b', leaseMs), "claim once the renewal's ran out");
    },
  ],
  [
    'renews many claims in one call (renew, optional): the live ones, their tokens unchanged',
    async (store, { leaseMs, pass }) => {
      const batch = await store.open('b');
      const renew = batch.renew?.bind(batch);
      if (renew === undefined) return; // optional: the runner renews by claim() again
      const a = granted(await batch.claim('k1', 'run-a', leaseMs), 'claim of k1');
      const b = granted(await batch.claim('k2', 'run-a', leaseMs), 'claim of k2');
      const c = granted(await batch.claim('k3', 'run-a', leaseMs), 'claim of k3');
      await batch.release('k3', c);
      await pass(leaseMs * 0.6);
      const claims = [
        { key: 'k1', token: a },
        { key: 'k2', token: b },
        { key: 'k3', token: c }, // released
        { key: 'k4', token: a }, // never claimed
      ];
      same([...(await renew(claims, leaseMs))].sort(), [a, b].sort(), 'the tokens renewed');
      await pass(leaseMs * 0.6); // past the first lease, inside the renewal's
      same(await batch.claim('k1', 'run-b', leaseMs), undefined, 'claim under the renewal');
      same(await batch.recordIntent(intent('k1'), a), intent('k1'), 'an intent, same token');
      await pass(leaseMs * 0.5);
      same([...(await renew([{ key: 'k2', token: b }], leaseMs))], [], 'a lapsed claim renewed');
      granted(await batch.claim('k2', 'run-b', leaseMs), "claim once the renewal's ran out");
      same([...(await renew([], leaseMs))], [], 'renew() of no claim');
    },
  ],
  [
    'frees a released claim for another owner; releasing with a stale token does nothing',
    async (store) => {
      const batch = await store.open('b');
      const a = granted(await batch.claim('k1', 'run-a', 60_000), 'claim of a free key');
      await batch.release('k1', a);
      granted(await batch.claim('k1', 'run-b', 60_000), 'claim after the release');
      await batch.release('k1', a); // stale: b keeps its claim
      same(await batch.claim('k1', 'run-c', 60_000), undefined, 'claim after a stale release');
    },
  ],
];
