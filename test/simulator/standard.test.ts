import { describe, expect, it } from 'vitest';
import { mmGuard } from '../../src/testing/routes/mm';
import { capture, rawClient, simulator, uuidv1 } from './helpers';
import { body, mmBody, send } from './standard-helpers';

describe('simulator: standard-style disbursement', () => {
  it('answers 202 {serverCorrelationId, status: pending, notificationMethod: polling}', async () => {
    const sim = simulator({ settleMs: 0 });
    const { correlationId, response } = await send(sim, body());
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({
      serverCorrelationId: correlationId,
      status: 'pending',
      notificationMethod: 'polling',
    });
    expect(sim.transaction(correlationId)).toMatchObject({
      operation: 'collection.standardDisbursement',
      status: 'SUCCESSFUL',
      body: body(),
    });
    const balance = await rawClient(sim).send('GET', '/collection/v1_0/account/balance');
    expect(await balance.json()).toMatchObject({ availableBalance: '1000025.50' });
  });

  it('reports notificationMethod callback and calls back by PUT when final', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const { correlationId, response } = await send(sim, body(), {
      'X-Callback-Url': 'https://partner.example/mm',
    });
    expect(await response.json()).toMatchObject({ notificationMethod: 'callback' });
    const tx = sim.transaction(correlationId);
    expect(calls).toEqual([
      {
        url: 'https://partner.example/mm',
        method: 'PUT',
        body: {
          serverCorrelationId: correlationId,
          amount: '25.50',
          currency: 'EUR',
          externalId: 'order-7',
          status: 'SUCCESSFUL',
          financialTransactionId: tx?.financialTransactionId,
        },
      },
    ]);
  });

  it('decides by the first MSISDN debit party, generates externalId when omitted', async () => {
    const { calls, callbackFetch } = capture();
    const sim = simulator({ settleMs: 0, callbackFetch });
    const parties = [
      { key: 'msisdn', value: 'not-a-number' }, // invalid: skipped (spec 2.4)
      { key: 'emailaddress', value: 'a@b.example' },
      { key: 'msisdn', value: '46733123456' },
    ];
    const payload = { ...body({ debitParty: parties }) } as Record<string, unknown>;
    delete payload.requestingOrganisationTransactionReference;
    const { correlationId } = await send(sim, payload, {
      'X-Callback-Url': 'https://partner.example/mm',
    });
    expect(sim.transaction(correlationId)).toMatchObject({
      status: 'FAILED',
      reason: { code: 'PAYER_NOT_FOUND' },
    });
    expect(calls[0]?.body).toEqual({
      serverCorrelationId: correlationId,
      amount: '25.50',
      currency: 'EUR',
      externalId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'FAILED',
      reason: { code: 'PAYER_NOT_FOUND', message: expect.any(String) },
    });
  });

  it('accepts a creditParty naming the API user', async () => {
    const sim = simulator();
    const creditParty = [{ key: 'accountid', value: sim.credentials.apiUser.id.toUpperCase() }];
    const { response } = await send(sim, body({ creditParty }));
    expect(response.status).toBe(202);
  });

  it('answers 400 BusinessRule/DuplicateRequest to a repeated X-CorrelationID', async () => {
    const sim = simulator();
    const first = await send(sim, body());
    expect(first.response.status).toBe(202);
    const again = await send(sim, body(), { 'X-CorrelationID': first.correlationId });
    expect(again.response.status).toBe(400);
    expect(await again.response.json()).toEqual(mmBody('BusinessRule', 'DuplicateRequest'));
    expect(sim.transactions).toHaveLength(1);
  });

  it.each([
    [
      'a missing X-CorrelationID',
      { 'X-CorrelationID': undefined },
      400,
      'Validation',
      'MandatoryValueNotSupplied',
    ],
    [
      'a non-UUID X-CorrelationID',
      { 'X-CorrelationID': 'corr-1' },
      400,
      'Validation',
      'FormatError',
    ],
    [
      'a UUID v1 X-CorrelationID',
      { 'X-CorrelationID': uuidv1() },
      400,
      'Validation',
      'FormatError',
    ],
    [
      'a missing institution',
      { 'X-Account-Holding-Institution-Identifier': undefined },
      400,
      'Validation',
      'MandatoryValueNotSupplied',
    ],
    [
      'another institution',
      { 'X-Account-Holding-Institution-Identifier': 'mtnuganda' },
      404,
      'Identification',
      'IdentifierError',
    ],
    ['a bad X-Callback-Url', { 'X-Callback-Url': 'not a url' }, 400, 'Validation', 'FormatError'],
  ])('answers 7.2 errors to %s', async (_, headers, status, category, code) => {
    const sim = simulator();
    const { response } = await send(sim, body(), headers);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(mmBody(category, code));
    expect(sim.transactions).toHaveLength(0);
  });

  it('answers 400 (7.2) to a body that is not a JSON object', async () => {
    const sim = simulator();
    for (const payload of ['', '{"amount":', '[1]']) {
      const { response } = await send(sim, payload);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(mmBody('Validation', 'FormatError'));
    }
  });

  it('needs a collection Bearer token: 401 {error} otherwise', async () => {
    const sim = simulator();
    const disbursement = await rawClient(sim).token('disbursement');
    const { response } = await send(sim, body(), { Authorization: `Bearer ${disbursement}` });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'invalid_token' });
  });

  it('turns an unexpected failure into 500 internal/GenericError (7.2)', async () => {
    const handler = mmGuard(() => {
      throw new Error('boom');
    });
    const response = await handler({} as Parameters<typeof handler>[0]);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(mmBody('internal', 'GenericError'));
  });
});
