/**
 * The SDK's main job, end to end, against the simulator served on loopback:
 * token, balance, a deposit awaited to SUCCESSFUL, a payment awaited to FAILED, a
 * refund, bad input caught before sending, a deposit whose connection drops after
 * the service processed it, still landing exactly once, a transfer made with the
 * account holder's consent, and a wait ended by a callback rather than by polling.
 *
 *   npm run demo        exits 0 when every step behaved, 1 otherwise
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidationError, MomoClient, toNodeListener } from 'momo-partner-sdk';
import { createSimulator } from 'momo-partner-sdk/testing';

const sim = createSimulator({ settleMs: 300 });
const server = await sim.listen({ port: 0 });
const { subscriptionKey, apiUser, targetEnvironment } = sim.credentials;

const momo = new MomoClient({
  baseUrl: server.url, // plain http is allowed for loopback only
  targetEnvironment,
  subscriptionKey,
  apiUser,
  polling: { initialDelayMs: 100, maxDelayMs: 500, timeoutMs: 10_000 },
});

// Step 9's callback receiver, on loopback; the client that sends its URL polls rarely.
const receiver = createServer();
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverPort = (receiver.address() as AddressInfo).port;
const FIRST_POLL_MS = 5_000;
const patient = new MomoClient({
  baseUrl: server.url,
  targetEnvironment,
  subscriptionKey,
  apiUser,
  callbackUrl: `http://127.0.0.1:${receiverPort}/momo/callbacks/{referenceId}`,
  polling: { initialDelayMs: FIRST_POLL_MS, maxDelayMs: 15_000, timeoutMs: 30_000 },
});

let failures = 0;
function check(ok: boolean, what: string): void {
  console.log(`   ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}
function step(title: string): void {
  console.log(`\n== ${title}`);
}

const customer = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
/** The simulator's documented magic number for "the payer rejected it" (docs/simulator.md). */
const DECLINING_PARTY = '46733123451';

