import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MomoClient } from 'momo-partner-sdk';
import { fileSubscriptionStore, Subscriptions } from 'momo-partner-sdk/subscriptions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoneOf, runCli, useLoopbackSimulator } from './support';

// `subscriptions run --tenant <id> --tenants-file <path>` as a partner runs it: the CLI's
// bundle as a child process, the simulator on loopback with two merchants (two partners),
// their subscriptions in one --state-dir, the merchant's secrets in environment variables
// the tenants file names. It charges that merchant's subscriptions with its own key only.
const T0 = Date.UTC(2026, 2, 2, 9); // 2 March 2026, 09:00 UTC
const MERCHANTS = ['merchant-a', 'merchant-b'].map((name, i) => ({
  name,
  subscriptionKey: `${name}-subs-key-${i}d7e2`,
  apiUsers: [{ id: `8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4${i}`, key: `${name}-subs-api-${i}b90` }],
}));
const { sim, env, url } = useLoopbackSimulator({
  settleMs: 0,
  clock: { now: () => T0 },
  tokenTtlSeconds: 20 * 365 * 86_400,
  partners: MERCHANTS,
});
const SECRET = 'cli-subscriptions-tenant-secret-4c8e1a';
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-subs-tenant-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The tenants file: credentials by reference, the secrets in the environment only. */
async function tenantsFile(): Promise<{ path: string; secrets: Record<string, string> }> {
  const sets: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const [i, merchant] of MERCHANTS.entries()) {
    sets[merchant.name] = {
      baseUrl: url(),
      targetEnvironment: sim.credentials.targetEnvironment,
      subscriptionKey: `env:SUBS_KEY_${i}`,
      apiUser: merchant.apiUsers[0]?.id,
      apiKey: `env:SUBS_API_KEY_${i}`,
    };
    secrets[`SUBS_KEY_${i}`] = merchant.subscriptionKey;
    secrets[`SUBS_API_KEY_${i}`] = merchant.apiUsers[0]?.key as string;
  }
  const path = join(dir, 'tenants.json');
  await writeFile(path, JSON.stringify(sets));
  return { path, secrets };
}

/** Each merchant's member signed up by the partner's code, on the shared state folder. */
async function signUp(merchant: string, partyId: string): Promise<void> {
  const momo = new MomoClient({ ...sim.partner(merchant), baseUrl: url(), tenant: merchant });
  const subs = new Subscriptions(momo, {
    store: fileSubscriptionStore(join(dir, 'state', 'subscriptions')),
    secret: SECRET,
    now: () => T0,
  });
  const plan = `${merchant}/gym-monthly`;
  await subs.plan({ id: plan, amount: '30', currency: 'EUR', every: 'month', retry: [] });
  await subs.subscribe({
    key: `${merchant}/member-1`,
    plan,
    payer: { partyIdType: 'MSISDN', partyId },
    startAt: T0,
  });
  momo.close();
}

describe('subscriptions run --tenant', { timeout: 90_000 }, () => {
  it("charges that merchant's subscriptions with its own key, the other's untouched, no secret printed", async () => {
    await signUp('merchant-a', '233244555311');
    await signUp('merchant-b', '233244555312');
    const { path, secrets } = await tenantsFile();
    const before = sim.requests.length;
    const mark = sim.transactions.length;

    const run = await runCli(
      [
        'subscriptions',
        'run',
        '--state-dir',
        join(dir, 'state'),
        '--tenant',
        'merchant-a',
        '--tenants-file',
        path,
        '--json',
      ],
      {
        ...env(), // the MOMO_* credentials of another partner: set aside by --tenant
        ...secrets,
        MOMO_SUBSCRIPTION_SECRET: SECRET,
        MOMO_NOW: new Date(T0).toISOString(),
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.counts).toMatchObject({ successful: 1, failed: 0 });
    expect(summary.charges).toMatchObject([
      { key: 'merchant-a/member-1', period: 0, status: 'SUCCESSFUL', tenant: 'merchant-a' },
    ]);

    // At the provider: one request to pay, merchant-a's; every request with its key.
    const charges = sim.transactions
      .slice(mark)
      .filter((tx) => tx.operation === 'collection.requestToPay');
    expect(charges.map((tx) => [tx.partner, tx.amount])).toEqual([['merchant-a', '30']]);
    const sent = sim.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent.map((r) => r.headers['ocp-apim-subscription-key']))).toEqual(
      new Set([MERCHANTS[0]?.subscriptionKey]),
    );

    expectNoneOf(run, [
      ...Object.values(secrets),
      env().MOMO_SUBSCRIPTION_KEY as string,
      env().MOMO_API_KEY as string,
      SECRET,
    ]);
  });
});
