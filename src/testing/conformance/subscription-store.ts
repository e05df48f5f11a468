import type { Subscription, SubscriptionPlan, SubscriptionStore } from 'momo-partner-sdk';
import {
  type ConformanceCase,
  type ConformanceOptions,
  type ConformanceReport,
  checkCases,
  type StoreCase,
  storeCases,
} from './cases';
import { holds, same } from './expect';
import { HOUR, subscription, T } from './subscription-fixture';
import { TRANSACTION_CASES } from './subscription-transaction';

/** Options of `checkSubscriptionStore(make, options)`. */
export interface SubscriptionStoreConformanceOptions extends ConformanceOptions {
  /** Another store object over the same state (another instance's). Default: the same object. */
  reopen?:
    | ((store: SubscriptionStore) => SubscriptionStore | Promise<SubscriptionStore>)
    | undefined;
}

type Make = () => SubscriptionStore | Promise<SubscriptionStore>;
type Case = StoreCase<SubscriptionStore>;

/** The subscription store contract (`SubscriptionStore`) as cases, each over a fresh store. */
export function subscriptionStoreCases(
  make: Make,
  options: SubscriptionStoreConformanceOptions = {},
): ConformanceCase[] {
  return storeCases([...CASES, ...TRANSACTION_CASES], make, options);
}

/** Runs every case of the subscription store contract and resolves with the report. */
export async function checkSubscriptionStore(
  make: Make,
  options: SubscriptionStoreConformanceOptions = {},
): Promise<ConformanceReport> {
  return checkCases('subscription store', subscriptionStoreCases(make, options), options);
}

const keysOf = (subs: Subscription[]) => subs.map((s) => s.key).sort();

