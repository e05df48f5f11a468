/**
 * Callbacks against the simulator served on loopback: a node:http receiver on
 * 127.0.0.1 serves `momo.callbacks.handler()`. The client polls rarely (first lookup
 * after 10 s), so what ends each wait quickly is the callback, confirmed by one status
 * lookup. A callback of an operation still pending is answered 202 as soon as it is read
 * and confirmed after; a forged one (SUCCESSFUL for a transaction known FAILED) gets 409.
 * Operations the specification gives no lookup (voucher redeem, standard-style
 * disbursement) report `confirmed: false`. After a restart, `lookup` confirms ids the
 * new process did not create.
 *
 *   npx tsx examples/callbacks.ts     exits 0 when every step behaved, 1 otherwise
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ConfirmedCallback,
  MomoClient,
  type MomoClientOptions,
  toNodeListener,
} from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';
import { checklist } from './support/checklist';

const sim = createSimulator({ settleMs: 300 });
const server = await sim.listen({ port: 0 });
const { subscriptionKey, apiUser, targetEnvironment } = sim.credentials;

// Your callback receiver: a plain node:http server (loopback here, public in production).
const receiver = createServer();
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const { port } = receiver.address() as AddressInfo;

const FIRST_POLL_MS = 10_000;
const options: MomoClientOptions = {
  baseUrl: server.url,
  targetEnvironment,
  subscriptionKey,
  apiUser,
  // Sent as X-Callback-Url on every creating call, {referenceId} filled in.
  callbackUrl: `http://127.0.0.1:${port}/momo/callbacks/{referenceId}`,
  polling: { initialDelayMs: FIRST_POLL_MS, maxDelayMs: 30_000, timeoutMs: 60_000 },
};
const momo = new MomoClient(options);

const events: ConfirmedCallback[] = [];
const onCallback = toNodeListener(
  momo.callbacks.handler({
    onEvent: (event) => {
      // Called once per accepted callback, after the status lookup agreed with it.
      events.push(event);
      console.log(`   onEvent: ${event.operation} ${event.status} (confirmed: ${event.confirmed})`);
    },
  }),
);
receiver.on('request', (req, res) => {
  if (req.url?.startsWith('/momo/callbacks/')) return void onCallback(req, res);
  res.writeHead(404).end();
});

const { check, fail, finish } = checklist('Callbacks example');
/** The event of one reference id, once its callback has arrived (or undefined after 10 s). */
async function eventFor(referenceId: string): Promise<ConfirmedCallback | undefined> {
  for (let i = 0; i < 500; i++) {
    const event = events.find((e) => e.referenceId === referenceId);
    if (event) return event;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}
/** What an attacker (or a confused proxy) could send to the callback URL. */
async function post(referenceId: string, body: unknown): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/momo/callbacks/${referenceId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

try {
  console.log(`Callback receiver on ${options.callbackUrl}`);

  console.log('\n== Request to pay; the callback (PUT) ends the wait, not the poller');
  const started = Date.now();
  const payment = await momo.collection.requestToPay({
    amount: '45',
    currency: 'EUR',
    payer: { partyIdType: 'MSISDN', partyId: '46733123999' },
  });
  const paid = await payment.wait();
  const elapsed = Date.now() - started;
  console.log(
    `   final: ${paid.status} after ${elapsed} ms (first poll due at ${FIRST_POLL_MS} ms)`,
  );
  check(paid.status === 'SUCCESSFUL', 'request to pay SUCCESSFUL');
  check(elapsed < FIRST_POLL_MS, 'woken by the callback before the first poll');

  console.log('\n== Deposit to a declining payee; the callback (POST) reports FAILED');
  const deposit = await momo.disbursement.deposit({
    amount: '60',
    currency: 'EUR',
    payee: { partyIdType: 'MSISDN', partyId: '46733123451' },
  });
  const failed = await deposit.wait();
  console.log(`   final: ${failed.status} (${failed.status === 'FAILED' && failed.reason.code})`);
  check(failed.status === 'FAILED', 'deposit FAILED, learnt by callback');

  console.log('\n== No status lookup exists: voucher redeem, standard-style disbursement');
  const voucher = await momo.collection.redeemVoucher('VOUCHER-88', {
    receiver: { msisdn: '46733123999' },
  });
  const redeemed = await eventFor(voucher.referenceId);
  check(redeemed?.status === 'SUCCESSFUL' && !redeemed.confirmed, 'voucher: unconfirmed event');
  const standard = await momo.collection.standardDisbursement({
    debitParty: [{ key: 'msisdn', value: '46733123999' }],
    amount: '20',
    currency: 'EUR',
  });
  console.log(`   standard-style accepted, notified by ${standard.notificationMethod}`);
  const settled = await eventFor(standard.correlationId);
  check(
    settled?.status === 'SUCCESSFUL' && !settled.confirmed,
    'standard-style: unconfirmed event',
  );

  console.log('\n== Callbacks that must not be trusted');
  const eventsBefore = events.length;
  const forged = await post(deposit.referenceId, {
    amount: '60',
    currency: 'EUR',
    status: 'SUCCESSFUL',
  });
  console.log(
    `   forged SUCCESSFUL for the FAILED deposit: ${forged.status} ${await forged.text()}`,
  );
  check(forged.status === 409, 'contradicted by the status lookup: 409');

  const unknown = await post(crypto.randomUUID(), { status: 'SUCCESSFUL' });
  console.log(`   unknown reference id: ${unknown.status} ${await unknown.text()}`);
  check(unknown.status === 404, 'unknown reference id: 404');

  const malformed = await post(deposit.referenceId, { amount: '60' });
  console.log(`   no status in the body: ${malformed.status}`);
  check(malformed.status === 400, 'malformed callback: 400');
  check(events.length === eventsBefore, 'onEvent was not called for any of them');

  console.log('\n== After a restart: a new client has not seen the request to pay');
  const restarted = new MomoClient(options);
  const replay = () =>
    new Request(`http://127.0.0.1:${port}/momo/callbacks/${payment.referenceId}`, {
      method: 'PUT',
      body: JSON.stringify(sim.callbacks[0]?.body),
    });
  const blind = await restarted.callbacks.handler()(replay());
  console.log(`   handler without lookup: ${blind.status}`);
  const resumed = await restarted.callbacks.handler({
    lookup: (id) => restarted.collection.getRequestToPay(id),
  })(replay());
  console.log(`   handler with lookup: ${resumed.status} ${await resumed.text()}`);
  check(blind.status === 404 && resumed.status === 200, 'lookup confirms ids of earlier runs');

  // The simulator records each receiver's answer once it has arrived.
  for (let i = 0; i < 250 && sim.callbacks.some((c) => c.status === undefined); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const delivered = sim.callbacks.map((c) => `${c.method} ${c.status ?? c.error}`);
  console.log(
    `\nCallbacks the simulator sent, and the receiver's answers: ${delivered.join(', ')}`,
  );
  // 202: accepted at once and confirmed by its lookup after (the request to pay, the
  // deposit); 200: an operation without a lookup, answered once passed on (voucher,
  // standard-style).
  check(
    delivered.join(', ') === 'PUT 202, POST 202, PUT 200, PUT 200',
    'all accepted: 202 (a lookup to come) or 200',
  );
} catch (error) {
  fail(error);
} finally {
  receiver.close();
  await server.close();
}

finish();
