import { InMemoryJournal, isValidationError } from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE, makeClient, tokenHandler, useFakeService } from '../support/fake-service';

// Collection's pre-approvals, invoices and payments (DESIGN 7.1) on the wire, against
// msw handlers written here: method, exact path, headers, body and the parsed result.

const service = useFakeService();
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CALLBACK = 'https://partner.test/momo/{referenceId}';
const payer = { partyIdType: 'MSISDN', partyId: '46733123453' } as const;
const payee = { partyIdType: 'MSISDN', partyId: '46733123454' } as const;
const preApproval = {
  payer,
  payerCurrency: 'EUR',
  payerMessage: 'Monthly plan',
  validityTime: 3600,
};
const invoice = {
  externalId: 'inv-1',
  amount: '20',
  currency: 'EUR',
  validityDuration: '3600',
  intendedPayer: payer,
  payee,
  description: 'Invoice 1',
};
const payment = {
  externalTransactionId: 'pay-1',
  money: { amount: '15', currency: 'EUR' },
  customerReference: '46733123454',
  serviceProviderUserName: 'Electricity Inc',
};

/** A lookup answering each of `results` in turn (the last one again after that). */
function lookupAnswers(path: string, ...results: object[]) {
  let n = 0;
  return http.get(`${BASE}${path}`, () =>
    HttpResponse.json(results[Math.min(n++, results.length - 1)] as object),
  );
}

const accepted = (path: string, method: 'post' | 'put' = 'post') =>
  http[method](`${BASE}${path}`, () => new Response(null, { status: 202 }));

function expectCreating(path: string, method: string, body: object) {
  const request = service.seen.find((s) => s.path === path && s.method === method);
  expect(request, `${method} ${path}`).toBeDefined();
  expect(request?.headers['x-reference-id']).toMatch(UUID_V4);
  expect(request?.headers.authorization).toMatch(/^Bearer token-/);
  expect(request?.headers['x-target-environment']).toBe('sandbox');
  expect(request?.headers['content-type']).toBe('application/json');
  expect(JSON.parse(request?.body ?? '')).toEqual(body);
  return request;
}

describe('pre-approvals', () => {
  it('preApproval: POST /collection/v2_0/preapproval, callback URL, wait() to SUCCESSFUL', async () => {
    service.server.use(tokenHandler('collection'), accepted('/collection/v2_0/preapproval'));
    const momo = makeClient({ callbackUrl: CALLBACK });
    const op = await momo.collection.preApproval(preApproval);
    service.server.use(
      lookupAnswers(
        `/collection/v2_0/preapproval/${op.referenceId}`,
        { status: 'PENDING', payer, payerCurrency: 'EUR' },
        {
          status: 'SUCCESSFUL',
          payer,
          payerCurrency: 'EUR',
          expirationDateTime: 1767225600,
          extra: 1,
        },
      ),
    );
    const final = await op.wait();
    await service.settled();
    const request = expectCreating('/collection/v2_0/preapproval', 'POST', preApproval);
    expect(request?.headers['x-reference-id']).toBe(op.referenceId);
    expect(request?.headers['x-callback-url']).toBe(`https://partner.test/momo/${op.referenceId}`);
    expect(final).toEqual({
      referenceId: op.referenceId,
      status: 'SUCCESSFUL',
      payer,
      payerCurrency: 'EUR',
      expirationDateTime: 1767225600,
      unknownFields: { extra: 1 },
    });
  });

  it('getApprovedPreApprovals: GET /collection/v1_0/preapprovals/{idType}/{id}, a tolerant list', async () => {
    service.server.use(
      tokenHandler('collection'),
      http.get(`${BASE}/collection/v1_0/preapprovals/msisdn/46733123453`, () =>
        HttpResponse.json([
          {
            preApprovalId: 'pa-1',
            status: 'APPROVED',
            frequency: 'MONTHLY',
            offer: 'Plan',
            newField: true,
          },
        ]),
      ),
    );
    const list = await makeClient().collection.getApprovedPreApprovals('msisdn', '46733123453');
    expect(list).toEqual([
      {
        preApprovalId: 'pa-1',
        status: 'APPROVED',
        frequency: 'MONTHLY',
        offer: 'Plan',
        unknownFields: { newField: true },
      },
    ]);
  });

  it('cancelPreApproval: DELETE /collection/v1_0/preapproval/{preApprovalId}, no body, no reference id', async () => {
    service.server.use(
      tokenHandler('collection'),
      http.delete(
        `${BASE}/collection/v1_0/preapproval/pa-1`,
        () => new Response(null, { status: 200 }),
      ),
    );
    await expect(makeClient().collection.cancelPreApproval('pa-1')).resolves.toBeUndefined();
    const [request] = (await service.settled()).filter((s) => s.method === 'DELETE');
    expect(request?.path).toBe('/collection/v1_0/preapproval/pa-1');
    expect(request?.body).toBe('');
    expect(request?.headers['x-reference-id']).toBeUndefined();
  });

  it.each([
    ['validityTime', { ...preApproval, validityTime: 1.5 }],
    ['payer.partyId', { ...preApproval, payer: { partyIdType: 'MSISDN', partyId: 'abc' } }],
    ['payerCurrency', { ...preApproval, payerCurrency: 'euro' }],
    ['surprise', { ...preApproval, surprise: 1 }],
  ])('preApproval with a bad %s: ValidationError naming it, nothing sent', async (field, body) => {
    const error = await makeClient()
      .collection.preApproval(body as never)
      .catch((e: unknown) => e);
    expect(isValidationError(error)).toBe(true);
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain(field);
    expect(service.seen).toEqual([]);
  });
});

