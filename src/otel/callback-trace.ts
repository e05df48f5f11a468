import { type Context, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { CallbackStart, CallbackTrace } from 'momo-partner-sdk';
import { ATTR, errorTypeOf, serverError } from './attributes';

/**
 * One request to the callback handler: a SERVER span `{METHOD} {route}` with the route as
 * mounted, the answer's status and the reference id the callback named. As the server
 * conventions say, only a 5xx answer (or a throw) is an error.
 */
export function startCallback(
  tracer: Tracer,
  start: CallbackStart,
  parent: Context,
): CallbackTrace {
  const attributes: Record<string, string> = {
    [ATTR.method]: start.method,
    [ATTR.route]: start.route,
  };
  if (start.referenceId !== undefined) attributes[ATTR.referenceId] = start.referenceId;
  const span = tracer.startSpan(
    `${start.method} ${start.route}`,
    { kind: SpanKind.SERVER, attributes },
    parent,
  );
  return {
    end(outcome) {
      span.setAttribute(ATTR.status, outcome.status);
      if (outcome.referenceId !== undefined)
        span.setAttribute(ATTR.referenceId, outcome.referenceId);
      const errorType = errorTypeOf(outcome, serverError);
      if (errorType !== undefined) {
        span.setAttribute(ATTR.errorType, errorType);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}
