import {
  ConsentToken,
  isBadRequestError,
  isConsentDeniedError,
  isConsentExpiredError,
  isValidationError,
  isWaitTimeoutError,
} from 'momo-partner-sdk';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE, makeClient, SECRETS, tokenHandler, useFakeService } from '../support/fake-service';

const service = useFakeService();
const AUTHORIZE = '/collectionwithnewcapabilities/v1_0/bc-authorize';
const TOKEN = '/collection/oauth2/token/';
const AUTH_REQ_ID = '5b1c5d3e-2f6a-4c8b-9d0e-1f2a3b4c5d6e';

/** bc-authorize answering with this interval and expiry; token polls answered in turn. */
function consentService(
  { interval = 5, expiresIn = 120 }: { interval?: number; expiresIn?: number },
  ...answers: Array<string | 'token'>
) {
  const polledAt: number[] = [];
  let n = 0;
  service.server.use(
    tokenHandler('collection'),
    http.post(`${BASE}${AUTHORIZE}`, () =>
      HttpResponse.json({ auth_req_id: AUTH_REQ_ID, interval, expires_in: expiresIn }),
    ),
    http.post(`${BASE}${TOKEN}`, () => {
      polledAt.push(Date.now());
      const answer = answers[Math.min(n++, answers.length - 1)] ?? 'authorization_pending';
      if (answer !== 'token') return HttpResponse.json({ error: answer }, { status: 400 });
      return HttpResponse.json({
        access_token: 'consent-token-abcdefghijkl',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'profile',
        refresh_token: 'b6f1f2a4-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
        refresh_token_expired_in: 86_400,
      });
    }),
  );
  return polledAt;
}

const request = { msisdn: '46733123999', scope: 'profile', accessType: 'offline' } as const;

afterEach(() => {
  vi.useRealTimers();
});

describe('momo.consent.authorize (4.21) and getToken (4.9)', () => {
  it('sends form-encoded bodies: Bearer to bc-authorize, Basic to the token endpoint', async () => {
    consentService({ interval: 1 }, 'token');
    const momo = makeClient();
    const consent = await momo.consent.authorize({ ...request, consentValidIn: 3600 });
    expect(consent).toMatchObject({ authReqId: AUTH_REQ_ID, interval: 1, expiresIn: 120 });
    const token = await momo.consent.getToken(consent.authReqId);

    const [, authorize, poll] = await service.settled();
    expect(authorize).toMatchObject({ method: 'POST', path: AUTHORIZE });
    expect(authorize?.headers.authorization).toMatch(/^Bearer token-\d+-/);
    expect(authorize?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(authorize?.headers['x-target-environment']).toBe('sandbox');
    expect(authorize?.headers['ocp-apim-subscription-key']).toBe(SECRETS.subscriptionKey);
    expect(Object.fromEntries(new URLSearchParams(authorize?.body))).toEqual({
      login_hint: 'ID:46733123999/MSISDN',
      scope: 'profile',
      access_type: 'offline',
      consent_valid_in: '3600',
    });

    const basic = Buffer.from(`${SECRETS.apiUserId}:${SECRETS.apiKey}`).toString('base64');
    expect(poll).toMatchObject({ method: 'POST', path: TOKEN });
    expect(poll?.headers.authorization).toBe(`Basic ${basic}`);
    expect(poll?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(poll?.headers['x-target-environment']).toBe('sandbox');
    expect(Object.fromEntries(new URLSearchParams(poll?.body))).toEqual({
      grant_type: 'urn:openid:params:grant-type:ciba',
      auth_req_id: AUTH_REQ_ID,
    });

    expect(token).toBeInstanceOf(ConsentToken);
    expect(token).toMatchObject({ accessToken: 'consent-token-abcdefghijkl', scope: 'profile' });
    expect(JSON.stringify(token)).not.toContain('consent-token-abcdefghijkl');
  });

  it('sends X-Callback-Url only when one is given for this request', async () => {
    consentService({}, 'token');
    const momo = makeClient({ callbackUrl: 'https://partner.test/momo/{referenceId}' });
    await momo.consent.authorize(request);
    await momo.consent.authorize({ ...request, callbackUrl: 'https://partner.test/consent' });
    const calls = (await service.settled()).filter((s) => s.path === AUTHORIZE);
    expect(calls[0]?.headers['x-callback-url']).toBeUndefined();
    expect(calls[1]?.headers['x-callback-url']).toBe('https://partner.test/consent');
  });

  it('refuses bad input before sending anything', async () => {
    consentService({}, 'token');
    const momo = makeClient();
    const error = await momo.consent
      .authorize({ msisdn: '0123', scope: ' ', accessType: 'forever' as 'online' })
      .catch((e: unknown) => e);
    expect(isValidationError(error)).toBe(true);
    expect(error).toMatchObject({ field: 'msisdn' });
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      'msisdn',
      'scope',
      'accessType',
    ]);
    expect(service.seen).toHaveLength(0);
  });

  it('getToken reports a pending request as BadRequestError with its CIBA code', async () => {
    consentService({}, 'authorization_pending');
    const error = await makeClient()
      .consent.getToken(AUTH_REQ_ID)
      .catch((e: unknown) => e);
    expect(isBadRequestError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'authorization_pending', status: 400 });
  });
});

