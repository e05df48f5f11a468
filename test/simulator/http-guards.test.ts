import { request } from 'node:http';
import { createSimulator, type ListeningServer } from 'momo-partner-sdk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rawClient } from './helpers';

// A simulator served over HTTP is reachable by any page a developer's browser opens: a
// cross-site form or text/plain fetch, or a page whose name was rebound to 127.0.0.1.
const sim = createSimulator({ settleMs: 600_000 }); // pending until someone decides
let server: ListeningServer;
beforeAll(async () => {
  server = await sim.listen();
});
afterEach(() => sim.reset());
afterAll(() => server.close());

/** A raw request over node:http, so that Host, Origin and Sec-Fetch-* are ours to set. */
function send(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  url = server.url,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: init.method ?? 'GET', headers: init.headers });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({
          status: res.statusCode ?? 0,
          json: text.startsWith('{') ? JSON.parse(text) : {},
        });
      });
    });
    req.end(init.body);
  });
}

const pending = () =>
  sim.client().collection.requestToPay({
    amount: '5',
    currency: 'EUR',
    payer: { partyIdType: 'MSISDN', partyId: '46733123453' },
  });

/** What a page on another site can send without a preflight. */
const crossSite = { origin: 'http://evil.example', 'content-type': 'text/plain' };

describe('the simulator over HTTP refuses other sites', () => {
  it('a foreign Host (DNS rebinding) gets 403, on the control routes and the API alike', async () => {
    const state = await send('/_simulator/state', { headers: { host: 'evil.example' } });
    expect(state.status).toBe(403);
    expect(state.json).toMatchObject({ code: 'FORBIDDEN' });
    expect(String(state.json.message)).toContain('allowedHosts');
    const page = await send('/_simulator/', { headers: { host: 'evil.example:4010' } });
    expect(page.status).toBe(403);
    const balance = await send('/disbursement/v1_0/account/balance', {
      headers: {
        host: 'evil.example',
        'ocp-apim-subscription-key': sim.credentials.subscriptionKey,
        'x-target-environment': 'sandbox',
      },
    });
    expect(balance.status).toBe(403);
    expect(sim.requests).toHaveLength(0);
    // Loopback names, whichever the client used, and the bound address are fine.
    // An address cannot be rebound (only a name can): a LAN address is fine too.
    for (const host of [
      `127.0.0.1:${server.port}`,
      `localhost:${server.port}`,
      '[::1]',
      '192.168.1.20:4010',
      '[fd00::1]',
    ]) {
      expect((await send('/_simulator/state', { headers: { host } })).status).toBe(200);
    }
  });

  it('listen({ allowedHosts }) accepts the names given, and only those', async () => {
    const shared = await sim.listen({ allowedHosts: ['momo-sim'] });
    try {
      const named = await send(
        '/_simulator/state',
        { headers: { host: 'momo-sim:4010' } },
        shared.url,
      );
      expect(named.status).toBe(200);
      const other = await send('/_simulator/state', { headers: { host: 'other' } }, shared.url);
      expect(other.status).toBe(403);
    } finally {
      await shared.close();
    }
    await expect(sim.listen({ allowedHosts: ['http://momo-sim'] })).rejects.toThrow(
      /allowedHosts: "http:\/\/momo-sim" must be a bare host name/,
    );
  });

  it('a cross-site text/plain POST neither approves, arms a fault, resends nor resets', async () => {
    const { referenceId } = await pending();
    const answered = await sim.client().collection.requestToPay(
      { amount: '6', currency: 'EUR', payer: { partyIdType: 'MSISDN', partyId: '46733123453' } },
      { callbackUrl: 'http://127.0.0.1:9/momo/cb' }, // nobody listens: delivery fails
    );
    sim.settle(answered.referenceId, 'SUCCESSFUL');
    expect(sim.callbacks).toHaveLength(1);
    const approve = await send(`/_simulator/operations/${referenceId}/approve`, {
      method: 'POST',
      headers: crossSite,
      body: '{}',
    });
    expect(approve.status).toBe(403);
    expect(approve.json).toMatchObject({ code: 'FORBIDDEN' });
    const fault = await send('/_simulator/faults', {
      method: 'POST',
      headers: crossSite,
      body: JSON.stringify({ kind: 'status', status: 503 }),
    });
    expect(fault.status).toBe(403);
    const resend = await send('/_simulator/callbacks/0/resend', {
      method: 'POST',
      headers: crossSite,
    });
    expect(resend.status).toBe(403);
    const reset = await send('/_simulator/reset', { method: 'POST', headers: crossSite });
    expect(reset.status).toBe(403);
    const disarm = await send('/_simulator/faults/1', {
      method: 'DELETE',
      headers: { origin: 'null' },
    });
    expect(disarm.status).toBe(403);
    expect(sim.transaction(referenceId)?.status).toBe('PENDING');
    expect(sim.transactions).toHaveLength(2); // not reset
    expect(sim.callbacks).toHaveLength(1); // not resent
    // No fault armed: the next call is answered normally.
    expect(
      (await rawClient(sim, fetch, server.url).get('/collection/v1_0/account/balance')).status,
    ).toBe(200);
  });

  it('Sec-Fetch-Site cross-site or same-site is refused even without an Origin', async () => {
    const { referenceId } = await pending();
    for (const site of ['cross-site', 'same-site']) {
      const response = await send(`/_simulator/operations/${referenceId}/decline`, {
        method: 'POST',
        headers: { 'sec-fetch-site': site, 'content-type': 'application/json' },
      });
      expect(response.status).toBe(403);
    }
    expect(sim.transaction(referenceId)?.status).toBe('PENDING');
  });

  it('a POST to a control route must be application/json (415), same-origin ones pass', async () => {
    const { referenceId } = await pending();
    const plain = await send(`/_simulator/operations/${referenceId}/approve`, { method: 'POST' });
    expect(plain.status).toBe(415);
    expect(plain.json).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const form = await send('/_simulator/reset', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(form.status).toBe(415);
    expect(sim.transaction(referenceId)?.status).toBe('PENDING');
    // The page's own buttons: JSON, with its own origin (and Sec-Fetch-Site same-origin).
    const own = await send(`/_simulator/operations/${referenceId}/approve`, {
      method: 'POST',
      headers: {
        origin: server.url,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json; charset=utf-8',
      },
      body: '{}',
    });
    expect(own.status).toBe(200);
    expect(sim.transaction(referenceId)?.status).toBe('SUCCESSFUL');
  });

  it("the payer's page and its assets refuse to be framed by any site (clickjacking)", async () => {
    for (const path of ['/_simulator/', '/_simulator/page.js', '/_simulator/page.css']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy.split(';').map((d) => d.trim())).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      await response.body?.cancel();
    }
  });
});
