import type { BatchIntent, BatchStore } from 'momo-partner-sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The batch store contract (src/contracts/batch-store.ts), run against every store:
 * memory, file, Redis (single node and Cluster). `make` gives a store over fresh state; `reopen` another store
 * object over the same state (another run, another process); `pass(ms)` lets leases run
 * out (fake `Date` by default: a store whose clock is elsewhere passes its own).
 */
export interface StoreUnderTest {
  make(): Promise<BatchStore> | BatchStore;
  reopen(store: BatchStore): Promise<BatchStore> | BatchStore;
  pass?(ms: number): Promise<void>;
}

const intent = (key: string, extra: Partial<BatchIntent> = {}): BatchIntent => ({
  key,
  operation: 'disbursement.transfer',
  fingerprint: `print-of-${key}`,
  referenceId: '2f1d3b7e-8a4c-4f6e-9b1d-0c2e4a6f8b1d',
  ...extra,
});

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

export function batchStoreContract(name: string, subject: StoreUnderTest): void {
  describe(`batch store contract: ${name}`, () => {
    let store: BatchStore;
    const pass =
      subject.pass ??
      (async (ms: number) => {
        vi.setSystemTime(Date.now() + ms);
      });

    beforeEach(async () => {
      if (!subject.pass) vi.useFakeTimers({ toFake: ['Date'] });
      store = await subject.make();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('opens a new batch empty', async () => {
      const batch = await store.open('payroll-2026-11');
      expect(batch.id).toBe('payroll-2026-11');
      expect(await all(batch.records())).toEqual([]);
      expect(await batch.get('k1')).toBeUndefined();
    });

    it('records an intent under a claim; the first intent of a key wins', async () => {
      const batch = await store.open('b');
      const token = await batch.claim('k1', 'run-a', 60_000);
      expect(token).toBeTypeOf('string');
      const first = await batch.recordIntent(intent('k1'), token as string);
      expect(first).toEqual(intent('k1'));
      const again = await batch.recordIntent(
        intent('k1', { fingerprint: 'other', referenceId: 'x' }),
        token as string,
      );
      expect(again).toEqual(intent('k1'));
      expect(await batch.get('k1')).toEqual(intent('k1'));
    });

    it('records outcomes (the last wins) and lists records in first-recorded order', async () => {
      const batch = await store.open('b');
      for (const key of ['k2', 'k1', 'k3']) {
        const token = (await batch.claim(key, 'run-a', 60_000)) as string;
        await batch.recordIntent(intent(key), token);
        expect(await batch.recordOutcome(key, { status: 'SENT' }, token)).toBe(true);
      }
      const token = (await batch.claim('k1', 'run-a', 60_000)) as string;
      const final = { status: 'FAILED', reason: 'PAYEE_NOT_FOUND' } as const;
      expect(await batch.recordOutcome('k1', final, token)).toBe(true);
      const records = await all(batch.records());
      expect(records.map((r) => r.key)).toEqual(['k2', 'k1', 'k3']);
      expect(records[1]).toEqual({ ...intent('k1'), outcome: final });
      expect((await batch.get('k2'))?.outcome).toEqual({ status: 'SENT' });
    });

    it('refuses an outcome for a key without an intent', async () => {
      const batch = await store.open('b');
      const token = (await batch.claim('k1', 'run-a', 60_000)) as string;
      expect(await batch.recordOutcome('k1', { status: 'SENT' }, token)).toBe(false);
      expect(await batch.get('k1')).toBeUndefined();
    });

    it('keeps what it recorded for the next store over the same state', async () => {
      const batch = await store.open('b');
      const token = (await batch.claim('k1', 'run-a', 60_000)) as string;
      await batch.recordIntent(intent('k1'), token);
      const success = { status: 'SUCCESSFUL', financialTransactionId: '123' } as const;
      await batch.recordOutcome('k1', success, token);
      await batch.close();
      const next = await (await subject.reopen(store)).open('b');
      expect(await all(next.records())).toEqual([{ ...intent('k1'), outcome: success }]);
    });

    it('keeps batches apart, whatever their ids', async () => {
      const ids = ['a', 'A', '../a', 'a/../../b', 'pay roll ✓', '.', '..'];
      for (const id of ids) {
        const batch = await store.open(id);
        const token = (await batch.claim('k', 'run-a', 60_000)) as string;
        await batch.recordIntent(intent('k', { fingerprint: id }), token);
      }
      for (const id of ids) {
        const records = await all((await store.open(id)).records());
        expect(records.map((r) => r.fingerprint)).toEqual([id]);
      }
    });

    it("refuses a claim while another owner's lease runs, grants it once the lease ran out", async () => {
      const batch = await store.open('b');
      const a = await batch.claim('k1', 'run-a', 1_000);
      expect(a).toBeDefined();
      expect(await batch.claim('k1', 'run-b', 1_000)).toBeUndefined();
      expect(await batch.claim('k2', 'run-b', 1_000)).toBeDefined(); // other keys are free
      await pass(1_001);
      expect(await batch.claim('k1', 'run-b', 1_000)).toBeDefined();
    });

    it('fences off the writes of an owner whose lease was taken over', async () => {
      const batch = await store.open('b');
      const a = (await batch.claim('k1', 'run-a', 1_000)) as string;
      await batch.recordIntent(intent('k1'), a);
      await pass(1_001);
      const b = (await batch.claim('k1', 'run-b', 1_000)) as string;
      expect(b).toBeDefined();
      expect(await batch.recordOutcome('k1', { status: 'SENT' }, a)).toBe(false);
      expect(await batch.recordIntent(intent('k9'), a)).toBeUndefined(); // a's token is k1's only
      expect(await batch.recordOutcome('k1', { status: 'SENT' }, b)).toBe(true);
      expect((await batch.get('k1'))?.outcome).toEqual({ status: 'SENT' });
    });

    it('renews a claim for its owner with a new token; the old one is fenced', async () => {
      const batch = await store.open('b');
      const old = (await batch.claim('k1', 'run-a', 1_000)) as string;
      const renewed = (await batch.claim('k1', 'run-a', 1_000)) as string;
      expect(renewed).not.toBe(old);
      expect(await batch.recordIntent(intent('k1'), old)).toBeUndefined();
      expect(await batch.recordIntent(intent('k1'), renewed)).toEqual(intent('k1'));
    });

    it("keeps a renewed claim past its first lease: another owner waits for the renewal's", async () => {
      const batch = await store.open('b');
      expect(await batch.claim('k1', 'run-a', 1_000)).toBeDefined();
      await pass(600);
      expect(await batch.claim('k1', 'run-a', 1_000)).toBeDefined(); // renewed at 600
      await pass(600); // 1 200 after the claim, 600 after the renewal
      expect(await batch.claim('k1', 'run-b', 1_000)).toBeUndefined();
      await pass(500);
      expect(await batch.claim('k1', 'run-b', 1_000)).toBeDefined();
    });

    it('frees a released claim for another owner; releasing with a stale token does nothing', async () => {
      const batch = await store.open('b');
      const a = (await batch.claim('k1', 'run-a', 60_000)) as string;
      await batch.release('k1', a);
      const b = (await batch.claim('k1', 'run-b', 60_000)) as string;
      expect(b).toBeDefined();
      await batch.release('k1', a); // stale: b keeps its claim
      expect(await batch.claim('k1', 'run-c', 60_000)).toBeUndefined();
    });
  });
}
