import { afterEach, describe, expect, it, vi } from 'vitest';
import { deposit, payment, rawClient, type Sim, simulator, uuidv4 } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

const RTP = '/collection/v1_0/requesttopay';

async function notify(
  sim: Sim,
  referenceId: string,
  body: unknown = { notificationMessage: 'Your order is on its way.' },
  headers: Record<string, string> = {},
) {
  const http = rawClient(sim);
  return http.send('POST', `${RTP}/${referenceId}/deliverynotification`, {
    headers: {
      Authorization: `Bearer ${await http.token('collection')}`,
      'Content-Type': 'application/json',
      ...headers,
    },
    body,
  });
}

describe('simulator: delivery notification', () => {
  it('answers 200 for a successful request to pay and records it; 429 afterwards', async () => {
    const sim = simulator({ settleMs: 0 });
    const { referenceId } = await rawClient(sim).create(RTP, payment());
    const ok = await notify(
      sim,
      referenceId,
      { notificationMessage: 'Shipped' },
      { Language: 'sv' },
    );
    expect(ok.status).toBe(200);
    expect(sim.deliveryNotifications).toEqual([
      { referenceId, message: 'Shipped', language: 'sv' },
    ]);
    const again = await notify(sim, referenceId);
    expect(again.status).toBe(429);
    expect(await again.json()).toEqual({ code: 'NOT_ALLOWED', message: expect.any(String) });
    expect(sim.deliveryNotifications).toHaveLength(1);
    sim.reset();
    expect(sim.deliveryNotifications).toEqual([]);
  });

  it('records no language when the Language header is absent', async () => {
    const sim = simulator({ settleMs: 0 });
    const { referenceId } = await rawClient(sim).create(RTP, payment());
    expect((await notify(sim, referenceId)).status).toBe(200);
    expect(sim.deliveryNotifications[0]).toEqual({
      referenceId,
      message: 'Your order is on its way.',
    });
  });

  it('answers 404 RESOURCE_NOT_FOUND to an unknown id or one that is not a request to pay', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const withdraw = await http.create('/collection/v2_0/requesttowithdraw', payment(), {
      method: 'PUT',
    });
    const dep = await http.create('/disbursement/v1_0/deposit', deposit());
    for (const id of [uuidv4(), withdraw.referenceId, dep.referenceId]) {
      const response = await notify(sim, id);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        code: 'RESOURCE_NOT_FOUND',
        message: expect.any(String),
      });
    }
  });

  it('answers 409 TRANSACTION_NOT_COMPLETED while PENDING and when FAILED', async () => {
    const sim = simulator({ settleMs: 0 });
    const http = rawClient(sim);
    const pending = await http.create(RTP, payment('46733123453'));
    const failed = await http.create(RTP, payment('46733123451'));
    for (const { referenceId } of [pending, failed]) {
      const response = await notify(sim, referenceId);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({
        code: 'TRANSACTION_NOT_COMPLETED',
        message: expect.any(String),
      });
    }
    expect(sim.deliveryNotifications).toEqual([]);
    // Once it succeeds, the notification is accepted.
    sim.settle(pending.referenceId, 'SUCCESSFUL');
    expect((await notify(sim, pending.referenceId)).status).toBe(200);
  });

  it('answers 410 EXPIRED once the window after the final status has passed', async () => {
    vi.useFakeTimers();
    const sim = simulator({ settleMs: 10, deliveryNotificationWindowMs: 60_000 });
    const http = rawClient(sim);
    const early = await http.create(RTP, payment());
    const late = await http.create(RTP, payment());
    vi.advanceTimersByTime(10);
    vi.advanceTimersByTime(60_000);
    expect((await notify(sim, early.referenceId)).status).toBe(200); // exactly at the limit
    vi.advanceTimersByTime(1);
    const expired = await notify(sim, late.referenceId);
    expect(expired.status).toBe(410);
    expect(await expired.json()).toEqual({ code: 'EXPIRED', message: expect.any(String) });
    // 429 wins over 410 for an id that was already notified.
    expect((await notify(sim, early.referenceId)).status).toBe(429);
  });

  it('defaults the window to 24 hours', async () => {
    vi.useFakeTimers();
    const sim = simulator({ settleMs: 0, tokenTtlSeconds: 2 * 86_400 });
    const http = rawClient(sim);
    const { referenceId } = await http.create(RTP, payment());
    expect(sim.transaction(referenceId)?.status).toBe('SUCCESSFUL');
    vi.advanceTimersByTime(86_400_000 + 1);
    expect((await notify(sim, referenceId)).status).toBe(410);
  });

  it.each([
    ['a missing body', '', {}],
    ['an empty message', { notificationMessage: '' }, {}],
    ['a non-string message', { notificationMessage: 42 }, {}],
    ['a message over 160 characters', { notificationMessage: 'x'.repeat(161) }, {}],
    ['a bad Language', { notificationMessage: 'Hi' }, { Language: 'english' }],
    ['a numeric Language', { notificationMessage: 'Hi' }, { Language: '12' }],
  ])('answers 400 to %s', async (_, body, headers) => {
    const sim = simulator({ settleMs: 0 });
    const { referenceId } = await rawClient(sim).create(RTP, payment());
    const response = await notify(sim, referenceId, body, headers);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'BAD_REQUEST' });
    expect(sim.deliveryNotifications).toEqual([]);
  });

  it('accepts a 160-character message and a three-letter Language', async () => {
    const sim = simulator({ settleMs: 0 });
    const { referenceId } = await rawClient(sim).create(RTP, payment());
    const response = await notify(
      sim,
      referenceId,
      { notificationMessage: 'x'.repeat(160) },
      { Language: 'swe' },
    );
    expect(response.status).toBe(200);
  });

  it('answers 400 to a reference id that is not a UUID', async () => {
    const sim = simulator();
    expect((await notify(sim, 'order-1')).status).toBe(400);
  });
});
