/**
 * Tracing cost without HTTP: CPU µs per call of what `telemetry: otel()` does for one
 * lookup that took one attempt (the port as the transport drives it: call, attempt, its
 * end, the call's end), against the floor: the same span (name, kind, the same seven
 * attributes at its start, the status at its end) and the same duration record made by
 * hand with `@opentelemetry/api` on the same providers (clients/sdk-otel.mjs: batch span
 * processor and periodic reader, no-op exporters), and against nothing. Calls run in
 * slices of 256 with a turn of the event loop between them (the batch processor exports
 * there, as it does between requests), variants alternating, 7 rounds; medians printed.
 *
 *   npm run build && node --expose-gc bench/probes/otel-floor.mjs [calls per round]
 *
 * BENCH_COMPARE=<another checkout, built> adds that build's `otel()` as a variant.
 */
import { pathToFileURL } from 'node:url';
import { context, SpanKind } from '@opentelemetry/api';
import { otel } from 'momo-partner-sdk/otel';
import { noopProviders } from '../clients/sdk-otel.mjs';
import { median } from '../lib/stats.mjs';

const calls = Number(process.argv[2] ?? 100_000);
const rounds = 7;
const slice = 256;
const baseUrl = 'http://127.0.0.1:40123';
const template = '/disbursement/v1_0/deposit/{referenceId}';
const referenceId = '0b3f0d43-5a7f-4b6e-9d6a-6f0f8d1f2e3a';

/** What the transport builds for the port: `callStart(plan, config)`. */
const callStart = () => ({
  operation: 'disbursement.getDeposit',
  method: 'GET',
  pathTemplate: template,
  url: baseUrl + template.replace('{referenceId}', referenceId),
  referenceId,
  wait: undefined,
});

function portVariant(otelOf) {
  const telemetry = otelOf(noopProviders());
  return () => {
    const trace = telemetry.call(callStart());
    trace.attempt(1).end({ status: 200 });
    trace.end({ status: 200 });
  };
}

/** The same span and record, written by hand: what any instrumentation has to pay. */
function floorVariant() {
  const { tracerProvider, meterProvider } = noopProviders();
  const tracer = tracerProvider.getTracer('floor', '1');
  const duration = meterProvider
    .getMeter('floor', '1')
    .createHistogram('http.client.request.duration', {
      unit: 's',
      advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 1, 10] },
    });
  const recorded = {
    'http.request.method': 'GET',
    'server.address': '127.0.0.1',
    'server.port': 40123,
    'http.response.status_code': 200,
  };
  return () => {
    const span = tracer.startSpan(
      `GET ${template}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': 'GET',
          'url.full': baseUrl + template.replace('{referenceId}', referenceId),
          'url.template': template,
          'momo.operation': 'disbursement.getDeposit',
          'server.address': '127.0.0.1',
          'server.port': 40123,
          'momo.reference_id': referenceId,
        },
      },
      context.active(),
    );
    const started = performance.now();
    duration.record((performance.now() - started) / 1000, recorded);
    span.setAttribute('http.response.status_code', 200);
    span.end();
  };
}

const variants = { none: () => {}, floor: floorVariant(), port: portVariant(otel) };
if (process.env.BENCH_COMPARE) {
  const before = await import(pathToFileURL(`${process.env.BENCH_COMPARE}/dist/otel.js`).href);
  variants['port (BENCH_COMPARE)'] = portVariant(before.otel);
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
async function measure(run) {
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  for (let done = 0; done < calls; done += slice) {
    for (let i = 0; i < slice; i++) run();
    await turn();
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / calls;
}

const names = Object.keys(variants);
for (const name of names) await measure(variants[name]); // warm-up
const results = Object.fromEntries(names.map((name) => [name, []]));
for (let r = 0; r < rounds; r++) {
  for (const name of r % 2 === 0 ? names : [...names].reverse()) {
    results[name].push(await measure(variants[name]));
  }
}
console.log(
  `node ${process.versions.node}, ${calls} calls a round, ${rounds} rounds: CPU µs per call`,
);
for (const name of names) {
  const all = results[name].map((v) => v.toFixed(2)).join(' ');
  console.log(`${name.padEnd(22)} ${median(results[name]).toFixed(2).padStart(6)}   (${all})`);
}