describe('ConsentRequest.wait()', () => {
  const fake = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });

  it('never polls faster than interval, and adds 5 s after slow_down', async () => {
    fake();
    const polledAt = consentService(
      { interval: 5, expiresIn: 300 },
      'authorization_pending',
      'slow_down',
      'authorization_pending',
      'token',
    );
    const momo = makeClient();
    const consent = await momo.consent.authorize(request);
    const startedAt = Date.now();
    const pending: Array<{ polls: number; intervalSeconds: number }> = [];
    const token = consent.wait({ onPending: (info) => pending.push(info) });

    await vi.advanceTimersByTimeAsync(4_999);
    expect(polledAt).toHaveLength(0); // not before the first interval
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(token).resolves.toBeInstanceOf(ConsentToken);

    const gaps = [polledAt[0] ?? 0, ...polledAt.slice(1)].map(
      (at, i) => at - (i === 0 ? startedAt : (polledAt[i - 1] ?? 0)),
    );
    expect(gaps[0]).toBeGreaterThanOrEqual(5_000);
    expect(gaps[1]).toBeGreaterThanOrEqual(5_000);
    expect(gaps[2]).toBeGreaterThanOrEqual(10_000); // after slow_down
    expect(gaps[3]).toBeGreaterThanOrEqual(10_000); // and for good
    expect(pending.map((p) => p.intervalSeconds)).toEqual([5, 10, 10]);
  });

  it('without expires_in, waits up to polling.timeoutMs', async () => {
    fake();
    consentService({ interval: 1, expiresIn: 0 }, 'authorization_pending');
    const momo = makeClient({ polling: { timeoutMs: 10_000 } });
    const consent = await momo.consent.authorize(request);
    expect(consent.expiresIn).toBe(10);
    const outcome = consent.wait().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(vi.getTimerCount()).toBe(1); // still waiting
    await vi.advanceTimersByTimeAsync(10_000);
    expect(isConsentExpiredError(await outcome)).toBe(true);
  });

  it('throws ConsentDeniedError on access_denied', async () => {
    fake();
    consentService({ interval: 2 }, 'authorization_pending', 'access_denied');
    const consent = await makeClient().consent.authorize(request);
    const outcome = consent.wait().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await outcome;
    expect(isConsentDeniedError(error)).toBe(true);
    expect(error).toMatchObject({ referenceId: AUTH_REQ_ID });
  });

  it('throws ConsentExpiredError on expired_token', async () => {
    fake();
    consentService({ interval: 2 }, 'expired_token');
    const consent = await makeClient().consent.authorize(request);
    const outcome = consent.wait().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(isConsentExpiredError(await outcome)).toBe(true);
  });

  it('gives up at expires_in without another poll', async () => {
    fake();
    const polledAt = consentService({ interval: 5, expiresIn: 12 }, 'authorization_pending');
    const consent = await makeClient().consent.authorize(request);
    const outcome = consent.wait().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(isConsentExpiredError(await outcome)).toBe(true);
    expect(polledAt).toHaveLength(2); // at 5 s and 10 s; 15 s would be past expiry
  });

  it('rides out a failing token endpoint and honours timeoutMs and abort', async () => {
    fake();
    consentService({ interval: 1, expiresIn: 600 }, 'authorization_pending');
    const momo = makeClient({ maxRetries: 0 });
    const consent = await momo.consent.authorize(request);
    const timedOut = consent.wait({ timeoutMs: 3_500 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(isWaitTimeoutError(await timedOut)).toBe(true);

    const controller = new AbortController();
    const aborted = consent.wait({ signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_500);
    controller.abort(new Error('shutting down'));
    expect(await aborted).toMatchObject({ message: 'shutting down' });
  });

  it('returns a ConsentToken that the consent-based calls accept', async () => {
    consentService({ interval: 0.01 }, 'token');
    service.server.use(
      http.post(
        `${BASE}/disbursement/oauth2/v1_0/transfer`,
        () => new Response(null, { status: 202 }),
      ),
    );
    const momo = makeClient();
    const token = await (await momo.consent.authorize(request)).wait();
    await momo.disbursement.transferWithConsent({ amount: '5' }, { consent: token });
    const transfer = (await service.settled()).find((s) =>
      s.path.endsWith('/oauth2/v1_0/transfer'),
    );
    expect(transfer?.headers.authorization).toBe('Bearer consent-token-abcdefghijkl');
  });
});
