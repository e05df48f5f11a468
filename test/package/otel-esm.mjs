/**
 * `momo-partner-sdk/otel` from ESM, as installed from the tarball, with no argument: the
 * globally registered tracer and meter providers, as a partner's OpenTelemetry set-up
 * registers them. Copied into the package checks' consumer and run there by check.mjs.
 */
import { metrics, trace } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { otel } from 'momo-partner-sdk/otel';
import { createSimulator } from 'momo-partner-sdk/testing';

const spans = new InMemorySpanExporter();
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
);
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const meterProvider = new MeterProvider({
  readers: [new PeriodicExportingMetricReader({ exporter: metricExporter })],
});
metrics.setGlobalMeterProvider(meterProvider);

const momo = createSimulator().client({ telemetry: otel() });
await momo.disbursement.getBalance();
await meterProvider.forceFlush();

const names = spans.getFinishedSpans().map((span) => span.name);
const measured = metricExporter
  .getMetrics()
  .flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.descriptor.name)));
if (!names.includes('GET /disbursement/v1_0/account/balance')) {
  throw new Error(`spans exported: ${names.join(', ') || 'none'}`);
}
if (!measured.includes('http.client.request.duration')) {
  throw new Error(`metrics exported: ${measured.join(', ') || 'none'}`);
}
await meterProvider.shutdown();
console.log(`otel ESM ok (global providers): ${names.join(', ')}; ${measured.join(', ')}`);
