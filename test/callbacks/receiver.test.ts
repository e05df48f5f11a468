import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { isValidationError, MomoClient, toNodeListener } from 'momo-partner-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { transferBody } from '../support/fake-service';
import { mostInWindow } from '../support/sliding-window';
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
    // Pending here: each one accepted (a claim), the lookup to decide.
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([202]));
    // One lookup, and once more after the interval (2 s: the claim was contradicted by a
    // PENDING, which the outcome may have followed); one per interval while they come.
    await vi.waitFor(() => expect(provider.lookups.length).toBeGreaterThanOrEqual(2), 10_000);
    expect(provider.lookups.length).toBeLessThanOrEqual(10);
    // Never trusted: the payment is still pending.
    expect(await receiver.momo.journal.pending()).toMatchObject([{ referenceId }]);
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
      // Accepted: 202 while the lookup is to come, 200 once the outcome is known.
      expect(others.filter((a) => a.status !== 200 && a.status !== 202)).toEqual([]);
      expect(dripAnswer).toBe(''); // still dripping while the others were answered
      await dripClosed;
      expect(dripAnswer).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(dripping);
      drip.destroy();
    }
  });

  it('accepts callbacks past maxConfirms lookups at once, and confirms them as lookups end; the same id shares one', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const events: string[] = [];
    // The lookups are answered once the third callback has been (not after a fixed time).
    const { provider, receiver } = await setUp(
      () => 'SUCCESSFUL',
      { maxConfirms: 2, onEvent: (event) => void events.push(event.referenceId) },
      released,
    );
    for (const referenceId of ids) {
      await receiver.momo.disbursement.deposit(transferBody, { referenceId });
    }
    const answers = await Promise.all([
      putCallback(receiver.url, ids[0] as string, { status: 'SUCCESSFUL' }),
      putCallback(receiver.url, ids[1] as string, { status: 'SUCCESSFUL' }),
      putCallback(receiver.url, ids[0] as string, { status: 'SUCCESSFUL' }),
      putCallback(receiver.url, ids[2] as string, { status: 'SUCCESSFUL' }),
    ]);
    // All answered while the first two lookups hang: none waits for a lookup.
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202]);
    await vi.waitFor(() => expect(provider.lookups).toHaveLength(2));
    expect(provider.lookups.sort()).toEqual([ids[0], ids[1]].sort()); // 2 at once; ids[0] once
    release();
    await vi.waitFor(() => expect(events.sort()).toEqual([...ids].sort()));
    expect(provider.lookups.sort()).toEqual([...ids].sort());
  });

  it("confirms a burst within the client's lookupRate, every callback answered 202 at once", async () => {
    const provider = await startProvider(() => 'SUCCESSFUL');
    closers.push(provider.close);
    const events: string[] = [];
    // The gate's spacing is read where it lets a lookup go (onRequest), not as the provider
    // receives it: a busy machine bunches arrivals that left the client apart.
    const looked: number[] = [];
    const onRequest = (info: { method: string }) => {
      if (info.method === 'GET') looked.push(performance.now());
    };
    const receiver = await startReceiver(
      { ...provider.options, lookupRate: 20, hooks: { onRequest } },
      { onEvent: (event) => void events.push(event.referenceId) },
    );
    closers.push(receiver.close);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      ids.push((await receiver.momo.disbursement.deposit(transferBody)).referenceId);
    }
    const answers = await Promise.all(
      ids.map((id) => putCallback(receiver.url, id, { status: 'SUCCESSFUL' })),
    );
    expect(answers.filter((a) => a.status !== 202)).toEqual([]);
    // 60 lookups at 20 a second: about 3 s (a generous deadline on a busy machine).
    await vi.waitFor(() => expect(events).toHaveLength(60), 30_000);
    expect(provider.lookups).toHaveLength(60);
    expect(looked).toHaveLength(60);
    // The gate counts whole milliseconds.
    expect(mostInWindow(looked, 1_000 - 2)).toBeLessThanOrEqual(20);
  }, 60_000);

  it('reuses a final confirmation, and looks a pending one up again after confirmIntervalMs', async () => {
    const settled = new Set<string>();
    const events: string[] = [];
    const { provider, receiver } = await setUp(
      (id) => (settled.has(id) ? 'SUCCESSFUL' : 'PENDING'),
      { confirmIntervalMs: 200, onEvent: (event) => void events.push(event.status) },
    );
    const { referenceId } = await receiver.momo.disbursement.deposit(transferBody);
    // The receiver's clock moves only when told: a busy machine cannot age a confirmation.
    vi.useFakeTimers({ toFake: ['Date'] });
    expect((await putCallback(receiver.url, referenceId, { status: 'PENDING' })).status).toBe(202);
    await vi.waitFor(() => expect(events).toEqual(['PENDING'])); // confirmed, kept
    expect((await putCallback(receiver.url, referenceId, { status: 'PENDING' })).status).toBe(200);
    expect(provider.lookups).toHaveLength(1);
    settled.add(referenceId);
    vi.setSystemTime(Date.now() + 250);
    for (let i = 0; i < 20; i++) {
      // 202 while its lookup is to come, 200 (a duplicate) once the outcome is known.
      expect([200, 202]).toContain(
        (await putCallback(receiver.url, referenceId, { status: 'SUCCESSFUL' })).status,
      );
    }
    await vi.waitFor(() => expect(events).toEqual(['PENDING', 'PENDING', 'SUCCESSFUL']));
    expect(provider.lookups).toHaveLength(2);
  });

  it('still believes a genuine callback right after forged ones: held to the interval, then looked up', async () => {
    const settled = new Set<string>();
    const answered: string[] = [];
    const events: string[] = [];
    const { provider, receiver } = await setUp(
      (id) => {
        answered.push(settled.has(id) ? 'SUCCESSFUL' : 'PENDING');
        return answered.at(-1) as string;
      },
      { confirmIntervalMs: 300, onEvent: (event) => void events.push(event.status) },
    );
    const { referenceId } = await receiver.momo.disbursement.deposit(transferBody);
    expect((await putCallback(receiver.url, referenceId, { status: 'SUCCESSFUL' })).status).toBe(
      202,
    );
    await vi.waitFor(() => expect(answered).toEqual(['PENDING'])); // the forgery's lookup
    settled.add(referenceId); // the payer approves; the service calls back at once
    // Whether the forged claim's lookup is still running or was contradicted already,
    // the genuine callback is accepted and the outcome looked up again after the interval.
    const genuine = await putCallback(receiver.url, referenceId, { status: 'SUCCESSFUL' });
    expect(genuine.status).toBe(202);
    await vi.waitFor(() => expect(events).toEqual(['SUCCESSFUL']), 5_000);
    expect(provider.lookups).toHaveLength(2);
    expect(await receiver.momo.journal.get(referenceId)).toMatchObject({ outcome: 'SUCCESSFUL' });
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
