import type { ConfirmedCallback } from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { BASE, makeClient, tokenHandler, transferBody } from '../support/fake-service';
import { CALLBACKS, callback, DEPOSIT, slowPolling, useCallbackService } from './callbacks-support';

// When a callback cannot be confirmed at once: a failing lookup or onEvent, or nothing to verify by.
const { service, depositService } = useCallbackService();

describe('momo.callbacks.handler()', () => {
  it('keeps an accepted callback when its lookup fails, and confirms it once the lookup works', async () => {
    depositService('SUCCESSFUL');
    const momo = makeClient({ callbackUrl: CALLBACKS, maxRetries: 0 });
    const { callbackUrl, referenceId } = await momo.disbursement.deposit(transferBody);
    service.server.use(
      http.get(`${BASE}${DEPOSIT}/:id`, () => HttpResponse.json({ code: 'X' }, { status: 500 })),
    );
    const events: ConfirmedCallback[] = [];
    const handler = momo.callbacks.handler({
      confirmIntervalMs: 0,
      onEvent: (e) => void events.push(e),
    });
    expect((await handler(callback(callbackUrl ?? '', { status: 'SUCCESSFUL' }))).status).toBe(202);
    const gets = () => service.seen.filter((seen) => seen.method === 'GET').length;
    await vi.waitFor(() => expect(gets()).toBe(1)); // the lookup, answered 500
    const { lookups } = depositService('SUCCESSFUL'); // the provider is back
    // Tried again 1 s after the failure (then 2 s, 4 s): a generous deadline on a busy machine.
    await vi.waitFor(() => expect(events).toMatchObject([{ status: 'SUCCESSFUL' }]), 10_000);
    expect(lookups()).toBe(2); // the failed one and the one that confirmed it
    expect(await momo.journal.get(referenceId)).toMatchObject({ outcome: 'SUCCESSFUL' });
  });

  it('runs onEvent again after it threw, and answers 500 when it throws on a known outcome', async () => {
    depositService('SUCCESSFUL');
    const momo = slowPolling();
    const { callbackUrl } = await momo.disbursement.deposit(transferBody);
    let calls = 0;
    const flaky = momo.callbacks.handler({
      confirmIntervalMs: 0,
      onEvent: () => {
        calls++;
        if (calls === 1) throw new Error('database down');
      },
    });
    expect((await flaky(callback(callbackUrl ?? '', { status: 'SUCCESSFUL' }))).status).toBe(202);
    await vi.waitFor(() => expect(calls).toBe(2), 10_000);

    const throwing = momo.callbacks.handler({
      onEvent: () => {
        throw new Error('database down');
      },
    });
    const url = callbackUrl ?? '';
    expect((await throwing(callback(url, { status: 'SUCCESSFUL' }))).status).toBe(202);
    // Once this handler has confirmed the outcome, a callback is answered after onEvent.
    await vi.waitFor(async () => {
      expect((await throwing(callback(url, { status: 'SUCCESSFUL' }))).status).toBe(500);
    });
  });

  it('asks for a resend (503) when a lookup of the lookup option fails', async () => {
    const momo = makeClient({ callbackUrl: CALLBACKS, maxRetries: 0 });
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}${DEPOSIT}/:id`, () => HttpResponse.json({ code: 'X' }, { status: 500 })),
    );
    const stranger = 'https://partner.test/momo/callbacks/3c9d1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const handler = momo.callbacks.handler({ lookup: (id) => momo.disbursement.getDeposit(id) });
    expect((await handler(callback(stranger, { status: 'SUCCESSFUL' }))).status).toBe(503);
  });

  it('passes an unverifiable standard-style callback on as confirmed: false, answered as such', async () => {
    service.server.use(
      tokenHandler('collection'),
      http.post(`${BASE}/collection/v1.2/mm/Transactions/Type/Disbursement`, ({ request }) =>
        HttpResponse.json(
          {
            serverCorrelationId: request.headers.get('x-correlationid'),
            status: 'pending',
            notificationMethod: 'callback',
          },
          { status: 202 },
        ),
      ),
    );
    const momo = slowPolling();
    const events: ConfirmedCallback[] = [];
    const handler = momo.callbacks.handler({ onEvent: (e) => void events.push(e) });
    const accepted = await momo.collection.standardDisbursement({
      debitParty: [{ key: 'msisdn', value: '46733123999' }],
      amount: '10',
      currency: 'EUR',
    });
    const body = { serverCorrelationId: accepted.correlationId, status: 'completed' };
    const response = await handler(callback(accepted.callbackUrl ?? '', body));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, confirmed: false });
    expect(events[0]).toMatchObject({
      referenceId: accepted.correlationId,
      operation: 'collection.standardDisbursement',
      status: 'SUCCESSFUL',
      confirmed: false,
      verifiedBy: undefined,
    });
    expect(await momo.journal.pending()).toHaveLength(1); // an unverified claim settles nothing
  });
});
