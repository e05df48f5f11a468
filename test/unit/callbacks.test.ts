import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ConfirmedCallback,
  isValidationError,
  parseCallback,
  toNodeListener,
} from 'momo-partner-sdk';
import { checkOutboxIntent } from 'momo-partner-sdk/outbox';
import { HttpResponse, http, passthrough } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  BASE,
  makeClient,
  tokenHandler,
  transferBody,
  useFakeService,
} from '../support/fake-service';

const service = useFakeService();
const CALLBACKS = 'https://partner.test/momo/callbacks/{referenceId}';
const DEPOSIT = '/disbursement/v1_0/deposit';

/** A deposit endpoint plus a lookup that answers the given statuses in turn (last repeats). */
function depositService(...statuses: Array<'PENDING' | 'SUCCESSFUL' | 'FAILED'>) {
  let n = 0;
  service.server.use(
    tokenHandler(),
    http.post(`${BASE}${DEPOSIT}`, () => new Response(null, { status: 202 })),
    http.get(`${BASE}${DEPOSIT}/:id`, () => {
      const status = statuses[Math.min(n++, statuses.length - 1)];
      return HttpResponse.json({
        amount: '100',
        currency: 'EUR',
        status,
        ...(status === 'FAILED' ? { reason: { code: 'APPROVAL_REJECTED', message: 'no' } } : {}),
      });
    }),
  );
  return { lookups: () => service.seen.filter((s) => s.method === 'GET').length };
}

/** A client whose waits would sleep a minute before their first lookup. */
const slowPolling = () =>
  makeClient({
    callbackUrl: CALLBACKS,
    polling: { initialDelayMs: 60_000, maxDelayMs: 60_000, timeoutMs: 120_000 },
  });

const callback = (url: string, body: unknown, method = 'PUT') =>
  new Request(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

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

describe('toNodeListener()', () => {
  it('serves the handler on node:http, reading the stream or an already parsed body', async () => {
    depositService('SUCCESSFUL');
    const momo = slowPolling();
    const listener = toNodeListener(momo.callbacks.handler());
    const { referenceId } = await momo.disbursement.deposit(transferBody);
    let parser: 'none' | 'json' | 'skipped' = 'none';
    const server = createServer(async (req, res) => {
      if (parser === 'json') {
        // What express.json() does: consume the stream, leave the parsed body.
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        Object.assign(req, { body: JSON.parse(Buffer.concat(chunks).toString()) });
      }
      if (parser === 'skipped') Object.assign(req, { body: {} }); // Express 4, other type
      void listener(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/momo/callbacks/${referenceId}`;
      // The node server is real: let msw pass requests to it through.
      service.server.use(http.put(url, () => passthrough()));
      const send = (body: string) =>
        fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });
      const streamed = await send(JSON.stringify({ status: 'SUCCESSFUL' }));
      expect(streamed.status).toBe(202);
      expect(await streamed.json()).toEqual({ received: true, confirming: true });

      // Accepted: 202 while the lookup is to come, 200 once the outcome is known.
      parser = 'json';
      expect([200, 202]).toContain((await send(JSON.stringify({ status: 'SUCCESSFUL' }))).status);
      parser = 'skipped'; // body parser left {} and the stream unread: the stream wins
      expect([200, 202]).toContain((await send(JSON.stringify({ status: 'SUCCESSFUL' }))).status);
      parser = 'none';
      expect((await send('nope')).status).toBe(400);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('parseCallback()', () => {
  it('reads MTN bodies and maps standard-style states', () => {
    expect(
      parseCallback({ status: 'FAILED', reason: 'APPROVAL_REJECTED', amount: 5, extra: 1 }),
    ).toEqual({
      status: 'FAILED',
      reason: { code: 'APPROVAL_REJECTED' },
      amount: '5',
      unknownFields: { extra: 1 },
    });
    expect(parseCallback('{"serverCorrelationId":"abc","status":"completed"}')).toEqual({
      serverCorrelationId: 'abc',
      referenceId: 'abc',
      status: 'SUCCESSFUL',
    });
  });

  it('throws ValidationError naming the field for a body without status', () => {
    const error = (() => {
      try {
        parseCallback({ amount: '1' });
      } catch (e) {
        return e;
      }
    })();
    expect(isValidationError(error)).toBe(true);
    expect(error).toMatchObject({ field: 'status' });
    // An inbound body: nothing was taken in; "Nothing was sent" is for input to a call.
    expect((error as Error).message).toMatch(
      /The callback was not accepted; nothing was recorded\.$/,
    );
    expect((error as Error).message).not.toMatch(/sent/);
  });
});

describe('checkOutboxIntent()', () => {
  it('says of an unknown operation that the outbox cannot send it, not a batch', async () => {
    const error = await checkOutboxIntent({
      key: 'order-1',
      operation: 'collection.requestToPayy',
      body: {},
    }).catch((e: unknown) => e);
    expect(isValidationError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /operation is not a creating operation .* the outbox can send/,
    );
    expect((error as Error).message).not.toMatch(/batch/);
  });
});
