/**
 * The SDK traced with `telemetry: otel()`: a tracer provider with a batch processor and a
 * meter provider with a periodic reader, both exporting to a no-op exporter. What is
 * measured is what the SDK adds (its spans, events and duration records), not an
 * exporter's cost nor the partner's own context manager and request spans, which a
 * partner pays with or without the SDK's tracing.
 */
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MomoClient } from 'momo-partner-sdk';
import { otel } from 'momo-partner-sdk/otel';
import { sdkOptions } from './sdk.mjs';

/** Accepts every batch and drops it. */
const noopExporter = {
  export: (_items, done) => done({ code: 0 }),
  forceFlush: async () => {},
  shutdown: async () => {},
};

export async function createSdkOtelClient(url, credentials) {
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(noopExporter)],
  });
  const meterProvider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter: noopExporter })],
  });
  const momo = new MomoClient({
    ...sdkOptions(url, credentials),
    telemetry: otel({ tracerProvider, meterProvider }),
  });
  await momo.disbursement.getAccessToken();
  return {
    momo,
    lookup: (referenceId) => momo.disbursement.getDeposit(referenceId),
    balance: () => momo.disbursement.getBalance(),
    create: (body) => momo.disbursement.deposit(body),
  };
}
