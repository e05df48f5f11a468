import {
  type Accepted,
  isServerError,
  type RetryInfo,
  type TransactionResult,
} from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  BASE,
  makeClient,
  tokenHandler,
  transferBody,
  useFakeService,
} from '../support/fake-service';

const service = useFakeService();

describe('a successful answer carries its request id', () => {
  it('on Accepted and on a lookup result, through a fetch (msw)', async () => {
    service.server.use(
      tokenHandler(),
      http.post(
        `${BASE}/disbursement/v1_0/deposit`,
        () => new HttpResponse(null, { status: 202, headers: { 'X-Request-Id': 'req-accept-1' } }),
      ),
      http.get(`${BASE}/disbursement/v1_0/deposit/:id`, () =>
        HttpResponse.json(
          { status: 'SUCCESSFUL', amount: '5', currency: 'EUR' },
          { headers: { 'apim-request-id': 'req-lookup-2' } },
        ),
      ),
    );
    const momo = makeClient();
    const accepted = await momo.disbursement.deposit(transferBody);
    expect(accepted.requestId).toBe('req-accept-1');
    const result = await accepted.status();
    expect(result.requestId).toBe('req-lookup-2');
    expect(result.status).toBe('SUCCESSFUL');
    expect((await accepted.wait()).requestId).toBe('req-lookup-2');
  });

  it('is absent when the provider sent none', async () => {
    service.server.use(
      tokenHandler(),
      http.post(`${BASE}/disbursement/v1_0/deposit`, () => new HttpResponse(null, { status: 202 })),
    );
    const accepted = await makeClient().disbursement.deposit(transferBody);
    expect('requestId' in accepted).toBe(false);
  });

  it('is typed as an optional string on Accepted and on results', () => {
    expectTypeOf<Accepted<TransactionResult>['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<TransactionResult['requestId']>().toEqualTypeOf<string | undefined>();
  });
});

describe('Retry-After is a field of every ApiError', () => {
  it('a 503 with Retry-After: the ServerError carries retryAfterMs and the retry loop waits that long', async () => {
    let lookups = 0;
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/deposit/:id`, () =>
        ++lookups === 1
          ? HttpResponse.json({ code: 'BUSY' }, { status: 503, headers: { 'Retry-After': '0.05' } })
          : HttpResponse.json({ status: 'PENDING' }),
      ),
    );
    const retries: RetryInfo[] = [];
    const momo = makeClient({ hooks: { onRetry: (info) => retries.push(info) } });
    await momo.disbursement.getDeposit(crypto.randomUUID());
    expect(retries.map((r) => [r.delayMs, r.error.name])).toEqual([[50, 'ServerError']]);
    const [retry] = retries;
    expect(isServerError(retry?.error) && retry.error.retryAfterMs).toBe(50);
  });

  it('a 503 without retries left: error.retryAfterMs is there for the poller to read', async () => {
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/deposit/:id`, () =>
        HttpResponse.json({ code: 'BUSY' }, { status: 503, headers: { 'Retry-After': '7' } }),
      ),
    );
    const error = await makeClient({ maxRetries: 0 })
      .disbursement.getDeposit(crypto.randomUUID())
      .catch((e: unknown) => e);
    expect(isServerError(error) && error.retryAfterMs).toBe(7_000);
  });
});
