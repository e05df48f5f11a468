/**
 * The checkout's own tests (vitest), against the simulator over real HTTP on loopback:
 * the app calls the simulator, and the simulator calls the app back. Copy it and swap in
 * your app. The Jest variant is `app.jest.test.js`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MomoClient } from 'momo-partner-sdk';
import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkout, type Order, Orders, reconcile } from './app.js';

// Callbacks go through this fetch: switched off, they are lost (the app was down).
let deliverCallbacks = true;
const sim = createSimulator({
  settleMs: 50,
  callbackFetch: (url, init) =>
    deliverCallbacks ? fetch(url, init) : Promise.reject(new TypeError('partner down')),
});
const orders = new Orders(); // the database: it outlives a restart of the app
const app = createServer();
let simulator: ListeningServer;
let appUrl: string;

/** Starts the app, or restarts it: a new client (nothing in memory), the same orders and URL. */
function start(): MomoClient {
  const { subscriptionKey, apiUser, targetEnvironment } = sim.credentials;
  const momo = new MomoClient({
    baseUrl: simulator.url,
    targetEnvironment,
    subscriptionKey,
    apiUser,
    callbackUrl: `${appUrl}/momo/callbacks/{referenceId}`,
  });
  app.removeAllListeners('request').on('request', checkout(momo, orders, 'EUR'));
  return momo;
}

beforeAll(async () => {
  simulator = await sim.listen({ port: 0 }); // a real server on 127.0.0.1
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  start();
});
afterAll(async () => {
  await new Promise((resolve) => app.close(resolve));
  await simulator.close();
});

async function pay(orderId: string, msisdn: string): Promise<string> {
  const response = await fetch(`${appUrl}/checkout`, {
    method: 'POST',
    body: JSON.stringify({ orderId, amount: '25', msisdn }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { referenceId: string }).referenceId;
}

async function order(orderId: string): Promise<Order> {
  const response = await fetch(`${appUrl}/orders/${orderId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Order;
}

async function orderStatus(orderId: string): Promise<string> {
  return (await order(orderId)).status;
}

describe('checkout', () => {
  it('marks the order PAID once the payer approves (by callback)', async () => {
    const referenceId = await pay('order-1', '46733123999'); // any other number succeeds
    // Generous: settling, the callback and its confirming lookup all go over real HTTP.
    await vi.waitFor(async () => expect(await orderStatus('order-1')).toBe('PAID'), 10_000);
    expect(sim.callbacks.map((c) => c.url)).toContain(`${appUrl}/momo/callbacks/${referenceId}`);
  });

  it('marks the order DECLINED when the payer refuses', async () => {
    await pay('order-2', '46733123451'); // the simulator's APPROVAL_REJECTED number
    await vi.waitFor(async () => expect(await orderStatus('order-2')).toBe('DECLINED'), 10_000);
  });

  it('marks the order PAID when the callback arrives before the 202', async () => {
    // The request is processed at once, its 202 held back 2 s: the payer is faster.
    sim.inject({ kind: 'delay', ms: 2_000, match: 'POST /collection/v1_0/requesttopay' });
    const paying = pay('order-3', '46733123453'); // pending until settled
    const { referenceId } = await vi.waitFor(() => order('order-3'), 10_000); // stored before sending
    await vi.waitFor(() => expect(sim.transaction(referenceId)).toBeDefined(), 10_000);
    sim.settle(referenceId, 'SUCCESSFUL'); // the payer approves; the callback goes out now
    await vi.waitFor(async () => expect(await orderStatus('order-3')).toBe('PAID'), 10_000);
    expect(await paying).toBe(referenceId); // the 202, late
    expect(await orderStatus('order-3')).toBe('PAID');
  });

  it('marks the order PAID when the callback reaches the app after a restart', async () => {
    const referenceId = await pay('order-4', '46733123453');
    start(); // a new process: its client never sent this payment
    sim.settle(referenceId, 'SUCCESSFUL');
    await vi.waitFor(async () => expect(await orderStatus('order-4')).toBe('PAID'), 10_000);
  });

  it('reconciles, after a restart, an order whose callback was lost', async () => {
    const referenceId = await pay('order-5', '46733123453');
    deliverCallbacks = false;
    sim.settle(referenceId, 'SUCCESSFUL'); // the payer approves; the callback is lost
    expect(await orderStatus('order-5')).toBe('PENDING');
    deliverCallbacks = true;
    const momo = start(); // reconcile reads the orders, not the new client's empty memory
    expect(await reconcile(momo, orders)).toBe(1);
    expect(await orderStatus('order-5')).toBe('PAID');
  });
});
