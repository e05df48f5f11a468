import type { MomoClient } from 'momo-partner-sdk';
import { describe, expect, it } from 'vitest';
import { CALLBACK_TEMPLATE, UUID_V4, useWireSimulator } from '../support/wire';

// Every operation DESIGN 7.1 added, through the real client and msw, against the
// simulator's handlers (not handlers written for the test): what went over the wire,
// the parsed result, waits to SUCCESSFUL and to FAILED, and the callback's method.

const { sim, momo, only, expectBearerCall, expectCreate, expectLookup, form } = useWireSimulator({
  settleMs: 0,
});
const { subscriptionKey, targetEnvironment } = sim.credentials;
const party = (partyId: string) => ({ partyIdType: 'MSISDN', partyId }) as const;
const OK = '46733123999';
const PENDING = '46733123453'; // waits for sim.decide()
const PRODUCTS = ['collection', 'disbursement', 'remittance'] as const;

/** The callbacks the simulator delivered to `referenceId`'s URL, as `method status`. */
const deliveries = (referenceId: string) =>
  sim.callbacks
    .filter((c) => c.url === `https://partner.test/momo/${referenceId}`)
    .map((c) => `${c.method} ${c.status}`);

type Accepted = { referenceId: string; wait(): Promise<{ status: string; reason?: unknown }> };
interface CreatingCase {
  name: string;
  path: string;
  /** The status lookup of a reference id. */
  lookup(referenceId: string): string;
  callback: 'PUT' | 'POST';
  /** The body with a payer/payee that succeeds, and one that fails, with its reason. */
  body(client: MomoClient): Promise<object>;
  failing(client: MomoClient): Promise<object>;
  reason: string;
  send(client: MomoClient, body: object): Promise<Accepted>;
  /** The operation's own `get*` (the FAILED result, read once more). */
  get(client: MomoClient, referenceId: string): Promise<{ status: string }>;
  success: object;
}

const withCallback = { callbackUrl: CALLBACK_TEMPLATE };
const money = { amount: '25', currency: 'EUR' };
const preApproval = (payer: string) => ({
  payer: party(payer),
  payerCurrency: 'EUR',
  payerMessage: 'Monthly plan',
  validityTime: 3600,
});
const invoice = (payer: string) => ({
  externalId: 'inv-1',
  ...money,
  validityDuration: '3600',
  intendedPayer: party(payer),
  payee: party('46733123998'),
  description: 'Invoice 1',
});
const payment = (customer: string) => ({
  externalTransactionId: 'pay-1',
  money,
  customerReference: customer,
  serviceProviderUserName: 'Electricity Inc',
});
const withdraw = (payer: string) => ({
  ...money,
  externalId: 'w-1',
  payer: party(payer),
  payerMessage: 'Cash out',
  payeeNote: 'Thanks',
});
const deposit = (payee: string) => ({ ...money, externalId: 'd-1', payee: party(payee) });
/** A refund of a deposit that succeeded first (the refund rules need one). */
async function refundOfDeposit(client: MomoClient) {
  const done = await client.disbursement.deposit(deposit(OK)).wait();
  return { amount: '5', currency: 'EUR', externalId: 'r-1', referenceIdToRefund: done.referenceId };
}

