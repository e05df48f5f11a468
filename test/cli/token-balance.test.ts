import { describe, expect, it } from 'vitest';
import { expectNoneOf, runCli, useLoopbackSimulator } from './support';

// `token` and `balance` as child processes against a loopback simulator.
const { sim, env } = useLoopbackSimulator();
const { subscriptionKey, apiUser } = sim.credentials;
const basic = Buffer.from(`${apiUser.id}:${apiUser.key}`).toString('base64');
/** Every secret the CLI held: keys, the Basic credential, the tokens it was issued. */
const secrets = () => [
  subscriptionKey,
  apiUser.key,
  basic,
  ...sim.requests.flatMap((r) => /^Bearer (\S+)$/.exec(r.headers.authorization ?? '')?.[1] ?? []),
];
const JWT = /eyJ[\w-]+\.[\w-]+\./;

describe('momo-partner-sdk token', { timeout: 60_000 }, () => {
  it('human output: type, expiry and the target environment checked, never the token', async () => {
    const run = await runCli(['token', 'disbursement'], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^disbursement: token issued \(type access_token\), valid until \d{4}-\d\d-\d\dT[\d:.]+Z \(\d+ s\)\ndisbursement: target environment sandbox accepted \(a balance read answered 1000000\.00 EUR\)\n\(not shown; add --show-token to print it\)\n$/,
    );
    // Progress on stderr: where it asks, and for which target environment.
    expect(run.stderr).toBe(
      `disbursement: asking ${env().MOMO_BASE_URL} for a token (target environment sandbox)...\n` +
        'disbursement: token issued; checking that target environment sandbox is accepted...\n',
    );
    expect(run.stdout).not.toMatch(JWT);
    expectNoneOf(run, secrets());
  });

  it('--json redacts the token unless --show-token', async () => {
    const run = await runCli(['token', 'collection', '--json'], env());
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      product: 'collection',
      baseUrl: env().MOMO_BASE_URL,
      targetEnvironment: 'sandbox',
      targetEnvironmentAccepted: true,
      tokenType: 'access_token',
      expiresAt: expect.stringMatching(/Z$/),
      expiresIn: expect.any(Number),
      accessToken: '[redacted]',
    });
    const shown = await runCli(['token', 'remittance', '--json', '--show-token'], env());
    expect(JSON.parse(shown.stdout).accessToken).toMatch(JWT);
    const human = await runCli(['token', 'remittance', '--show-token'], env());
    expect(human.stdout.split('\n')[2]).toMatch(JWT);
    expectNoneOf(shown, [subscriptionKey, apiUser.key, basic]);
  });

  it('per-product variables win over the shared ones', async () => {
    const run = await runCli(['token', 'collection'], {
      ...env(),
      MOMO_API_KEY: 'not-the-key-2c9',
      MOMO_COLLECTION_API_KEY: apiUser.key,
    });
    expect(run.code).toBe(0);
  });

  it('exit 2 without credentials or product, exit 3 when they are refused', async () => {
    const [missing, noProduct, badProduct, refused] = await Promise.all([
      runCli(['token', 'disbursement'], { MOMO_BASE_URL: env().MOMO_BASE_URL ?? '' }),
      runCli(['token'], env()),
      runCli(['token', 'payments'], env()),
      runCli(['token', 'disbursement'], { ...env(), MOMO_API_KEY: 'wrong-api-key-8e1f' }),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'Not set: MOMO_SUBSCRIPTION_KEY (or MOMO_DISBURSEMENT_SUBSCRIPTION_KEY), MOMO_API_USER (or MOMO_DISBURSEMENT_API_USER), MOMO_API_KEY (or MOMO_DISBURSEMENT_API_KEY).',
    );
    expect(noProduct).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Missing <product>'),
    });
    expect(badProduct.code).toBe(2);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(
      'disbursement: the service refused the API user id or API key (login_failed): change MOMO_API_USER or MOMO_API_KEY',
    );
    expect(refused.stdout).toBe('');
    const wrongBasic = Buffer.from(`${apiUser.id}:wrong-api-key-8e1f`).toString('base64');
    expectNoneOf(refused, ['wrong-api-key-8e1f', wrongBasic, subscriptionKey]);
  });
});

