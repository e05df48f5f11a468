/**
 * The checkout's tests for a Jest project (CommonJS, default config): the same cases as
 * app.test.ts, against the simulator over real HTTP on loopback. `./app` is app.ts
 * compiled to JavaScript (npm run test:package compiles it and runs this file with Jest
 * against the packed package).
 */
const { createServer } = require('node:http');
const { MomoClient } = require('momo-partner-sdk');
const { createSimulator } = require('momo-partner-sdk/testing');
const { checkout, Orders, reconcile } = require('./app');

// Callbacks go through this fetch: switched off, they are lost (the app was down).
let deliverCallbacks = true;
const sim = createSimulator({
  settleMs: 50,
  callbackFetch: (url, init) =>
    deliverCallbacks ? fetch(url, init) : Promise.reject(new TypeError('partner down')),
});
const orders = new Orders(); // the database: it outlives a restart of the app
const app = createServer();
let simulator;
let appUrl;

/** Starts the app, or restarts it: a new client (nothing in memory), the same orders and URL. */
function start() {
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
  simulator = await sim.listen({ port: 0 });
  await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${app.address().port}`;
  start();
});
afterAll(async () => {
  await new Promise((resolve) => app.close(resolve));
  await simulator.close();
});

async function pay(orderId, msisdn) {
  const response = await fetch(`${appUrl}/checkout`, {
    method: 'POST',
    body: JSON.stringify({ orderId, amount: '25', msisdn }),
  });
  expect(response.status).toBe(202);
  return (await response.json()).referenceId;
}

async function order(orderId) {
  const response = await fetch(`${appUrl}/orders/${orderId}`);
  expect(response.status).toBe(200);
  return response.json();
}

async function orderStatus(orderId) {
  return (await order(orderId)).status;
}

/** Jest has no waitFor: run the check again until it passes, or give up after 5 s. */
async function waitFor(check) {
  const until = Date.now() + 5_000;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('checkout', () => {
  test('marks the order PAID once the payer approves (by callback)', async () => {
    const referenceId = await pay('order-1', '46733123999');
    await waitFor(async () => expect(await orderStatus('order-1')).toBe('PAID'));
    expect(sim.callbacks.map((c) => c.url)).toContain(`${appUrl}/momo/callbacks/${referenceId}`);
  });

  test('marks the order DECLINED when the payer refuses', async () => {
    await pay('order-2', '46733123451');
    await waitFor(async () => expect(await orderStatus('order-2')).toBe('DECLINED'));
  });

  test('marks the order PAID when the callback arrives before the 202', async () => {
    sim.inject({ kind: 'delay', ms: 2_000, match: 'POST /collection/v1_0/requesttopay' });
    const paying = pay('order-3', '46733123453');
    const { referenceId } = await waitFor(() => order('order-3'));
    await waitFor(() => expect(sim.transaction(referenceId)).toBeDefined());
    sim.settle(referenceId, 'SUCCESSFUL');
    await waitFor(async () => expect(await orderStatus('order-3')).toBe('PAID'));
    expect(await paying).toBe(referenceId);
    expect(await orderStatus('order-3')).toBe('PAID');
  });

  test('marks the order PAID when the callback reaches the app after a restart', async () => {
    const referenceId = await pay('order-4', '46733123453');
    start();
    sim.settle(referenceId, 'SUCCESSFUL');
    await waitFor(async () => expect(await orderStatus('order-4')).toBe('PAID'));
  });

  test('reconciles, after a restart, an order whose callback was lost', async () => {
    const referenceId = await pay('order-5', '46733123453');
    deliverCallbacks = false;
    sim.settle(referenceId, 'SUCCESSFUL');
    expect(await orderStatus('order-5')).toBe('PENDING');
    deliverCallbacks = true;
    const momo = start();
    expect(await reconcile(momo, orders)).toBe(1);
    expect(await orderStatus('order-5')).toBe('PAID');
  });
});