const CREATING: CreatingCase[] = [
  {
    name: 'collection.preApproval',
    path: '/collection/v2_0/preapproval',
    lookup: (id) => `/collection/v2_0/preapproval/${id}`,
    callback: 'PUT',
    body: async () => preApproval(OK),
    failing: async () => preApproval('46733123451'),
    reason: 'APPROVAL_REJECTED',
    send: (c, b) => c.collection.preApproval(b as never, withCallback),
    get: (c, id) => c.collection.getPreApproval(id),
    success: { payer: party(OK), payerCurrency: 'EUR', expirationDateTime: expect.any(Number) },
  },
  {
    name: 'collection.createInvoice',
    path: '/collection/v2_0/invoice',
    lookup: (id) => `/collection/v2_0/invoice/${id}`,
    callback: 'PUT',
    body: async () => invoice(OK),
    failing: async () => invoice('46733123451'),
    reason: 'APPROVAL_REJECTED',
    send: (c, b) => c.collection.createInvoice(b as never, withCallback),
    get: (c, id) => c.collection.getInvoice(id),
    success: { ...money, externalId: 'inv-1', invoiceId: expect.stringMatching(UUID_V4) },
  },
  {
    name: 'collection.createPayment',
    path: '/collection/v2_0/payment',
    lookup: (id) => `/collection/v2_0/payment/${id}`,
    callback: 'PUT',
    body: async () => payment(OK),
    failing: async () => payment('46733123450'),
    reason: 'INTERNAL_PROCESSING_ERROR',
    send: (c, b) => c.collection.createPayment(b as never, withCallback),
    get: (c, id) => c.collection.getPayment(id),
    success: { financialTransactionId: expect.any(String) },
  },
  {
    name: 'collection.requestToWithdrawV1',
    path: '/collection/v1_0/requesttowithdraw',
    lookup: (id) => `/collection/v1_0/requesttowithdraw/${id}`,
    callback: 'POST',
    body: async () => withdraw(OK),
    failing: async () => withdraw('46733123451'),
    reason: 'APPROVAL_REJECTED',
    send: (c, b) => c.collection.requestToWithdrawV1(b as never, withCallback),
    get: (c, id) => c.collection.getRequestToWithdraw(id),
    success: { ...money, payer: party(OK) },
  },
  {
    name: 'disbursement.depositV2',
    path: '/disbursement/v2_0/deposit',
    lookup: (id) => `/disbursement/v1_0/deposit/${id}`,
    callback: 'PUT',
    body: async () => deposit(OK),
    failing: async () => deposit('46733123456'),
    reason: 'PAYEE_NOT_FOUND',
    send: (c, b) => c.disbursement.depositV2(b as never, withCallback),
    get: (c, id) => c.disbursement.getDeposit(id),
    success: { ...money, payee: party(OK) },
  },
  {
    name: 'disbursement.refundV2',
    path: '/disbursement/v2_0/refund',
    lookup: (id) => `/disbursement/v1_0/refund/${id}`,
    callback: 'PUT',
    body: refundOfDeposit,
    // An unknown transaction to refund: the refund rules end it NOT_ALLOWED.
    failing: async () => ({
      ...money,
      externalId: 'r-2',
      referenceIdToRefund: '0b5b6a0e-51a1-4c4f-9c39-2d8f6a4a1e77',
    }),
    reason: 'NOT_ALLOWED',
    send: (c, b) => c.disbursement.refundV2(b as never, withCallback),
    get: (c, id) => c.disbursement.getRefund(id),
    success: { amount: '5', currency: 'EUR' },
  },
];

describe.each(CREATING)('$name on the wire against the simulator', (op) => {
  it(`POST ${op.path} with the headers and body; wait() to SUCCESSFUL; callback by ${op.callback}`, async () => {
    const client = momo();
    const body = await op.body(client);
    const accepted = await op.send(client, body);
    const request = only('POST', op.path);
    expectCreate(request, accepted.referenceId, body);
    expect(request.headers['x-callback-url']).toBe(
      `https://partner.test/momo/${accepted.referenceId}`,
    );
    const result = await accepted.wait();
    expect(result).toMatchObject({
      referenceId: accepted.referenceId,
      status: 'SUCCESSFUL',
      ...op.success,
    });
    const lookups = sim.requests.filter((r) => r.path === op.lookup(accepted.referenceId));
    expect(lookups.length, op.lookup(accepted.referenceId)).toBeGreaterThan(0);
    for (const lookup of lookups) expectLookup(lookup);
    await expect.poll(() => deliveries(accepted.referenceId)).toEqual([`${op.callback} 200`]);
  });

  it(`wait() to FAILED with the reason ${op.reason}; the lookup reads it again`, async () => {
    const client = momo();
    const accepted = await op.send(client, await op.failing(client));
    const result = await accepted.wait();
    expect(result).toMatchObject({ status: 'FAILED', reason: { code: op.reason } });
    expect(await op.get(client, accepted.referenceId)).toMatchObject({
      status: 'FAILED',
      reason: { code: op.reason },
    });
    await expect.poll(() => deliveries(accepted.referenceId)).toEqual([`${op.callback} 200`]);
  });
});

