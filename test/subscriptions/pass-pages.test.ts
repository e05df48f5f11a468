import type { Subscription, SubscriptionStore } from 'momo-partner-sdk';
import { memorySubscriptionStore } from 'momo-partner-sdk/subscriptions';
import { expect, it } from 'vitest';
import { DAY, gymMonthly, payer, setup, T0 } from './support';

/** More than one page of the due index (a pass reads 1,000 keys at a time). */
const DUE = 1_010;
const key = (i: number) => `member-${String(i).padStart(5, '0')}`;

/** A subscription whose mandate is approved, first due at T0 (as the store holds one). */
const approved = (i: number): Subscription => ({
  key: key(i),
  plan: gymMonthly.id,
  payer: payer(`2332440${String(i).padStart(5, '0')}`),
  status: 'ACTIVE',
  startAt: T0,
  mandateDays: 365,
  mandate: {
    referenceId: `mandate-${i}`,
    number: 0,
    status: 'APPROVED',
    expiresAt: T0 + 300 * DAY,
  },
  period: 0,
  nextChargeAt: T0,
  dueAt: T0,
  charges: [],
  createdAt: T0,
  updatedAt: T0,
});

it('a slow subscription does not hold the next page of due ones: no barrier between pages', async () => {
  const inner = memorySubscriptionStore();
  // The partner's store, slow on one record: reading member-00000 takes until a key of the
  // second page has been read (or 10 s, generous for a loaded machine: then the test fails).
  let secondPageRead: () => void = () => {};
  const secondPage = new Promise<void>((resolve) => {
    secondPageRead = resolve;
  });
  const order: string[] = [];
  const store: SubscriptionStore = {
    ...inner,
    async get(k) {
      order.push(k);
      if (k >= key(1_000)) secondPageRead();
      if (k === key(0)) {
        await Promise.race([secondPage, new Promise((r) => setTimeout(r, 10_000))]);
        order.push('slow one read');
      }
      return inner.get(k);
    },
  };
  const world = setup({ store, waitMs: 0 });
  await world.subs.plan(gymMonthly);
  for (let i = 0; i < DUE; i++) await inner.put(approved(i), undefined);

  const report = await world.subs.runDue();

  expect(report.processed).toBe(DUE);
  const slowDone = order.indexOf('slow one read');
  const firstOfSecondPage = order.findIndex((k) => k >= key(1_000) && k.startsWith('member-'));
  expect(firstOfSecondPage).toBeGreaterThan(-1);
  expect(firstOfSecondPage).toBeLessThan(slowDone);
}, 60_000);
