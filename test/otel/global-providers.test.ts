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
import { afterEach, expect, it } from 'vitest';

afterEach(() => {
  trace.disable();
  metrics.disable();
});

it('otel() with no argument: the globally registered providers, even ones registered after it', async () => {
  const telemetry = otel(); // before any provider is registered, as a module-level client would
  const spans = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
  );
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const meterProvider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 })],
  });
  metrics.setGlobalMeterProvider(meterProvider);

  await createSimulator().client({ telemetry }).disbursement.getBalance();
  await meterProvider.forceFlush();

  expect(spans.getFinishedSpans().map((s) => s.name)).toEqual([
    'POST /disbursement/token/',
    'GET /disbursement/v1_0/account/balance',
  ]);
  const names = exporter
    .getMetrics()
    .flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.descriptor.name)));
  expect(names).toEqual(['http.client.request.duration']);
  await meterProvider.shutdown();
});
