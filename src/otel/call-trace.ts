import {
  type Attributes,
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
} from '@opentelemetry/api';
import type { AttemptTrace, CallStart, CallTrace } from 'momo-partner-sdk';
import {
  ATTR,
  clientError,
  errorTypeOf,
  type Outcome,
  type Server,
  serverAttributes,
  serverOf,
} from './attributes';
import type { Instruments } from './instruments';

/**
 * One logical call: a CLIENT span `{METHOD} {path template}` from its start to its final
 * answer, each attempt an event on it (`momo.attempt`, with `http.request.resend_count`
 * from the second on) and a record of `http.client.request.duration`. A lookup made by a
 * `wait()` gets no span (the wait counts it): its attempts are measured only.
 */
export function startCall(
  tracer: Tracer,
  instruments: Instruments,
  start: CallStart,
  parent: Context,
): CallTrace {
  const server = serverOf(start.url);
  const metered = new MeteredCall(instruments, start.method, server);
  if (start.wait !== undefined) return metered;
  const attributes: Attributes = {
    [ATTR.method]: start.method,
    ...serverAttributes(server),
    [ATTR.urlFull]: server?.url ?? start.pathTemplate,
    [ATTR.urlTemplate]: start.pathTemplate,
    [ATTR.operation]: start.operation,
  };
  if (start.referenceId !== undefined) attributes[ATTR.referenceId] = start.referenceId;
  const span = tracer.startSpan(
    `${start.method} ${start.pathTemplate}`,
    { kind: SpanKind.CLIENT, attributes },
    parent,
  );
  return new SpannedCall(span, metered);
}

/** Attempts measured, nothing spanned. */
class MeteredCall implements CallTrace {
  readonly #instruments: Instruments;
  readonly #attributes: Attributes;

  constructor(instruments: Instruments, method: string, server: Server | undefined) {
    this.#instruments = instruments;
    this.#attributes = { [ATTR.method]: method, ...serverAttributes(server) };
  }

  attempt(): AttemptTrace {
    return this.measure(() => {});
  }

  /** Starts an attempt's clock; `ended` hears its outcome once it is recorded. */
  measure(ended: (outcome: Outcome) => void): AttemptTrace {
    const started = performance.now();
    return {
      end: (outcome) => {
        const seconds = (performance.now() - started) / 1000;
        this.#instruments.duration.record(seconds, withOutcome(this.#attributes, outcome));
        ended(outcome);
      },
    };
  }

  end(): void {}
}

/** The span of a logical call, its attempts as events, the metric as for any call. */
class SpannedCall implements CallTrace {
  readonly #span: Span;
  readonly #metered: MeteredCall;
  #attempts = 0;

  constructor(span: Span, metered: MeteredCall) {
    this.#span = span;
    this.#metered = metered;
  }

  attempt(): AttemptTrace {
    // Counted here rather than read from `n`: a 401 replay is a resend too.
    const resends = this.#attempts++;
    return this.#metered.measure((outcome) => {
      const attributes = withOutcome({}, outcome);
      if (resends > 0) attributes[ATTR.resendCount] = resends;
      this.#span.addEvent('momo.attempt', attributes);
    });
  }

  end(outcome: Outcome): void {
    const span = this.#span;
    if (this.#attempts > 1) span.setAttribute(ATTR.resendCount, this.#attempts - 1);
    if (outcome.status !== undefined) span.setAttribute(ATTR.status, outcome.status);
    const errorType = errorTypeOf(outcome, clientError);
    if (errorType !== undefined) {
      span.setAttribute(ATTR.errorType, errorType);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }
}

/** Attributes plus an outcome's status code and error type. */
function withOutcome(base: Attributes, outcome: Outcome): Attributes {
  const attributes: Attributes = { ...base };
  if (outcome.status !== undefined) attributes[ATTR.status] = outcome.status;
  const errorType = errorTypeOf(outcome, clientError);
  if (errorType !== undefined) attributes[ATTR.errorType] = errorType;
  return attributes;
}
