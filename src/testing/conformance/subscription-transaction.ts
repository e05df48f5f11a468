import type { SubscriptionStore } from 'momo-partner-sdk';
import { NotApplicable, type StoreCase } from './cases';
import { holds, same } from './expect';
import { HOUR, subscription, T } from './subscription-fixture';

type Case = StoreCase<SubscriptionStore>;

/** The store's `putInTransaction`, or NotApplicable (the method is optional). */
function transactional(store: SubscriptionStore) {
  const put = store.putInTransaction;
  if (typeof put !== 'function') throw new NotApplicable('the store has no putInTransaction()');
  return put.bind(store);
}

/** The optional `putInTransaction` (what `onCharge(charge, tx)` runs in): skipped without it. */
export const TRANSACTION_CASES: Case[] = [
  [
    'putInTransaction writes as put, runs within(tx) once after the write, and commits both',
    async (store, _ctx, reopen) => {
      const put = transactional(store);
      const calls: unknown[] = [];
      const first = subscription('member-1', T + HOUR);
      const v1 = await put(first, undefined, async (tx) => void calls.push(tx));
      holds(
        typeof v1 === 'number',
        `putInTransaction() of a new key: expected a version, got ${v1}`,
      );
      same(calls.length, 1, 'within() runs');
      const next = subscription('member-1', T + 2 * HOUR, 1);
      const v2 = await put(next, v1, async () => void calls.push('second'));
      holds(
        typeof v2 === 'number' && v2 !== v1,
        `a second write: expected a new version, got ${v2}`,
      );
      same(
        await (await reopen(store)).get('member-1'),
        { subscription: next, version: v2 },
        'get() after putInTransaction(), on another store object',
      );
      same(await store.due(T + 2 * HOUR, 10), ['member-1'], 'due() after putInTransaction()');
    },
  ],
  [
    'putInTransaction rolls the write back when within throws, and rethrows',
    async (store) => {
      const put = transactional(store);
      const v1 = (await store.put(subscription('member-1', T + HOUR), undefined)) as number;
      const thrown = new Error('the partner rolled back');
      let caught: unknown;
      try {
        await put(subscription('member-1', T - HOUR, 1), v1, async () => {
          throw thrown;
        });
      } catch (error) {
        caught = error;
      }
      same(caught, thrown, 'what putInTransaction() rejected with');
      same(
        await store.get('member-1'),
        { subscription: subscription('member-1', T + HOUR), version: v1 },
        'get() after the rolled-back write',
      );
      same(await store.due(T, 10), [], 'due() after the rolled-back write (its dueAt was sooner)');
      const created: unknown[] = [];
      const rolledBack = put(subscription('member-2', T), undefined, async () => {
        created.push(1);
        throw thrown;
      });
      await rolledBack.catch(() => {});
      same(await store.get('member-2'), undefined, 'get() of a create rolled back');
      holds(
        typeof (await store.put(subscription('member-1', T + 3 * HOUR, 2), v1)) === 'number',
        'put() naming the version before the rolled-back write: expected a new version',
      );
    },
  ],
  [
    'putInTransaction writes nothing and runs nothing when another writer came first',
    async (store) => {
      const put = transactional(store);
      const v1 = (await store.put(subscription('member-1', T + HOUR), undefined)) as number;
      await store.put(subscription('member-1', T + 2 * HOUR, 1), v1);
      let ran = 0;
      const within = async () => void ran++;
      same(await put(subscription('member-1', T, 9), v1, within), undefined, 'a stale write');
      same(await put(subscription('member-1', T), undefined, within), undefined, 'a second create');
      same(ran, 0, 'within() runs of refused writes');
      same(
        (await store.get('member-1'))?.subscription.period,
        1,
        'the stored period after refused writes',
      );
    },
  ],
];
