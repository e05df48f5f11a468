import {
  type CallbackHandler,
  InMemoryJournal,
  isBadRequestError,
  isConnectionError,
  isValidationError,
  type JournalRecord,
} from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { v4 as uuidv4 } from 'uuid';
import { describe, expect, it, vi } from 'vitest';
import { expectPendingInRecordOrder } from '../support/journal-order';

const PENDING_PAYEE = '46733123453';
const body = (payee = '46700000001') => ({
  amount: '10',
  currency: 'EUR',
  externalId: 'order-1',
  payee: { partyIdType: 'MSISDN' as const, partyId: payee },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A simulator whose callbacks reach this client's own handler, in process. */
function withCallbacks() {
  let handler: CallbackHandler | undefined;
  const sim = createSimulator({
    settleMs: 20,
    callbackFetch: async (input, init) => {
      if (!handler) throw new Error('no handler yet');
      return handler(new Request(input, init));
    },
  });
  return { sim, attach: (h: CallbackHandler) => (handler = h) };
}

describe('journal of operations in flight (default: in memory)', () => {
  it('holds the record before the request leaves, and marks it once the outcome is seen', async () => {
    const sim = createSimulator({ settleMs: 20 });
    const seenAtRecord: number[] = [];
    class SlowJournal extends InMemoryJournal {
      override async record(entry: JournalRecord) {
        await sleep(30); // a durable write takes time: the request must wait for it
        seenAtRecord.push(sim.requests.filter((r) => r.method === 'POST').length);
        await super.record(entry);
      }
    }
    const journal = new SlowJournal();
    const momo = sim.client({ journal });
    const final = await momo.disbursement.deposit(body()).wait();
    expect(final.status).toBe('SUCCESSFUL');
    expect(seenAtRecord).toEqual([0]); // nothing had left when the record was written
    expect(await momo.journal.pending()).toEqual([]);
    expect(await journal.get(final.referenceId ?? '')).toMatchObject({
      operation: 'disbursement.deposit',
      outcome: 'SUCCESSFUL',
    });
  });

  it('lists what was sent and not seen final: product, operation, reference id, time, platform, whose it is (externalId); nothing else', async () => {
    const sim = createSimulator();
    const momo = sim.client();
    const before = Date.now();
    const accepted = await momo.collection.requestToPay({
      amount: '5',
      currency: 'EUR',
      externalId: 'inv-7',
      payer: { partyIdType: 'MSISDN', partyId: PENDING_PAYEE },
      payerMessage: 'personal words',
    });
    const [entry, ...rest] = await momo.journal.pending();
    expect(rest).toEqual([]);
    expect(entry).toEqual({
      product: 'collection',
      operation: 'collection.requestToPay',
      referenceId: accepted.referenceId,
      createdAt: expect.any(Number),
      baseUrl: 'https://sandbox.momo.test',
      targetEnvironment: 'sandbox',
      tag: 'inv-7',
    });
    expect(entry?.createdAt).toBeGreaterThanOrEqual(before);
    sim.settle(accepted.referenceId, 'FAILED');
    expect((await accepted.wait()).status).toBe('FAILED');
    expect(await momo.journal.pending()).toEqual([]);
  });

  it('lists pending oldest first, entries of the same millisecond in record order', async () => {
    await expectPendingInRecordOrder(new InMemoryJournal());
  });

  it('records nothing for a bad input (nothing is sent either)', async () => {
    const sim = createSimulator();
    const journal = new InMemoryJournal();
    const momo = sim.client({ journal });
    const error = await momo.disbursement.deposit({ ...body(), amount: '-1' }).catch((e) => e);
    expect(isValidationError(error)).toBe(true);
    expect(journal.size).toBe(0);
    expect(sim.requests).toEqual([]);
  });

  it('marks a call the service refused outright FAILED with its code; keeps an ambiguous one pending', async () => {
    const sim = createSimulator({ settleMs: 20 });
    const journal = new InMemoryJournal();
    const momo = sim.client({ journal, maxRetries: 0 });
    sim.inject({
      kind: 'status',
      status: 400,
      body: { code: 'BAD_REQUEST', message: 'no' },
      match: 'POST /disbursement/v1_0/deposit',
    });
    const refused = await momo.disbursement.deposit(body()).catch((e) => e);
    expect(isBadRequestError(refused)).toBe(true);
    expect(await journal.get(refused.referenceId)).toMatchObject({
      outcome: 'FAILED',
      reason: 'BAD_REQUEST',
    });

    sim.inject({ kind: 'drop-after-processing', match: 'POST /disbursement/v1_0/deposit' });
    const lost = await momo.disbursement.deposit(body()).catch((e) => e);
    expect(isConnectionError(lost)).toBe(true);
    expect((await momo.journal.pending()).map((e) => e.referenceId)).toEqual([lost.referenceId]);
    // It did land: resuming finds it by its lookup and sees it through.
    const outcomes = await momo.journal.resume();
    expect(outcomes.map((o) => [o.entry.referenceId, o.status])).toEqual([
      [lost.referenceId, 'SUCCESSFUL'],
    ]);
    expect(await momo.journal.pending()).toEqual([]);
  });

  it('marks a 500 business refusal FAILED with its code at once; a 408 or 5xx past the retries stays pending', async () => {
    const sim = createSimulator({ settleMs: 20 });
    const journal = new InMemoryJournal();
    const momo = sim.client({ journal, maxRetries: 0 });
    // The account takes EUR only: the provider answers 500 INVALID_CURRENCY, never retried.
    const refused = await momo.disbursement.deposit({ ...body(), currency: 'GHS' }).catch((e) => e);
    expect(refused).toMatchObject({ status: 500, code: 'INVALID_CURRENCY' });
    const deposits = sim.requests.filter((r) => r.path === '/disbursement/v1_0/deposit');
    expect(deposits).toHaveLength(1);
    expect(await journal.get(refused.referenceId)).toMatchObject({
      outcome: 'FAILED',
      reason: 'INVALID_CURRENCY',
    });

    for (const [status, code] of [
      [408, 'REQUEST_TIMEOUT'],
      [500, 'INTERNAL_PROCESSING_ERROR'],
    ] as const) {
      sim.inject({
        kind: 'status',
        status,
        body: { code, message: 'later' },
        match: 'POST /disbursement/v1_0/deposit',
      });
      const unknown = await momo.disbursement.deposit(body()).catch((e) => e);
      expect(unknown).toMatchObject({ status, code });
      // Not known yet: pending, for a lookup (resume) to settle.
      expect(await journal.get(unknown.referenceId)).not.toHaveProperty('outcome');
      expect((await momo.journal.pending()).map((e) => e.referenceId)).toEqual([
        unknown.referenceId,
      ]);
      await journal.finish(unknown.referenceId, 'NOT_FOUND', Date.now()); // as resume() would, later
    }
  });

  it('resumes an operation the service never received as NOT_FOUND (safe to send again)', async () => {
    const sim = createSimulator();
    const journal = new InMemoryJournal();
    const referenceId = uuidv4();
    // Written by a process that crashed a minute ago, before its request left.
    await journal.record({
      product: 'remittance',
      operation: 'remittance.transfer',
      referenceId,
      createdAt: Date.now() - 60_000,
      baseUrl: 'https://sandbox.momo.test',
      targetEnvironment: 'sandbox',
    });
    const momo = sim.client({ journal });
    const outcomes = await momo.journal.resume();
    expect(outcomes).toEqual([
      { entry: expect.objectContaining({ referenceId }), status: 'NOT_FOUND' },
    ]);
    expect(await journal.get(referenceId)).toMatchObject({ outcome: 'NOT_FOUND' });
  });

  it('resumes with bounded concurrency and reports each outcome as it is known', async () => {
    const sim = createSimulator();
    let inFlight = 0;
    let most = 0;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const lookup = (init?.method ?? 'GET') === 'GET';
      if (lookup) most = Math.max(most, ++inFlight);
      try {
        if (lookup) await sleep(20); // long enough for lookups to overlap
        return await sim.fetch(input, init);
      } finally {
        if (lookup) inFlight--;
      }
    };
    const momo = sim.client({ fetch });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await momo.disbursement.transfer(body(PENDING_PAYEE))).referenceId);
    for (const id of ids) sim.settle(id, 'SUCCESSFUL');
    const reported: string[] = [];
    const outcomes = await momo.journal.resume({
      concurrency: 3,
      onResult: (outcome) => {
        reported.push(outcome.entry.referenceId);
        if (reported.length === 1) throw new Error('a failing report stops nothing');
      },
    });
    expect(outcomes.map((o) => o.status)).toEqual(Array(10).fill('SUCCESSFUL'));
    expect(outcomes.map((o) => o.entry.referenceId)).toEqual(ids); // journal order
    expect([...reported].sort()).toEqual([...ids].sort());
    expect(most).toBe(3);
  });

  it('an aborted resume leaves the operations pending', async () => {
    const sim = createSimulator();
    const momo = sim.client();
    await momo.disbursement.transfer(body(PENDING_PAYEE));
    await momo.disbursement.transfer(body(PENDING_PAYEE));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('shutting down')), 100);
    const outcomes = await momo.journal.resume({ signal: controller.signal });
    expect(outcomes.map((o) => o.status)).toEqual(['UNRESOLVED', 'UNRESOLVED']);
    expect(outcomes.map((o) => (o as { error?: Error }).error?.message)).toEqual([
      'shutting down',
      'shutting down',
    ]);
    expect(await momo.journal.pending()).toHaveLength(2);
  });

  it('refuses a journal or a callback bus without their methods, naming the option', () => {
    const sim = createSimulator();
    for (const [option, value] of [
      ['journal', { record() {} }],
      ['callbackBus', 'redis://'],
    ] as const) {
      const error = (() => {
        try {
          sim.client({ [option]: value as never });
        } catch (e) {
          return e;
        }
      })();
      expect(isValidationError(error)).toBe(true);
      expect((error as { field: string }).field).toBe(option);
    }
  });

  it('refuses a bad concurrency, naming it', async () => {
    const error = await createSimulator()
      .client()
      .journal.resume({ concurrency: 0 })
      .catch((e) => e);
    expect(isValidationError(error)).toBe(true);
    expect(error.field).toBe('concurrency');
  });

  it('an operation without a lookup stays pending until its authenticated callback comes', async () => {
    const { sim, attach } = withCallbacks();
    const momo = sim.client({
      callbackUrl: 'https://partner.test/momo/{referenceId}',
      callbackSecret: 'a-callback-secret-of-32-chars-or-more',
    });
    const handler = attach(momo.callbacks.handler());
    const voucher = await momo.collection.redeemVoucher('V-77', {
      externalId: 'voucher-1',
      receiver: { msisdn: PENDING_PAYEE },
    });
    const [entry] = await momo.journal.pending();
    expect(entry?.operation).toBe('collection.redeemVoucher');
    const unresolved = await momo.journal.resume();
    expect(unresolved).toEqual([{ entry: expect.objectContaining(entry), status: 'UNRESOLVED' }]);
    // A claim without the operation's callback token settles nothing.
    const forged = new Request(`https://partner.test/momo/${voucher.referenceId}`, {
      method: 'PUT',
      body: JSON.stringify({ status: 'FAILED' }),
    });
    expect(await (await handler(forged)).json()).toEqual({ received: true, confirmed: false });
    expect(await momo.journal.pending()).toHaveLength(1);
    sim.settle(voucher.referenceId, 'SUCCESSFUL'); // the callback is the only word on it
    await vi.waitFor(async () => expect(await momo.journal.pending()).toEqual([]), {
      timeout: 10_000,
    });
  });
});
