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
import {
  ATTR,
  clientError,
  errorTypeOf,
  fullUrlOf,
  type Outcome,
  type Server,
  serverOf,
} from './attributes';
import type { DurationAttributes, Instruments } from './instruments';

/** What every call of one operation to one server shares: its span name and record sets. */
interface Route {
  method: string;
  pathTemplate: string;
  server: Server | undefined;
  name: string;
  durations: DurationAttributes;
}

/**
 * One logical call: a CLIENT span `{METHOD} {path template}` from its start to its final
 * answer, and a record of `http.client.request.duration` per attempt. A call that took
 * more than one attempt (retries, a 401 replay) carries `http.request.resend_count` and
 * one `momo.attempt` event per attempt, at the time it ended (a first attempt that was
 * the only one adds nothing: the span says it all). A lookup made by a `wait()` gets no
 * span (the wait counts it): its attempts are measured only.
 *
 * What a call costs beyond the OpenTelemetry SDK's own span and record is kept to the
 * span's attributes and two small objects (the call, then one per attempt): the span name
 * and the record's attribute sets are found once per operation (docs/performance.md).
 */
export class CallTracer {
  readonly #tracer: Tracer;
  readonly #instruments: Instruments;
  /** By operation name (a client has a few dozen). */
  readonly #routes = new Map<string, Route>();

  constructor(tracer: Tracer, instruments: Instruments) {
    this.#tracer = tracer;
    this.#instruments = instruments;
  }

  start(start: CallStart, parent: Context): CallTrace {
    const server = serverOf(start.url);
    const route = this.#route(start, server);
    if (start.wait !== undefined) return new MeasuredCall(this.#instruments, route.durations);
    // The names written out (they are ATTR's): V8 builds a literal with constant keys from
    // a template, one with computed keys a property at a time.
    const attributes: Attributes =
      server === undefined
        ? {
            'http.request.method': start.method,
            'url.full': fullUrlOf(start.url),
            'url.template': start.pathTemplate,
            'momo.operation': start.operation,
          }
        : {
            'http.request.method': start.method,
            'url.full': fullUrlOf(start.url),
            'url.template': start.pathTemplate,
            'momo.operation': start.operation,
            'server.address': server.address,
            'server.port': server.port,
          };
    if (start.referenceId !== undefined) attributes[ATTR.referenceId] = start.referenceId;
    const span = this.#tracer.startSpan(route.name, { kind: SpanKind.CLIENT, attributes }, parent);
    return new SpannedCall(this.#instruments, route.durations, span);
  }

  #route(start: CallStart, server: Server | undefined): Route {
    const { operation, method, pathTemplate } = start;
    const known = this.#routes.get(operation);
    if (
      known !== undefined &&
      known.server === server &&
      known.method === method &&
      known.pathTemplate === pathTemplate
    ) {
      return known;
    }
    const route: Route = {
      method,
      pathTemplate,
      server,
      name: `${method} ${pathTemplate}`,
      durations: this.#instruments.attributesOf(method, server),
    };
    if (this.#routes.size >= 256) this.#routes.clear(); // bounded, whatever a caller passes
    this.#routes.set(operation, route);
    return route;
  }
}

/** One attempt of a call: when it started (`performance.now()`) and how many came before. */
class Attempt implements AttemptTrace {
  readonly #call: MeasuredCall;
  readonly started: number;
  readonly resends: number;

  constructor(call: MeasuredCall, resends: number) {
    this.#call = call;
    this.resends = resends;
    this.started = performance.now();
  }

  end(outcome: Outcome): void {
    this.#call.attemptEnded(this, outcome);
  }
}

/** A call without a span (a wait's lookup): each attempt's duration recorded. */
class MeasuredCall implements CallTrace {
  readonly #instruments: Instruments;
  readonly #durations: DurationAttributes;

  constructor(instruments: Instruments, durations: DurationAttributes) {
    this.#instruments = instruments;
    this.#durations = durations;
  }

  attempt(): AttemptTrace {
    return new Attempt(this, 0);
  }

  attemptEnded(attempt: Attempt, outcome: Outcome): void {
    const now = performance.now();
    const errorType = errorTypeOf(outcome, clientError);
    this.#instruments.duration.record(
      (now - attempt.started) / 1000,
      this.#durations.of(outcome.status, errorType),
    );
    this.ended(attempt, outcome, errorType, now);
  }

  /** After the record: what a spanned call adds (`at`: the attempt's end, `performance.now()`). */
  protected ended(
    _attempt: Attempt,
    _outcome: Outcome,
    _errorType: string | undefined,
    _at: number,
  ) {}

  end(_outcome: Outcome): void {}
}

class SpannedCall extends MeasuredCall {
  readonly #span: Span;
  #attempts = 0;
  /** The first attempt's outcome and end, kept until it is known whether the call had more. */
  #first: Outcome | undefined;
  #firstEnded = 0;
  #firstErrorType: string | undefined;

  constructor(instruments: Instruments, durations: DurationAttributes, span: Span) {
    super(instruments, durations);
    this.#span = span;
  }

  override attempt(): AttemptTrace {
    // Counted here rather than read from `n`: a 401 replay is a resend too.
    const resends = this.#attempts++;
    if (resends === 1) this.#flushFirst(); // a second attempt: the first one becomes an event
    return new Attempt(this, resends);
  }

  protected override ended(
    attempt: Attempt,
    outcome: Outcome,
    errorType: string | undefined,
    at: number,
  ): void {
    if (attempt.resends === 0) {
      this.#first = outcome;
      this.#firstEnded = at;
      this.#firstErrorType = errorType;
      return;
    }
    const attributes = outcomeAttributes(outcome, errorType);
    attributes[ATTR.resendCount] = attempt.resends;
    this.#span.addEvent('momo.attempt', attributes);
  }

  #flushFirst(): void {
    const first = this.#first;
    if (first !== undefined) {
      this.#span.addEvent(
        'momo.attempt',
        outcomeAttributes(first, this.#firstErrorType),
        hrTime(performance.timeOrigin + this.#firstEnded),
      );
    }
    this.#first = undefined;
  }

  override end(outcome: Outcome): void {
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
function outcomeAttributes(outcome: Outcome, errorType: string | undefined): Attributes {
  const attributes: Attributes = {};
  if (outcome.status !== undefined) attributes[ATTR.status] = outcome.status;
  if (errorType !== undefined) attributes[ATTR.errorType] = errorType;
  return attributes;
}

/** Epoch milliseconds as OpenTelemetry's [seconds, nanoseconds]. */
function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}
