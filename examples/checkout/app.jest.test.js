/**
 * The checkout's tests for a Jest project (CommonJS, default config): the same three
 * cases as app.test.ts, against the simulator over real HTTP on loopback. `./app` is
 * app.ts compiled to JavaScript (npm run test:package compiles it and runs this file
 * with Jest against the packed package).
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
const orders = new Orders();
const app = createServer();
let simulator;
let appUrl;
let momo;

beforeAll(async () => {
  simulator = await sim.listen({ port: 0 });
  await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${app.address().port}`;
  const { subscriptionKey, apiUser, targetEnvironment } = sim.credentials;
  momo = new MomoClient({
    baseUrl: simulator.url,
    targetEnvironment,
    subscriptionKey,
    apiUser,
    callbackUrl: `${appUrl}/momo/callbacks/{referenceId}`,
  });
  app.on('request', checkout(momo, orders, 'EUR'));
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

async function orderStatus(orderId) {
  return (await (await fetch(`${appUrl}/orders/${orderId}`)).json()).status;
}

/** Jest has no waitFor: ask again until it holds, or give up after 5 s. */
async function eventually(read, expected) {
  const until = Date.now() + 5_000;
  let value = await read();
  while (value !== expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  expect(value).toBe(expected);
}

describe('checkout', () => {
  test('marks the order PAID once the payer approves (by callback)', async () => {
    const referenceId = await pay('order-1', '46733123999');
    await eventually(() => orderStatus('order-1'), 'PAID');
    expect(sim.callbacks.map((c) => c.url)).toContain(`${appUrl}/momo/callbacks/${referenceId}`);
  });

  test('marks the order DECLINED when the payer refuses', async () => {
    await pay('order-2', '46733123451');
    await eventually(() => orderStatus('order-2'), 'DECLINED');
  });

  test('reconciles an order whose callback was lost', async () => {
    const referenceId = await pay('order-3', '46733123453');
    deliverCallbacks = false;
    sim.settle(referenceId, 'SUCCESSFUL');
    expect(await orderStatus('order-3')).toBe('PENDING');
    deliverCallbacks = true;
    expect(await reconcile(momo, orders)).toBe(1);
    expect(await orderStatus('order-3')).toBe('PAID');
  });
});
