import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import {
  type CallbackHandler,
  type CallbackHandlerOptions,
  type ConfirmedCallback,
  isValidationError,
  type MomoClientOptions,
  toNodeListener,
} from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serve } from './support';

const PENDING_PAYEE = '46733123453'; // stays PENDING until sim.settle()
const SECRET = 'a-callback-secret-of-32-chars-or-more';
const transfer = {
  amount: '10',
  currency: 'EUR',
  externalId: 'order-1',
  payee: { partyIdType: 'MSISDN' as const, partyId: PENDING_PAYEE },
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * The partner's receiver on a loopback server (the handler's template: the client's
 * callback URL, unless given); the simulator calls it back for real.
 */
async function receiver(
  client: Partial<MomoClientOptions> = {},
  handlerOptions: CallbackHandlerOptions = {},
) {
  const sim = createSimulator({ settleMs: 20 });
  let handler: CallbackHandler | undefined;
  const server = await serve(
    (req, res) => void toNodeListener(handler as CallbackHandler)(req, res),
  );
  closers.push(server.close);
  const momo = sim.client({ callbackUrl: `${server.url}/momo/callbacks/{referenceId}`, ...client });
  const events: ConfirmedCallback[] = [];
  handler = momo.callbacks.handler({
    onEvent: (event) => void events.push(event),
    ...handlerOptions,
  });
  const put = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const lookups = (id: string) =>
    sim.requests.filter((r) => r.method === 'GET' && r.path.includes(id)).length;
  /** Resolves once every callback the simulator sent has been answered. */
  const delivered = (count: number) =>
    vi.waitFor(() => {
      expect(sim.callbacks.filter((c) => c.status !== undefined)).toHaveLength(count);
    });
  return { sim, momo, events, put, lookups, delivered, url: server.url };
}

describe('the callback route (a path template)', () => {
  it('mounts on a path template and receives the service callback there', async () => {
    const { sim, momo, events, delivered } = await receiver(
      {},
      { callbackUrl: '/momo/callbacks/{referenceId}' },
    );
    const accepted = await momo.disbursement.deposit(transfer);
    sim.settle(accepted.referenceId, 'SUCCESSFUL');
    await delivered(1);
    // Accepted at once (pending here), confirmed by its lookup after.
    expect(sim.callbacks.map((c) => c.status)).toEqual([202]);
    await vi.waitFor(() =>
      expect(events).toMatchObject([{ referenceId: accepted.referenceId, status: 'SUCCESSFUL' }]),
    );
  });

  it('refuses a template that is neither a URL nor a path, naming callbackUrl', () => {
    const momo = createSimulator().client();
    const error = (() => {
      try {
        momo.callbacks.handler({ callbackUrl: 'momo/callbacks/{referenceId}' });
      } catch (e) {
        return e;
      }
    })();
    expect(isValidationError(error)).toBe(true);
    expect((error as { issues: Array<{ path: string }> }).issues[0]?.path).toBe('callbackUrl');
  });

  it('answers 404 to a path off the template, for a tracked id, without a lookup', async () => {
    const { momo, events, put, lookups } = await receiver();
    const { referenceId } = await momo.disbursement.deposit(transfer);
    const off = await put(`/evil/${referenceId}`, { status: 'SUCCESSFUL' });
    expect(off.status).toBe(404);
    const deeper = await put(`/momo/callbacks/x/${referenceId}`, { status: 'SUCCESSFUL' });
    expect(deeper.status).toBe(404);
    expect(lookups(referenceId)).toBe(0);
    expect(events).toEqual([]);
  });
});

describe('replayed callbacks', () => {
  it('calls onEvent once per operation and final status: 50 replays are answered 200 duplicate', async () => {
    const { sim, momo, events, put, lookups, delivered } = await receiver();
    const { referenceId } = await momo.disbursement.deposit(transfer);
    sim.settle(referenceId, 'SUCCESSFUL');
    await delivered(1);
    await vi.waitFor(() => expect(events).toHaveLength(1)); // confirmed after its answer
    const [genuine] = sim.callbacks;
    const path = new URL(genuine?.url ?? '').pathname;
    const replays = await Promise.all(Array.from({ length: 50 }, () => put(path, genuine?.body)));
    expect(replays.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(await replays[0]?.json()).toEqual({ received: true, duplicate: true });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      status: 'SUCCESSFUL',
      confirmed: true,
      verifiedBy: 'lookup',
    });
    expect(lookups(referenceId)).toBe(1); // the genuine callback's confirmation only
  });

  it('delivers again after onEvent threw: tried again by the receiver, or by a replay', async () => {
    let calls = 0;
    const { sim, momo, put, delivered } = await receiver(
      {},
      {
        onEvent: () => {
          calls++;
          if (calls === 1) throw new Error('database down');
        },
      },
    );
    const { referenceId } = await momo.disbursement.deposit(transfer);
    sim.settle(referenceId, 'SUCCESSFUL');
    await delivered(1);
    expect(sim.callbacks.map((c) => c.status)).toEqual([202]); // accepted before onEvent ran
    await vi.waitFor(() => expect(calls).toBe(1));
    expect(await momo.journal.get(referenceId)).toMatchObject({ outcome: 'SUCCESSFUL' });
    const [genuine] = sim.callbacks;
    const path = new URL(genuine?.url ?? '').pathname;
    // A replay before the receiver's own try (2 s later) delivers it; then it is a duplicate.
    expect((await put(path, genuine?.body)).status).toBe(200);
    expect(calls).toBe(2);
    expect(await (await put(path, genuine?.body)).json()).toEqual({
      received: true,
      duplicate: true,
    });
    expect(calls).toBe(2);
  });
});