describe('momo-partner-sdk token: the target environment', { timeout: 60_000 }, () => {
  it('a wrong target environment is not OK: exit 3, naming MOMO_TARGET_ENVIRONMENT', async () => {
    const [wrong, remittance] = await Promise.all([
      runCli(['token', 'collection'], { ...env(), MOMO_TARGET_ENVIRONMENT: 'mtnghana' }),
      runCli(['token', 'remittance', '--target-environment', 'mtnghana', '--json']),
    ]);
    expect(wrong).toMatchObject({ code: 3, stdout: '' });
    expect(wrong.stderr).toContain(
      "collection: token issued, but the service refused target environment 'mtnghana' (NOT_ALLOWED_TARGET_ENVIRONMENT): change MOMO_TARGET_ENVIRONMENT",
    );
    expect(remittance.code).toBe(2); // no credentials in this run's environment
  });

  it('remittance (no balance): checked by looking up a transfer that does not exist', async () => {
    const [ok, wrong] = await Promise.all([
      runCli(['token', 'remittance'], env()),
      runCli(['token', 'remittance'], { ...env(), MOMO_TARGET_ENVIRONMENT: 'mtnghana' }),
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(
      'remittance: target environment sandbox accepted (a status lookup was answered)',
    );
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('change MOMO_TARGET_ENVIRONMENT');
  });

  it('a refused subscription key is named as such', async () => {
    const run = await runCli(['token', 'collection'], {
      ...env(),
      MOMO_COLLECTION_SUBSCRIPTION_KEY: 'nope-5e6f',
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      'collection: the service refused the subscription key (invalid_subscription_key): change MOMO_COLLECTION_SUBSCRIPTION_KEY',
    );
    expectNoneOf(run, ['nope-5e6f', subscriptionKey]);
  });
});

describe('momo-partner-sdk balance', { timeout: 60_000 }, () => {
  it('human and --json output; the collection balance in a currency', async () => {
    const [human, json, inEur] = await Promise.all([
      runCli(['balance', 'disbursement'], env()),
      runCli(['balance', 'collection', '--json'], env()),
      runCli(['balance', 'collection', '--currency', 'EUR', '--json'], env()),
    ]);
    expect(human).toMatchObject({ code: 0, stdout: 'disbursement balance: 1000000.00 EUR\n' });
    expect(JSON.parse(json.stdout)).toEqual({ availableBalance: '1000000.00', currency: 'EUR' });
    expect(JSON.parse(inEur.stdout)).toEqual({ availableBalance: '1000000.00', currency: 'EUR' });
    expect(sim.requests.some((r) => r.path === '/collection/v1_0/account/balance/EUR')).toBe(true);
    for (const run of [human, json, inEur]) expectNoneOf(run, secrets());
  });

  it('every product, with --currency too, as the client allows; exit 2 for an unknown product', async () => {
    const [remittance, inEur, unknown] = await Promise.all([
      runCli(['balance', 'remittance'], env()),
      runCli(['balance', 'disbursement', '--currency', 'EUR', '--json'], env()),
      runCli(['balance', 'payments'], env()),
    ]);
    expect(remittance).toMatchObject({ code: 0, stdout: 'remittance balance: 1000000.00 EUR\n' });
    expect(sim.requests.some((r) => r.path === '/remittance/v1_0/account/balance')).toBe(true);
    expect(JSON.parse(inEur.stdout)).toEqual({ availableBalance: '1000000.00', currency: 'EUR' });
    expect(sim.requests.some((r) => r.path === '/disbursement/v1_0/account/balance/EUR')).toBe(
      true,
    );
    expect(unknown.code).toBe(2);
    for (const run of [remittance, inEur]) expectNoneOf(run, secrets());
  });

  it('exit 3 on a 503', async () => {
    sim.inject({
      match: 'GET /disbursement/v1_0/account/balance',
      kind: 'status',
      status: 503,
      times: 3,
    });
    const unavailable = await runCli(['balance', 'disbursement'], env());
    expect(unavailable).toMatchObject({ code: 3, stdout: '' });
    expect(unavailable.stderr).toContain('disbursement.getBalance: HTTP 503');
  });
});
