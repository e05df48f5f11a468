import { afterEach, describe, expect, it, vi } from 'vitest';
import { rawClient, type Sim, simulator, uuidv4 } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

const CIBA = 'urn:openid:params:grant-type:ciba';

async function authorize(
  sim: Sim,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const http = rawClient(sim);
  const form = new URLSearchParams({
    login_hint: 'ID:46700000001/MSISDN',
    scope: 'profile',
    access_type: 'offline',
    ...fields,
  });
  return http.send('POST', '/collectionwithnewcapabilities/v1_0/bc-authorize', {
    headers: {
      Authorization: `Bearer ${await http.token('collection')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: form.toString(),
  });
}

async function start(sim: Sim, msisdn = '46700000001', fields: Record<string, string> = {}) {
  const response = await authorize(sim, { login_hint: `ID:${msisdn}/MSISDN`, ...fields });
  expect(response.status).toBe(200);
  return ((await response.json()) as { auth_req_id: string }).auth_req_id;
}

function poll(sim: Sim, authReqId: string, fields: Record<string, string> = {}) {
  const http = rawClient(sim);
  return http.send('POST', '/collection/oauth2/token/', {
    headers: {
      Authorization: http.basic(),
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: CIBA,
      auth_req_id: authReqId,
      ...fields,
    }).toString(),
  });
}

async function pollError(sim: Sim, authReqId: string): Promise<string> {
  const response = await poll(sim, authReqId);
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: string; error_description: string };
  expect(body.error_description).toEqual(expect.any(String));
  return body.error;
}

describe('simulator: bc-authorize (spec 4.21)', () => {
  it('answers 200 {auth_req_id, interval, expires_in} and records the request', async () => {
    const sim = simulator({ consentIntervalSeconds: 2, consentExpiresInSeconds: 30 });
    const response = await authorize(sim, {}, { 'X-Callback-Url': 'https://partner.example/c' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({ auth_req_id: expect.any(String), interval: 2, expires_in: 30 });
    expect(sim.consentRequests).toEqual([
      {
        authReqId: body.auth_req_id,
        msisdn: '46700000001',
        scope: 'profile',
        accessType: 'offline',
        status: 'pending',
        tokenIssued: false,
        polls: 0,
        interval: 2,
        expiresAt: expect.any(Number),
        callbackUrl: 'https://partner.example/c',
      },
    ]);
    expect(sim.callbacks).toEqual([]); // no consent callback payload is specified
  });

  it('defaults to interval 1 and expires_in 120, and reads a JSON-typed body as a form', async () => {
    const sim = simulator();
    const response = await authorize(sim, {}, { 'Content-Type': 'application/json' });
    expect(await response.json()).toMatchObject({ interval: 1, expires_in: 120 });
  });

  it.each([
    ['a login_hint without ID:/MSISDN', { login_hint: '46700000001' }],
    ['a login_hint with a bad MSISDN', { login_hint: 'ID:abc/MSISDN' }],
    ['an empty scope', { scope: '' }],
    ['a bad access_type', { access_type: 'forever' }],
    ['a bad consent_valid_in', { consent_valid_in: '-5' }],
  ])('answers 400 invalid_request to %s', async (_, fields) => {
    const sim = simulator();
    const response = await authorize(sim, fields);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      error_description: expect.any(String),
    });
    expect(sim.consentRequests).toEqual([]);
  });

  it('needs a collection access token', async () => {
    const sim = simulator();
    const disbursement = await rawClient(sim).token('disbursement');
    const response = await authorize(sim, {}, { Authorization: `Bearer ${disbursement}` });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'invalid_token' });
  });
});

describe('simulator: consent token (spec 4.9)', () => {
  it('answers authorization_pending, then a consent token on the next on-time poll', async () => {
    vi.useFakeTimers();
    const sim = simulator({ tokenTtlSeconds: 3600 });
    const authReqId = await start(sim, '46700000007', { consent_valid_in: '600' });
    expect(await pollError(sim, authReqId)).toBe('authorization_pending');
    vi.advanceTimersByTime(1_000);
    const response = await poll(sim, authReqId);
    expect(response.status).toBe(200);
    const token = await response.json();
    expect(token).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'profile',
      refresh_token: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/),
      refresh_token_expired_in: 600,
    });
    expect(sim.consentRequests[0]).toMatchObject({
      status: 'approved',
      tokenIssued: true,
      polls: 2,
    });
    // The token works where consent is needed, and only there.
    const http = rawClient(sim);
    const userinfo = await http.get('/remittance/oauth2/v1_0/userinfo', token.access_token);
    expect(await userinfo.json()).toMatchObject({ sub: '46700000007' });
    const transfer = await http.create(
      '/disbursement/oauth2/v1_0/transfer',
      { amount: '5' },
      { token: token.access_token },
    );
    expect(transfer.response.status).toBe(202);
    // The auth_req_id is spent.
    vi.advanceTimersByTime(1_000);
    expect(await pollError(sim, authReqId)).toBe('invalid_grant');
  });

  it('defaults refresh_token_expired_in to 30 days', async () => {
    const sim = simulator({ consentIntervalSeconds: 0 });
    const authReqId = await start(sim);
    await poll(sim, authReqId);
    const response = await poll(sim, authReqId);
    expect(await response.json()).toMatchObject({ refresh_token_expired_in: 2_592_000 });
  });

  it('answers slow_down to a poll sooner than interval, and grows the interval by 5 s', async () => {
    vi.useFakeTimers();
    const sim = simulator({ consentIntervalSeconds: 2 });
    const authReqId = await start(sim);
    expect(await pollError(sim, authReqId)).toBe('authorization_pending');
    vi.advanceTimersByTime(1_500);
    expect(await pollError(sim, authReqId)).toBe('slow_down');
    expect(sim.consentRequests[0]?.interval).toBe(7);
    vi.advanceTimersByTime(6_000); // measured from the previous request, now 7 s
    expect(await pollError(sim, authReqId)).toBe('slow_down');
    expect(sim.consentRequests[0]?.interval).toBe(12);
    vi.advanceTimersByTime(12_000);
    expect((await poll(sim, authReqId)).status).toBe(200);
  });

  it('tolerates a poll up to 100 ms early (network jitter), not more', async () => {
    vi.useFakeTimers();
    const sim = simulator({ consentIntervalSeconds: 2 });
    const early = await start(sim);
    const late = await start(sim);
    await poll(sim, early);
    await poll(sim, late);
    vi.advanceTimersByTime(1_899);
    expect(await pollError(sim, late)).toBe('slow_down');
    vi.advanceTimersByTime(1);
    expect((await poll(sim, early)).status).toBe(200); // 100 ms early: on time
  });

  it('46733123451: access_denied on the first poll, and after', async () => {
    vi.useFakeTimers();
    const sim = simulator();
    const authReqId = await start(sim, '46733123451');
    expect(await pollError(sim, authReqId)).toBe('access_denied');
    vi.advanceTimersByTime(1_000);
    expect(await pollError(sim, authReqId)).toBe('access_denied');
    expect(sim.consentRequests[0]?.status).toBe('denied');
  });

  it('46733123452: expired_token on the first poll', async () => {
    const sim = simulator();
    const authReqId = await start(sim, '46733123452');
    expect(await pollError(sim, authReqId)).toBe('expired_token');
    expect(sim.consentRequests[0]?.status).toBe('expired');
  });

  it('46733123453: authorization_pending until expires_in, then expired_token', async () => {
    vi.useFakeTimers();
    const sim = simulator({ consentExpiresInSeconds: 10 });
    const authReqId = await start(sim, '46733123453');
    for (let i = 0; i < 9; i += 1) {
      expect(await pollError(sim, authReqId)).toBe('authorization_pending');
      vi.advanceTimersByTime(1_000);
    }
    expect(await pollError(sim, authReqId)).toBe('authorization_pending'); // at 9 s
    vi.advanceTimersByTime(1_000);
    expect(await pollError(sim, authReqId)).toBe('expired_token');
    expect(sim.consentRequests[0]).toMatchObject({ status: 'expired', polls: 11 });
  });

  it('expires any request after expires_in, even a default one', async () => {
    vi.useFakeTimers();
    const sim = simulator({ consentExpiresInSeconds: 5 });
    const authReqId = await start(sim);
    vi.advanceTimersByTime(5_000);
    expect(sim.consentRequests[0]?.status).toBe('expired');
    expect(await pollError(sim, authReqId)).toBe('expired_token');
  });

  it('46733123454: slow_down on the first poll even when on time, then approved', async () => {
    vi.useFakeTimers();
    const sim = simulator();
    const authReqId = await start(sim, '46733123454');
    expect(await pollError(sim, authReqId)).toBe('slow_down');
    expect(sim.consentRequests[0]?.interval).toBe(6);
    vi.advanceTimersByTime(5_000);
    expect(await pollError(sim, authReqId)).toBe('slow_down'); // too early for 6 s
    vi.advanceTimersByTime(11_000);
    expect((await poll(sim, authReqId)).status).toBe(200);
  });

  it('approveConsent() and denyConsent() override the MSISDN rule', async () => {
    const sim = simulator();
    const never = await start(sim, '46733123453');
    const fine = await start(sim, '46700000001');
    sim.approveConsent(never);
    sim.denyConsent(fine);
    expect(sim.consentRequests.map((c) => c.status)).toEqual(['approved', 'denied']);
    expect((await poll(sim, never)).status).toBe(200);
    expect(await pollError(sim, fine)).toBe('access_denied');
    expect(() => sim.approveConsent(fine)).toThrow(/already denied/);
    expect(() => sim.denyConsent(uuidv4())).toThrow(/no consent request/);
    sim.reset();
    expect(sim.consentRequests).toEqual([]);
  });

  it('answers invalid_grant to an unknown auth_req_id, unsupported_grant_type otherwise', async () => {
    const sim = simulator();
    expect(await pollError(sim, uuidv4())).toBe('invalid_grant');
    const authReqId = await start(sim);
    const wrongGrant = await poll(sim, authReqId, { grant_type: 'client_credentials' });
    expect(wrongGrant.status).toBe(400);
    expect(await wrongGrant.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const missing = await poll(sim, '');
    expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('needs the API user Basic credentials and X-Target-Environment', async () => {
    const sim = simulator();
    const authReqId = await start(sim);
    const http = rawClient(sim);
    const body = new URLSearchParams({ grant_type: CIBA, auth_req_id: authReqId }).toString();
    const bad = await http.send('POST', '/collection/oauth2/token/', {
      headers: { Authorization: 'Basic Zm9vOmJhcg==' },
      body,
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: 'login_failed' });
    const bearer = await http.send('POST', '/collection/oauth2/token/', {
      headers: { Authorization: `Bearer ${await http.token('collection')}` },
      body,
    });
    expect(bearer.status).toBe(401);
    const noEnvironment = await sim.fetch(`${sim.credentials.baseUrl}/collection/oauth2/token/`, {
      method: 'POST',
      headers: {
        'Ocp-Apim-Subscription-Key': sim.credentials.subscriptionKey,
        Authorization: http.basic(),
      },
      body,
    });
    expect(noEnvironment.status).toBe(400);
    expect(sim.consentRequests[0]?.polls).toBe(0);
  });
});
