import {
  type Attributes,
  type Context,
  type HrTime,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
} from '@opentelemetry/api';
import type { AttemptTrace, CallStart, CallTrace } from 'momo-partner-sdk';
import { ATTR, clientError, errorTypeOf, fullUrlOf, type Outcome, serverOf } from './attributes';
import type { Instruments, MeasureAttempt } from './instruments';

/**
 * One logical call: a CLIENT span `{METHOD} {path template}` from its start to its final
 * answer, and a record of `http.client.request.duration` per attempt. A call that took
 * more than one attempt (retries, a 401 replay) carries `http.request.resend_count` and
 * one `momo.attempt` event per attempt, at the time it ended (a first attempt that was
 * the only one adds nothing: the span says it all). A lookup made by a `wait()` gets no
 * span (the wait counts it): its attempts are measured only.
 */
export function startCall(
  tracer: Tracer,
  instruments: Instruments,
  start: CallStart,
  parent: Context,
): CallTrace {
  const server = serverOf(start.url);
  const measure = instruments.attempts(start.method, server);
  if (start.wait !== undefined) return { attempt: () => measure(undefined), end: () => {} };
  const attributes: Attributes = {
    [ATTR.method]: start.method,
    [ATTR.urlFull]: fullUrlOf(start.url),
    [ATTR.urlTemplate]: start.pathTemplate,
    [ATTR.operation]: start.operation,
  };
  if (server !== undefined) {
    attributes[ATTR.serverAddress] = server.address;
    attributes[ATTR.serverPort] = server.port;
  }
  if (start.referenceId !== undefined) attributes[ATTR.referenceId] = start.referenceId;
  const span = tracer.startSpan(
    `${start.method} ${start.pathTemplate}`,
    { kind: SpanKind.CLIENT, attributes },
    parent,
  );
  return new SpannedCall(span, measure);
}

/** An attempt's outcome and end (epoch ms), kept until it is known whether the call had more than one. */
interface AttemptEnded {
  outcome: Outcome;
  at: number;
}

class SpannedCall implements CallTrace {
  readonly #span: Span;
  readonly #measure: MeasureAttempt;
  #attempts = 0;
  #first: AttemptEnded | undefined;

  constructor(span: Span, measure: MeasureAttempt) {
    this.#span = span;
    this.#measure = measure;
  }

  attempt(): AttemptTrace {
    // Counted here rather than read from `n`: a 401 replay is a resend too.
    const resends = this.#attempts++;
    if (resends === 1) this.#flushFirst(); // a second attempt: the first one becomes an event
    return this.#measure((outcome) => {
      if (resends === 0) {
        this.#first = { outcome, at: performance.timeOrigin + performance.now() };
        return;
      }
      const attributes = outcomeAttributes(outcome);
      attributes[ATTR.resendCount] = resends;
      this.#span.addEvent('momo.attempt', attributes);
    });
  }

  #flushFirst(): void {
    const first = this.#first;
    if (first !== undefined) {
      this.#span.addEvent('momo.attempt', outcomeAttributes(first.outcome), hrTime(first.at));
    }
    this.#first = undefined;
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

/** An outcome's status code and error type, as attributes. */
function outcomeAttributes(outcome: Outcome): Attributes {
  const attributes: Attributes = {};
  if (outcome.status !== undefined) attributes[ATTR.status] = outcome.status;
  const errorType = errorTypeOf(outcome, clientError);
  if (errorType !== undefined) attributes[ATTR.errorType] = errorType;
  return attributes;
}

/** Epoch milliseconds as OpenTelemetry's [seconds, nanoseconds]. */
function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}