const CASES: Case[] = [
  [
    "keeps a subscription's tenant; due() and list() select one tenant's (or those of none)",
    async (store, _ctx, reopen) => {
      const ofA = { ...subscription('a-1', T + HOUR), tenant: 'merchant-a' };
      const ofB = { ...subscription('b-1', T), tenant: 'merchant-b' };
      const none = subscription('none-1', T + 2 * HOUR);
      for (const s of [ofA, ofB, none]) await store.put(s, undefined);
      const other = await reopen(store);
      same((await other.get('a-1'))?.subscription, ofA, 'get() of a tenant subscription');
      const at = T + 3 * HOUR;
      same(await other.due(at, 10), ['b-1', 'a-1', 'none-1'], 'due() of every tenant');
      same(await other.due(at, 10, 'merchant-a'), ['a-1'], "due(now, 10, 'merchant-a')");
      same(await other.due(at, 1, 'merchant-b'), ['b-1'], "due(now, 1, 'merchant-b')");
      same(await other.due(at, 10, null), ['none-1'], 'due(now, 10, null): of no tenant');
      same(
        keysOf(await other.list({ tenant: 'merchant-a' })),
        ['a-1'],
        "list({ tenant: 'merchant-a' })",
      );
      same(keysOf(await other.list({ tenant: null })), ['none-1'], 'list({ tenant: null })');
      same(keysOf(await other.list()), ['a-1', 'b-1', 'none-1'], 'list() of every tenant');
    },
  ],
  [
    'creates a subscription once (expected undefined) and gives it back whole, with version',
    async (store, _ctx, reopen) => {
      same(await store.get('member-1'), undefined, 'get() of a key never written');
      const first = subscription('member-1', T);
      const version = await store.put(first, undefined);
      holds(typeof version === 'number', `put() of a new key: expected a version, got ${version}`);
      same(
        await store.put(subscription('member-1', T + HOUR), undefined),
        undefined,
        'a second create of the key',
      );
      same(
        await (await reopen(store)).get('member-1'),
        { subscription: first, version },
        'get() after put(), on another store object',
      );
    },
  ],
  [
    'writes by compare-and-set: only the current version wins, a stale one writes nothing',
    async (store) => {
      const v1 = (await store.put(subscription('member-1', T), undefined)) as number;
      const next = subscription('member-1', T + HOUR, 1);
      const v2 = await store.put(next, v1);
      holds(
        typeof v2 === 'number' && v2 !== v1,
        `put() naming the current version: expected a new version, got ${v2}`,
      );
      same(
        await store.put(subscription('member-1', T + 2 * HOUR, 7), v1),
        undefined,
        'put() naming a stale version',
      );
      same(
        await store.put(subscription('member-2', T), 1),
        undefined,
        'put() naming a version of a key never written',
      );
      same(
        await store.get('member-1'),
        { subscription: next, version: v2 },
        'get() after a stale put()',
      );
      same(await store.get('member-2'), undefined, 'get() of the key a refused put() named');
    },
  ],
  [
    'lets one of many writers racing on one version win',
    async (store, _ctx, reopen) => {
      const v1 = (await store.put(subscription('member-1', T), undefined)) as number;
      const others = await Promise.all([1, 2, 3, 4].map(() => reopen(store)));
      const results = await Promise.all(
        [store, ...others].map((s, i) => s.put(subscription('member-1', T + i * HOUR, i + 1), v1)),
      );
      const won = results.filter((v) => v !== undefined);
      same(won.length, 1, 'writers that won');
      const winner = results.findIndex((v) => v !== undefined);
      same(
        await store.get('member-1'),
        { subscription: subscription('member-1', T + winner * HOUR, winner + 1), version: won[0] },
        'the stored subscription',
      );
      const creates = await Promise.all(
        [store, ...others].map((s) => s.put(subscription('member-9', T), undefined)),
      );
      same(creates.filter((v) => v !== undefined).length, 1, 'creates of one new key that won');
    },
  ],
  [
    'due(now) gives only the keys due at or before now, soonest first, at most limit',
    async (store) => {
      for (const [key, at] of [
        ['late', T + 3 * HOUR],
        ['soon', T + HOUR],
        ['mid', T + 2 * HOUR],
        ['now', T + 2.5 * HOUR],
        ['stopped', undefined],
      ] as const) {
        await store.put(subscription(key, at), undefined);
      }
      same(await store.due(T, 10), [], 'due() before anything is due');
      same(
        await store.due(T + 2.5 * HOUR, 10),
        ['soon', 'mid', 'now'],
        'due() at a dueAt (inclusive)',
      );
      same(await store.due(T + 10 * HOUR, 2), ['soon', 'mid'], 'due() with limit 2');
      same(
        await store.due(T + 10 * HOUR, 10),
        ['soon', 'mid', 'now', 'late'],
        'due() of every due key (never a stopped one)',
      );
    },
  ],
  [
    'keeps the due index on every write: moved later, moved earlier, stopped, restarted',
    async (store, _ctx, reopen) => {
      const a = (await store.put(subscription('a', T + HOUR), undefined)) as number;
      const b = (await store.put(subscription('b', T + 2 * HOUR), undefined)) as number;
      const c = (await store.put(subscription('c', T + 3 * HOUR), undefined)) as number;
      const a2 = (await store.put(subscription('a', T + 5 * HOUR, 1), a)) as number; // paid: next period
      const c2 = (await store.put(subscription('c', T, 1), c)) as number; // a retry due sooner
      await store.put(subscription('b', undefined), b); // cancelled
      const other = await reopen(store);
      same(await other.due(T + 4 * HOUR, 10), ['c'], 'due() after the moves');
      same(await other.due(T + 9 * HOUR, 10), ['c', 'a'], 'due() later');
      await store.put(subscription('a', undefined, 2), a2);
      await store.put(subscription('c', T + 6 * HOUR, 2), c2);
      same(await other.due(T + 9 * HOUR, 10), ['c'], 'due() after a stop and a move');
    },
  ],
  [
    'leaves the due index as it was after a refused write',
    async (store) => {
      const v = (await store.put(subscription('a', T + HOUR), undefined)) as number;
      await store.put(subscription('a', T + 2 * HOUR, 1), v);
      same(await store.put(subscription('a', undefined, 5), v), undefined, 'a stale stop');
      same(await store.put(subscription('a', T - HOUR, 5), v), undefined, 'a stale move earlier');
      same(await store.due(T + 10 * HOUR, 10), ['a'], 'due() after stale writes');
      same(await store.due(T + HOUR, 10), [], 'due() before its real dueAt');
    },
  ],
  [
    'lists by status, by due before (exclusive) and with a limit',
    async (store) => {
      await store.put(subscription('a', T + HOUR), undefined);
      await store.put(subscription('b', T + 2 * HOUR), undefined);
      await store.put(
        { ...subscription('c', T + 3 * HOUR), status: 'PAST_DUE', reason: 'NOT_ENOUGH_FUNDS' },
        undefined,
      );
      await store.put(subscription('d', undefined), undefined);
      same(keysOf(await store.list()), ['a', 'b', 'c', 'd'], 'list()');
      same(
        keysOf(await store.list({ status: 'CANCELLED' })),
        ['d'],
        "list({ status: 'CANCELLED' })",
      );
      same(keysOf(await store.list({ status: 'PAST_DUE' })), ['c'], "list({ status: 'PAST_DUE' })");
      same(
        keysOf(await store.list({ dueBefore: T + 2 * HOUR })),
        ['a'],
        'list({ dueBefore }) (exclusive)',
      );
      same(
        keysOf(await store.list({ dueBefore: T + 4 * HOUR, status: 'ACTIVE' })),
        ['a', 'b'],
        'list({ dueBefore, status })',
      );
      same((await store.list({ limit: 2 })).length, 2, 'list({ limit: 2 }).length');
      const full = (await store.list()).find((s) => s.key === 'c');
      same(
        full,
        { ...subscription('c', T + 3 * HOUR), status: 'PAST_DUE', reason: 'NOT_ENOUGH_FUNDS' },
        'a listed subscription, whole',
      );
    },
  ],
  [
    'keeps plans by id, replaced whole by a later putPlan',
    async (store, _ctx, reopen) => {
      const plan: SubscriptionPlan = {
        id: 'gym-monthly',
        amount: '50',
        currency: 'GHS',
        every: 'month',
        retry: ['1d', '3d', '7d'],
        invoiceFallback: {
          payee: { partyIdType: 'MSISDN', partyId: '233244000001' },
          validityDays: 7,
        },
        payerMessage: 'Gym',
      };
      await store.putPlan(plan);
      same(await (await reopen(store)).getPlan('gym-monthly'), plan, 'getPlan() after putPlan()');
      same(await store.getPlan('other'), undefined, 'getPlan() of an id never put');
      const weekly: SubscriptionPlan = {
        id: 'gym-monthly',
        amount: '12.5',
        currency: 'GHS',
        every: { days: 7 },
        retry: [],
      };
      await store.putPlan(weekly);
      same(await store.getPlan('gym-monthly'), weekly, 'getPlan() after a second putPlan()');
    },
  ],
  [
    'keeps what it was given: changing an object after put() or get() changes nothing stored',
    async (store) => {
      const written = subscription('a', T + HOUR);
      const v = (await store.put(written, undefined)) as number;
      written.status = 'ENDED';
      written.charges.push({ period: 0, attempt: 1, referenceId: 'x', status: 'FAILED', at: T });
      const read = await store.get('a');
      holds(read !== undefined, 'get() after put(): expected the subscription, got undefined');
      if (read) read.subscription.period = 42;
      same(
        await store.get('a'),
        { subscription: subscription('a', T + HOUR), version: v },
        'get() after changing the objects',
      );
    },
  ],
];
