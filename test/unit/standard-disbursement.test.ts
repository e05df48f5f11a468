import {
  isBadRequestError,
  isServerError,
  isValidationError,
  type StandardDisbursementBody,
} from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, tokenHandler, useFakeService } from '../support/fake-service';

const service = useFakeService();
const PATH = '/collection/v1.2/mm/Transactions/Type/Disbursement';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const body: StandardDisbursementBody = {
  requestingOrganisationTransactionReference: 'order-77',
  debitParty: [{ key: 'msisdn', value: '46733123999' }],
  creditParty: [{ key: 'accountid', value: 'a5d0b0b4-5b3c-4c3e-9f61-1f0c6f0a8e11' }],
  amount: '25.50',
  currency: 'EUR',
  descriptionText: 'Invoice 77',
  customData: [{ key: 'ownnote', value: 'paid in full' }],
};

const standardError = (status: number, errorCategory: string, errorCode: string) =>
  HttpResponse.json(
    {
      errorCategory,
      errorCode,
      errorDescription: `${errorCode} happened`,
      errorDateTime: '2026-11-21T10:00:00Z',
    },
    { status },
  );

/** The standard-style endpoint answering these responses in turn, then 202. */
function standardService(...answers: Array<() => Response>) {
  let n = 0;
  service.server.use(
    tokenHandler('collection'),
    http.post(`${BASE}${PATH}`, ({ request }) => {
      const next = answers[n++];
      if (next) return next();
      return HttpResponse.json(
        {
          serverCorrelationId: request.headers.get('x-correlationid'),
          status: 'pending',
          notificationMethod: request.headers.has('x-callback-url') ? 'callback' : 'polling',
        },
        { status: 202 },
      );
    }),
  );
  return () => service.seen.filter((s) => s.path === PATH);
}

