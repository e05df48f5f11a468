import type { OutboxIntent, OutboxOutcome, OutboxPayment, OutboxStore } from 'momo-partner-sdk';
import {
  type CaseContext,
  type ConformanceCase,
  type ConformanceOptions,
  type ConformanceReport,
  caseContext,
  checkCases,
} from './cases';
import { granted, holds, LAPSE_MARGIN_MS, same } from './expect';

/**
 * An outbox store over fresh state, and how intents get into it: `enqueue` commits one
 * intent as your application does (`db.outbox.enqueue` in a transaction that commits).
 * Give the store a short lease (e.g. 1 s): the lease cases wait past it.
 */
export interface OutboxStoreUnderTest<Tx = unknown> {
  store: OutboxStore<Tx>;
  /** Commits one intent, as your application's enqueue in a transaction that commits. */
  enqueue(intent: OutboxIntent): Promise<{ referenceId: string }>;
}

type Make<Tx> = () => OutboxStoreUnderTest<Tx> | Promise<OutboxStoreUnderTest<Tx>>;

const body = (n: number) => ({
  amount: `${n}.50`,
  currency: 'EUR',
  externalId: `order-${n}`,
  payer: { partyIdType: 'MSISDN', partyId: '46733123450' },
  payerMessage: 'Order',
  payeeNote: 'Order',
});
const intent = (n: number, extra: Partial<OutboxIntent> = {}): OutboxIntent => ({
  key: `order-${n}`,
  operation: 'collection.requestToPay',
  body: body(n),
  ...extra,
});
const SUCCESS: OutboxOutcome = { status: 'SUCCESSFUL', financialTransactionId: '98765' };

/** The outbox store contract (`OutboxStore`) as cases, each over fresh state from `make()`. */
export function outboxStoreCases<Tx>(
  make: Make<Tx>,
  options: ConformanceOptions = {},
): ConformanceCase[] {
  const ctx = caseContext(make, options);
  return CASES.map(([name, run]) => ({
    name,
    run: async () => run((await make()) as OutboxStoreUnderTest, ctx),
  }));
}

/** Runs every case of the outbox store contract and resolves with the report. */
export async function checkOutboxStore<Tx>(
  make: Make<Tx>,
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  return checkCases('outbox store', outboxStoreCases(make, options), options);
}

type Case = [string, (subject: OutboxStoreUnderTest, ctx: CaseContext) => Promise<void>];

/** Every field of `expected` as `actual` has it (the store may add its own). */
function includes(actual: unknown, expected: Record<string, unknown>, what: string): void {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(expected)) {
    picked[key] = (actual as Record<string, unknown> | undefined)?.[key];
  }
  same(picked, expected, what);
}

/** One intent enqueued and claimed by `owner`: its token. */
async function claimOne(subject: OutboxStoreUnderTest, n = 1, owner = 'relay-a') {
  const { referenceId } = await subject.enqueue(intent(n));
  const claims = await subject.store.claim(owner, 10);
  same(
    claims.map((c) => c.key),
    [`order-${n}`],
    'claim() of one due intent',
  );
  return { referenceId, token: granted(claims[0]?.token, 'the claim token') };
}

