import type { MomoClient } from 'momo-partner-sdk';
import * as sdk from 'momo-partner-sdk';
import { Batches, type BatchReport } from 'momo-partner-sdk/batches';
import { type ReconcileResult, reconcile } from 'momo-partner-sdk/reconcile';
import type { Subscriptions } from 'momo-partner-sdk/subscriptions';
import { describe, expectTypeOf, it } from 'vitest';

// DESIGN 10.2: the drivers are entries of their own, each taking a client; the client
// carries none of them, so a partner who makes one payment ships none of them.
describe('the drivers, out of MomoClient', () => {
  it('MomoClient has no batches, reconcile or subscriptions member', () => {
    expectTypeOf<MomoClient>().not.toHaveProperty('batches');
    expectTypeOf<MomoClient>().not.toHaveProperty('reconcile');
    expectTypeOf<MomoClient>().not.toHaveProperty('subscriptions');
  });

  it('the main entry exports no driver', () => {
    expectTypeOf(sdk).not.toHaveProperty('Batches');
    expectTypeOf(sdk).not.toHaveProperty('reconcile');
    expectTypeOf(sdk).not.toHaveProperty('Subscriptions');
    expectTypeOf(sdk).not.toHaveProperty('startOutboxRelay');
    expectTypeOf(sdk).not.toHaveProperty('memoryBatchStore');
    expectTypeOf(sdk).not.toHaveProperty('fileSubscriptionStore');
  });

  it('each takes a MomoClient as it is', () => {
    expectTypeOf<Batches>().toHaveProperty('run');
    expectTypeOf<MomoClient>().toExtend<ConstructorParameters<typeof Batches>[0]>();
    expectTypeOf<MomoClient>().toExtend<ConstructorParameters<typeof Subscriptions>[0]>();
    expectTypeOf<MomoClient>().toExtend<Parameters<typeof reconcile>[0]>();
    const momo = {} as MomoClient;
    const report = new Batches(momo).run([], { id: 'payday', store: {} as never });
    expectTypeOf(report).resolves.toEqualTypeOf<BatchReport>();
    const result = reconcile(momo, [{ referenceId: 'id', operation: 'disbursement.transfer' }]);
    expectTypeOf(result).resolves.toExtend<
      ReconcileResult<{ referenceId: string; operation: string }>
    >();
  });
});
