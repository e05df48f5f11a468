import { ValidationError, type ValidationIssue } from '../errors';
import type { ClientContext } from '../products/client-context';
import type { StatusLike } from '../schemas/common';
import { DEFAULT_READ_TIMEOUT_MS } from './body';
import type { ConfirmedCallback } from './events';
import { Receiver } from './receiver';
import { tracedHandler } from './traced';

export type { ConfirmedCallback } from './events';

/** Options of `momo.callbacks.handler()`. */
export interface CallbackHandlerOptions {
  /**
   * Called once per operation and final status, once a lookup confirmed it (a replay is
   * not passed on; a PENDING is passed on each time it is confirmed). A callback of an
   * operation pending here is answered 202 before its lookup, and `onEvent` runs after:
   * if it throws, the handler calls it again (3 times, 2 s apart doubling) and so does
   * the next delivery. Answered after it (the outcome known already), a throw is a 500.
   */
  onEvent?(event: ConfirmedCallback): void | Promise<void>;
  /**
   * Template the callbacks come in on, an absolute URL or a path (`/momo/{referenceId}`);
   * default the client's `callbackUrl`. Requests on another path get 404.
   */
  callbackUrl?: string;
  /**
   * Status lookup for ids this process did not create or wait on (e.g. after a restart):
   * `(id) => momo.collection.getRequestToPay(id)`. Without it such callbacks get 404.
   */
  lookup?(referenceId: string): Promise<StatusLike | undefined>;
  /**
   * Status lookups confirming callbacks at once, default 8. It bounds the lookups, not
   * the callbacks: those of operations pending here are answered 202 and their
   * confirmations queued (one per id, however many callbacks name it; up to 10 000 ids).
   * Callbacks of ids known only through `lookup` get 503 with `Retry-After` meanwhile.
   */
  maxConfirms?: number;
  /**
   * How long a PENDING confirmation (or a failed lookup) answers for its id without
   * another lookup, default 2000 ms. A final one is kept for good.
   */
  confirmIntervalMs?: number;
  /** How long a sender may take to deliver its body, default 10 000 ms; then 408. */
  readTimeoutMs?: number;
}

/** A Fetch-API callback route: give it the service's callback request, send back its Response. */
export type CallbackHandler = (request: Request) => Promise<Response>;

/** The read deadline of each handler, for `toNodeListener` to apply to the socket too. */
export const readTimeoutOf = new WeakMap<CallbackHandler, number>();

export function createCallbackHandler(
  ctx: ClientContext,
  options: CallbackHandlerOptions = {},
): CallbackHandler {
  const limits = handlerLimits(options);
  const template = options.callbackUrl ?? ctx.config.callbackUrl;
  const receiver = new Receiver(ctx, options, limits, template);
  const handler = tracedHandler(
    (request, seen) => receiver.handle(request, seen),
    ctx.config.telemetry,
    template,
  );
  readTimeoutOf.set(handler, limits.readTimeoutMs);
  return handler;
}

/** The handler's limits, checked: a ValidationError names a bad option. */
function handlerLimits(options: CallbackHandlerOptions) {
  const issues: ValidationIssue[] = [];
  const { maxConfirms = 8, confirmIntervalMs = 2_000, readTimeoutMs } = options;
  if (!Number.isInteger(maxConfirms) || maxConfirms < 1) {
    issues.push({ path: 'maxConfirms', message: 'must be a whole number, 1 or more' });
  }
  for (const [path, value] of [
    ['confirmIntervalMs', confirmIntervalMs],
    ['readTimeoutMs', readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS],
  ] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      issues.push({ path, message: 'must be a number of milliseconds, 0 or more' });
    }
  }
  if (issues.length > 0) throw new ValidationError(issues, { operation: 'callbacks.handler' });
  return {
    maxConfirms,
    confirmIntervalMs,
    readTimeoutMs: readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS,
  };
}
