import {
  MomoClient,
  type Subscription,
  type SubscriptionCharge,
  type SubscriptionStatus,
  type SubscriptionStore,
} from 'momo-partner-sdk';
import {
  fileSubscriptionStore,
  memorySubscriptionStore,
  type RunDueOptions,
  type RunDueReport,
  type SubscriptionChargeEvent,
  type SubscriptionRunner,
  Subscriptions,
} from 'momo-partner-sdk/subscriptions';
import { describe, expectTypeOf, it } from 'vitest';

describe('subscription types', () => {
  it('types DESIGN 9.3: plan, subscribe, get, runDue, start, cancel', async () => {
    const momo = new MomoClient({ baseUrl: 'https://momo.example', targetEnvironment: 'sandbox' });
    expectTypeOf(memorySubscriptionStore()).toExtend<SubscriptionStore>();
    expectTypeOf(fileSubscriptionStore('./.momo')).toExtend<SubscriptionStore>();
    const subs = new Subscriptions(momo, {
      store: memorySubscriptionStore(),
      secret: 's'.repeat(16),
    });
    expectTypeOf(subs).toEqualTypeOf<Subscriptions>();
    await subs.plan({
      id: 'gym-monthly',
      amount: '50',
      currency: 'GHS',
      every: 'month',
      retry: ['1d', '3d', '7d'],
      invoiceFallback: true,
    });
    // @ts-expect-error: a plan's interval is 'day' | 'week' | 'month' | { days }
    await subs.plan({ id: 'x', amount: '1', currency: 'GHS', every: 'year' });
    const sub = await subs.subscribe({
      key: 'member-42',
      plan: 'gym-monthly',
      payer: { partyIdType: 'MSISDN', partyId: '233241234450' },
      startAt: new Date(),
      mandateDays: 365,
    });
    expectTypeOf(sub).toEqualTypeOf<Subscription>();
    expectTypeOf(sub.status).toEqualTypeOf<SubscriptionStatus>();
    expectTypeOf<SubscriptionStatus>().toEqualTypeOf<
      'PENDING_MANDATE' | 'ACTIVE' | 'PAST_DUE' | 'CANCELLED' | 'ENDED'
    >();
    expectTypeOf(sub.mandate.referenceId).toBeString();
    expectTypeOf(sub.charges).toEqualTypeOf<SubscriptionCharge[]>();
    expectTypeOf<SubscriptionCharge>().toHaveProperty('invoice');
    expectTypeOf(await subs.get('member-42')).toEqualTypeOf<Subscription | undefined>();
    expectTypeOf(await subs.runDue({ now: new Date() })).toEqualTypeOf<RunDueReport>();
    const pass: RunDueOptions = {
      now: Date.now(),
      onCharge: (charge) => {
        expectTypeOf(charge).toEqualTypeOf<SubscriptionChargeEvent>();
      },
    };
    expectTypeOf(await subs.runDue(pass)).toEqualTypeOf<RunDueReport>();
    const runner = subs.start({
      onCharge: async (charge, tx) => {
        expectTypeOf(charge).toEqualTypeOf<SubscriptionChargeEvent>();
        expectTypeOf(tx).toEqualTypeOf<unknown>();
      },
    });
    expectTypeOf(runner).toEqualTypeOf<SubscriptionRunner>();
    expectTypeOf(await subs.cancel('member-42')).toEqualTypeOf<Subscription>();
    await runner.stop();
  });
});
