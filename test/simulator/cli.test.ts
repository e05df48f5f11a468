import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, out: () => stdout, err: () => stderr };
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The API user id the CLI prints. */
function apiUserOf(out: string): string {
  return /apiUser\.id\s+([0-9a-f-]{36})/.exec(out)?.[1] ?? '';
}

describe('momo-partner-sdk simulator (CLI)', () => {
  it('serves the simulator, prints URL and credentials, and stops on SIGTERM', async () => {
    const cli = run(['simulator', '--port', '0', '--settle-ms', '5']);
    await until(() => /listening on (http:\/\/\S+)/.test(cli.out()));
    const url = /listening on (http:\/\/\S+)/.exec(cli.out())?.[1] ?? '';
    expect(cli.out()).toContain('sim-subscription-key');
    expect(cli.out()).toMatch(/apiUser\.id\s+[0-9a-f-]{36}/);
    const response = await fetch(`${url}/disbursement/v1_0/account/balance`, {
      headers: {
        'Ocp-Apim-Subscription-Key': 'sim-subscription-key',
        'X-Target-Environment': 'sandbox',
      },
    });
    expect(await response.json()).toEqual({ availableBalance: '1000000.00', currency: 'EUR' });
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual([0, null]);
  });

  it('serves the /_simulator/ control routes (curl-style steering)', async () => {
    const cli = run(['simulator', '--port', '0']);
    await until(() => /listening on (http:\/\/\S+)/.test(cli.out()));
    const url = /listening on (http:\/\/\S+)/.exec(cli.out())?.[1] ?? '';
    const armed = await fetch(`${url}/_simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'status', status: 503, match: '/disbursement' }),
    });
    expect(armed.status).toBe(201);
    const headers = {
      'Ocp-Apim-Subscription-Key': 'sim-subscription-key',
      'X-Target-Environment': 'sandbox',
    };
    const faulted = await fetch(`${url}/disbursement/v1_0/account/balance`, { headers });
    expect(faulted.status).toBe(503);
    const state = await (await fetch(`${url}/_simulator/state`)).json();
    expect(state).toMatchObject({ transactions: [], requestCount: 1 });
    // Its owner moves its clock (a year run from another process): a JSON POST, as the others.
    const before = (await (await fetch(`${url}/_simulator/clock`)).json()).now;
    const advanced = await fetch(`${url}/_simulator/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 86_400_000 }),
    });
    expect(advanced.status).toBe(200);
    expect((await advanced.json()).now).toBeGreaterThanOrEqual(before + 86_400_000);
    const formPost = await fetch(`${url}/_simulator/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'ms=86400000',
    });
    expect(formPost.status).toBeGreaterThanOrEqual(400); // a browser form cannot move it
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual([0, null]);
  });

  it('--enforce-callback-host, --provider-callback-host and --allowed-hosts', async () => {
    const cli = run([
      'simulator',
      '--port',
      '0',
      '--enforce-callback-host',
      '--provider-callback-host',
      'partner-app',
      '--allowed-hosts',
      'momo-sim,sim.internal',
    ]);
    await until(() => /listening on (http:\/\/\S+)/.test(cli.out()));
    const url = /listening on (http:\/\/\S+)/.exec(cli.out())?.[1] ?? '';
    expect(cli.out()).toMatch(/callback hosts\s+loopback, .*\(partner-app\).*enforced/);
    const common = { 'Ocp-Apim-Subscription-Key': 'sim-subscription-key' };
    const token = (await (
      await fetch(`${url}/disbursement/token/`, {
        method: 'POST',
        headers: {
          ...common,
          Authorization: `Basic ${btoa(`${apiUserOf(cli.out())}:sim-api-key`)}`,
        },
      })
    ).json()) as { access_token: string };
    const depositWith = (callbackUrl: string) =>
      fetch(`${url}/disbursement/v1_0/deposit`, {
        method: 'POST',
        headers: {
          ...common,
          Authorization: `Bearer ${token.access_token}`,
          'X-Target-Environment': 'sandbox',
          'X-Reference-Id': crypto.randomUUID(),
          'X-Callback-Url': callbackUrl,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          amount: '5',
          currency: 'EUR',
          payee: { partyIdType: 'MSISDN', partyId: '46733123453' },
        }),
      });
    const refused = await depositWith('http://127.0.0.1:9/cb');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'INVALID_CALLBACK_URL_HOST' });
    expect((await depositWith('http://partner-app:8080/cb')).status).toBe(202);
    // Host names: node:http lets the test name one that does not resolve.
    const statusFor = (host: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        const req = request(`${url}/_simulator/state`, { headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject).end();
      });
    expect(await statusFor('momo-sim:4010')).toBe(200);
    expect(await statusFor('sim.internal')).toBe(200);
    expect(await statusFor('evil.example')).toBe(403);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual([0, null]);
  });

  it('prints usage for --help', async () => {
    const cli = run(['simulator', '--help']);
    expect((await cli.exited)[0]).toBe(0);
    expect(cli.out()).toContain('Usage: momo-partner-sdk simulator');
  });

  it('exits 2 with usage on a bad command or option', async () => {
    for (const args of [
      ['serve'],
      ['simulator', '--port', 'abc'],
      ['simulator', '--nope'],
      ['simulator', '--allowed-hosts', 'http://momo-sim'],
    ]) {
      const cli = run(args);
      expect((await cli.exited)[0]).toBe(2);
      expect(cli.err()).toContain('Usage:');
    }
  });
});
