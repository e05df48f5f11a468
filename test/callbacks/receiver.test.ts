import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { isValidationError, MomoClient, toNodeListener } from 'momo-partner-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { transferBody } from '../support/fake-service';
import {
  peakRssGrowth,
  putCallback,
  sendHugeBody,
  serve,
  startProvider,
  startReceiver,
} from './support';

// The receiver is internet-facing: what a sender can make it hold, wait for or look up
// must not depend on what the sender sends. (Thousands of callbacks on a shared machine
// take seconds: generous deadlines, and no assertion on speed.)
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const close of closers.splice(0).reverse()) await close();
});

async function setUp(
  statusOf?: (id: string) => string,
  handlerOptions: Parameters<typeof startReceiver>[1] = {},
  lookupDelay: number | Promise<unknown> = 0,
) {
  const provider = await startProvider(statusOf, lookupDelay);
  closers.push(provider.close);
  const receiver = await startReceiver(provider.options, handlerOptions);
  closers.push(receiver.close);
  return { provider, receiver };
}

describe('the callback receiver under attack', () => {
  it('answers a 256 MiB chunked body with no content-length 413, growing RSS by under 32 MB', async () => {
    const { receiver } = await setUp();
    const { result, growthBytes } = await peakRssGrowth(() =>
      sendHugeBody(receiver.url, 256 * 1024 * 1024),
    );
    expect(result.status).toBe(413);
    // The sender was stopped long before the end: backpressure, not buffering.
    expect(result.produced).toBeLessThan(64 * 1024 * 1024);
    expect(growthBytes).toBeLessThan(32 * 1024 * 1024);
  });

  it('makes at most 10 lookups for 1,000 concurrent forged callbacks on one pending id', async () => {
    const { provider, receiver } = await setUp(() => 'PENDING');
    const { referenceId } = await receiver.momo.disbursement.deposit(transferBody);
    const answers = await Promise.all(
      Array.from({ length: 1_000 }, () =>
        putCallback(receiver.url, referenceId, { status: 'SUCCESSFUL' }),
      ),
    );
    expect(provider.lookups.length).toBeGreaterThanOrEqual(1);
    expect(provider.lookups.length).toBeLessThanOrEqual(10);
    // Each one contradicted by the (shared) lookup: never trusted.
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([409]));
  }, 120_000);

  it('makes no lookup for 2,000 callbacks on unknown ids', async () => {
    const { provider, receiver } = await setUp();
    const answers = await Promise.all(
      Array.from({ length: 2_000 }, () =>
        putCallback(receiver.url, randomUUID(), { status: 'SUCCESSFUL' }),
      ),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([404]));
    expect(provider.lookups).toHaveLength(0);
  }, 120_000);

  it('keeps answering others while one sender drips its body, and cuts the drip at the deadline', async () => {
    const { receiver } = await setUp(() => 'SUCCESSFUL', { readTimeoutMs: 1_500 });
    const { referenceId } = await receiver.momo.disbursement.deposit(transferBody);

    const drip = connect(receiver.port, '127.0.0.1');
    await once(drip, 'connect');
    drip.write(
      `PUT /momo/callbacks/${referenceId} HTTP/1.1\r\nHost: x\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    const dripping = setInterval(() => drip.write('1\r\n{\r\n'), 50);
    let dripAnswer = '';
    drip.on('data', (data: Buffer) => {
      dripAnswer += data.toString();
    });
    const dripClosed = once(drip, 'close');
    try {
      const others = await Promise.all(
        Array.from({ length: 20 }, () =>
          putCallback(receiver.url, referenceId, { status: 'SUCCESSFUL' }),
        ),
      );
      expect(others.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(dripAnswer).toBe(''); // still dripping while the others were answered
      await dripClosed;
      expect(dripAnswer).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(dripping);
      drip.destroy();
    }
  });

  it('answers 503 with Retry-After past maxConfirms lookups at once; the same id shares one', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    // The lookups are answered once the third callback has been (not after a fixed time).
    const { provider, receiver } = await setUp(() => 'PENDING', { maxConfirms: 2 }, released);
    for (const referenceId of ids) {
      await receiver.momo.disbursement.deposit(transferBody, { referenceId });
    }
    const first = putCallback(receiver.url, ids[0] as string, { status: 'SUCCESSFUL' });
    const second = putCallback(receiver.url, ids[1] as string, { status: 'SUCCESSFUL' });
    const sameAsFirst = putCallback(receiver.url, ids[0] as string, { status: 'SUCCESSFUL' });
    while (provider.lookups.length < 2) await new Promise((r) => setTimeout(r, 5));
    const third = await putCallback(receiver.url, ids[2] as string, { status: 'SUCCESSFUL' });
    expect(third).toEqual({ status: 503, retryAfter: '1' });
    release();
    expect((await Promise.all([first, second, sameAsFirst])).map((a) => a.status)).toEqual([
      409, 409, 409,
    ]);
    expect(provider.lookups.sort()).toEqual([ids[0], ids[1]].sort());
  });

  it('reuses a final confirmation, and looks a pending one up again after confirmIntervalMs', async () => {
    const settled = new Set<string>();
    const { provider, receiver } = await setUp(
      (id) => (settled.has(id) ? 'SUCCESSFUL' : 'PENDING'),
      { confirmIntervalMs: 200 },
    );
    const { referenceId } = await receiver.momo.disbursement.deposit(transferBody);
    // The receiver's clock moves only when told: a busy machine cannot age a confirmation.
    vi.useFakeTimers({ toFake: ['Date'] });
    expect((await putCallback(receiver.url, referenceId, { status: 'PENDING' })).status).toBe(200);
    expect((await putCallback(receiver.url, referenceId, { status: 'PENDING' })).status).toBe(200);
    expect(provider.lookups).toHaveLength(1);
    settled.add(referenceId);
    vi.setSystemTime(Date.now() + 250);
    for (let i = 0; i < 20; i++) {
      expect((await putCallback(receiver.url, referenceId, { status: 'SUCCESSFUL' })).status).toBe(
        200,
      );
    }
    expect(provider.lookups).toHaveLength(2);
  });

  it('still believes a genuine callback right after forged ones: held to the interval, then looked up', async () => {
    const settled = new Set<string>();
    const { provider, receiver } = await setUp(
      (id) => (settled.has(id) ? 'SUCCESSFUL' : 'PENDING'),
      { confirmIntervalMs: 300 },
    );
    const { referenceId } = await receiver.momo.disbursement.deposit(transferBody);
    expect((await putCallback(receiver.url, referenceId, { status: 'SUCCESSFUL' })).status).toBe(
      409,
    );
    settled.add(referenceId); // the payer approves; the service calls back at once
    const genuine = await putCallback(receiver.url, referenceId, { status: 'SUCCESSFUL' });
    expect(genuine.status).toBe(200);
    expect(provider.lookups).toHaveLength(2);
  });

  it('refuses an already-parsed body (Express) whose JSON form passes 64 KB', async () => {
    const { receiver } = await setUp();
    const listener = toNodeListener(receiver.momo.callbacks.handler());
    // What express.json() leaves: the stream consumed, the parsed value on req.body.
    const parsed = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        Object.assign(req, {
          body: { status: 'SUCCESSFUL', note: 'x'.repeat(70_000), list: Array(100_000).fill(1) },
        });
        void listener(req, res);
      });
    });
    closers.push(parsed.close);
    const answer = await putCallback(parsed.url, randomUUID(), {});
    expect(answer.status).toBe(413);
  });

  it('cancels a Fetch Request body past 64 KB and cuts a slow one at the deadline', async () => {
    const momo = new MomoClient({ baseUrl: 'http://127.0.0.1:9', targetEnvironment: 'sandbox' });
    const handler = momo.callbacks.handler({ readTimeoutMs: 200 });
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const url = `http://127.0.0.1/momo/callbacks/${randomUUID()}`;
    const big = await handler(
      new Request(url, { method: 'PUT', body: endless, duplex: 'half' } as RequestInit),
    );
    expect(big.status).toBe(413);
    expect(pulled).toBeLessThan(10);

    const silent = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const slow = await handler(
      new Request(url, { method: 'PUT', body: silent, duplex: 'half' } as RequestInit),
    );
    expect(slow.status).toBe(408);
  });

  it('refuses bad limits with a ValidationError naming the option', () => {
    const momo = new MomoClient({ baseUrl: 'http://127.0.0.1:9', targetEnvironment: 'sandbox' });
    const error = (() => {
      try {
        momo.callbacks.handler({ maxConfirms: 0 });
      } catch (e) {
        return e;
      }
    })();
    expect(isValidationError(error)).toBe(true);
    expect((error as { field: string }).field).toBe('maxConfirms');
  });
});