const CASES: Case[] = [
  [
    'claims committed intents oldest first, up to the limit, as they were enqueued',
    async ({ store, enqueue }) => {
      const ids: string[] = [];
      const withUrl = { callbackUrl: 'https://shop.example/momo/{referenceId}' };
      for (const n of [1, 2, 3]) {
        ids.push((await enqueue(intent(n, n === 2 ? withUrl : {}))).referenceId);
      }
      same((await enqueue(intent(1))).referenceId, ids[0], 'the same intent enqueued again');
      const first = await store.claim('relay-a', 2);
      same(
        first.map((c) => c.key),
        ['order-1', 'order-2'],
        'claim(owner, 2)',
      );
      for (const [i, claim] of first.entries()) {
        const n = i + 1;
        includes(
          claim,
          {
            operation: 'collection.requestToPay',
            referenceId: ids[i],
            status: 'QUEUED',
            body: body(n),
            callbackUrl: n === 2 ? withUrl.callbackUrl : undefined,
            attempts: 0,
            settled: false,
          },
          `the claim of order-${n}`,
        );
        granted(claim.token, 'its token');
      }
      holds(first[0]?.token !== first[1]?.token, 'each claim must have its own token');
      same(
        (await store.claim('relay-b', 10)).map((c) => c.key),
        ['order-3'],
        'claim() by another relay',
      );
    },
  ],
  [
    "keeps an intent's tenant; claims one tenant's rows (or those of none) when asked",
    async ({ store, enqueue }) => {
      await enqueue(intent(1, { tenant: 'merchant-a' }));
      await enqueue(intent(2, { tenant: 'merchant-b' }));
      await enqueue(intent(3));
      const keysOf = (claims: { key: string; tenant?: string }[]) =>
        claims.map((c) => [c.key, c.tenant]);
      same(
        keysOf(await store.claim('relay-b', 10, 'merchant-b')),
        [['order-2', 'merchant-b']],
        "claim(owner, 10, 'merchant-b')",
      );
      same(
        keysOf(await store.claim('relay-none', 10, null)),
        [['order-3', undefined]],
        'claim(owner, 10, null): rows of no tenant',
      );
      same(
        keysOf(await store.claim('relay-all', 10)),
        [['order-1', 'merchant-a']],
        'claim(owner, 10): every tenant',
      );
    },
  ],
  [
    'never gives a claimed row to another relay while its lease runs; once it ran out, gives it with a new token',
    async (subject, { pass }) => {
      const { token } = await claimOne(subject);
      same(await subject.store.claim('relay-b', 10), [], 'claim() under the lease');
      await pass(subject.store.leaseMs + LAPSE_MARGIN_MS);
      const taken = await subject.store.claim('relay-b', 10);
      same(
        taken.map((c) => c.key),
        ['order-1'],
        'claim() once the lease ran out',
      );
      holds(taken[0]?.token !== token, 'a new claim must have a new token');
    },
  ],
  [
    'fences off every write of a relay whose claim was taken over',
    async (subject, { pass }) => {
      const { store } = subject;
      const { token: a } = await claimOne(subject);
      await pass(store.leaseMs + LAPSE_MARGIN_MS);
      const b = granted((await store.claim('relay-b', 10))[0]?.token, 'the new claim');
      let delivered = 0;
      const deliver = async () => {
        delivered += 1;
      };
      same(await store.markSent('order-1', a), false, 'markSent() under the old token');
      same(await store.settle('order-1', a, SUCCESS, deliver), false, 'settle() under it');
      same(delivered, 0, 'deliveries run for a fenced-off settle()');
      same(await store.giveBack('order-1', a, 0), false, 'giveBack() under the old token');
      same([...(await store.renew([a]))], [], 'renew() of the old token');
      same(await store.markSent('order-1', b), true, "markSent() under the new owner's");
    },
  ],
  [
    'records SENT: a row given back is claimed again as SENT',
    async (subject) => {
      const { store } = subject;
      const { token } = await claimOne(subject);
      same(await store.markSent('order-1', token), true, 'markSent()');
      same(await store.giveBack('order-1', token, 0), true, 'giveBack(key, token, 0)');
      const again = await store.claim('relay-b', 10);
      includes(again[0], { key: 'order-1', status: 'SENT', settled: false }, 'the claim');
    },
  ],
  [
    'settles: the outcome recorded and deliver run in it with the payment; never claimed again',
    async (subject, { pass }) => {
      const { store } = subject;
      const { referenceId, token } = await claimOne(subject, 7);
      const seen: { payment: OutboxPayment; tx: unknown }[] = [];
      const deliver = async (payment: OutboxPayment, tx: unknown) => {
        seen.push({ payment, tx });
      };
      same(await store.settle('order-7', token, SUCCESS, deliver), true, 'settle()');
      same(seen.length, 1, 'deliver() runs');
      const payment = { key: 'order-7', operation: 'collection.requestToPay', referenceId };
      const money = { amount: '7.50', currency: 'EUR' };
      includes(seen[0]?.payment, { ...payment, ...SUCCESS, ...money }, 'the payment delivered');
      const failed = await claimOne(subject, 8);
      const refused = { status: 'FAILED', reason: 'PAYER_NOT_FOUND' } as const;
      same(await store.settle('order-8', failed.token, refused), true, 'settle() alone');
      await pass(store.leaseMs + LAPSE_MARGIN_MS);
      same(await store.claim('relay-b', 10), [], 'claim() after both were settled');
    },
  ],
  [
    'rolls back a settle whose deliver throws; a row given back with its outcome is delivered again',
    async (subject) => {
      const { store } = subject;
      const { token } = await claimOne(subject);
      const broken = new Error('the books are down');
      const throwing = async () => {
        throw broken;
      };
      const threw = await store.settle('order-1', token, SUCCESS, throwing).then(
        () => undefined,
        (error: unknown) => error,
      );
      same((threw as Error | undefined)?.message, broken.message, 'settle() rejects with it');
      same(await store.giveBack('order-1', token, 0), true, 'giveBack() after the throw');
      const back = await store.claim('relay-a', 10);
      includes(back[0], { key: 'order-1', status: 'QUEUED', settled: false }, 'rolled back');
      const again = granted(back[0]?.token, 'the claim');
      await store.settle('order-1', again, SUCCESS, throwing).catch(() => undefined);
      same(await store.giveBack('order-1', again, 0, SUCCESS), true, 'giveBack() with it');
      const owed = await store.claim('relay-a', 10);
      includes(owed[0], { key: 'order-1', ...SUCCESS, settled: true }, 'its outcome kept');
      let delivered = 0;
      const last = granted(owed[0]?.token, 'the claim');
      const deliver = async () => {
        delivered += 1;
      };
      same(await store.settle('order-1', last, SUCCESS, deliver), true, 'the delivery again');
      same(delivered, 1, 'deliver() runs');
    },
  ],
  [
    'gives a row back to be claimed after retryInMs, its attempts counted',
    async (subject, { leaseMs, pass }) => {
      const { store } = subject;
      const { token } = await claimOne(subject);
      same(await store.giveBack('order-1', token, leaseMs), true, 'giveBack(key, token, ms)');
      same(await store.claim('relay-a', 10), [], 'claim() before retryInMs passed');
      await pass(leaseMs + LAPSE_MARGIN_MS);
      const again = await store.claim('relay-a', 10);
      includes(again[0], { key: 'order-1', attempts: 1 }, 'the claim after retryInMs');
    },
  ],
  [
    'renews the leases it still holds: the row stays claimed past its first lease',
    async (subject, { pass }) => {
      const { store } = subject;
      const { token } = await claimOne(subject);
      await pass(store.leaseMs * 0.6);
      same([...(await store.renew([token, 'not-a-token']))], [token], 'renew()');
      await pass(store.leaseMs * 0.6);
      same(await store.claim('relay-b', 10), [], 'claim() after the first lease, renewed');
      await pass(store.leaseMs * 0.5);
      same(
        (await store.claim('relay-b', 10)).map((c) => c.key),
        ['order-1'],
        "claim() once the renewal's lease ran out",
      );
    },
  ],
  [
    'never gives one row to two relays claiming at once',
    async ({ store, enqueue }) => {
      for (let n = 1; n <= 12; n++) await enqueue(intent(n));
      const owners = ['relay-a', 'relay-b', 'relay-c'];
      const claims = await Promise.all(owners.map((owner) => store.claim(owner, 12)));
      const keys = claims.flat().map((c) => c.key);
      same(keys.length, 12, 'rows claimed in all');
      same(new Set(keys).size, 12, 'distinct rows claimed');
    },
  ],
];
