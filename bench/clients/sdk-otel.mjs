/**
 * The SDK traced with `telemetry: otel()`: a tracer provider with a batch processor and a
 * meter provider with a periodic reader, both exporting to a no-op exporter. What is
 * measured is what the SDK adds (its spans, events and duration records), not an
 * exporter's cost nor the partner's own context manager and request spans, which a
 * partner pays with or without the SDK's tracing.
 *
 * `build`: another build's package directory (BENCH_COMPARE), its client and its `otel()`.
 */
import { pathToFileURL } from 'node:url';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { sdkOptions } from './sdk.mjs';

/** Accepts every batch and drops it. */
export const noopExporter = {
  export: (_items, done) => done({ code: 0 }),
  forceFlush: async () => {},
  shutdown: async () => {},
};

/** The providers the bench traces to: the OpenTelemetry SDK's, exporting nowhere. */
export function noopProviders() {
  return {
    tracerProvider: new BasicTracerProvider({
      spanProcessors: [new BatchSpanProcessor(noopExporter)],
    }),
    meterProvider: new MeterProvider({
      readers: [new PeriodicExportingMetricReader({ exporter: noopExporter })],
    }),
  };
}

export async function createSdkOtelClient(url, credentials, { build } = {}) {
  const load = (file, name) =>
    build ? import(pathToFileURL(`${build}/dist/${file}`).href) : import(name);
  const { MomoClient } = await load('index.js', 'momo-partner-sdk');
  const { otel } = await load('otel.js', 'momo-partner-sdk/otel');
  const momo = new MomoClient({
    ...sdkOptions(url, credentials),
    telemetry: otel(noopProviders()),
  });
  await momo.disbursement.getAccessToken();
  return {
    momo,
    lookup: (referenceId) => momo.disbursement.getDeposit(referenceId),
    balance: () => momo.disbursement.getBalance(),
    create: (body) => momo.disbursement.deposit(body),
  };
}
