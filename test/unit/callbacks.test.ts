import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ConfirmedCallback,
  checkOutboxIntent,
  isValidationError,
  parseCallback,
  toNodeListener,
} from 'momo-partner-sdk';
import { HttpResponse, http, passthrough } from 'msw';
import { describe, expect, it } from 'vitest';
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
    expect(response.status).toBe(200);
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

  it('a forged SUCCESSFUL callback for a FAILED transaction is refused and never resolves a wait as SUCCESSFUL', async () => {
    depositService('FAILED');
    const momo = slowPolling();
    const events: ConfirmedCallback[] = [];
    const handler = momo.callbacks.handler({ onEvent: (e) => void events.push(e) });
    const accepted = await momo.disbursement.deposit(transferBody);
    const final = accepted.wait();

    const forged = await handler(
      callback(accepted.callbackUrl ?? '', { status: 'SUCCESSFUL', financialTransactionId: '1' }),
    );
    expect(forged.status).toBe(409);
    const result = await final;
    expect(result.status).toBe('FAILED');
    expect(result).toMatchObject({ reason: { code: 'APPROVAL_REJECTED' } });
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
    expect(early).toBe(200);
  });

  it('accepts PUT and POST only', async () => {
    depositService('SUCCESSFUL');
    const momo = slowPolling();
    const handler = momo.callbacks.handler();
    const { callbackUrl } = await momo.disbursement.deposit(transferBody);
    const url = callbackUrl ?? '';
    expect((await handler(callback(url, { status: 'SUCCESSFUL' }, 'PUT'))).status).toBe(200);
    expect((await handler(callback(url, { status: 'SUCCESSFUL' }, 'POST'))).status).toBe(200);
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
    expect(ok.status).toBe(200);
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

  it('asks for a resend (503) when the lookup fails, and 500 when onEvent throws', async () => {
    depositService('SUCCESSFUL');
    const momo = makeClient({ callbackUrl: CALLBACKS, maxRetries: 0 });
    const { callbackUrl } = await momo.disbursement.deposit(transferBody);
    service.server.use(
      http.get(`${BASE}${DEPOSIT}/:id`, () => HttpResponse.json({ code: 'X' }, { status: 500 })),
    );
    const handler = momo.callbacks.handler();
    expect((await handler(callback(callbackUrl ?? '', { status: 'SUCCESSFUL' }))).status).toBe(503);

    depositService('SUCCESSFUL');
    const throwing = momo.callbacks.handler({
      onEvent: () => {
        throw new Error('database down');
      },
    });
    expect((await throwing(callback(callbackUrl ?? '', { status: 'SUCCESSFUL' }))).status).toBe(
      500,
    );
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
      expect(streamed.status).toBe(200);
      expect(await streamed.json()).toEqual({ received: true });

      parser = 'json';
      expect((await send(JSON.stringify({ status: 'SUCCESSFUL' }))).status).toBe(200);
      parser = 'skipped'; // body parser left {} and the stream unread: the stream wins
      expect((await send(JSON.stringify({ status: 'SUCCESSFUL' }))).status).toBe(200);
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
