import { InMemoryJournal, isServerError } from 'momo-partner-sdk';
import { type ReconcileRecord, reconcile } from 'momo-partner-sdk/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FOREVER_PENDING_PAYEE,
  lookups,
  PENDING_PAYEE,
  type Platform,
  platform,
  transfer,
} from './support';

let a: Platform;
let b: Platform;

beforeAll(async () => {
  a = await platform();
  b = await platform();
});

afterAll(async () => {
  await a.http.close();
  await b.http.close();
});

describe('reconcile(momo, records): the books against the provider', () => {
  it('gives each verdict for real, in input order, with counts by verdict', async () => {
    const journal = new InMemoryJournal();
    const momo = a.client({ journal, maxRetries: 1 });

    const matched = await momo.disbursement.transfer(transfer('100'));
    await matched.wait();
    const settled = await momo.disbursement.transfer(transfer('20', PENDING_PAYEE));
    a.sim.settle(settled.referenceId, 'SUCCESSFUL');
    const failedHere = await momo.collection.requestToPay({
      amount: '5',
      currency: 'EUR',
      externalId: 'order-7',
      payer: { partyIdType: 'MSISDN', partyId: '46733123455' }, // NOT_ENOUGH_FUNDS
    });
    await failedHere.wait();
    const wrongAmount = await momo.disbursement.deposit(transfer('50'));
    await wrongAmount.wait();
    const stillPending = await momo.disbursement.transfer(transfer('7', FOREVER_PENDING_PAYEE));
    const faulted = await momo.disbursement.transfer(transfer('9'));
    await faulted.wait();
    // Sent by a client of platform B that shares the journal (the partner moved base URL).
    const elsewhere = await b.client({ journal }).disbursement.transfer(transfer('3'));
    const unknown = crypto.randomUUID();
    // momo.journal.get(): one entry by id, whatever platform it went to.
    expect(await momo.journal.get(elsewhere.referenceId)).toMatchObject({
      operation: 'disbursement.transfer',
      baseUrl: b.http.url,
      targetEnvironment: 'sandbox',
    });
    expect(await momo.journal.get(unknown)).toBeUndefined();

    a.sim.inject({
      kind: 'status',
      status: 500,
      body: { code: 'INTERNAL_PROCESSING_ERROR', message: 'boom' },
      match: `GET /disbursement/v1_0/transfer/${faulted.referenceId}`,
      times: 2, // the first attempt and its one retry
    });
    const before = { a: lookups(a.sim).length, b: lookups(b.sim).length };

    const books: ReconcileRecord[] = [
      {
        referenceId: matched.referenceId,
        operation: 'disbursement.transfer',
        status: 'SUCCESSFUL',
        amount: '100.00',
        currency: 'eur',
      },
      {
        referenceId: settled.referenceId,
        operation: 'disbursement.transfer',
        status: 'PENDING',
        amount: '20',
      },
      {
        referenceId: failedHere.referenceId,
        operation: 'collection.requestToPay',
        status: 'SUCCESSFUL',
        amount: '5',
        currency: 'EUR',
      },
      {
        referenceId: wrongAmount.referenceId,
        operation: 'disbursement.deposit',
        status: 'SUCCESSFUL',
        amount: '60',
        currency: 'EUR',
      },
      { referenceId: stillPending.referenceId, operation: 'disbursement.transfer' },
      { referenceId: unknown, operation: 'disbursement.transfer', status: 'PENDING' },
      { referenceId: elsewhere.referenceId, operation: 'disbursement.transfer', status: 'PENDING' },
      {
        referenceId: faulted.referenceId,
        operation: 'disbursement.transfer',
        status: 'SUCCESSFUL',
      },
      { referenceId: settled.referenceId, operation: 'disbursement.transfer' },
    ];
    const result = await reconcile(momo, books);

    expect(result.items.map((item) => item.record)).toEqual(books); // input order, as given
    expect(result.items.map((item) => [item.verdict, item.reason])).toEqual([
      ['MATCH', undefined],
      ['SETTLED', undefined],
      ['MISMATCH', 'status: books SUCCESSFUL, provider FAILED (NOT_ENOUGH_FUNDS)'],
      ['MISMATCH', 'amount: books 60, provider 50'],
      ['STILL_PENDING', undefined],
      ['NOT_FOUND', undefined],
      [
        'OTHER_PLATFORM',
        `sent to ${b.http.url} (sandbox): reconcile it with a client of that platform`,
      ],
      ['ERROR', expect.stringMatching(/^ServerError: .*500/)],
      // The books list `settled` twice: the first is reconciled, this one is not looked up.
      [
        'DUPLICATE',
        'the same referenceId as records[1] (reconciled there): the books list this payment twice',
      ],
    ]);
    expect(result.items[8]?.duplicateOf).toBe(1);
    expect(result.items[8]?.found).toBeUndefined();
    expect(result.items[0]?.found).toMatchObject({ status: 'SUCCESSFUL', amount: '100' });
    expect(result.items[1]?.found?.financialTransactionId).toMatch(/^\d+$/);
    expect(result.items[6]?.entry).toMatchObject({ baseUrl: b.http.url });
    expect(isServerError(result.items[7]?.error)).toBe(true);
    expect(result.summary).toEqual({
      total: 9,
      MATCH: 1,
      SETTLED: 1,
      MISMATCH: 2,
      STILL_PENDING: 1,
      NOT_FOUND: 1,
      OTHER_PLATFORM: 1,
      ERROR: 1,
      DUPLICATE: 1,
      MISSING_FROM_BOOKS: 0,
    });

    // Looked up on A only (the fault's retry included), never on B, never the other
    // platform's, and the duplicate not again.
    const onA = lookups(a.sim).slice(before.a);
    expect(onA).toHaveLength(8);
    expect(onA.some((r) => r.path.endsWith(elsewhere.referenceId))).toBe(false);
    expect(lookups(b.sim).length).toBe(before.b);
  });

  it('a currency or amount the provider disagrees with is a MISMATCH even while the books say PENDING', async () => {
    const momo = a.client();
    const paid = await momo.disbursement.transfer(transfer('12.5'));
    await paid.wait();
    const paidToo = await momo.disbursement.transfer(transfer('12.5'));
    await paidToo.wait();
    const pending = await momo.disbursement.transfer(transfer('4', FOREVER_PENDING_PAYEE));
    const result = await reconcile(momo, [
      {
        referenceId: paid.referenceId,
        operation: 'disbursement.transfer',
        status: 'pending',
        amount: '12.50',
        currency: 'USD',
      },
      {
        referenceId: paidToo.referenceId,
        operation: 'disbursement.transfer',
        status: 'FAILED',
        amount: '13',
      },
      {
        referenceId: pending.referenceId,
        operation: 'disbursement.transfer',
        status: 'SUCCESSFUL',
      },
    ]);
    expect(result.items.map((item) => [item.verdict, item.reason])).toEqual([
      ['MISMATCH', 'currency: books USD, provider EUR'],
      ['MISMATCH', 'status: books FAILED, provider SUCCESSFUL; amount: books 13, provider 12.5'],
      ['STILL_PENDING', 'books say SUCCESSFUL, provider PENDING'],
    ]);
  });

  it("a 429 on a lookup is retried by the client: the verdict is the provider's", async () => {
    const momo = a.client();
    const paid = await momo.disbursement.transfer(transfer('1'));
    await paid.wait();
    a.sim.inject({
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '1' },
      match: `GET /disbursement/v1_0/transfer/${paid.referenceId}`,
    });
    const before = lookups(a.sim).length;
    const result = await reconcile(momo, [
      { referenceId: paid.referenceId, operation: 'disbursement.transfer', status: 'SUCCESSFUL' },
    ]);
    expect(result.items.map((item) => item.verdict)).toEqual(['MATCH']);
    expect(lookups(a.sim).length - before).toBe(2);
  });

  it("a books amount or currency the provider's answer lacks: the verdict stands, its reason says what went unchecked", async () => {
    const momo = a.client();
    const bare = await momo.disbursement.transfer(transfer('5'));
    const refused = await momo.disbursement.transfer(transfer('6'));
    await Promise.all([bare.wait(), refused.wait()]);
    const answer = (id: string, body: object) =>
      a.sim.inject({
        kind: 'status',
        status: 200,
        body,
        match: `GET /disbursement/v1_0/transfer/${id}`,
      });
    answer(bare.referenceId, { status: 'SUCCESSFUL', financialTransactionId: '1' });
    answer(refused.referenceId, { status: 'SUCCESSFUL', currency: 'EUR' });
    const result = await reconcile(momo, [
      {
        referenceId: bare.referenceId,
        operation: 'disbursement.transfer',
        status: 'SUCCESSFUL',
        amount: '999999.99',
        currency: 'EUR',
      },
      {
        referenceId: refused.referenceId,
        operation: 'disbursement.transfer',
        status: 'FAILED',
        amount: '6',
        currency: 'EUR',
      },
    ]);
    expect(result.items.map((item) => [item.verdict, item.reason])).toEqual([
      ['MATCH', "amount and currency not compared: the provider's answer has neither"],
      [
        'MISMATCH',
        "status: books FAILED, provider SUCCESSFUL; amount not compared: the provider's answer has none",
      ],
    ]);
  });
});
