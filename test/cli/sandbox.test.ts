import { MomoClient } from 'momo-partner-sdk';
import { describe, expect, it } from 'vitest';
import { expectNoneOf, runCli, useLoopbackSimulator } from './support';

// `momo-partner-sdk sandbox provision` as a child process against a loopback simulator.
const { sim, url } = useLoopbackSimulator();
const { subscriptionKey, targetEnvironment } = sim.credentials;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const provision = (extra: string[] = [], env: Record<string, string> = {}) =>
  runCli(
    [
      'sandbox',
      'provision',
      '--subscription-key',
      subscriptionKey,
      '--callback-host',
      'partner.example',
      '--base-url',
      url(),
      ...extra,
    ],
    env,
  );

describe('momo-partner-sdk sandbox provision', { timeout: 60_000 }, () => {
  it('--env prints exactly two lines, which then make a deposit through the SDK', async () => {
    const run = await provision(['--env']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.split('\n');
    expect(lines).toHaveLength(3); // two lines and the final newline
    expect(lines[0]).toMatch(/^MOMO_API_USER=[0-9a-f-]{36}$/);
    expect(lines[1]).toMatch(/^MOMO_API_KEY=[0-9a-f]{32}$/);
    expect(lines[2]).toBe('');
    const env = Object.fromEntries(lines.filter(Boolean).map((line) => line.split('=', 2)));
    expect(env.MOMO_API_USER).toMatch(UUID_V4);

    const momo = new MomoClient({
      baseUrl: url(),
      targetEnvironment,
      subscriptionKey,
      apiUser: { id: env.MOMO_API_USER ?? '', key: env.MOMO_API_KEY ?? '' },
      polling: { initialDelayMs: 20 },
    });
    const result = await momo.disbursement
      .deposit({
        amount: '5',
        currency: 'EUR',
        payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
      })
      .wait();
    expect(result.status).toBe('SUCCESSFUL');
    expectNoneOf(run, [subscriptionKey]);
  });

  it('--json prints {"id","key"}; the human output names both; no subscription key', async () => {
    const json = await provision(['--json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toEqual({ id: expect.stringMatching(UUID_V4), key: expect.any(String) });
    expect(Object.keys(parsed)).toEqual(['id', 'key']);

    const human = await provision();
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/MOMO_API_USER=[0-9a-f-]{36}/);
    expect(human.stdout).toMatch(/MOMO_API_KEY=[0-9a-f]{32}/);
    expectNoneOf(json, [subscriptionKey]);
    expectNoneOf(human, [subscriptionKey]);
  });

  it('reads MOMO_SUBSCRIPTION_KEY, MOMO_CALLBACK_HOST and MOMO_BASE_URL', async () => {
    const run = await runCli(['sandbox', 'provision', '--json'], {
      MOMO_SUBSCRIPTION_KEY: subscriptionKey,
      MOMO_CALLBACK_HOST: 'env.partner.example',
      MOMO_BASE_URL: url(),
    });
    expect(run.code).toBe(0);
    const { id } = JSON.parse(run.stdout);
    expect(sim.requests.at(-2)).toMatchObject({
      method: 'POST',
      path: '/v1_0/apiuser',
      headers: { 'x-reference-id': id },
      body: { providerCallbackHost: 'env.partner.example' },
    });
  });

  it('exit 2: missing key or host, --env with --json, a bad host or flag; nothing sent', async () => {
    const before = sim.requests.length;
    const runs = await Promise.all([
      runCli(['sandbox', 'provision', '--callback-host', 'a.example', '--base-url', url()]),
      runCli(['sandbox', 'provision', '--subscription-key', 'k', '--base-url', url()]),
      provision(['--env', '--json']),
      provision(['--callback-host', 'https://a.example/cb']),
      provision(['--nope']),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2, 2]);
    expect(runs[0]?.stderr).toContain('--subscription-key (or MOMO_SUBSCRIPTION_KEY)');
    expect(runs[1]?.stderr).toContain('--callback-host (or MOMO_CALLBACK_HOST)');
    expect(runs[3]?.stderr).toContain('providerCallbackHost must be a host name without a scheme');
    expect(runs[4]?.stderr).toContain("Unknown option '--nope'");
    for (const run of runs) expect(run.stdout).toBe('');
    expect(sim.requests.length).toBe(before);
  });

  it('exit 3: a refused subscription key (401), or no service at the base URL', async () => {
    const refused = await runCli([
      'sandbox',
      'provision',
      '--subscription-key',
      'wrong-subscription-key-41',
      '--callback-host',
      'a.example',
      '--base-url',
      url(),
    ]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('HTTP 401');
    expectNoneOf(refused, ['wrong-subscription-key-41']);

    const closed = await provision(['--base-url', 'http://127.0.0.1:9']);
    expect(closed.code).toBe(3);
    expect(closed.stderr).toContain('sandbox.createUser: no response');
  });
});
