import type { ClientContext } from '../context';
import { referenceKey } from '../core/reference-id';
import { isNotFoundError, ValidationError, type ValidationIssue } from '../errors';
import { trackedByJournal } from '../scale-out/callbacks';
import { isFinal, type StatusLike, UUID_V4 } from '../schemas/common';
import { DEFAULT_READ_TIMEOUT_MS, readRequestBody } from './body';
import { Confirmer } from './confirmer';
import type { ConfirmedCallback } from './events';
import { DeliveredOnce } from './once';
import { type CallbackEvent, parseCallback } from './parse';
import { routeReader } from './route';
import { tokenMatches } from './token';
import { type CallbackSeen, tracedHandler } from './traced';

export type { ConfirmedCallback } from './events';

/** Options of `momo.callbacks.handler()`. */
export interface CallbackHandlerOptions {
  /**
   * Called once per operation and final status (a replay is answered 200 and not passed
   * on; a PENDING is passed on each time it is confirmed); throwing makes the handler
   * answer 500, and the next delivery calls it again.
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
   * Status lookups confirming callbacks at once, default 8. Callbacks for other ids get
   * 503 with `Retry-After` meanwhile (callbacks for an id being confirmed share its lookup).
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

const answer = (
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

export function createCallbackHandler(
  ctx: ClientContext,
  options: CallbackHandlerOptions = {},
): CallbackHandler {
  const limits = handlerLimits(options);
  const template = options.callbackUrl ?? ctx.config.callbackUrl;
  const readRoute = routeReader(template);
  const secret = ctx.config.callbackSecret;
  const log = ctx.config.log;
  const once = new DeliveredOnce();
  // Once per lookup made, however many callbacks share it. A final result reaches the
  // journal and the other instances; this process's waits are woken by the handler once
  // onEvent has run (a partner's receiver records the outcome before an awaiting caller
  // reads it). A pending one tells a wait nothing, so it never wakes one early.
  const confirmer = new Confirmer(limits, {
    final: (referenceId, result) =>
      ctx.outcomes.settleStatus(referenceId, result.status, { confirmed: result }),
    failed: (referenceId) => {
      const operation = ctx.operations.get(referenceId)?.operation;
      log('warn', 'callback could not be confirmed: the status lookup failed', {
        referenceId,
        operation,
      });
    },
  });
  const userLookup = options.lookup?.bind(options);

  const handle = async (request: Request, seen?: CallbackSeen): Promise<Response> => {
    if (request.method !== 'PUT' && request.method !== 'POST') {
      return answer(405, { error: 'callbacks are PUT or POST' }, { allow: 'PUT, POST' });
    }
    const route = readRoute(request.url);
    if (!route) return answer(404, { error: 'not a callback route' });
    const text = await readRequestBody(request, limits.readTimeoutMs);
    if (typeof text !== 'string') {
      return answer(text.status, { error: text.error }, { connection: 'close' });
    }
    let event: CallbackEvent;
    try {
      event = parseCallback(text);
    } catch (error) {
      return answer(400, { error: (error as Error).message });
    }
    const fromUrl = route.referenceId;
    const referenceId = event.referenceId ?? fromUrl;
    if (!referenceId || !UUID_V4.test(referenceId)) {
      return answer(400, { error: 'no reference id (UUID v4) in the body or the URL' });
    }
    if (fromUrl && event.referenceId && referenceKey(fromUrl) !== referenceKey(event.referenceId)) {
      return answer(400, { error: 'the body and the URL name different reference ids' });
    }
    if (seen) seen.referenceId = referenceId;
    // A token is checked whenever one came: a wrong one is a forgery, whatever the lookup says.
    const tokenOk =
      secret !== undefined && route.token !== undefined
        ? tokenMatches(secret.reveal(), referenceId, route.token)
        : undefined;
    if (tokenOk === false) {
      log('warn', 'callback with a wrong callback token refused', { referenceId });
      return answer(401, { error: 'wrong callback token' });
    }

    // Not created or awaited here: the journal (shared across instances) may know it.
    const tracked = ctx.operations.get(referenceId) ?? (await trackedByJournal(ctx, referenceId));
    const confirmedBy = tracked?.confirmedBy;
    const lookup = confirmedBy
      ? () => ctx.api.lookup(confirmedBy, referenceId, {}, undefined, undefined, false)
      : !tracked && userLookup
        ? () => userLookup(referenceId)
        : undefined;
    const context = { referenceId, operation: tracked?.operation };
    if (!tracked && !lookup) {
      log('warn', 'callback for an unknown reference id refused', context);
      return answer(404, { error: 'unknown reference id' });
    }

    let result: StatusLike | undefined;
    if (lookup) {
      const confirmation = await confirmer.confirm(referenceId, lookup, event.status);
      if (confirmation === 'busy') {
        log('warn', 'callback refused for now: too many confirmations running', context);
        return answer(503, { error: 'busy; send it again later' }, RETRY_LATER);
      }
      if (confirmation.error !== undefined) {
        if (isNotFoundError(confirmation.error)) {
          return answer(404, { error: 'unknown to the service' });
        }
        const retry = { error: 'could not confirm the outcome; send it again later' };
        return answer(503, retry, RETRY_LATER);
      }
      result = confirmation.result;
      if (!result) return answer(404, { error: 'unknown reference id' });
      if (isFinal(event.status) && result.status !== event.status) {
        ctx.outcomes.wake(referenceId, result); // the truth ends the waits
        log('warn', 'callback contradicts the status lookup: not trusted', {
          ...context,
          claimed: event.status,
          actual: result.status,
        });
        return answer(409, { error: 'the callback does not match the transaction status' });
      }
    }

    const verifiedBy = result !== undefined ? 'lookup' : tokenOk ? 'token' : undefined;
    const status = result?.status ?? event.status;
    if (verifiedBy === undefined) {
      log('warn', UNVERIFIED, { ...context, claimed: event.status });
    }
    const deliver = async () => {
      // Only a verified outcome settles: an unverified claim leaves the operation pending.
      if (verifiedBy === 'token') await ctx.outcomes.settleStatus(referenceId, status);
      try {
        await options.onEvent?.({
          referenceId,
          operation: tracked?.operation,
          status,
          result,
          callback: event,
          confirmed: verifiedBy !== undefined,
          verifiedBy,
        } as ConfirmedCallback);
      } catch (error) {
        log('error', 'callback onEvent threw', context);
        throw error;
      } finally {
        // The truth, whatever the callback claimed: a final result ends the waits on this id.
        if (result) ctx.outcomes.wake(referenceId, result);
      }
    };
    // Once per operation and final status; a non-final one is passed on each time.
    const key = `${referenceKey(referenceId)} ${status} ${verifiedBy ?? 'unverified'}`;
    let delivered: 'delivered' | 'duplicate' = 'delivered';
    try {
      if (isFinal({ status })) delivered = await once.deliver(key, deliver);
      else await deliver();
    } catch {
      return answer(500, { error: 'the receiver failed; send it again later' });
    }
    const body =
      delivered === 'duplicate' ? { received: true, duplicate: true } : { received: true };
    // An unverified claim is answered 200 too (the sender has nothing to retry), saying so.
    return answer(200, verifiedBy === undefined ? { ...body, confirmed: false } : body);
  };
  const handler = tracedHandler(handle, ctx.config.telemetry, template);
  readTimeoutOf.set(handler, limits.readTimeoutMs);
  return handler;
}

const RETRY_LATER = { 'retry-after': '1' };
const UNVERIFIED =
  'unverified callback for an operation without a status lookup: not settled (a callback ' +
  'settles it only with its callback token: client option callbackSecret)';

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
