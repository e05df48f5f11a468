/**
 * The kernel's one "deliver a final outcome at least once" mechanism, under
 * `onItemSettled`, `onSettled` and `onCharge`: a hook that throws is run again later and
 * never lost, and a crash between the record and the hook leaves the delivery owed.
 */
import { describe, expect, it } from 'vitest';
import {
  type Delivery,
  deliverAtLeastOnce,
  HookFailed,
  type OutcomeWrites,
  owed,
} from '../../src/payments/deliver';

type Outcome = { status: 'SUCCESSFUL'; delivered?: false };
const OUTCOME: Outcome = { status: 'SUCCESSFUL' };

/** One record in a store, with or without transactions (a throw inside one rolls it back). */
class OneRecord {
  record: Outcome | undefined;
  fenced = false;
  constructor(readonly transactional: boolean) {}

  writes(): OutcomeWrites<string> {
    return {
      recordOwed: async (deliver) => {
        if (this.fenced) return false;
        if (!this.transactional) {
          this.record = owed(OUTCOME);
          return true;
        }
        await deliver('tx-1'); // a throw: nothing written
        this.record = { ...OUTCOME };
        return true;
      },
      recordDelivered: async () => {
        if (this.fenced) return false;
        this.record = { ...OUTCOME };
        return true;
      },
    };
  }

  /** Whether whoever reads the record next owes its hook a delivery. */
  get owedOrMissing(): boolean {
    return this.record === undefined || this.record.delivered === false;
  }
}

/** A hook that throws its first `failures` times. */
function flakyHook(failures: number) {
  const calls: (string | undefined)[] = [];
  const hook = async (tx: string | undefined) => {
    calls.push(tx);
    if (calls.length <= failures) throw new TypeError(`hook down (${calls.length})`);
  };
  return { hook, calls };
}

describe('deliverAtLeastOnce', () => {
  for (const transactional of [true, false]) {
    const kind = transactional ? 'with transactions' : 'without transactions';

    it(`${kind}: a hook that throws leaves its delivery owed, and runs again later until it returns`, async () => {
      const store = new OneRecord(transactional);
      const { hook, calls } = flakyHook(2);
      const results: Delivery[] = [];
      // Each turn is what the driver does next time it reads the record (a re-run, a relay's next claim).
      while (store.owedOrMissing) {
        results.push(await deliverAtLeastOnce('onItemSettled', hook, store.writes()));
        expect(results.length).toBeLessThan(10);
      }
      expect(results.map((r) => r.outcome)).toEqual(['failed', 'failed', 'delivered']);
      const failure = results[0] as Extract<Delivery, { outcome: 'failed' }>;
      expect(failure.error).toBeInstanceOf(HookFailed);
      expect(failure.error.message).toBe('onItemSettled threw TypeError: hook down (1)');
      expect(failure.error.cause).toBeInstanceOf(TypeError);
      expect(calls).toEqual(
        transactional ? ['tx-1', 'tx-1', 'tx-1'] : [undefined, undefined, undefined],
      );
      expect(store.record).toEqual(OUTCOME);
    });
  }

  it('without transactions: a crash after the record and before the hook returned leaves the mark, and the next reader delivers', async () => {
    const store = new OneRecord(false);
    const crashed = deliverAtLeastOnce(
      'onCharge',
      () => new Promise<void>(() => {}),
      store.writes(),
    );
    await new Promise((resolve) => setImmediate(resolve));
    // The process died here: its promise never settles. The record says what is owed.
    expect(store.record).toEqual({ status: 'SUCCESSFUL', delivered: false });
    const { hook, calls } = flakyHook(0);
    const after = await deliverAtLeastOnce('onCharge', hook, store.writes());
    expect(after.outcome).toBe('delivered');
    expect(calls).toHaveLength(1);
    expect(store.record).toEqual(OUTCOME);
    void crashed;
  });

  it("rejects with the store's own failure (nothing ran), and runs no hook when fenced out", async () => {
    const down = new Error('database down');
    const { hook, calls } = flakyHook(0);
    const failing: OutcomeWrites<string> = {
      recordOwed: () => Promise.reject(down),
      recordDelivered: () => Promise.reject(down),
    };
    await expect(deliverAtLeastOnce('onSettled', hook, failing)).rejects.toBe(down);
    const store = new OneRecord(true);
    store.fenced = true;
    expect((await deliverAtLeastOnce('onSettled', hook, store.writes())).outcome).toBe('fenced');
    expect(calls).toEqual([]);
  });

  it('a hook that leaves the transaction failed (a throw after it ran) is the hook failing', async () => {
    const written: OutcomeWrites<string> = {
      recordOwed: async (deliver) => {
        await deliver('tx');
        throw new Error('current transaction is aborted');
      },
      recordDelivered: async () => true,
    };
    const result = await deliverAtLeastOnce('onSettled', async () => {}, written);
    expect(result.outcome).toBe('failed');
  });

  it('without a hook: the outcome recorded delivered, nothing owed', async () => {
    const store = new OneRecord(false);
    expect((await deliverAtLeastOnce('onSettled', undefined, store.writes())).outcome).toBe(
      'delivered',
    );
    expect(store.record).toEqual(OUTCOME);
  });
});