describe('collection.standardDisbursement (4.6)', () => {
  it('sends X-CorrelationID and X-Account-Holding-Institution-Identifier, and resolves on 202', async () => {
    const sent = standardService();
    const momo = makeClient({ callbackUrl: 'https://partner.test/momo/{referenceId}' });
    const accepted = await momo.collection.standardDisbursement(body);

    const [request] = await service.settled().then(() => sent());
    expect(request?.method).toBe('POST');
    expect(request?.headers['x-correlationid']).toMatch(UUID_V4);
    expect(request?.headers['x-account-holding-institution-identifier']).toBe('sandbox');
    expect(request?.headers['x-target-environment']).toBeUndefined();
    expect(request?.headers['x-reference-id']).toBeUndefined();
    expect(request?.headers.authorization).toMatch(/^Bearer token-/);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-callback-url']).toBe(
      `https://partner.test/momo/${request?.headers['x-correlationid']}`,
    );
    expect(JSON.parse(request?.body ?? '')).toEqual(body);
    expect(accepted).toEqual({
      correlationId: request?.headers['x-correlationid'],
      serverCorrelationId: request?.headers['x-correlationid'],
      status: 'pending',
      notificationMethod: 'callback',
      callbackUrl: request?.headers['x-callback-url'],
      landedEarlier: false,
    });
  });

  it('uses the caller referenceId as the correlation id and a configured institution', async () => {
    const sent = standardService();
    const momo = makeClient({ accountHoldingInstitutionIdentifier: 'mtn-ug' });
    const correlationId = '7d3c2b1a-0f9e-4d8c-b7a6-554433221100';
    const accepted = await momo.collection.standardDisbursement(body, {
      referenceId: correlationId,
    });
    await service.settled();
    expect(sent()[0]?.headers['x-correlationid']).toBe(correlationId);
    expect(sent()[0]?.headers['x-account-holding-institution-identifier']).toBe('mtn-ug');
    expect(accepted).toMatchObject({ correlationId, notificationMethod: 'polling' });
  });

  it.each([
    ['11 debit parties', { debitParty: Array(11).fill(body.debitParty[0]) }, 'debitParty'],
    ['no debit party', { debitParty: [] }, 'debitParty'],
    ['a 161-character descriptionText', { descriptionText: 'x'.repeat(161) }, 'descriptionText'],
    [
      '21 customData entries',
      { customData: Array(21).fill({ key: 'k', value: 'v' }) },
      'customData',
    ],
    [
      'a 257-character customData value',
      { customData: [{ key: 'k', value: 'v'.repeat(257) }] },
      'customData.0.value',
    ],
    [
      'a credit party key other than accountid',
      { creditParty: [{ key: 'msisdn', value: '46733123999' }] },
      'creditParty.0.key',
    ],
    ['11 credit parties', { creditParty: Array(11).fill(body.creditParty?.[0]) }, 'creditParty'],
    ['a 24-character amount', { amount: `1${'0'.repeat(20)}.50` }, 'amount'],
    [
      'a 257-character reference',
      { requestingOrganisationTransactionReference: 'r'.repeat(257) },
      'requestingOrganisationTransactionReference',
    ],
    ['an unknown party key', { debitParty: [{ key: 'iban', value: 'x' }] }, 'debitParty.0.key'],
  ])('refuses %s with nothing sent', async (_, change, field) => {
    standardService();
    const error = await makeClient()
      .collection.standardDisbursement({ ...body, ...change } as StandardDisbursementBody)
      .catch((e: unknown) => e);
    expect(isValidationError(error)).toBe(true);
    expect(error).toMatchObject({ field });
    expect(service.seen).toHaveLength(0);
  });

  it('accepts a 202 without its body, filling the answer from what was sent', async () => {
    standardService(() => new Response(null, { status: 202 }));
    const accepted = await makeClient().collection.standardDisbursement(body);
    expect(accepted).toEqual({
      correlationId: expect.stringMatching(UUID_V4),
      serverCorrelationId: accepted.correlationId,
      status: 'pending',
      notificationMethod: 'polling',
      landedEarlier: false,
    });
  });

  it('maps a 7.2 error into the error tree with .category', async () => {
    standardService(() => standardError(400, 'BusinessRule', 'InsufficientFunds'));
    const error = await makeClient()
      .collection.standardDisbursement(body)
      .catch((e: unknown) => e);
    expect(isBadRequestError(error)).toBe(true);
    expect(error).toMatchObject({
      status: 400,
      category: 'BusinessRule',
      code: 'InsufficientFunds',
      operation: 'collection.standardDisbursement',
    });
    expect((error as Error).message).toContain('InsufficientFunds happened');
  });

  it('a DuplicateRequest on a retry means the first attempt landed', async () => {
    const sent = standardService(
      () => standardError(500, 'internal', 'GenericError'),
      () => standardError(400, 'BusinessRule', 'DuplicateRequest'),
    );
    const accepted = await makeClient().collection.standardDisbursement(body);
    const ids = sent().map((s) => s.headers['x-correlationid']);
    expect(ids).toHaveLength(2);
    expect(new Set(ids)).toEqual(new Set([accepted.correlationId]));
    expect(accepted).toMatchObject({
      status: 'pending',
      serverCorrelationId: ids[0],
      landedEarlier: true, // told apart from a fresh 202
    });
  });

  it('a DuplicateRequest on the first attempt is an error, not retried', async () => {
    const sent = standardService(() => standardError(400, 'BusinessRule', 'DuplicateRequest'));
    const error = await makeClient()
      .collection.standardDisbursement(body)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'DuplicateRequest', category: 'BusinessRule' });
    expect(sent()).toHaveLength(1);
  });

  it('gives up on a 500 (7.2) after the retries, as ServerError', async () => {
    const internal = () => standardError(500, 'internal', 'GenericError');
    standardService(internal, internal, internal);
    const error = await makeClient()
      .collection.standardDisbursement(body)
      .catch((e: unknown) => e);
    expect(isServerError(error)).toBe(true);
    expect(error).toMatchObject({ category: 'internal', code: 'GenericError' });
  });
});
