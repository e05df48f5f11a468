import { createServer } from 'node:net';
import {
  isAuthenticationError,
  isConnectionError,
  isServerError,
  isValidationError,
  isWaitTimeoutError,
  MomoClient,
  type MomoClientOptions,
  type WaitTimeoutError,
} from 'momo-partner-sdk';
import { createSimulator, type SimulatorOptions } from 'momo-partner-sdk/testing';
import { describe, expect, expectTypeOf, it } from 'vitest';

const payee = { partyIdType: 'MSISDN', partyId: '46733123999' } as const;
const deposit = { amount: '10', currency: 'EUR', payee };

function setup(overrides: Partial<MomoClientOptions> = {}, simulator: SimulatorOptions = {}) {
  const sim = createSimulator({ settleMs: 10, ...simulator });
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  const momo = sim.client({ logger, ...overrides });
  const sent = (path: string) => sim.requests.filter((r) => r.path === path).length;
  return { sim, momo, warnings, sent };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('business refusals are not retried, and say what to change', () => {
  it('a wrong target environment (500 NOT_ALLOWED_TARGET_ENVIRONMENT) is sent once and named', async () => {
    const { momo, warnings, sent } = setup({ targetEnvironment: 'mtnuganda' });
    const error = await failure(momo.disbursement.deposit(deposit));
    expect(isServerError(error) && error.code).toBe('NOT_ALLOWED_TARGET_ENVIRONMENT');
    const { message } = error as Error;
    expect(message).toContain('"mtnuganda"');
    expect(message).toContain('the sandbox expects "sandbox"');
    expect(sent('/disbursement/v1_0/deposit')).toBe(1);
    expect(warnings.filter((w) => w.includes('retrying'))).toEqual([]);
  });

  it('a currency the sandbox does not take (500 INVALID_CURRENCY) is sent once and named', async () => {
    // The provider's own sandbox host: the one platform known to take EUR only.
    const baseUrl = 'https://sandbox.momodeveloper.mtn.com';
    const { momo, warnings, sent } = setup({}, { baseUrl });
    const error = await failure(momo.disbursement.deposit({ ...deposit, currency: 'USD' }));
    expect(isServerError(error) && error.code).toBe('INVALID_CURRENCY');
    expect((error as Error).message).toContain('the currency "USD"');
    expect((error as Error).message).toContain(`the provider's sandbox accepts only "EUR"`);
    expect(sent('/disbursement/v1_0/deposit')).toBe(1);
    expect(warnings).toEqual([]);
  });

  it("elsewhere, INVALID_CURRENCY names the currency sent and asks for the account's, never EUR", async () => {
    for (const [targetEnvironment, baseUrl] of [
      ['sandbox', 'https://sandbox.momo.test'], // a sandbox, not the provider's
      ['mtnghana', 'https://sandbox.momodeveloper.mtn.com'], // the provider's host, not its sandbox
    ] as const) {
      const { momo, sent } = setup({}, { currency: 'GHS', targetEnvironment, baseUrl });
      const error = await failure(momo.disbursement.deposit(deposit));
      expect(isServerError(error) && error.code).toBe('INVALID_CURRENCY');
      const { message } = error as Error;
      expect(message).toContain(`the currency "EUR" in target environment "${targetEnvironment}"`);
      expect(message).toContain("send the account's own currency (getBalance() names it)");
      expect(message).not.toContain('only "EUR"');
      expect(sent('/disbursement/v1_0/deposit')).toBe(1);
      expect(await momo.disbursement.getBalance()).toMatchObject({ currency: 'GHS' });
    }
  });

  it('a 503 SERVICE_UNAVAILABLE is still retried', async () => {
    const { sim, momo, sent } = setup();
    sim.inject({
      kind: 'status',
      status: 503,
      match: 'POST /disbursement/v1_0/deposit',
      body: { code: 'SERVICE_UNAVAILABLE', message: 'try later' },
    });
    await momo.disbursement.deposit(deposit);
    expect(sent('/disbursement/v1_0/deposit')).toBe(2);
  });
});

describe('a 401 names the credential the service named, never its value', () => {
  it('invalid_subscription_key blames the subscription key', async () => {
    const { momo } = setup({ subscriptionKey: 'wrong-subscription-key-123' });
    const error = await failure(momo.disbursement.getBalance());
    expect(isAuthenticationError(error)).toBe(true);
    const { message } = error as Error;
    expect(message).toContain('refused the subscription key of disbursement');
    expect(message).toContain('disbursement.subscriptionKey');
    expect(message).not.toContain('wrong-subscription-key-123');
  });

  it('a refused API user or key blames apiUser', async () => {
    const apiUser = { id: '0b9e4d0c-5f5a-4c1e-9f55-0c6f2d1d3a11', key: 'wrong-api-key-456' };
    const { momo } = setup({ apiUser });
    const error = await failure(momo.collection.getAccessToken());
    expect(isAuthenticationError(error)).toBe(true);
    const { message } = error as Error;
    expect(message).toContain('refused the API user id or its API key');
    expect(message).toContain('collection.apiUser');
    expect(message).not.toContain('wrong-api-key-456');
  });
});

describe('connection errors name the host', () => {
  it('says which host did not answer', async () => {
    const port = await closedPort();
    const momo = new MomoClient({
      baseUrl: `http://127.0.0.1:${port}`,
      targetEnvironment: 'sandbox',
      subscriptionKey: 'k',
      apiUser: { id: '0b9e4d0c-5f5a-4c1e-9f55-0c6f2d1d3a11', key: 'secret-key' },
      maxRetries: 0,
    });
    const error = await failure(momo.disbursement.getBalance());
    expect(isConnectionError(error)).toBe(true);
    expect((error as Error).message).toContain(`no response from 127.0.0.1:${port}`);
  });
});

describe('MSISDN: one rule, digits only', () => {
  it.each(['+46733123999', '46733 123999', ' 46733123999'])(
    'refuses %j before sending, saying so',
    async (partyId) => {
      const { momo, sim } = setup();
      const error = await failure(
        momo.disbursement.deposit({ ...deposit, payee: { partyIdType: 'MSISDN', partyId } }),
      );
      expect(isValidationError(error) && error.field).toBe('payee.partyId');
      expect((error as Error).message).toContain('digits only, country code first, no leading +');
      expect(sim.requests).toEqual([]);
    },
  );

  it('the same rule for consent, basic user info and account status', async () => {
    const { momo } = setup();
    const authorize = momo.consent.authorize({
      msisdn: '+46733123999',
      scope: 'profile',
      accessType: 'online',
    });
    expect(isValidationError(await failure(authorize))).toBe(true);
    expect(
      isValidationError(await failure(momo.disbursement.getBasicUserInfo('+46733123999'))),
    ).toBe(true);
    expect(
      isValidationError(await failure(momo.collection.getAccountStatus('msisdn', '+46733123999'))),
    ).toBe(true);
  });

  it('the simulator holds partners to the same rule', async () => {
    const { sim } = setup();
    const token = await sim.client().collection.getAccessToken();
    const response = await sim.fetch(
      `${sim.credentials.baseUrl}/collection/v1_2/mm/accounts/msisdn/%2B46733123999/status`,
      {
        headers: {
          Authorization: `Bearer ${token.accessToken}`,
          'Ocp-Apim-Subscription-Key': sim.credentials.subscriptionKey,
          'X-Account-Holding-Institution-Identifier': sim.credentials.targetEnvironment,
        },
      },
    );
    expect(response.status).toBe(400);
  });
});

describe('plain http: callback URLs and test hosts', () => {
  const production = {
    baseUrl: 'https://proxy.momoapi.example',
    targetEnvironment: 'mtnuganda',
    subscriptionKey: 'k',
  };

  it('refuses a non-loopback http callback URL outside the sandbox', () => {
    const make = () =>
      new MomoClient({ ...production, callbackUrl: 'http://shop.example/momo/{referenceId}' });
    expect(make).toThrow(/callbackUrl must use https outside the sandbox/);
    expect(
      () => new MomoClient({ ...production, callbackUrl: 'https://shop.example/cb' }),
    ).not.toThrow();
    expect(
      () => new MomoClient({ ...production, callbackUrl: 'http://127.0.0.1:8080/cb' }),
    ).not.toThrow();
  });

  it('refuses it per call too, and accepts it in the sandbox', async () => {
    const { momo: sandboxClient } = setup();
    await sandboxClient.disbursement.deposit(deposit, { callbackUrl: 'http://shop.example/cb' });
    const { momo } = setup({ targetEnvironment: 'mtnuganda' });
    const error = await failure(
      momo.disbursement.deposit(deposit, { callbackUrl: 'http://shop.example/cb' }),
    );
    expect(isValidationError(error) && error.field).toBe('options.callbackUrl');
  });

  it('allowInsecureHosts lets plain http reach a named test host, and only it', () => {
    const sim = { ...production, targetEnvironment: 'sandbox', baseUrl: 'http://momo-sim:4010' };
    expect(() => new MomoClient(sim)).toThrow(/allowInsecureHosts: \['momo-sim'\]/);
    expect(() => new MomoClient({ ...sim, allowInsecureHosts: ['momo-sim'] })).not.toThrow();
    expect(() => new MomoClient({ ...sim, allowInsecureHosts: ['other-host'] })).toThrow();
    expect(
      () =>
        new MomoClient({
          ...production,
          callbackUrl: 'http://partner-app:8080/cb',
          allowInsecureHosts: ['partner-app'],
        }),
    ).not.toThrow();
    expect(() => new MomoClient({ ...sim, allowInsecureHosts: ['http://momo-sim'] })).toThrow(
      /allowInsecureHosts.0 must be a bare host name/,
    );
  });
});

describe('WaitTimeoutError', () => {
  it('holds the last status as a string and the last result beside it', async () => {
    const { momo } = setup();
    const pending = {
      ...deposit,
      payee: { partyIdType: 'MSISDN', partyId: '46733123454' },
    } as const;
    const error = await failure(momo.disbursement.deposit(pending).wait({ timeoutMs: 100 }));
    expect(isWaitTimeoutError(error)).toBe(true);
    const timedOut = error as WaitTimeoutError;
    expect(timedOut.lastStatus).toBe('PENDING');
    expect(timedOut.lastResult?.status).toBe('PENDING');
    expect(timedOut.message).toContain('last status PENDING');
    expectTypeOf(timedOut.lastStatus).toEqualTypeOf<string | undefined>();
    expectTypeOf(timedOut.lastResult).toEqualTypeOf<{ readonly status: string } | undefined>();
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