describe('invoices', () => {
  it('createInvoice: POST /collection/v2_0/invoice; CREATED is not final; FAILED carries errorReason as reason', async () => {
    service.server.use(tokenHandler('collection'), accepted('/collection/v2_0/invoice'));
    const momo = makeClient();
    const op = await momo.collection.createInvoice(invoice);
    const seen: string[] = [];
    service.server.use(
      lookupAnswers(
        `/collection/v2_0/invoice/${op.referenceId}`,
        { status: 'CREATED', amount: '20', currency: 'EUR', invoiceId: 42 },
        { status: 'FAILED', errorReason: { code: 'EXPIRED', message: 'validity ran out' } },
      ),
    );
    const final = await momo.collection.waitForInvoice(op.referenceId, {
      onStatus: (r) => seen.push(r.status),
    });
    expectCreating('/collection/v2_0/invoice', 'POST', invoice);
    expect(seen).toEqual(['CREATED', 'FAILED']);
    expect(final).toMatchObject({
      status: 'FAILED',
      reason: { code: 'EXPIRED', message: 'validity ran out' },
      errorReason: { code: 'EXPIRED' },
    });
  });

  it('cancelInvoice: DELETE with { externalId }, its own X-Reference-Id kept across a retry', async () => {
    const invoiceId = '0b5b6a0e-51a1-4c4f-9c39-2d8f6a4a1e77';
    let attempts = 0;
    service.server.use(
      tokenHandler('collection'),
      http.delete(`${BASE}/collection/v2_0/invoice/${invoiceId}`, () =>
        ++attempts === 1
          ? HttpResponse.json({ code: 'SERVICE_UNAVAILABLE' }, { status: 503 })
          : HttpResponse.json({ externalId: 'inv-1' }),
      ),
    );
    const journal = new InMemoryJournal();
    const momo = makeClient({ callbackUrl: CALLBACK, journal });
    const cancelled = await momo.collection.cancelInvoice(invoiceId, { externalId: 'inv-1' });
    const deletes = (await service.settled()).filter((s) => s.method === 'DELETE');
    expect(deletes).toHaveLength(2);
    const ids = deletes.map((d) => d.headers['x-reference-id']);
    expect(ids[0]).toMatch(UUID_V4);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[0]).not.toBe(invoiceId);
    expect(deletes.map((d) => JSON.parse(d.body))).toEqual([
      { externalId: 'inv-1' },
      { externalId: 'inv-1' },
    ]);
    expect(deletes[0]?.headers['x-callback-url']).toBe(`https://partner.test/momo/${ids[0]}`);
    expect(cancelled).toEqual({
      referenceId: ids[0],
      invoiceReferenceId: invoiceId,
      callbackUrl: `https://partner.test/momo/${ids[0]}`,
    });
    expect(await momo.journal.pending()).toEqual([]); // its 200 is its outcome
  });

  it('createInvoice without validityDuration: ValidationError naming it, nothing sent', async () => {
    const { validityDuration: _, ...body } = invoice;
    const error = await makeClient()
      .collection.createInvoice(body as never)
      .catch((e: unknown) => e);
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      'validityDuration',
    ]);
    expect(service.seen).toEqual([]);
  });
});

