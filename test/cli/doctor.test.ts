import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Sandbox } from 'momo-partner-sdk';
import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, expectNoneOf, runCli, useLoopbackSimulator } from './support';

// `doctor` as a child process against loopback simulators: every failure named, with the
// MOMO_* variable to change, and exit code 6.
const { sim, url, env } = useLoopbackSimulator();
const { subscriptionKey, apiUser } = sim.credentials;
let provisioned: { id: string; key: string };
/** A simulator of a production platform: target environment mtnuganda. */
const production = createSimulator({
  targetEnvironment: 'mtnuganda',
  subscriptionKey: 'prod-subscription-key-71c2',
  apiUser: { id: '0b8e1f2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b', key: 'prod-api-key-4d0e' },
});
let productionServer: ListeningServer | undefined;

beforeAll(async () => {
  // A user made by the sandbox's provisioning API, as a partner would: its callback host is known.
  const sandbox = new Sandbox({ baseUrl: url(), subscriptionKey });
  provisioned = await sandbox.provision({ providerCallbackHost: 'partner.example' });
  productionServer = await production.listen();
});
afterAll(() => productionServer?.close());

const good = () => ({
  ...env(),
  MOMO_API_USER: provisioned.id,
  MOMO_API_KEY: provisioned.key,
  MOMO_CALLBACK_URL: 'https://partner.example/momo/{referenceId}',
});

/** The checklist's lines, by check name: `ok  ` / `FAIL` / ... and the message. */
function lines(run: CliRun): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of run.stdout.split('\n')) {
    const match = /^ {2}(ok|warn|FAIL|skip) +(\S+(?: credentials| environment)?) {2,}(.*)$/.exec(
      line,
    );
    if (match) found.set(match[2] as string, `${match[1]} ${match[3]}`);
  }
  return found;
}

