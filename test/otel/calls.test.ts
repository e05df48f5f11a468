import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { MomoClient } from 'momo-partner-sdk';
import { otel } from 'momo-partner-sdk/otel';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { uuidv4 } from '../simulator/helpers';
import { depositTo, type Harness, idOf, noActiveSpan, parentOf, telemetryHarness } from './support';

const BASE = 'https://sandbox.momo.test';
let harness: Harness;
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
  await harness?.shutdown();
  expect(noActiveSpan()).toBe(true);
});

function setUp() {
  harness = telemetryHarness();
  const sim = createSimulator();
  const telemetry = otel({
    tracerProvider: harness.tracerProvider,
    meterProvider: harness.meterProvider,
  });
  return { sim, telemetry, momo: sim.client({ telemetry }) };
}

describe('momo-partner-sdk/otel: one CLIENT span per logical call', () => {
  it('named METHOD and path template, children of the caller span, with the HTTP attributes', async () => {
    const { momo } = setUp();
    const { span: checkout, value: referenceId } = await harness.inSpan('checkout', async () => {
      const accepted = await momo.disbursement.deposit(depositTo());
      await momo.disbursement.getDeposit(accepted.referenceId);
      return accepted.referenceId;
    });

    expect(harness.spans().map((s) => s.name)).toEqual([
      'POST /disbursement/token/',
      'POST /disbursement/v1_0/deposit',
      'GET /disbursement/v1_0/deposit/{referenceId}',
      'checkout',
    ]);
    for (const span of harness.spans().filter((s) => s.name !== 'checkout')) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(parentOf(span)).toBe(idOf(checkout));
      expect(span.spanContext().traceId).toBe(checkout.spanContext().traceId);
      expect(span.instrumentationScope.name).toBe('momo-partner-sdk');
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      // One attempt each: no resend count, no attempt events (the span says it all).
      expect(span.attributes).not.toHaveProperty('http.request.resend_count');
      expect(span.events).toEqual([]);
    }

    expect(harness.span('POST /disbursement/v1_0/deposit').attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': 'sandbox.momo.test',
      'server.port': 443,
      'url.full': `${BASE}/disbursement/v1_0/deposit`,
      'url.template': '/disbursement/v1_0/deposit',
      'momo.operation': 'disbursement.deposit',
      'momo.reference_id': referenceId,
      'http.response.status_code': 202,
    });
    expect(harness.span('GET /disbursement/v1_0/deposit/{referenceId}').attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': 'sandbox.momo.test',
      'server.port': 443,
      'url.full': `${BASE}/disbursement/v1_0/deposit/${referenceId}`,
      'url.template': '/disbursement/v1_0/deposit/{referenceId}',
      'momo.operation': 'disbursement.getDeposit',
      'momo.reference_id': referenceId,
      'http.response.status_code': 200,
    });
    // The token request is a logical call like any other.
    expect(harness.span('POST /disbursement/token/').attributes).toMatchObject({
      'momo.operation': 'disbursement.getAccessToken',
      'url.full': `${BASE}/disbursement/token/`,
      'http.response.status_code': 200,
    });
  });

  it('a path parameter other than the reference id stays a {name} in url.full', async () => {
    const { momo } = setUp();
    await momo.disbursement.getBasicUserInfo('46700123987');
    const span = harness.span('GET /disbursement/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo');
    expect(span.attributes['url.full']).toBe(
      `${BASE}/disbursement/v1_0/accountholder/msisdn/{msisdn}/basicuserinfo`,
    );
    expect(span.attributes).not.toHaveProperty('momo.reference_id');
  });

  it('retries: one span, each attempt an event, resend_count on the span (loopback, Node pool)', async () => {
    const { sim, telemetry } = setUp();
    const server = await sim.listen();
    closing.push(() => server.close());
    const momo = new MomoClient({ ...sim.credentials, baseUrl: server.url, telemetry });
    await momo.disbursement.getBalance(); // the token first: its request is not faulted
    sim.inject({ kind: 'drop-before-processing', match: 'POST /disbursement/v1_0/deposit' });
    sim.inject({ kind: 'status', status: 503, match: 'POST /disbursement/v1_0/deposit' });
    const { referenceId } = await momo.disbursement.deposit(depositTo());

    const span = harness.span('POST /disbursement/v1_0/deposit');
    const { port } = new URL(server.url);
    expect(span.attributes).toMatchObject({
      'server.address': '127.0.0.1',
      'server.port': Number(port),
      'url.full': `${server.url}/disbursement/v1_0/deposit`,
      'momo.reference_id': referenceId,
      'http.request.resend_count': 2,
      'http.response.status_code': 202,
    });
    expect(span.attributes).not.toHaveProperty('error.type');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
      ['momo.attempt', { 'error.type': 'ConnectionError' }],
      [
        'momo.attempt',
        {
          'http.response.status_code': 503,
          'error.type': '503',
          'http.request.resend_count': 1,
        },
      ],
      ['momo.attempt', { 'http.response.status_code': 202, 'http.request.resend_count': 2 }],
    ]);
  });

  it('errors: status ERROR, error.type the error class, the answer status when there was one', async () => {
    const { sim, momo } = setUp();
    const unknown = uuidv4();
    await expect(momo.disbursement.getDeposit(unknown)).rejects.toThrow();
    sim.inject({ kind: 'drop-before-processing', match: '/disbursement/v1_0/account/balance' });
    await expect(momo.disbursement.getBalance({ maxRetries: 0 })).rejects.toThrow();

    const notFound = harness.span('GET /disbursement/v1_0/deposit/{referenceId}');
    expect(notFound.status.code).toBe(SpanStatusCode.ERROR);
    expect(notFound.status.message).toBeUndefined(); // no error message is recorded
    expect(notFound.attributes).toMatchObject({
      'http.response.status_code': 404,
      'error.type': 'NotFoundError',
      'momo.reference_id': unknown,
    });
    const dropped = harness.span('GET /disbursement/v1_0/account/balance');
    expect(dropped.status.code).toBe(SpanStatusCode.ERROR);
    expect(dropped.attributes['error.type']).toBe('ConnectionError');
    expect(dropped.attributes).not.toHaveProperty('http.response.status_code');
  });

  it('http.client.request.duration: a histogram in seconds, one record per attempt', async () => {
    const { sim, momo } = setUp();
    await momo.disbursement.getBalance();
    sim.inject({ kind: 'status', status: 503, match: 'POST /disbursement/v1_0/deposit' });
    await momo.disbursement.deposit(depositTo());

    const { unit, points } = await harness.points('http.client.request.duration');
    expect(unit).toBe('s');
    const server = { 'server.address': 'sandbox.momo.test', 'server.port': 443 };
    const byAttributes = points.map((p) => [p.attributes, p.value.count]);
    expect(byAttributes).toEqual(
      expect.arrayContaining([
        // token (200), deposit attempts (503, then 202)
        [{ 'http.request.method': 'POST', ...server, 'http.response.status_code': 200 }, 1],
        [
          {
            'http.request.method': 'POST',
            ...server,
            'http.response.status_code': 503,
            'error.type': '503',
          },
          1,
        ],
        [{ 'http.request.method': 'POST', ...server, 'http.response.status_code': 202 }, 1],
        [{ 'http.request.method': 'GET', ...server, 'http.response.status_code': 200 }, 1],
      ]),
    );
    expect(points).toHaveLength(4);
    for (const point of points) {
      // Seconds, not milliseconds: an in-memory answer takes well under a second.
      expect(point.value.sum).toBeGreaterThan(0);
      expect(point.value.sum).toBeLessThan(5);
    }
  });

  it('without the option, nothing is recorded (the providers see no span)', async () => {
    harness = telemetryHarness();
    const sim = createSimulator();
    await sim.client().disbursement.getBalance();
    expect(harness.spans()).toEqual([]);
    expect((await harness.points('http.client.request.duration')).points).toEqual([]);
  });
});
