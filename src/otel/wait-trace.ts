import { type Context, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { WaitStart, WaitTrace } from 'momo-partner-sdk';
import { ATTR, clientError, errorTypeOf } from './attributes';

/**
 * One `wait()`: an INTERNAL span `wait {operation}` from its start to its final result,
 * with the number of lookups it made (`momo.wait.lookups`; they have no span each) and
 * the final status. A FAILED transaction is an outcome, not an error of the wait: only
 * a wait that threw (timeout, abort, a lookup that could not be ridden out) is ERROR.
 */
export function startWait(tracer: Tracer, start: WaitStart, parent: Context): WaitTrace {
  const span = tracer.startSpan(
    `wait ${start.operation}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: { [ATTR.operation]: start.operation, [ATTR.referenceId]: start.referenceId },
    },
    parent,
  );
  let lookups = 0;
  return {
    lookup() {
      lookups++;
    },
    end(outcome) {
      span.setAttribute(ATTR.waitLookups, lookups);
      if (outcome.status !== undefined) span.setAttribute(ATTR.waitStatus, outcome.status);
      const errorType = errorTypeOf({ error: outcome.error }, clientError);
      if (errorType !== undefined) {
        span.setAttribute(ATTR.errorType, errorType);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}
