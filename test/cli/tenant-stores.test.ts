import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, useLoopbackSimulator } from './support';

// Issue 40: `payouts --tenant` records the tenant on its items (and in the results), and
// `reconcile --from-store ... --tenant` reads only that tenant's records of a shared state.
const MERCHANTS = ['merchant-a', 'merchant-b'].map((name, i) => ({
  name,
  subscriptionKey: `${name}-key-${i}c9e1`,
  apiUsers: [{ id: `4b8e2c1d-3a5f-4e6b-9c7d-1e2f3a4b5c6${i}`, key: `${name}-api-key-${i}` }],
}));
const { sim, env, url } = useLoopbackSimulator({ partners: MERCHANTS });
const dir = mkdtempSync(join(tmpdir(), 'momo-tenant-stores-'));
const SUCCEEDS = '46733123999';

function tenantsFile(): string {
  const sets: Record<string, unknown> = {};
  for (const [i, m] of MERCHANTS.entries()) {
    sets[m.name] = {
      baseUrl: url(),
      targetEnvironment: sim.credentials.targetEnvironment,
      subscriptionKey: `env:KEY_${i}`,
      apiUser: m.apiUsers[0]?.id,
      apiKey: `env:API_KEY_${i}`,
    };
  }
  const path = join(dir, 'tenants.json');
  writeFileSync(path, JSON.stringify(sets));
  return path;
}

const secrets = () =>
  Object.fromEntries(
    MERCHANTS.flatMap((m, i) => [
      [`KEY_${i}`, m.subscriptionKey],
      [`API_KEY_${i}`, m.apiUsers[0]?.key as string],
    ]),
  );

describe('--tenant on a shared state', { timeout: 90_000 }, () => {
  it("payouts records each tenant's items; reconcile --from-store --tenant reads that tenant's alone", async () => {
    const state = join(dir, 'state');
    const tenants = tenantsFile();
    const as = (tenant: string) => ['--tenant', tenant, '--tenants-file', tenants];
    const pay = async (tenant: string, name: string, keys: string[]) => {
      const input = join(dir, `${name}.csv`);
      const rows = keys.map((key) => `${key},${SUCCEEDS},10,EUR`).join('\n');
      writeFileSync(input, `key,msisdn,amount,currency\n${rows}\n`);
      const run = await runCli(
        ['payouts', input, '--batch', name, '--state-dir', state, ...as(tenant)],
        { ...env(), ...secrets() },
      );
      expect(run.code, run.stderr).toBe(0);
      const lines = (await readFile(join(dir, `${name}.results.csv`), 'utf8')).split('\r\n');
      return lines.filter((line) => line !== '');
    };
    const a = await pay('merchant-a', 'payroll-a', ['a1', 'a2']);
    const b = await pay('merchant-b', 'payroll-b', ['b1']);
    expect(a[0]).toBe(
      'key,msisdn,amount,currency,referenceId,status,reason,financialTransactionId,tenant',
    );
    expect(a.slice(1).map((line) => line.split(',').at(-1))).toEqual(['merchant-a', 'merchant-a']);
    expect(b.slice(1).map((line) => line.split(',').at(-1))).toEqual(['merchant-b']);

    const books = join(dir, 'books.csv');
    writeFileSync(books, 'referenceId,operation\n');
    const before = sim.requests.length;
    const run = await runCli(
      ['reconcile', books, '--from-store', `file:${state}`, ...as('merchant-a')],
      { ...env(), ...secrets() },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${books}: 2 MISSING_FROM_BOOKS`);
    const report = await readFile(join(dir, 'books.report.csv'), 'utf8');
    expect(report).toContain('batch payroll-a, key a1');
    expect(report).toContain('batch payroll-a, key a2');
    expect(report).not.toContain('payroll-b');
    // Looked up with merchant-a's key only.
    const keys = new Set(
      sim.requests.slice(before).map((r) => r.headers['ocp-apim-subscription-key']),
    );
    expect([...keys]).toEqual([MERCHANTS[0]?.subscriptionKey]);
  });
});
