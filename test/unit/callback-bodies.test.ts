import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidationError, parseCallback, toNodeListener } from 'momo-partner-sdk';
import { checkOutboxIntent } from 'momo-partner-sdk/outbox';
import { http, passthrough } from 'msw';
import { describe, expect, it } from 'vitest';
import { transferBody } from '../support/fake-service';
import { slowPolling, useCallbackService } from './callbacks-support';

// Reading inbound bodies: off a node:http request, parsed, and refused with a message.
const { service, depositService } = useCallbackService();

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
