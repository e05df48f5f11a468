import { isConflictError, isGoneError, isNotFoundError, isRateLimitError } from 'momo-partner-sdk';
import { describe, expect, it, vi } from 'vitest';
import { CALLBACK_TEMPLATE, UUID_V4, useWireSimulator } from '../support/wire';

const { sim, momo, callbacks, only, expectBearerCall, expectCreate, expectLookup } =
  useWireSimulator({ settleMs: 0, deliveryNotificationWindowMs: 60_000 });
const { subscriptionKey, targetEnvironment } = sim.credentials;
const payer = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
const body = {
  amount: '100',
  currency: 'EUR',
  externalId: 'order-1',
  payer,
  payerMessage: 'Order 1',
  payeeNote: 'Paid',
};

describe('Collection on the wire', () => {
  it('requestToPay: POST /collection/v1_0/requesttopay, then GET .../requesttopay/{referenceId}', async () => {
    const accepted = await momo().collection.requestToPay(body, { callbackUrl: CALLBACK_TEMPLATE });
    const request = only('POST', '/collection/v1_0/requesttopay');
    expectCreate(request, accepted.referenceId, body);
    expect(request.headers['x-callback-url']).toBe(
      `https://partner.test/momo/${accepted.referenceId}`,
    );
    const result = await accepted.wait();
    expectLookup(only('GET', `/collection/v1_0/requesttopay/${accepted.referenceId}`));
    expect(result).toMatchObject({ status: 'SUCCESSFUL', amount: '100', currency: 'EUR', payer });
    expect(result.referenceId).toBe(accepted.referenceId); // named even when the body omits it
  });

  it('requestToWithdraw: PUT /collection/v2_0/requesttowithdraw (4.10), callback by PUT, GET v1_0 lookup', async () => {
    const client = momo();
    const accepted = await client.collection.requestToWithdraw(body, {
      callbackUrl: CALLBACK_TEMPLATE,
    });
    expectCreate(only('PUT', '/collection/v2_0/requesttowithdraw'), accepted.referenceId, body);
    const result = await client.collection.waitForRequestToWithdraw(accepted.referenceId);
    expectLookup(only('GET', `/collection/v1_0/requesttowithdraw/${accepted.referenceId}`));
    expect(result).toMatchObject({ status: 'SUCCESSFUL', payer });
    await expect.poll(() => callbacks.map((c) => c.method)).toEqual(['PUT']);
    expect(callbacks[0]?.path).toBe(`/momo/${accepted.referenceId}`);
  });

  it('getRequestToPay reads a FAILED result with its reason', async () => {
    const client = momo().collection;
    const declined = { ...body, payer: { partyIdType: 'MSISDN', partyId: '46733123451' } } as const;
    const { referenceId } = await client.requestToPay(declined);
    const result = await client.waitForRequestToPay(referenceId);
    expect(result).toMatchObject({ status: 'FAILED', reason: { code: 'APPROVAL_REJECTED' } });
    expect((await client.getRequestToPay(referenceId)).status).toBe('FAILED');
  });

  it('redeemVoucher: POST /collection/v2_0/voucher/{voucherToken}/redeem (4.12), callback by PUT', async () => {
    const voucher = {
      externalId: 'v-1',
      receiver: {
        firstName: 'Ama',
        msisdn: '46733123999',
        identificationType: 'PASS',
        identification: '123456',
      },
      otp: 'ABC123',
      secret: 's3cr3t',
    } as const;
    const submitted = await momo().collection.redeemVoucher('VOUCHER-42', voucher, {
      callbackUrl: CALLBACK_TEMPLATE,
    });
    expect(submitted).toEqual({
      referenceId: expect.stringMatching(UUID_V4),
      callbackUrl: `https://partner.test/momo/${submitted.referenceId}`,
    });
    expectCreate(
      only('POST', '/collection/v2_0/voucher/VOUCHER-42/redeem'),
      submitted.referenceId,
      voucher,
    );
    await expect.poll(() => callbacks.map((c) => c.method)).toEqual(['PUT']);
  });

  it('getVoucherOtp: GET /collection/v3_0/voucher/{voucherToken}/otp/cancel (4.15), 404 typed', async () => {
    const client = momo().collection;
    const otp = await client.getVoucherOtp('VOUCHER-42');
    expectBearerCall(only('GET', '/collection/v3_0/voucher/VOUCHER-42/otp/cancel'));
    expect(otp).toMatchObject({ type: 'CANCEL', msisdn: expect.any(String) });
    const missing = await client.getVoucherOtp('unknown-1').catch((e: unknown) => e);
    expect(isNotFoundError(missing)).toBe(true);
    expect(missing).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('sendDeliveryNotification: POST .../requesttopay/{referenceId}/deliverynotification with Language (4.14)', async () => {
    const client = momo().collection;
    const paid = await client.requestToPay(body);
    await paid.wait();
    const result = await client.sendDeliveryNotification(
      paid.referenceId,
      'Your order ships today',
      {
        language: 'en',
      },
    );
    const request = only(
      'POST',
      `/collection/v1_0/requesttopay/${paid.referenceId}/deliverynotification`,
    );
    expectBearerCall(request);
    expect(request.headers.language).toBe('en');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({ notificationMessage: 'Your order ships today' });
    expect(result).toEqual({ referenceId: paid.referenceId, outcome: 'enqueued' });
    expect(sim.deliveryNotifications).toEqual([
      { referenceId: paid.referenceId, message: 'Your order ships today', language: 'en' },
    ]);

    const again = await client
      .sendDeliveryNotification(paid.referenceId, 'Again')
      .catch((e: unknown) => e);
    expect(isRateLimitError(again)).toBe(true); // 429: only after a successful attempt
  });

  it('delivery notification 404, 409 and 410 are typed errors', async () => {
    const client = momo().collection;
    const unknown = await client
      .sendDeliveryNotification('0d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a', 'Hi')
      .catch((e: unknown) => e);
    expect(isNotFoundError(unknown)).toBe(true);

    const pending = await client.requestToPay({
      ...body,
      payer: { partyIdType: 'MSISDN', partyId: '46733123453' },
    });
    const notDone = await client
      .sendDeliveryNotification(pending.referenceId, 'Hi')
      .catch((e: unknown) => e);
    expect(isConflictError(notDone)).toBe(true);

    const paid = await client.requestToPay(body);
    await paid.wait();
    const tx = sim.transaction(paid.referenceId);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 120_000); // the simulator's window (60 s here) has passed
    try {
      const gone = await client
        .sendDeliveryNotification(paid.referenceId, 'Hi')
        .catch((e: unknown) => e);
      expect(isGoneError(gone)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    expect(tx?.status).toBe('SUCCESSFUL');
  });

  it('getBalance: GET /collection/v1_0/account/balance and .../balance/{currency} (4.16)', async () => {
    const client = momo().collection;
    expect(await client.getBalance()).toMatchObject({ currency: 'EUR' });
    expectBearerCall(only('GET', '/collection/v1_0/account/balance'));
    expect(await client.getBalance('EUR')).toMatchObject({
      currency: 'EUR',
      availableBalance: expect.any(String),
    });
    expectBearerCall(only('GET', '/collection/v1_0/account/balance/EUR'));
  });

  it('getAccountStatus: GET /collection/v1_2/mm/accounts/{identifierType}/{identifier}/status (4.11)', async () => {
    const client = momo().collection;
    const status = await client.getAccountStatus('msisdn', '46733123999');
    const request = only('GET', '/collection/v1_2/mm/accounts/msisdn/46733123999/status');
    expect(request.headers.authorization).toMatch(/^Bearer /);
    expect(request.headers['ocp-apim-subscription-key']).toBe(subscriptionKey);
    expect(request.headers['x-account-holding-institution-identifier']).toBe(targetEnvironment);
    expect(request.headers['x-target-environment']).toBeUndefined();
    expect(status).toEqual({ accountStatus: 'available' });
    expect(await client.getAccountStatus('msisdn', '46733123456')).toEqual({
      accountStatus: 'unavailable',
    });
  });

  it('heartbeat: GET /collection/v1.2/mm/Heartbeat (4.17)', async () => {
    const beat = await momo().collection.heartbeat();
    const request = only('GET', '/collection/v1.2/mm/Heartbeat');
    expect(request.headers.authorization).toMatch(/^Bearer /);
    expect(request.headers['ocp-apim-subscription-key']).toBe(subscriptionKey);
    expect(request.headers['x-target-environment']).toBeUndefined();
    expect(beat).toEqual({ serviceStatus: 'available' });
  });

  it('standardDisbursement: POST /collection/v1.2/mm/Transactions/Type/Disbursement (4.6), callback by PUT', async () => {
    const standard = {
      requestingOrganisationTransactionReference: 'std-1',
      debitParty: [{ key: 'msisdn' as const, value: '46733123999' }],
      creditParty: [{ key: 'accountid' as const, value: sim.credentials.apiUser.id }],
      amount: '30',
      currency: 'EUR',
      descriptionText: 'Standard',
      customData: [{ key: 'ownnote', value: 'note' }],
    };
    const accepted = await momo().collection.standardDisbursement(standard, {
      callbackUrl: CALLBACK_TEMPLATE,
    });
    const request = only('POST', '/collection/v1.2/mm/Transactions/Type/Disbursement');
    expect(request.headers['x-correlationid']).toBe(accepted.correlationId);
    expect(request.headers['x-account-holding-institution-identifier']).toBe(targetEnvironment);
    expect(request.headers['x-target-environment']).toBeUndefined();
    expect(request.headers['x-reference-id']).toBeUndefined();
    expect(request.headers['x-callback-url']).toBe(
      `https://partner.test/momo/${accepted.correlationId}`,
    );
    expect(request.body).toEqual(standard);
    expect(accepted).toMatchObject({
      correlationId: expect.stringMatching(UUID_V4),
      serverCorrelationId: accepted.correlationId,
      status: 'pending',
      notificationMethod: 'callback',
    });
    await expect.poll(() => callbacks.map((c) => c.method)).toEqual(['PUT']);
  });

  it('standard-style errors arrive in the 7.2 format as typed errors with .category', async () => {
    const error = await momo()
      .collection.standardDisbursement({
        debitParty: [{ key: 'msisdn', value: '46733123999' }],
        creditParty: [{ key: 'accountid', value: '0d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a' }],
        amount: '30',
        currency: 'EUR',
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      category: expect.any(String),
      code: expect.any(String),
    });
  });

  it('POST /collection/token/ issues Collection its own token (Basic, no body)', async () => {
    const token = await momo().collection.getAccessToken();
    const request = only('POST', '/collection/token/');
    expect(request.headers.authorization).toMatch(/^Basic /);
    expect(request.body).toBeUndefined();
    expect(token.expiresIn).toBeGreaterThan(3000);
  });
});
