import type { BatchStore, MomoClient } from 'momo-partner-sdk';
import { Batches } from 'momo-partner-sdk/batches';
import type {
  ReconcileItem,
  ReconcileRecord,
  ReconcileStoreRecord,
} from 'momo-partner-sdk/reconcile';
import type { Simulator } from 'momo-partner-sdk/testing';
import { expect } from 'vitest';
import { PAYEE, row } from '../batches/harness';

/**
 * What the SDK sent, by every road a store of `stores` records: a batch of three rows
 * (`a`, `b`, `c`), one direct transfer (the journal only), and, where the state has an
 * outbox, one outbox payment. The books then list `a` twice and `b` with an amount the
 * provider's answer lacks, and lack `c`, the direct transfer and the outbox payment.
 */
export interface SentByTheSdk {
  batchId: string;
  since: number;
  ids: { a: string; b: string; c: string; direct: string; outbox?: string };
  /** The books as `momo.reconcile` takes them. */
  books: ReconcileRecord[];
}

export async function sendByEveryRoad(
  momo: MomoClient,
  sim: Simulator,
  batchStore: BatchStore,
  outboxPayment?: () => Promise<string>,
): Promise<SentByTheSdk> {
  const since = Date.now();
  const batchId = `payroll-${crypto.randomUUID().slice(0, 8)}`;
  const report = await new Batches(momo).run(
    [row('a', PAYEE.ok), row('b', PAYEE.ok), row('c', PAYEE.ok)],
    { id: batchId, store: batchStore },
  );
  expect(report.summary.successful).toBe(3);
  const idOf = (key: string) => report.items.find((item) => item.key === key)?.referenceId ?? '';
  const direct = await momo.disbursement.transfer({
    amount: '7',
    currency: 'EUR',
    externalId: 'refund-7',
    payee: { partyIdType: 'MSISDN', partyId: PAYEE.ok },
  });
  await direct.wait();
  const outbox = await outboxPayment?.();
  const ids = { a: idOf('a'), b: idOf('b'), c: idOf('c'), direct: direct.referenceId };
  // The provider's answer for `b` has no amount: the books' 999999.99 cannot be checked.
  sim.inject({
    kind: 'status',
    status: 200,
    body: { status: 'SUCCESSFUL', currency: 'EUR', financialTransactionId: '777', externalId: 'b' },
    match: `GET /disbursement/v1_0/transfer/${ids.b}`,
    times: 5,
  });
  const books: ReconcileRecord[] = [
    { referenceId: ids.a, operation: 'disbursement.transfer', status: 'SUCCESSFUL', amount: '10' },
    { referenceId: ids.a, operation: 'disbursement.transfer', status: 'SUCCESSFUL', amount: '10' },
    {
      referenceId: ids.b,
      operation: 'disbursement.transfer',
      status: 'SUCCESSFUL',
      amount: '999999.99',
      currency: 'EUR',
    },
  ];
  return { batchId, since, ids: outbox ? { ...ids, outbox } : ids, books };
}

/** What the reconciliation of `sent.books` against the stores must report, item by item. */
export function expectEachReported(
  sent: SentByTheSdk,
  items: readonly ReconcileItem<ReconcileRecord | ReconcileStoreRecord>[],
): void {
  const { ids, batchId } = sent;
  const shown = items.map((item) => ({
    referenceId: item.record.referenceId,
    verdict: item.verdict,
    reason: item.reason,
    provider: item.found?.status,
    source: 'source' in item.record ? item.record.source : undefined,
  }));
  const missing = (referenceId: string, source: string, where: string) => ({
    referenceId,
    verdict: 'MISSING_FROM_BOOKS',
    reason: expect.stringContaining(`sent by the SDK (${where}`),
    provider: 'SUCCESSFUL',
    source,
  });
  expect(shown).toEqual([
    {
      referenceId: ids.a,
      verdict: 'MATCH',
      reason: undefined,
      provider: 'SUCCESSFUL',
      source: undefined,
    },
    {
      referenceId: ids.a,
      verdict: 'DUPLICATE',
      reason: expect.stringContaining('the same referenceId as'),
      provider: undefined,
      source: undefined,
    },
    {
      referenceId: ids.b,
      verdict: 'MATCH',
      reason: "amount not compared: the provider's answer has none",
      provider: 'SUCCESSFUL',
      source: undefined,
    },
    missing(ids.c, 'batch', `batch ${batchId}, key c`),
    ...(ids.outbox ? [missing(ids.outbox, 'outbox', 'the outbox, key order-1')] : []),
    missing(ids.direct, 'journal', 'the journal, tag refund-7'),
  ]);
  expect(items[1]?.duplicateOf).toBe(0);
}

/** `sent.books` as a books CSV. */
export function booksCsv(sent: SentByTheSdk): string {
  const lines = sent.books.map((r) =>
    [r.referenceId, r.operation, r.status ?? '', r.amount ?? '', r.currency ?? ''].join(','),
  );
  return `referenceId,operation,status,amount,currency\n${lines.join('\n')}\n`;
}

/** The CLI's report of `booksCsv(sent)` with `--from-store`: each reported, in order. */
export function expectReport(sent: SentByTheSdk, report: string): void {
  const { ids, batchId } = sent;
  const missing = (id: string, where: string) =>
    `${id},disbursement.transfer,,,,SUCCESSFUL,MISSING_FROM_BOOKS,"sent by the SDK (${where}`;
  const lines = report.split('\r\n');
  expect(lines[0]).toBe(
    'referenceId,operation,status,amount,currency,providerStatus,verdict,reason',
  );
  expect(lines[1]).toBe(`${ids.a},disbursement.transfer,SUCCESSFUL,10,,SUCCESSFUL,MATCH,`);
  expect(lines[2]).toBe(
    `${ids.a},disbursement.transfer,SUCCESSFUL,10,,,DUPLICATE,the same referenceId as line 2 (reconciled there): the books list this payment twice`,
  );
  expect(lines[3]).toBe(
    `${ids.b},disbursement.transfer,SUCCESSFUL,999999.99,EUR,SUCCESSFUL,MATCH,amount not compared: the provider's answer has none`,
  );
  const rest = [
    missing(ids.c, `batch ${batchId}, key c, recorded SUCCESSFUL`),
    ...(ids.outbox ? [missing(ids.outbox, 'the outbox, key order-1, recorded SUCCESSFUL')] : []),
    missing(ids.direct, 'the journal, tag refund-7, recorded SUCCESSFUL'),
  ];
  expect(lines.slice(4, -1).map((line, i) => line.slice(0, rest[i]?.length))).toEqual(rest);
  expect(lines.at(-1)).toBe('');
}
