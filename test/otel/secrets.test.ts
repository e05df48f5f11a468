import { otel } from 'momo-partner-sdk/otel';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { depositTo, type Harness, paymentFrom, telemetryHarness } from './support';

let harness: Harness;
afterEach(() => harness?.shutdown());

const PAYEE = '46700555123';
const PAYER = '46700555987';
const LOOKED_UP = '46700555456';

describe('momo-partner-sdk/otel records nothing secret or personal', () => {
  it('no key, token, Basic credential or MSISDN in any span name, attribute, event or metric', async () => {
    harness = telemetryHarness();
    let handler: ((request: Request) => Promise<Response>) | undefined;
    const sim = createSimulator({
      settleMs: 20,
      callbackFetch: (input, init) => (handler ? handler(new Request(input, init)) : fetch(input)),
    });
    const momo = sim.client({
      telemetry: otel({
        tracerProvider: harness.tracerProvider,
        meterProvider: harness.meterProvider,
      }),
      callbackUrl: 'https://partner.test/momo/{referenceId}',
    });
    handler = momo.callbacks.handler();

    // A journey touching every path: tokens of two products, a 401 replay (a second
    // token), a retried creating call, waits, a callback, lookups by MSISDN, errors.
    await harness.inSpan('journey', async () => {
      await momo.disbursement.deposit(depositTo(PAYEE)).wait();
      sim.inject({ kind: 'status', status: 401, match: 'POST /collection/v1_0/requesttopay' });
      sim.inject({ kind: 'status', status: 503, match: 'POST /collection/v1_0/requesttopay' });
      await momo.collection.requestToPay(paymentFrom(PAYER)).wait();
      await momo.disbursement.getBasicUserInfo(LOOKED_UP);
      await momo.disbursement.getDeposit('00000000-0000-4000-8000-000000000000').catch(() => {});
    });
    await expect.poll(() => sim.callbacks.filter((c) => c.status !== undefined).length).toBe(2);

    const secrets = new Set<string>([
      sim.credentials.subscriptionKey,
      sim.credentials.apiUser.key,
      Buffer.from(`${sim.credentials.apiUser.id}:${sim.credentials.apiUser.key}`).toString(
        'base64',
      ),
      PAYEE,
      PAYER,
      LOOKED_UP,
    ]);
    // Every credential the wire carried: Basic values, access tokens, subscription keys.
    for (const request of sim.requests) {
      const authorization = request.headers.authorization;
      const credential = authorization?.split(' ')[1]; // after the scheme
      if (credential) secrets.add(credential);
      const key = request.headers['ocp-apim-subscription-key'];
      if (key) secrets.add(key);
    }
    const tokens = sim.requests.filter((r) => r.headers.authorization?.startsWith('Bearer '));
    expect(new Set(tokens.map((r) => r.headers.authorization)).size).toBeGreaterThanOrEqual(3);

    const text = await harness.exportedText();
    // The scan sees what was recorded: a journey's worth of spans and metrics.
    expect(harness.spans().length).toBeGreaterThan(8);
    expect(text).toContain('http.client.request.duration');
    expect(text).toContain('POST /momo/{referenceId}');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(3);
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/basic\s|bearer|authorization|subscription-key/i);
  });
});
