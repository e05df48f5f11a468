import { type AddressInfo, createServer } from 'node:net';
import { MomoClient } from 'momo-partner-sdk';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, useLoopbackSimulator } from './support';

// `simulator approve|decline <referenceId>` steer a running simulator, as its payer would;
// the CLI simulator prints the address of the payer's phone page and serves it.
const { sim, url } = useLoopbackSimulator();
const momo = sim.client();
/** A payer whose requests stay PENDING until someone answers for them. */
const payer = { partyIdType: 'MSISDN', partyId: '46733123454' } as const;

async function until<T>(read: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('momo-partner-sdk simulator approve|decline', { timeout: 60_000 }, () => {
  it('approve ends a pending request to pay SUCCESSFUL; its wait() resolves', async () => {
    const payment = await momo.collection.requestToPay({ amount: '12', currency: 'EUR', payer });
    const run = await runCli(['simulator', 'approve', payment.referenceId], {
      MOMO_BASE_URL: url(),
    });
    expect(run).toMatchObject({
      code: 0,
      stdout: `collection.requestToPay ${payment.referenceId}: SUCCESSFUL\n`,
      stderr: '',
    });
    expect((await payment.wait()).status).toBe('SUCCESSFUL');
  });

  it('decline ends a pending transfer FAILED with APPROVAL_REJECTED (--json, --base-url)', async () => {
    const transfer = await momo.disbursement.transfer({
      amount: '7',
      currency: 'EUR',
      payee: payer,
    });
    const run = await runCli([
      'simulator',
      'decline',
      transfer.referenceId,
      '--json',
      '--base-url',
      url(),
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      operation: 'disbursement.transfer',
      referenceId: transfer.referenceId,
      status: 'FAILED',
      reason: { code: 'APPROVAL_REJECTED' },
    });
    expect(await transfer.wait()).toMatchObject({
      status: 'FAILED',
      reason: { code: 'APPROVAL_REJECTED' },
    });
  });

  it('a consent request, by its auth_req_id: approve grants it, decline denies it', async () => {
    const ask = () =>
      momo.consent.authorize({ msisdn: '46733123453', scope: 'profile', accessType: 'offline' });
    const [granted, denied] = await Promise.all([ask(), ask()]);
    const [approve, decline] = await Promise.all([
      runCli(['simulator', 'approve', granted.authReqId], { MOMO_BASE_URL: url() }),
      runCli(['simulator', 'decline', denied.authReqId], { MOMO_BASE_URL: url() }),
    ]);
    expect(approve).toMatchObject({ code: 0, stdout: `consent ${granted.authReqId}: APPROVED\n` });
    expect(decline).toMatchObject({ code: 0, stdout: `consent ${denied.authReqId}: DENIED\n` });
    await expect(granted.wait()).resolves.toMatchObject({ accessToken: expect.any(String) });
    await expect(denied.wait()).rejects.toMatchObject({ name: 'ConsentDeniedError' });
  });

  it('exit 3 for a final or unknown operation, and when no simulator answers', async () => {
    const done = await momo.collection.requestToPay({ amount: '1', currency: 'EUR', payer });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    sim.settle(done.referenceId, 'SUCCESSFUL');
    const [final, unknown, nobody] = await Promise.all([
      runCli(['simulator', 'decline', done.referenceId], { MOMO_BASE_URL: url() }),
      runCli(['simulator', 'approve', 'no-such-operation'], { MOMO_BASE_URL: url() }),
      runCli(['simulator', 'approve', done.referenceId], { MOMO_BASE_URL: nowhere }),
    ]);
    expect(final).toMatchObject({ code: 3, stdout: '' });
    expect(final.stderr).toContain(`${done.referenceId} is already SUCCESSFUL`);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('consent request no-such-operation');
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toContain(`no simulator answered at ${nowhere} (ECONNREFUSED)`);
    expect(nobody.stderr).toContain('MOMO_BASE_URL');
  });

  it('the CLI simulator prints the page address, serves the page and its event stream', async () => {
    const cli = await startCli(['simulator', '--port', '0', '--settle-ms', '600000']);
    try {
      const page = await until(
        () => /payer's phone\s+(http:\/\/\S+\/_simulator\/)/.exec(cli.out())?.[1],
      );
      const html = await fetch(page);
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await html.text()).toContain("<h1>The payer's phone</h1>");
      const events = await fetch(`${page}events`);
      expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const reader = (events.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      while (!text.includes('event: state'))
        text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      // A client of the CLI simulator, steered from another CLI process.
      const base = page.replace(/\/_simulator\/$/, '');
      const client = new MomoClient({
        baseUrl: base,
        targetEnvironment: 'sandbox',
        subscriptionKey: 'sim-subscription-key',
        apiUser: { id: '3f1c5e2a-8b4d-4c6e-9a7b-1d2e3f405162', key: 'sim-api-key' },
        polling: { initialDelayMs: 20, maxDelayMs: 100 },
      });
      const payment = await client.collection.requestToPay({ amount: '5', currency: 'EUR', payer });
      const run = await runCli(['simulator', 'approve', payment.referenceId], {
        MOMO_BASE_URL: base,
      });
      expect(run.code).toBe(0);
      expect((await payment.wait()).status).toBe('SUCCESSFUL');
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });
});