describe('payments', () => {
  it('createPayment: retried under one X-Reference-Id; 409 on the retry means it landed', async () => {
    let attempts = 0;
    service.server.use(
      tokenHandler('collection'),
      http.post(`${BASE}/collection/v2_0/payment`, () =>
        ++attempts === 1
          ? HttpResponse.json({ code: 'INTERNAL_PROCESSING_ERROR' }, { status: 500 })
          : HttpResponse.json({ code: 'RESOURCE_ALREADY_EXIST' }, { status: 409 }),
      ),
    );
    const momo = makeClient({ polling: { initialDelayMs: 10, maxDelayMs: 20, timeoutMs: 5_000 } });
    const op = await momo.collection.createPayment(payment);
    service.server.use(
      lookupAnswers(`/collection/v2_0/payment/${op.referenceId}`, {
        status: 'SUCCESSFUL',
        financialTransactionId: 123,
      }),
    );
    const posts = (await service.settled()).filter(
      (s) => s.method === 'POST' && s.path.endsWith('/payment'),
    );
    expect(posts.map((p) => p.headers['x-reference-id'])).toEqual([op.referenceId, op.referenceId]);
    expect(JSON.parse(posts[0]?.body ?? '')).toEqual(payment);
    expect(await op.wait()).toMatchObject({ status: 'SUCCESSFUL', financialTransactionId: '123' });
  });

  it('createPayment with a bad money.amount: ValidationError naming it, nothing sent', async () => {
    const error = await makeClient()
      .collection.createPayment({ ...payment, money: { amount: '-1', currency: 'EUR' } })
      .catch((e: unknown) => e);
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      'money.amount',
    ]);
    expect(service.seen).toEqual([]);
  });
});

describe('the journal: each new creating call is resumed by another client', () => {
  it.each([
    ['preApproval', '/collection/v2_0/preapproval', '/collection/v2_0/preapproval/'],
    ['createInvoice', '/collection/v2_0/invoice', '/collection/v2_0/invoice/'],
    ['createPayment', '/collection/v2_0/payment', '/collection/v2_0/payment/'],
    [
      'requestToWithdrawV1',
      '/collection/v1_0/requesttowithdraw',
      '/collection/v1_0/requesttowithdraw/',
    ],
  ] as const)('%s', async (method, create, lookup) => {
    service.server.use(tokenHandler('collection'), accepted(create));
    const journal = new InMemoryJournal();
    const bodies = {
      preApproval,
      createInvoice: invoice,
      createPayment: payment,
      requestToWithdrawV1: { amount: '5', currency: 'EUR', payer },
    };
    const call = makeClient({ journal }).collection[method] as (
      body: unknown,
    ) => PromiseLike<{ referenceId: string }>;
    const { referenceId } = await call.call(makeClient({ journal }).collection, bodies[method]);
    expect((await journal.pending()).map((e) => [e.operation, e.referenceId])).toEqual([
      [`collection.${method}`, referenceId],
    ]);
    service.server.use(lookupAnswers(`${lookup}${referenceId}`, { status: 'SUCCESSFUL' }));
    const outcomes = await makeClient({ journal }).journal.resume();
    expect(outcomes.map((o) => [o.entry.referenceId, o.status])).toEqual([
      [referenceId, 'SUCCESSFUL'],
    ]);
    expect(service.seen.filter((s) => s.path === create)).toHaveLength(1); // never sent again
  });
});
