import { type Attributes, context, type Span, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { RequestToPayBody, TransferBody } from 'momo-partner-sdk';

// What a partner's NodeSDK sets up: the active span follows async calls.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

/**
 * A partner's OpenTelemetry set-up, kept in memory: spans as they are exported, the
 * metrics as the periodic reader would export them (flushed on demand).
 */
export function telemetryHarness() {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spanExporter)],
  });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const partner = tracerProvider.getTracer('partner-app');

  return {
    tracerProvider,
    meterProvider,
    spans: (): ReadableSpan[] => spanExporter.getFinishedSpans(),
    span(name: string): ReadableSpan {
      const found = spanExporter.getFinishedSpans().filter((s) => s.name === name);
      if (found.length !== 1) throw new Error(`${found.length} spans named ${name}`);
      return found[0] as ReadableSpan;
    },
    /** Runs `work` inside the partner's own span, which it returns once ended. */
    async inSpan<T>(name: string, work: () => Promise<T>): Promise<{ span: Span; value: T }> {
      return partner.startActiveSpan(name, async (span) => {
        try {
          return { span, value: await work() };
        } finally {
          span.end();
        }
      });
    },
    /** The data points of one metric, after a flush (cumulative: every record so far). */
    async points(name: string) {
      await meterProvider.forceFlush();
      const exported = metricExporter.getMetrics().at(-1);
      const metric = exported?.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .find((m) => m.descriptor.name === name);
      return {
        unit: metric?.descriptor.unit,
        points: (metric?.dataPoints ?? []) as DataPoint<Histogram>[],
      };
    },
    /** Every string the exporters hold: names, attributes, events, metric attributes. */
    async exportedText(): Promise<string> {
      await meterProvider.forceFlush();
      const spans = spanExporter.getFinishedSpans().map((s) => ({
        name: s.name,
        attributes: s.attributes,
        events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })),
        links: s.links.map((l) => l.attributes),
        status: s.status,
      }));
      const metrics = metricExporter.getMetrics().flatMap((resource) =>
        resource.scopeMetrics.flatMap((scope) =>
          scope.metrics.map((m) => ({
            name: m.descriptor.name,
            points: m.dataPoints.map((p) => p.attributes),
          })),
        ),
      );
      return JSON.stringify({ spans, metrics });
    },
    async shutdown() {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

export type Harness = ReturnType<typeof telemetryHarness>;

/** The id of a span's parent (undefined for a root span). */
export const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

export const idOf = (span: Span) => span.spanContext().spanId;

export const attributesOf = (span: ReadableSpan): Attributes => span.attributes;

/** No span is active outside `inSpan`: a test must not leak one into the next. */
export const noActiveSpan = () => trace.getActiveSpan() === undefined;

/** A deposit to `msisdn` (the simulator's outcome follows its magic numbers). */
export const depositTo = (msisdn = '46700000001'): TransferBody => ({
  amount: '100',
  currency: 'EUR',
  externalId: 'order-1',
  payee: { partyIdType: 'MSISDN', partyId: msisdn },
  payerMessage: 'Thanks',
  payeeNote: 'Cash in',
});

/** A request to pay from `msisdn`. */
export const paymentFrom = (msisdn: string): RequestToPayBody => ({
  amount: '100',
  currency: 'EUR',
  externalId: 'order-2',
  payer: { partyIdType: 'MSISDN', partyId: msisdn },
  payerMessage: 'Pay',
  payeeNote: 'Paid',
});
