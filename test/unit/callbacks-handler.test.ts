import type { ConfirmedCallback } from 'momo-partner-sdk';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, transferBody } from '../support/fake-service';
import { callback, DEPOSIT, slowPolling, useCallbackService } from './callbacks-support';

// A callback is a claim: these cover how the handler confirms, routes and refuses one.
const { service, depositService } = useCallbackService();

describe('momo.callbacks.handler()', () => {
  it('a callback wakes a wait before its next poll, confirmed by one lookup', async () => {
    const { lookups } = depositService('SUCCESSFUL');
    const momo = slowPolling();
    const events: ConfirmedCallback[] = [];
    const handler = momo.callbacks.handler({ onEvent: (e) => void events.push(e) });
    const accepted = await momo.disbursement.deposit(transferBody);
    const started = Date.now();
    const final = accepted.wait();

    const response = await handler(
      callback(accepted.callbackUrl ?? '', { status: 'SUCCESSFUL', amount: '100' }, 'POST'),
    );
    // Accepted at once (the deposit is pending here), confirmed by its lookup after.
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ received: true, confirming: true });
    await expect(final).resolves.toMatchObject({ status: 'SUCCESSFUL' });
    expect(Date.now() - started).toBeLessThan(10_000); // not the minute-long poll
    expect(lookups()).toBe(1); // the handler's lookup settled the wait
    expect(events).toMatchObject([
      {
        referenceId: accepted.referenceId,
        operation: 'disbursement.deposit',
        status: 'SUCCESSFUL',
        confirmed: true,
      },
    ]);
  });

  it('a forged SUCCESSFUL callback for a FAILED transaction is only a claim: the lookup decides, and the wait ends FAILED', async () => {
    depositService('FAILED');
    const momo = slowPolling();
    const events: ConfirmedCallback[] = [];
    const handler = momo.callbacks.handler({ onEvent: (e) => void events.push(e) });
    const accepted = await momo.disbursement.deposit(transferBody);
    const final = accepted.wait();

    const forge = () =>
      handler(
        callback(accepted.callbackUrl ?? '', { status: 'SUCCESSFUL', financialTransactionId: '1' }),
      );
    // Pending here when it came: accepted (the sender learns nothing), then looked up.
    expect((await forge()).status).toBe(202);
    const result = await final;
    expect(result.status).toBe('FAILED');
    expect(result).toMatchObject({ reason: { code: 'APPROVAL_REJECTED' } });
    expect(events).toEqual([]);
    expect(await momo.journal.get(accepted.referenceId)).toMatchObject({ outcome: 'FAILED' });
    // Once the outcome is known, the same claim is refused at once, with no lookup.
    expect((await forge()).status).toBe(409);
    expect(events).toEqual([]);
  });

  it('knows an operation before its 202 is read, so an early callback is not refused', async () => {
    depositService('SUCCESSFUL');
    const momo = slowPolling();
    const handler = momo.callbacks.handler();
    let early: number | undefined;
    service.server.use(
      http.post(`${BASE}${DEPOSIT}`, async ({ request }) => {
        const url = request.headers.get('x-callback-url') ?? '';
        early = (await handler(callback(url, { status: 'SUCCESSFUL' }))).status;
        return new Response(null, { status: 202 });
      }),
    );
    await momo.disbursement.deposit(transferBody);
    expect(early).toBe(202);
  });

  it('accepts PUT and POST only', async () => {
    depositService('SUCCESSFUL');
    const momo = slowPolling();
    const handler = momo.callbacks.handler();
    const { callbackUrl } = await momo.disbursement.deposit(transferBody);
    const url = callbackUrl ?? '';
    // 202 while its lookup is to come, 200 once it is known: either way, accepted.
    for (const method of ['PUT', 'POST']) {
      const { status } = await handler(callback(url, { status: 'SUCCESSFUL' }, method));
      expect([200, 202]).toContain(status);
    }
    const get = await handler(new Request(url, { method: 'GET' }));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('PUT, POST');
  });

  it('reads the reference id from the body when the URL has none, and refuses a mismatch', async () => {
    depositService('SUCCESSFUL');
    const momo = slowPolling();
    const plain = 'https://partner.test/momo/callbacks';
    const handler = momo.callbacks.handler();
    const onPlain = momo.callbacks.handler({ callbackUrl: plain });
    const { referenceId } = await momo.disbursement.deposit(transferBody);
    const ok = await onPlain(callback(plain, { referenceId, status: 'SUCCESSFUL' }));
    expect(ok.status).toBe(202);
    const other = 'https://partner.test/momo/callbacks/0f8f3a56-9d1b-4c63-8f2a-2c8e4a0b1d77';
    const mismatch = await handler(callback(other, { referenceId, status: 'SUCCESSFUL' }));
    expect(mismatch.status).toBe(400);
  });

  it('answers malformed callbacks with 400 and trusts nothing', async () => {
    depositService('SUCCESSFUL');
    const momo = slowPolling();
    const events: ConfirmedCallback[] = [];
    const handler = momo.callbacks.handler({ onEvent: (e) => void events.push(e) });
    const { callbackUrl } = await momo.disbursement.deposit(transferBody);
    const url = callbackUrl ?? '';
    expect((await handler(callback(url, '{not json'))).status).toBe(400);
    expect((await handler(callback(url, { amount: '100' }))).status).toBe(400); // no status
    expect((await handler(callback(url, '[]'))).status).toBe(400);
    const noId = await handler(
      callback('https://partner.test/momo/callbacks/not-a-uuid', { status: 'SUCCESSFUL' }),
    );
    expect(noId.status).toBe(400);
    expect(events).toEqual([]);
  });

  it('refuses ids it cannot check, unless given a lookup for them', async () => {
    depositService('SUCCESSFUL');
    const stranger = 'https://partner.test/momo/callbacks/3c9d1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const momo = slowPolling();
    expect(
      (await momo.callbacks.handler()(callback(stranger, { status: 'SUCCESSFUL' }))).status,
    ).toBe(404);
    const events: ConfirmedCallback[] = [];
    const handler = momo.callbacks.handler({
      lookup: (id) => momo.disbursement.getDeposit(id),
      onEvent: (e) => void events.push(e),
    });
    expect((await handler(callback(stranger, { status: 'SUCCESSFUL' }))).status).toBe(200);
    expect(events[0]).toMatchObject({
      operation: undefined,
      confirmed: true,
      status: 'SUCCESSFUL',
    });
  });
});
