import type { BatchStore, MomoClient } from 'momo-partner-sdk';
import { Batches, type SettledBatchItem } from 'momo-partner-sdk/batches';
import { expect } from 'vitest';
import { type Harness, PAYEE, row } from '../batches/harness';

let batches = 0;
const items = () => [
  row('r1', PAYEE.ok, '10.25'),
  row('r2', PAYEE.rejected, '5'),
  row('r3', PAYEE.ok, '20.50'),
];
const byKey = <T extends { item: SettledBatchItem }>(seen: T[]) =>
  [...seen].sort((a, b) => a.item.key.localeCompare(b.item.key));

/**
 * `onItemSettled` on a store without transactions (memory, file, Redis): once per item
 * settled by the run, after its outcome is recorded (the store shows it to the hook),
 * `tx` undefined; never again for an item a re-run finds settled.
 */
export async function settlesEachItemOnceAfterItsOutcome(h: Harness, store: BatchStore) {
  const momo = h.client();
  const id = `payroll-${++batches}-${process.pid}`;
  const handle = await store.open(id);
  const seen: { item: SettledBatchItem; tx: unknown; recorded: unknown }[] = [];
  const report = await new Batches(momo).run(items(), {
    id,
    store,
    concurrency: 3,
    onItemSettled: async (item, tx) => {
      seen.push({ item, tx, recorded: (await handle.get(item.key))?.outcome?.status });
    },
  });
  expect(report.items.map((i) => i.status)).toEqual(['SUCCESSFUL', 'FAILED', 'SUCCESSFUL']);
  const ref = (key: string) => report.items.find((i) => i.key === key)?.referenceId;
  const common = { batchId: id, operation: 'disbursement.transfer', currency: 'EUR' };
  expect(byKey(seen)).toEqual([
    {
      item: {
        ...common,
        key: 'r1',
        referenceId: ref('r1'),
        status: 'SUCCESSFUL',
        financialTransactionId: expect.any(String),
        amount: '10.25',
      },
      tx: undefined,
      recorded: 'SUCCESSFUL',
    },
    {
      item: {
        ...common,
        key: 'r2',
        referenceId: ref('r2'),
        status: 'FAILED',
        reason: 'APPROVAL_REJECTED',
        amount: '5',
      },
      tx: undefined,
      recorded: 'FAILED',
    },
    {
      item: {
        ...common,
        key: 'r3',
        referenceId: ref('r3'),
        status: 'SUCCESSFUL',
        financialTransactionId: expect.any(String),
        amount: '20.50',
      },
      tx: undefined,
      recorded: 'SUCCESSFUL',
    },
  ]);
  expect(seen[0]?.item.financialTransactionId).toBe(
    report.items.find((i) => i.key === seen[0]?.item.key)?.financialTransactionId,
  );
  // Every outcome recorded for good (no delivery owed); a re-run settles nothing again.
  for (const key of ['r1', 'r2', 'r3']) {
    expect((await handle.get(key))?.outcome).not.toHaveProperty('delivered');
  }
  const again = await new Batches(momo).run(items(), {
    id,
    store,
    onItemSettled: (item) => {
      seen.push({ item, tx: undefined, recorded: undefined });
    },
  });
  expect(again.items.map((i) => i.status)).toEqual(['SUCCESSFUL', 'FAILED', 'SUCCESSFUL']);
  expect(seen).toHaveLength(3);
}

/**
 * A hook that throws leaves its item UNRESOLVED, naming the throw, its outcome not
 * recorded for good; the next run looks it up (sends nothing) and runs the hook again.
 * `owed(outcome)`: what the store holds for such an item.
 */
export async function runsAThrowingHookAgainOnTheNextRun(
  h: Harness,
  store: BatchStore,
  momo: MomoClient = h.client(),
) {
  const id = `payroll-${++batches}-${process.pid}`;
  const calls: string[] = [];
  let booksDown = true;
  const onItemSettled = (item: SettledBatchItem) => {
    calls.push(item.key);
    if (booksDown && item.key === 'r2') throw new TypeError('the books are down');
  };
  const first = await new Batches(momo).run(items(), { id, store, onItemSettled });
  expect(first.items.map((i) => [i.key, i.status])).toEqual([
    ['r1', 'SUCCESSFUL'],
    ['r2', 'UNRESOLVED'],
    ['r3', 'SUCCESSFUL'],
  ]);
  expect(first.items[1]?.reason).toMatch(/^onItemSettled threw TypeError: the books are down/);
  const owed = (await (await store.open(id)).get('r2'))?.outcome;
  // Not recorded for good: SENT (rolled back), or FAILED still owed its delivery.
  expect(owed?.status === 'SENT' || owed?.delivered === false).toBe(true);
  const posts = h.transferPosts().length;

  booksDown = false;
  const second = await new Batches(momo).run(items(), { id, store, onItemSettled });
  expect(second.items.map((i) => [i.key, i.status, i.reason])).toEqual([
    ['r1', 'SUCCESSFUL', undefined],
    ['r2', 'FAILED', 'APPROVAL_REJECTED'],
    ['r3', 'SUCCESSFUL', undefined],
  ]);
  expect(calls.sort()).toEqual(['r1', 'r2', 'r2', 'r3']); // r2 again, the others once
  expect(h.transferPosts()).toHaveLength(posts); // looked up, never sent again
  expect((await (await store.open(id)).get('r2'))?.outcome).toEqual({
    status: 'FAILED',
    reason: 'APPROVAL_REJECTED',
  });
}
