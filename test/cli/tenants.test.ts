import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNoneOf, runCli, useLoopbackSimulator } from './support';

// `--tenant <id> --tenants-file <path>`: a merchant's credential set, its secrets read from
// the environment variables the file names, in place of the MOMO_* credentials.
const MERCHANT = {
  name: 'merchant-42',
  subscriptionKey: 'merchant42-key-7c1a9f',
  apiUsers: [{ id: '4b8e2c1d-3a5f-4e6b-9c7d-1e2f3a4b5c6d', key: 'merchant42-api-key-4e2b' }],
};
const { sim, env, url } = useLoopbackSimulator({ partners: [MERCHANT] });
const dir = mkdtempSync(join(tmpdir(), 'momo-tenants-'));
const file = (sets: unknown) => {
  const path = join(dir, `tenants-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(sets));
  return path;
};
const setOf = (overrides: Record<string, string> = {}) => ({
  'merchant-42': {
    baseUrl: url(),
    targetEnvironment: 'sandbox',
    subscriptionKey: 'env:MERCHANT42_KEY',
    apiUser: MERCHANT.apiUsers[0]?.id,
    apiKey: 'env:MERCHANT42_API_KEY',
    ...overrides,
  },
});
const secrets = {
  MERCHANT42_KEY: MERCHANT.subscriptionKey,
  MERCHANT42_API_KEY: 'merchant42-api-key-4e2b',
};

describe('--tenant', { timeout: 60_000 }, () => {
  it("runs with the tenant's credential set, never the environment's, and prints no secret", async () => {
    const before = sim.requests.length;
    const run = await runCli(
      [
        'balance',
        'disbursement',
        '--json',
        '--tenant',
        'merchant-42',
        '--tenants-file',
        file(setOf()),
      ],
      { ...env(), ...secrets },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const sent = sim.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    // Every request with the merchant's key, none with the environment's MOMO_* one.
    expect(sent.map((r) => r.headers['ocp-apim-subscription-key'])).toEqual(
      sent.map(() => MERCHANT.subscriptionKey),
    );
    expectNoneOf(run, [...Object.values(secrets), env().MOMO_SUBSCRIPTION_KEY as string]);
  });

  it('refuses a secret written in the file, an unset variable, an unknown tenant, a bad id: exit 2, no secret shown', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ['--tenants-file', file(setOf({ apiKey: 'literal-secret-9z' }))],
        secrets,
        /apiKey must be an environment reference/,
      ],
      [['--tenants-file', file(setOf())], {}, /subscriptionKey: MERCHANT42_KEY is not set/],
      [['--tenants-file', file({})], secrets, /no tenant 'merchant-42'/],
    ];
    for (const [flags, extra, message] of cases) {
      const run = await runCli(['balance', 'disbursement', '--tenant', 'merchant-42', ...flags], {
        ...env(),
        ...extra,
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expectNoneOf(run, ['literal-secret-9z', ...Object.values(secrets)]);
    }
    const bad = await runCli(
      ['balance', 'disbursement', '--tenant', '../x', '--tenants-file', file(setOf())],
      env(),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--tenant must be/);
  });

  it("doctor --tenant checks the tenant's credential set, never the environment's, and prints no secret", async () => {
    const before = sim.requests.length;
    const run = await runCli(
      ['doctor', '--tenant', 'merchant-42', '--tenants-file', file(setOf())],
      { ...env(), ...secrets },
    );
    expect(run.stdout).toMatch(/ok +disbursement credentials/);
    const sent = sim.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent.map((r) => r.headers['ocp-apim-subscription-key']))).toEqual(
      new Set([MERCHANT.subscriptionKey]),
    );
    expectNoneOf(run, [...Object.values(secrets), env().MOMO_SUBSCRIPTION_KEY as string]);
  });

  it('is offered by payouts, reconcile, subscriptions and doctor', async () => {
    for (const command of [['payouts'], ['reconcile'], ['subscriptions', 'run'], ['doctor']]) {
      const run = await runCli([...command, '--help'], {});
      expect(`${run.stdout}${run.stderr}`).toContain('--tenant <id>');
    }
  });
});