describe('pre-approvals listed and cancelled, invoices cancelled (simulator)', () => {
  it('getApprovedPreApprovals lists the approved one; cancelPreApproval DELETEs it; the list is then empty', async () => {
    const client = momo().collection;
    await client.preApproval(preApproval(OK)).wait();
    const listed = await client.getApprovedPreApprovals('msisdn', OK);
    expectLookup(only('GET', `/collection/v1_0/preapprovals/msisdn/${OK}`));
    expect(listed).toEqual([
      expect.objectContaining({
        preApprovalId: expect.stringMatching(UUID_V4),
        status: 'APPROVED',
        fromCurrency: 'EUR',
        fromFri: `FRI:${OK}/MSISDN`,
      }),
    ]);
    const { preApprovalId } = listed[0] as { preApprovalId: string };
    await expect(client.cancelPreApproval(preApprovalId)).resolves.toBeUndefined();
    expectLookup(only('DELETE', `/collection/v1_0/preapproval/${preApprovalId}`));
    expect(await client.getApprovedPreApprovals('msisdn', OK)).toEqual([]);
  });

  it('cancelInvoice: DELETE with its own X-Reference-Id, callback URL and { externalId }; the invoice ends FAILED', async () => {
    const client = momo().collection;
    const created = await client.createInvoice(invoice(PENDING), withCallback);
    const cancelled = await client.cancelInvoice(
      created.referenceId,
      { externalId: 'inv-1' },
      withCallback,
    );
    const request = only('DELETE', `/collection/v2_0/invoice/${created.referenceId}`);
    expect(cancelled.referenceId).not.toBe(created.referenceId);
    expectCreate(request, cancelled.referenceId, { externalId: 'inv-1' });
    expect(request.headers['x-callback-url']).toBe(
      `https://partner.test/momo/${cancelled.referenceId}`,
    );
    expect(cancelled).toMatchObject({ invoiceReferenceId: created.referenceId });
    expect(await client.waitForInvoice(created.referenceId)).toMatchObject({
      status: 'FAILED',
      reason: { code: 'TRANSACTION_CANCELED' },
    });
    await expect.poll(() => deliveries(created.referenceId)).toEqual(['PUT 200']);
    await expect.poll(() => deliveries(cancelled.referenceId)).toEqual(['PUT 200']);
  });
});

describe.each(PRODUCTS)('%s account queries and consent (simulator)', (product) => {
  it(`isAccountHolderActive: GET /${product}/v1_0/accountholder/msisdn/{id}/active → boolean`, async () => {
    const client = momo()[product];
    expect(await client.isAccountHolderActive('msisdn', OK)).toBe(true);
    expect(await client.isAccountHolderActive('msisdn', '46733123456')).toBe(false);
    expectLookup(only('GET', `/${product}/v1_0/accountholder/msisdn/${OK}/active`));
  });

  it(`getBalance('EUR'): GET /${product}/v1_0/account/balance/EUR`, async () => {
    const balance = await momo()[product].getBalance('EUR');
    expectLookup(only('GET', `/${product}/v1_0/account/balance/EUR`));
    expect(balance).toEqual({
      availableBalance: expect.stringMatching(/^\d+\.\d\d$/),
      currency: 'EUR',
    });
  });

  it(`getBasicUserInfo(msisdn): GET /${product}/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo`, async () => {
    const info = await momo()[product].getBasicUserInfo(OK);
    expectLookup(only('GET', `/${product}/v1_0/accountholder/msisdn/${OK}/basicuserinfo`));
    expect(info).toMatchObject({
      locale: 'en-GB',
      status: 'ACTIVE',
      given_name: expect.any(String),
    });
  });

  it(`consent with { product }: bc-authorize and token on /${product}, then getUserInfo({ consent })`, async () => {
    const client = momo();
    const request = await client.consent.authorize({
      msisdn: OK,
      scope: 'profile',
      accessType: 'offline',
      product,
    });
    const authorize = only('POST', `/${product}/v1_0/bc-authorize`);
    expectBearerCall(authorize);
    expect(form(authorize)).toMatchObject({
      login_hint: `ID:${OK}/MSISDN`,
      scope: 'profile',
      access_type: 'offline',
    });
    sim.decide(request.authReqId, 'approve'); // the holder approves: the first poll gets it
    const token = await request.wait();
    const tokenRequest = only('POST', `/${product}/oauth2/token/`);
    expect(tokenRequest.headers.authorization).toMatch(/^Basic \S+$/);
    expect(tokenRequest.headers['ocp-apim-subscription-key']).toBe(subscriptionKey);
    expect(tokenRequest.headers['x-target-environment']).toBe(targetEnvironment);
    expect(form(tokenRequest)).toMatchObject({
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: request.authReqId,
    });
    const info = await client[product].getUserInfo({ consent: token });
    const userinfo = only('GET', `/${product}/oauth2/v1_0/userinfo`);
    expect(userinfo.headers.authorization).toBe(`Bearer ${token.accessToken}`);
    expect(userinfo.headers['x-target-environment']).toBe(targetEnvironment);
    expect(info).toMatchObject({ sub: expect.any(String) });
  });
});

describe.each(['collection', 'disbursement'] as const)(
  '%s basic user info by identity kind (simulator)',
  (product) => {
    it('getBasicUserInfo(idType, id): GET …/accountholder/{idType}/{id}/basicuserinfo', async () => {
      const info = await momo()[product].getBasicUserInfo('Email', 'ada@example.com');
      expectLookup(
        only('GET', `/${product}/v1_0/accountholder/Email/ada%40example.com/basicuserinfo`),
      );
      expect(info).toMatchObject({ status: 'ACTIVE' });
    });
  },
);
