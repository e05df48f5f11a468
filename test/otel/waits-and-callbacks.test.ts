import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { isWaitTimeoutError, type MomoClient } from 'momo-partner-sdk';
import { otel } from 'momo-partner-sdk/otel';
import { createSimulator } from 'momo-partner-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { depositTo, type Harness, idOf, noActiveSpan, parentOf, telemetryHarness } from './support';

const CALLBACKS = 'https://partner.test/momo/callbacks/{referenceId}';
const LOOKUP = 'GET /disbursement/v1_0/deposit/{referenceId}';
let harness: Harness;
afterEach(async () => {
  await harness?.shutdown();
  expect(noActiveSpan()).toBe(true);
});

/** A simulator whose callbacks go to the client's own handler, as a partner mounts it. */
function setUp(options: { callbacks?: boolean; settleMs?: number } = {}) {
  harness = telemetryHarness();
  let momo: MomoClient | undefined;
  const sim = createSimulator({
    settleMs: options.settleMs ?? 100,
    callbackFetch: (input, init) =>
      momo ? momo.callbacks.handler()(new Request(input, init)) : Promise.reject(new Error('no')),
  });
  const telemetry = otel({
    tracerProvider: harness.tracerProvider,
    meterProvider: harness.meterProvider,
  });
  momo = sim.client({
    telemetry,
    ...(options.callbacks ? { callbackUrl: CALLBACKS } : {}),
    polling: { initialDelayMs: 20, maxDelayMs: 20, timeoutMs: 10_000 },
  });
  return { sim, momo };
}

const lookupsMade = (sim: ReturnType<typeof createSimulator>) =>
  sim.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/disbursement/v1_0/deposit/'))
    .length;

describe('momo-partner-sdk/otel: wait()', () => {
  it('one INTERNAL span with its lookup count and final status; its lookups are not spanned', async () => {
    const { sim, momo } = setUp();
    // PENDING until the wait has seen it PENDING: more than one lookup, however late its timers.
    const settleOnceSeen = (result: { referenceId?: string | undefined; status: string }) => {
      if (result.status === 'PENDING') sim.settle(result.referenceId as string, 'SUCCESSFUL');
    };
    const { span: checkout, value: final } = await harness.inSpan('checkout', () =>
      momo.disbursement.deposit(depositTo('46733123453')).wait({ onStatus: settleOnceSeen }),
    );
    expect(final.status).toBe('SUCCESSFUL');

    const wait = harness.span('wait disbursement.getDeposit');
    expect(wait.kind).toBe(SpanKind.INTERNAL);
    expect(parentOf(wait)).toBe(idOf(checkout));
    expect(wait.status.code).toBe(SpanStatusCode.UNSET);
    const lookups = lookupsMade(sim);
    expect(lookups).toBeGreaterThan(1);
    expect(wait.attributes).toEqual({
      'momo.operation': 'disbursement.getDeposit',
      'momo.reference_id': final.referenceId,
      'momo.wait.lookups': lookups,
      'momo.wait.status': 'SUCCESSFUL',
    });
    expect(harness.spans().filter((s) => s.name === LOOKUP)).toEqual([]);
    // Measured all the same: one duration record per lookup.
    const { points } = await harness.points('http.client.request.duration');
    const gets = points.filter((p) => p.attributes['http.request.method'] === 'GET');
    expect(gets.reduce((n, p) => n + p.value.count, 0)).toBe(lookups);
  });

  it('a wait that times out is an ERROR span named by its error class', async () => {
    const { momo } = setUp();
    const error = await momo.disbursement
      .deposit(depositTo('46733123453')) // PENDING until settled
      .wait({ timeoutMs: 100 })
      .catch((e: unknown) => e);
    expect(isWaitTimeoutError(error)).toBe(true);
    const wait = harness.span('wait disbursement.getDeposit');
    expect(wait.status.code).toBe(SpanStatusCode.ERROR);
    expect(wait.attributes['error.type']).toBe('WaitTimeoutError');
    expect(wait.attributes).not.toHaveProperty('momo.wait.status');
    expect(wait.attributes['momo.wait.lookups']).toBeGreaterThan(0);
  });

  it('a FAILED transaction ends the wait normally, its status recorded', async () => {
    const { momo } = setUp();
    const final = await momo.disbursement.deposit(depositTo('46733123451')).wait();
    expect(final.status).toBe('FAILED');
    const wait = harness.span('wait disbursement.getDeposit');
    expect(wait.status.code).toBe(SpanStatusCode.UNSET);
    expect(wait.attributes['momo.wait.status']).toBe('FAILED');
  });
});

describe('momo-partner-sdk/otel: the callback handler', () => {
  it('one SERVER span per callback: route as mounted, method, status, reference id', async () => {
    const { sim, momo } = setUp({ callbacks: true, settleMs: 20 });
    const { referenceId } = await momo.disbursement.deposit(depositTo());
    // 202: accepted at once (the deposit pending here), confirmed by its lookup after.
    await expect.poll(() => sim.callbacks.at(0)?.status, { timeout: 5_000 }).toBe(202);

    const route = '/momo/callbacks/{referenceId}';
    const server = harness.span(`POST ${route}`); // the simulator's deposit callbacks are POST
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(server.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': route,
      'http.response.status_code': 202,
      'momo.reference_id': referenceId,
    });
  });

  it('a refused callback is traced with its 4xx status (not a server error)', async () => {
    const { momo } = setUp({ callbacks: true });
    const handler = momo.callbacks.handler();
    const response = await handler(
      new Request('https://partner.test/momo/callbacks/not-a-uuid', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'SUCCESSFUL' }),
      }),
    );
    expect(response.status).toBe(400);
    const server = harness.span('PUT /momo/callbacks/{referenceId}');
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(server.attributes['http.response.status_code']).toBe(400);
    expect(server.attributes).not.toHaveProperty('momo.reference_id');
  });

  it('an answer 5xx is an ERROR span', async () => {
    const { sim, momo } = setUp({ callbacks: true, settleMs: 20 });
    const handler = momo.callbacks.handler({
      onEvent: () => {
        throw new Error('the partner failed');
      },
    });
    const { referenceId } = await momo.disbursement.deposit(depositTo());
    await expect.poll(() => sim.callbacks.at(0)?.status, { timeout: 5_000 }).toBeDefined();
    const put = () =>
      handler(
        new Request(`https://partner.test/momo/callbacks/${referenceId}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'SUCCESSFUL' }),
        }),
      );
    // The first is accepted (202) and confirmed after; once the outcome is known, a
    // callback is answered at once, and onEvent's failure is a 500.
    expect((await put()).status).toBe(202);
    await expect.poll(async () => (await put()).status, { timeout: 5_000 }).toBe(500);
    const failed = harness
      .spans()
      .find((s) => s.kind === SpanKind.SERVER && s.attributes['http.response.status_code'] === 500);
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed?.attributes['error.type']).toBe('500');
  });
});
