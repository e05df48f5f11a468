import {
  isApiError,
  isMomoError,
  isNotFoundError,
  isServerError,
  type MomoError,
} from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  BASE,
  makeClient,
  SECRETS,
  tokenHandler,
  transferBody,
  useFakeService,
} from '../support/fake-service';
import { renderings } from '../support/renderings';

const service = useFakeService();
const basic = Buffer.from(`${SECRETS.apiUserId}:${SECRETS.apiKey}`).toString('base64');

function expectNoSecrets(text: string, tokens: string[] = []) {
  for (const secret of [SECRETS.subscriptionKey, SECRETS.apiKey, basic, ...tokens]) {
    expect(text).not.toContain(secret);
  }
}

describe('error bodies', () => {
  it('reads {code, message} (spec 7.1)', async () => {
    service.server.use(
      tokenHandler(),
      http.post(`${BASE}/disbursement/v1_0/deposit`, () =>
        HttpResponse.json(
          { code: 'PAYEE_NOT_FOUND', message: 'Payee does not exist' },
          { status: 400 },
        ),
      ),
    );
    const error = await makeClient()
      .disbursement.deposit(transferBody)
      .catch((e) => e);
    expect(error).toMatchObject({
      name: 'BadRequestError',
      status: 400,
      code: 'PAYEE_NOT_FOUND',
      operation: 'disbursement.deposit',
    });
    expect(error.message).toContain('Payee does not exist');
    expect(isApiError(error) && isMomoError(error)).toBe(true);
  });

  it('reads the standard-style body (spec 7.2) with its category', async () => {
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/account/balance`, () =>
        HttpResponse.json(
          {
            errorCategory: 'Identification',
            errorCode: 'IdentifierError',
            errorDescription: 'Account not found',
            errorDateTime: '2026-11-21T10:00:00Z',
          },
          { status: 404 },
        ),
      ),
    );
    const error = await makeClient()
      .disbursement.getBalance()
      .catch((e) => e);
    expect(isNotFoundError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'IdentifierError', category: 'Identification' });
  });

  it('keeps a 5xx without a body as a ServerError', async () => {
    service.server.use(
      tokenHandler(),
      http.get(
        `${BASE}/disbursement/v1_0/account/balance`,
        () => new Response(null, { status: 502 }),
      ),
    );
    const error = await makeClient({ maxRetries: 0 })
      .disbursement.getBalance()
      .catch((e) => e);
    expect(isServerError(error)).toBe(true);
  });
});

describe('secrets', () => {
  it('never appear in errors, even when the server echoes them', async () => {
    let token = '';
    service.server.use(
      tokenHandler(),
      http.post(`${BASE}/disbursement/v1_0/deposit`, ({ request }) => {
        token = request.headers.get('authorization')?.slice(7) ?? '';
        return HttpResponse.json(
          {
            code: 'NOT_ALLOWED',
            message: `rejected ${request.headers.get('ocp-apim-subscription-key')} ${request.headers.get('authorization')}`,
          },
          { status: 400 },
        );
      }),
    );
    const error: MomoError = await makeClient()
      .disbursement.deposit(transferBody)
      .catch((e) => e);
    expect(token).not.toBe('');
    expectNoSecrets(renderings(error), [token]);
    expect(error.message).toContain('[redacted]');
  });

  it('never appear in connection errors', async () => {
    service.server.use(
      tokenHandler(),
      http.get(`${BASE}/disbursement/v1_0/account/balance`, () => HttpResponse.error()),
    );
    const error = await makeClient({ maxRetries: 0 })
      .disbursement.getBalance()
      .catch((e) => e);
    expect(error.name).toBe('ConnectionError');
    expectNoSecrets(renderings(error));
    expectNoSecrets(renderings(error.cause));
  });

  it('never appear when the client, its products or tokens are inspected', async () => {
    service.server.use(tokenHandler());
    const momo = makeClient();
    const token = await momo.disbursement.getAccessToken();
    for (const value of [momo, momo.disbursement, token])
      expectNoSecrets(renderings(value), [token.accessToken]);
  });

  it('never reach the logger', async () => {
    const lines: string[] = [];
    const record = (message: string, fields?: unknown) =>
      void lines.push(message + JSON.stringify(fields));
    service.server.use(
      tokenHandler(),
      http.post(`${BASE}/disbursement/v1_0/deposit`, () => new Response(null, { status: 503 })),
    );
    const logger = { debug: record, info: record, warn: record, error: record };
    await makeClient({ logger, logLevel: 'debug', maxRetries: 1 })
      .disbursement.deposit(transferBody)
      .catch(() => {});
    expect(lines.length).toBeGreaterThan(2);
    const tokens = service.seen.map((s) => s.headers.authorization?.slice(7) ?? '');
    expectNoSecrets(
      lines.join('\n'),
      tokens.filter((t) => t.length > 8),
    );
  });
});
