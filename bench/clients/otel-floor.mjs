/**
 * The floor of tracing a call with OpenTelemetry, for the telemetry section's
 * BENCH_TELEMETRY_FLOOR=1 rows (diagnostics, not targets):
 *
 * - `raw-http-otel`: raw `node:http` (clients/raw-http.mjs) with, around each call, the
 *   span and the duration record `otel()` makes for it, written by hand with
 *   `@opentelemetry/api` on the same providers (clients/sdk-otel.mjs): what any
 *   instrumentation of these calls pays, with no SDK at all;
 *   `raw-http-span` and `raw-http-record` make only the span, or only the record;
 * - `sdk-noop-port`: the SDK with a telemetry port that records nothing (what the
 *   transport's side of the port costs);
 * - `sdk-providers`: the SDK without telemetry, in a process that loaded and made the
 *   OpenTelemetry providers (what their mere presence costs).
 */
import { randomUUID } from 'node:crypto';
import { context, SpanKind } from '@opentelemetry/api';
import { MomoClient } from 'momo-partner-sdk';
import { createRawHttpClient } from './raw-http.mjs';
import { sdkOptions } from './sdk.mjs';
import { noopProviders } from './sdk-otel.mjs';

const LOOKUP = '/disbursement/v1_0/deposit/{referenceId}';
const CREATE = '/disbursement/v1_0/deposit';
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * `parts`: 'both' (the span and the record), 'span' or 'record' alone (`raw-http-span`,
 * `raw-http-record`: which of the two costs what).
 */
export async function createRawHttpOtelClient(url, credentials, parts = 'both') {
  const raw = await createRawHttpClient(url, credentials);
  const { tracerProvider, meterProvider } = noopProviders();
  const tracer = tracerProvider.getTracer('bench-floor', '1');
  const duration = meterProvider
    .getMeter('bench-floor', '1')
    .createHistogram('http.client.request.duration', {
      unit: 's',
      advice: { explicitBucketBoundaries: BUCKETS },
    });
  const { hostname, port } = new URL(url);
  const server = { 'server.address': hostname, 'server.port': Number(port) };
  const recorded = {
    GET: { 'http.request.method': 'GET', ...server, 'http.response.status_code': 200 },
    POST: { 'http.request.method': 'POST', ...server, 'http.response.status_code': 202 },
  };
  /** One call: a CLIENT span with otel()'s attributes and one duration record. */
  const traced = async (method, template, operation, referenceId, status, run) => {
    if (parts === 'record') {
      const started = performance.now();
      const value = await run();
      duration.record((performance.now() - started) / 1000, recorded[method]);
      return value;
    }
    const span = tracer.startSpan(
      `${method} ${template}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': method,
          'url.full': url + template.replace('{referenceId}', referenceId),
          'url.template': template,
          'momo.operation': operation,
          ...server,
          'momo.reference_id': referenceId,
        },
      },
      context.active(),
    );
    const started = performance.now();
    const value = await run();
    if (parts === 'both') duration.record((performance.now() - started) / 1000, recorded[method]);
    span.setAttribute('http.response.status_code', status);
    span.end();
    return value;
  };
  return {
    lookup: (referenceId) =>
      traced('GET', LOOKUP, 'disbursement.getDeposit', referenceId, 200, () =>
        raw.lookup(referenceId),
      ),
    balance: () => raw.balance(),
    // The raw client makes its reference id inside; the span gets one of the same shape.
    create: (body) =>
      traced('POST', CREATE, 'disbursement.deposit', randomUUID(), 202, () => raw.create(body)),
  };
}

const NO_ATTEMPT = { end() {} };
const NO_CALL = { attempt: () => NO_ATTEMPT, end() {} };
const NO_WAIT = { lookup() {}, end() {} };
const NO_CALLBACK = { end() {} };

export async function createSdkFloorClient(url, credentials, kind) {
  const telemetry =
    kind === 'sdk-noop-port'
      ? { call: () => NO_CALL, wait: () => NO_WAIT, callback: () => NO_CALLBACK }
      : undefined;
  if (kind === 'sdk-providers') noopProviders();
  const momo = new MomoClient({ ...sdkOptions(url, credentials), telemetry });
  await momo.disbursement.getAccessToken();
  return {
    momo,
    lookup: (referenceId) => momo.disbursement.getDeposit(referenceId),
    balance: () => momo.disbursement.getBalance(),
    create: (body) => momo.disbursement.deposit(body),
  };
}