try {
  console.log(`Simulator listening on ${server.url} (target environment "${targetEnvironment}")`);

  step('1. Access token (POST /disbursement/token/, Basic)');
  const token = await momo.disbursement.getAccessToken();
  console.log(
    `   ${token.tokenType}, valid for ${token.expiresIn} s; printed as: ${JSON.stringify(token)}`,
  );
  check(token.expiresIn > 3000, 'token issued and cached for its lifetime');

  step('2. Balance (GET /disbursement/v1_0/account/balance)');
  const before = await momo.disbursement.getBalance();
  console.log(`   available: ${before.availableBalance} ${before.currency}`);
  check(before.currency === 'EUR', 'balance read');

  step('3. Deposit 250 EUR to a customer, awaited to its final status');
  const deposit = await momo.disbursement.deposit({
    amount: '250',
    currency: 'EUR',
    externalId: 'demo-deposit-1',
    payee: customer,
    payerMessage: 'Cash-in at agent 42',
    payeeNote: 'Thank you',
  });
  console.log(`   accepted (202), referenceId ${deposit.referenceId}`);
  // onStatus sees each new status: PENDING while the payee's wallet works, then the final one.
  const deposited = await deposit.wait({
    onStatus: (r) => console.log(`   status now ${r.status}`),
  });
  console.log(
    `   final: ${deposited.status}, financialTransactionId ${deposited.financialTransactionId}`,
  );
  check(deposited.status === 'SUCCESSFUL', 'deposit SUCCESSFUL');

  step(`4. Transfer to a party the service declines (${DECLINING_PARTY})`);
  const declined = await momo.disbursement
    .transfer({
      amount: '75',
      currency: 'EUR',
      externalId: 'demo-transfer-1',
      payee: { partyIdType: 'MSISDN', partyId: DECLINING_PARTY },
    })
    .wait();
  const reason = declined.status === 'FAILED' ? declined.reason : undefined;
  console.log(`   final: ${declined.status}, reason ${reason?.code}: ${reason?.message}`);
  check(
    declined.status === 'FAILED' && reason?.code === 'APPROVAL_REJECTED',
    'FAILED is a result, not an exception',
  );

  step('5. Refund the deposit');
  const refunded = await momo.disbursement
    .refund({
      amount: '250',
      currency: 'EUR',
      externalId: 'demo-refund-1',
      referenceIdToRefund: deposit.referenceId,
      payerMessage: 'Refund',
      payeeNote: 'Refund of demo-deposit-1',
    })
    .wait();
  console.log(`   final: ${refunded.status}`);
  check(refunded.status === 'SUCCESSFUL', 'refund SUCCESSFUL');

  step('6. Bad input is caught before anything is sent');
  const sentBefore = sim.requests.length;
  const bad = await momo.disbursement
    .deposit({ amount: '-10', currency: 'eur', payee: { partyIdType: 'MSISDN', partyId: 'abc' } })
    .catch((error: unknown) => error);
  if (isValidationError(bad)) {
    for (const issue of bad.issues) console.log(`   ${issue.path}: ${issue.message}`);
  }
  check(isValidationError(bad) && bad.field === 'amount', 'ValidationError naming the field');
  check(sim.requests.length === sentBefore, 'nothing was sent');

  step('7. The connection drops after the service processed the deposit');
  sim.inject({ match: 'POST /disbursement/v1_0/deposit', kind: 'drop-after-processing' });
  const retried = await momo.disbursement.deposit({
    amount: '40',
    currency: 'EUR',
    externalId: 'demo-deposit-2',
    payee: customer,
  });
  const attempts = sim.requests.filter((r) => r.headers['x-reference-id'] === retried.referenceId);
  const stored = sim.transactions.filter((t) => t.referenceId === retried.referenceId);
  console.log(`   attempts sent: ${attempts.length}, all under referenceId ${retried.referenceId}`);
  console.log('   first attempt: connection lost; retry: 409 RESOURCE_ALREADY_EXIST -> accepted');
  const landed = await retried.wait();
  console.log(`   transactions stored: ${stored.length}, final: ${landed.status}`);
  check(attempts.length === 2 && stored.length === 1, 'sent twice, landed exactly once');
  check(landed.status === 'SUCCESSFUL', 'deposit SUCCESSFUL');

  step("8. Transfer with the account holder's consent (CIBA)");
  const request = await momo.consent.authorize({
    msisdn: customer.partyId,
    scope: 'profile',
    accessType: 'offline',
  });
  console.log(
    `   bc-authorize: auth_req_id ${request.authReqId}, poll every ${request.interval} s, expires in ${request.expiresIn} s`,
  );
  const consent = await request.wait({
    onPending: ({ polls }) =>
      console.log(`   ...poll ${polls}: the account holder has not answered yet`),
  });
  console.log(`   consent token received, valid until ${consent.expiresAt.toISOString()}`);
  const consented = await momo.disbursement
    .transferWithConsent({ amount: '15' }, { consent })
    .wait();
  console.log(`   transferWithConsent final: ${consented.status}`);
  check(consented.status === 'SUCCESSFUL', 'transfer with consent SUCCESSFUL');

  step(`9. A request to pay whose callback ends the wait (first poll due at ${FIRST_POLL_MS} ms)`);
  const confirmed: string[] = [];
  receiver.on(
    'request',
    toNodeListener(
      patient.callbacks.handler({
        onEvent: (event) => {
          confirmed.push(event.referenceId);
          console.log(`   callback confirmed by a status lookup: ${event.status}`);
        },
      }),
    ),
  );
  const started = Date.now();
  const payment = await patient.collection.requestToPay({
    amount: '30',
    currency: 'EUR',
    externalId: 'demo-rtp-1',
    payer: customer,
  });
  const paid = await payment.wait();
  const elapsed = Date.now() - started;
  const lookups = sim.requests.filter((r) => r.path.endsWith(payment.referenceId)).length;
  console.log(`   final: ${paid.status} after ${elapsed} ms, with ${lookups} status lookup(s)`);
  check(
    paid.status === 'SUCCESSFUL' && confirmed.includes(payment.referenceId),
    'callback received',
  );
  check(elapsed < FIRST_POLL_MS, 'woken by the callback before the first poll');
  check(lookups === 1, "the handler's confirming lookup was the only one");

  const after = await momo.disbursement.getBalance();
  console.log(`\nBalance now ${after.availableBalance} ${after.currency}`);
} catch (error) {
  console.error('\nUnexpected error:', error);
  failures++;
} finally {
  receiver.close();
  await server.close();
}

console.log(
  failures === 0
    ? '\nDemo passed: every step behaved.'
    : `\nDemo FAILED: ${failures} step(s) misbehaved.`,
);
process.exitCode = failures === 0 ? 0 : 1;
