/**
 * `momo-partner-sdk/otel`: the SDK traced with OpenTelemetry. `@opentelemetry/api` is the
 * partner's own (an optional peer dependency); bring any SDK or exporter, then
 * `new MomoClient({ ...options, telemetry: otel() })`.
 *
 * Spans: one CLIENT span per logical call (`POST /disbursement/v1_0/deposit`), one
 * INTERNAL span per `wait()`, one SERVER span per callback; the metric
 * `http.client.request.duration`. Nothing secret or personal is ever recorded
 * (docs/telemetry.md lists every name and attribute).
 */
import {
  context,
  type MeterProvider,
  metrics,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { Telemetry } from 'momo-partner-sdk';
import { CallTracer } from './call-trace';
import { startCallback } from './callback-trace';
import { Instruments, SCOPE } from './instruments';
import { startWait } from './wait-trace';

/** The providers `otel()` reports to. */
export interface OtelOptions {
  /** Default: the globally registered one (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider | undefined;
  /** Default: the globally registered one (`metrics.getMeterProvider()`), read at the first call. */
  meterProvider?: MeterProvider | undefined;
}

/**
 * The client option `telemetry`, backed by OpenTelemetry. Each trace is a child of the
 * caller's active span (`context.active()` when the call, wait or callback starts).
 */
export function otel(options: OtelOptions = {}): Telemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(
    SCOPE.name,
    SCOPE.version,
  );
  const { meterProvider } = options;
  const calls = new CallTracer(
    tracer,
    new Instruments(() => meterProvider ?? metrics.getMeterProvider()),
  );
  return {
    call: (start) => calls.start(start, context.active()),
    wait: (start) => startWait(tracer, start, context.active()),
    callback: (start) => startCallback(tracer, start, context.active()),
  };
}