describe('momo-partner-sdk doctor', { timeout: 60_000 }, () => {
  it('good configuration: every check passes (the sandbox currency warns), exit 0', async () => {
    const run = await runCli(['doctor'], good());
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const found = lines(run);
    expect(found.get('host')).toBe('ok 127.0.0.1 is an IP address (nothing to resolve)');
    expect(found.get('reach')).toMatch(/^ok 127\.0\.0\.1:\d+ accepts connections$/);
    expect(found.get('tls')).toBe(
      'skip plain http to a loopback host (a simulator or test server)',
    );
    for (const product of ['disbursement', 'collection', 'remittance']) {
      expect(found.get(`${product} credentials`)).toMatch(
        /^ok subscription key and API user accepted/,
      );
      expect(found.get(`${product} environment`)).toMatch(/^ok 'sandbox' accepted/);
    }
    expect(found.get('collection environment')).toBe(
      "ok 'sandbox' accepted (balance 1000000.00 EUR)",
    );
    expect(found.get('currency')).toMatch(/^warn the sandbox takes amounts in EUR only/);
    expect(found.get('callback')).toBe(
      "ok host partner.example is the API user's providerCallbackHost",
    );
    expect(run.stdout).toMatch(/All checks passed \(1 warning\)\.\n$/);
    expectNoneOf(run, [subscriptionKey, provisioned.key, apiUser.key]);
  });

  it('--json: one object, ok and every check with its status', async () => {
    const run = await runCli(['doctor', 'collection', '--json'], good());
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ ok: true, baseUrl: url(), targetEnvironment: 'sandbox' });
    expect(
      report.checks.map((c: { name: string; status: string }) => `${c.name}:${c.status}`),
    ).toEqual([
      'host:ok',
      'reach:ok',
      'tls:skip',
      'collection credentials:ok',
      'collection environment:ok',
      'currency:warn',
      'callback:ok',
    ]);
  });

  it('a wrong subscription key is named as such, with its variable', async () => {
    const run = await runCli(['doctor', '--json'], {
      ...good(),
      MOMO_SUBSCRIPTION_KEY: 'wrong-sub-key-1a2b',
    });
    expect(run.code).toBe(6);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(false);
    expect(report.checks).toContainEqual({
      name: 'disbursement credentials',
      status: 'fail',
      message:
        'the service refused the subscription key (invalid_subscription_key): change MOMO_SUBSCRIPTION_KEY',
      fix: 'MOMO_SUBSCRIPTION_KEY',
    });
    expectNoneOf(run, ['wrong-sub-key-1a2b', provisioned.key]);
  });

  it('a wrong API key of one product is named as the API user id/API key, with its variables', async () => {
    const run = await runCli(['doctor'], {
      ...good(),
      MOMO_COLLECTION_API_KEY: 'wrong-api-key-3c4d',
    });
    expect(run.code).toBe(6);
    const found = lines(run);
    expect(found.get('collection credentials')).toBe(
      'FAIL the service refused the API user id or API key (login_failed): change MOMO_API_USER or MOMO_COLLECTION_API_KEY',
    );
    expect(found.get('collection environment')).toBe('skip needs a token first');
    expect(found.get('disbursement credentials')).toMatch(/^ok /);
    expect(run.stdout).toMatch(/1 check failed, 1 warning\.\n$/);
    expectNoneOf(run, ['wrong-api-key-3c4d', provisioned.key]);
  });

  it('a wrong target environment: the token is issued, the balance read is refused', async () => {
    const run = await runCli(['doctor', 'disbursement'], {
      ...good(),
      MOMO_TARGET_ENVIRONMENT: 'mtnghana',
    });
    expect(run.code).toBe(6);
    const found = lines(run);
    expect(found.get('disbursement credentials')).toMatch(/^ok /);
    expect(found.get('disbursement environment')).toMatch(
      /^FAIL the service refused target environment 'mtnghana' \(NOT_ALLOWED_TARGET_ENVIRONMENT\): change MOMO_TARGET_ENVIRONMENT/,
    );
    // Sent once: a refusal is not retried.
    const reads = sim.requests.filter(
      (r) =>
        r.path === '/disbursement/v1_0/account/balance' &&
        r.headers['x-target-environment'] === 'mtnghana',
    );
    expect(reads).toHaveLength(1);
  });

  it('an unreachable host: reach fails naming MOMO_BASE_URL, what needs it is skipped', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const run = await runCli(['doctor'], { ...good(), MOMO_BASE_URL: `http://127.0.0.1:${port}` });
    expect(run.code).toBe(6);
    const found = lines(run);
    expect(found.get('reach')).toBe(
      `FAIL 127.0.0.1:${port} cannot be reached (ECONNREFUSED): check MOMO_BASE_URL`,
    );
    expect(found.get('collection credentials')).toBe('skip the host cannot be reached');
    expect(found.get('callback')).toBe('skip the host cannot be reached');
  });

  it('https: an untrusted certificate fails the TLS check; a trusted one passes', async () => {
    const fixture = (name: string) =>
      fileURLToPath(new URL(`../fixtures/tls/${name}`, import.meta.url));
    const server = createHttpsServer(
      {
        key: readFileSync(fixture('loopback-key.pem')),
        cert: readFileSync(fixture('loopback-cert.pem')),
      },
      (_req, res) => res.writeHead(404).end(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const [untrusted, trusted] = await Promise.all([
        runCli(['doctor', 'collection'], { ...good(), MOMO_BASE_URL: base }),
        runCli(['doctor', 'collection'], {
          ...good(),
          MOMO_BASE_URL: base,
          NODE_EXTRA_CA_CERTS: fixture('loopback-cert.pem'),
        }),
      ]);
      expect(untrusted.code).toBe(6);
      expect(lines(untrusted).get('tls')).toBe(
        "FAIL TLS failed (DEPTH_ZERO_SELF_SIGNED_CERT): is MOMO_BASE_URL the provider's https address?",
      );
      expect(lines(trusted).get('tls')).toMatch(
        /^ok TLSv1\.3, certificate valid for 127\.0\.0\.1 until .*2\d{3} GMT$/,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('an http callback URL outside the sandbox fails naming MOMO_CALLBACK_URL', async () => {
    const { subscriptionKey: key, apiUser: user, targetEnvironment } = production.credentials;
    const run = await runCli(['doctor', 'collection', '--json'], {
      MOMO_BASE_URL: productionServer?.url ?? '',
      MOMO_TARGET_ENVIRONMENT: targetEnvironment,
      MOMO_SUBSCRIPTION_KEY: key,
      MOMO_API_USER: user.id,
      MOMO_API_KEY: user.key,
      MOMO_CALLBACK_URL: 'http://partner.example/momo/callback',
    });
    expect(run.code).toBe(6);
    const checks = JSON.parse(run.stdout).checks as {
      name: string;
      status: string;
      fix?: string;
    }[];
    expect(checks.filter((c) => c.status === 'fail')).toEqual([
      {
        name: 'callback',
        status: 'fail',
        message:
          'http callback URL outside the sandbox: the provider calls https only; change MOMO_CALLBACK_URL to https',
        fix: 'MOMO_CALLBACK_URL',
      },
    ]);
    expect(checks.find((c) => c.name === 'collection environment')?.status).toBe('ok');
    expect(checks.find((c) => c.name === 'currency')).toMatchObject({ status: 'ok' });
  });

  it("in the sandbox, a callback host other than the API user's providerCallbackHost fails", async () => {
    const run = await runCli(['doctor', 'collection'], {
      ...good(),
      MOMO_CALLBACK_URL: 'https://shop.example/momo/callback',
    });
    expect(run.code).toBe(6);
    expect(lines(run).get('callback')).toBe(
      "FAIL host shop.example is not the API user's providerCallbackHost partner.example: the sandbox refuses it (INVALID_CALLBACK_URL_HOST); change MOMO_CALLBACK_URL, or provision a user for that host (sandbox provision --callback-host shop.example)",
    );
  });

  it('no credentials at all: one line says which variables to set', async () => {
    const run = await runCli(['doctor'], { MOMO_BASE_URL: url() });
    expect(run.code).toBe(6);
    expect(lines(run).get('credentials')).toBe(
      'FAIL none set: set MOMO_SUBSCRIPTION_KEY, MOMO_API_USER and MOMO_API_KEY (or per product)',
    );
  });
});