describe('callback-only operations (no status lookup)', () => {
  it('a forged callback never settles one: it stays pending, and the genuine one settles it once', async () => {
    const { sim, momo, events, put, delivered } = await receiver({ callbackSecret: SECRET });
    const voucher = await momo.collection.redeemVoucher('V-77', {
      externalId: 'voucher-1',
      receiver: { msisdn: PENDING_PAYEE },
    });
    const id = voucher.referenceId;
    const token = createHmac('sha256', SECRET).update(`momo-callback:${id}`).digest('hex');
    expect(voucher.callbackUrl).toMatch(
      new RegExp(`/momo/callbacks/${id}\\?callbackToken=${token}$`),
    );

    const unsigned = await put(`/momo/callbacks/${id}`, { status: 'failed' });
    expect(unsigned.status).toBe(200);
    expect(await unsigned.json()).toEqual({ received: true, confirmed: false });
    const wrong = await put(`/momo/callbacks/${id}?callbackToken=${'0'.repeat(64)}`, {
      status: 'failed',
    });
    expect(wrong.status).toBe(401);
    expect(await momo.journal.pending()).toMatchObject([{ referenceId: id }]);
    expect(events).toMatchObject([{ status: 'FAILED', confirmed: false, verifiedBy: undefined }]);

    sim.settle(id, 'SUCCESSFUL'); // the service calls the URL it was given, token included
    await delivered(1);
    expect(sim.callbacks.map((c) => c.status)).toEqual([200]);
    expect(events[1]).toMatchObject({
      referenceId: id,
      operation: 'collection.redeemVoucher',
      status: 'SUCCESSFUL',
      confirmed: true,
      verifiedBy: 'token',
      result: undefined,
    });
    expect(await momo.journal.pending()).toEqual([]);
  });

  it('without a callbackSecret, a standard-style disbursement is never settled by a callback', async () => {
    const { momo, events, put } = await receiver();
    const accepted = await momo.collection.standardDisbursement({
      debitParty: [{ key: 'msisdn', value: PENDING_PAYEE }],
      amount: '10',
      currency: 'EUR',
    });
    const forged = await put(`/momo/callbacks/${accepted.correlationId}`, { status: 'failed' });
    expect(forged.status).toBe(200);
    expect(events).toMatchObject([{ confirmed: false, status: 'FAILED' }]);
    expect(await momo.journal.pending()).toMatchObject([{ referenceId: accepted.correlationId }]);
  });

  it('places the token at {callbackToken} when the template has one', async () => {
    const sim = createSimulator();
    const momo = sim.client({
      callbackUrl: 'https://partner.test/momo/{callbackToken}/{referenceId}',
      callbackSecret: SECRET,
    });
    const voucher = await momo.collection.redeemVoucher('V-78', {
      externalId: 'voucher-2',
      receiver: { msisdn: PENDING_PAYEE },
    });
    const id = voucher.referenceId;
    const token = createHmac('sha256', SECRET).update(`momo-callback:${id}`).digest('hex');
    expect(voucher.callbackUrl).toBe(`https://partner.test/momo/${token}/${id}`);
    const handler = momo.callbacks.handler();
    const body = JSON.stringify({ status: 'SUCCESSFUL' });
    const ok = await handler(new Request(voucher.callbackUrl ?? '', { method: 'PUT', body }));
    expect(ok.status).toBe(200);
  });

  it('checks the secret and the placeholder, and never shows the secret', () => {
    const sim = createSimulator();
    const issueOf = (options: Partial<MomoClientOptions>) => {
      try {
        sim.client(options);
      } catch (error) {
        return (error as { issues: Array<{ path: string }> }).issues[0]?.path;
      }
    };
    expect(issueOf({ callbackSecret: 'short' })).toBe('callbackSecret');
    expect(issueOf({ callbackUrl: 'https://partner.test/{callbackToken}/{referenceId}' })).toBe(
      'callbackUrl',
    );
    expect(inspect(sim.client({ callbackSecret: SECRET }), { depth: 10 })).not.toContain(SECRET);
  });
});
