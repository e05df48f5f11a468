import type { ClientContext } from '../context';
import { isNotFoundError } from '../errors';
import { shareOutcome, trackedByJournal } from '../scale-out/callbacks';
import { isFinal, type StatusLike, UUID_V4 } from '../schemas/common';
import type { TransactionStatus } from '../schemas/tolerant';
import { type CallbackEvent, parseCallback } from './parse';

/** What `onEvent` receives: a callback whose outcome was checked against the service. */
export interface ConfirmedCallback {
  referenceId: string;
  /** The operation that created it, when this process knows (e.g. `collection.requestToPay`). */
  operation: string | undefined;
  /** The status the service's lookup gave (not the callback's claim). */
  status: TransactionStatus;
  /** The lookup result; absent when the operation has no status lookup (`confirmed: false`). */
  result: StatusLike | undefined;
  /** The callback as received. */
  callback: CallbackEvent;
  /**
   * `true`: a status lookup agreed with the callback. `false`: the API gives the
   * operation no lookup (standard-style disbursement, voucher redeem): unverified.
   */
  confirmed: boolean;
}

/** Options of `momo.callbacks.handler()`. */
export interface CallbackHandlerOptions {
  /** Called once per accepted callback; throwing makes the handler answer 500. */
  onEvent?(event: ConfirmedCallback): void | Promise<void>;
  /** Template the callbacks come in on; default the client's `callbackUrl`. */
  callbackUrl?: string;
  /**
   * Status lookup for ids this process did not create or wait on (e.g. after a restart):
   * `(id) => momo.collection.getRequestToPay(id)`. Without it such callbacks get 404.
   */
  lookup?(referenceId: string): Promise<StatusLike | undefined>;
}

/** A Fetch-API callback route: give it the service's callback request, send back its Response. */
export type CallbackHandler = (request: Request) => Promise<Response>;

/** Callbacks are small; anything larger is not one. */
const MAX_BODY_BYTES = 64 * 1024;

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
  const template = options.callbackUrl ?? ctx.config.callbackUrl;
  const idFromUrl = referenceIdReader(template);
  const log = ctx.config.log;

  return async (request) => {
    if (request.method !== 'PUT' && request.method !== 'POST') {
      return answer(405, { error: 'callbacks are PUT or POST' }, { allow: 'PUT, POST' });
    }
    const declared = Number(request.headers.get('content-length') ?? 0);
    if (declared > MAX_BODY_BYTES) return answer(413, { error: 'body too large' });
    const text = await request.text();
    if (text.length > MAX_BODY_BYTES) return answer(413, { error: 'body too large' });
    let event: CallbackEvent;
    try {
      event = parseCallback(text);
    } catch (error) {
      return answer(400, { error: (error as Error).message });
    }
    const fromUrl = idFromUrl(request.url);
    const referenceId = event.referenceId ?? fromUrl;
    if (!referenceId || !UUID_V4.test(referenceId)) {
      return answer(400, { error: 'no reference id (UUID v4) in the body or the URL' });
    }
    if (fromUrl && event.referenceId && fromUrl.toLowerCase() !== event.referenceId.toLowerCase()) {
      return answer(400, { error: 'the body and the URL name different reference ids' });
    }

    // Not created or awaited here: the journal (shared across instances) may know it.
    const tracked = ctx.operations.get(referenceId) ?? (await trackedByJournal(ctx, referenceId));
    const lookup =
      tracked?.lookup ??
      (!tracked && options.lookup ? () => options.lookup?.(referenceId) : undefined);
    const context = { referenceId, operation: tracked?.operation };
    if (!tracked && !lookup) {
      log('warn', 'callback for an unknown reference id refused', context);
      return answer(404, { error: 'unknown reference id' });
    }

    let result: StatusLike | undefined;
    if (lookup) {
      try {
        result = await lookup();
      } catch (error) {
        if (isNotFoundError(error)) return answer(404, { error: 'unknown to the service' });
        log('warn', 'callback could not be confirmed: the status lookup failed', context);
        return answer(503, { error: 'could not confirm the outcome; send it again later' });
      }
      if (!result) return answer(404, { error: 'unknown reference id' });
      ctx.poller.wake(referenceId, result); // the truth, whatever the callback claimed
      await shareOutcome(ctx, referenceId, result, event.status); // journal + other instances
      if (isFinal(event.status) && result.status !== event.status) {
        log('warn', 'callback contradicts the status lookup: not trusted', {
          ...context,
          claimed: event.status,
          actual: result.status,
        });
        return answer(409, { error: 'the callback does not match the transaction status' });
      }
    }

    if (!lookup) await shareOutcome(ctx, referenceId, undefined, event.status);
    try {
      await options.onEvent?.({
        referenceId,
        operation: tracked?.operation,
        status: result?.status ?? event.status,
        result,
        callback: event,
        confirmed: result !== undefined,
      });
    } catch {
      log('error', 'callback onEvent threw', context);
      return answer(500, { error: 'the receiver failed; send it again later' });
    }
    return answer(200, { received: true });
  };
}

/**
 * Reads `{referenceId}` back out of a callback URL: by the template's shape when there
 * is one, else from the last path segment that is a UUID.
 */
function referenceIdReader(template: string | undefined): (url: string) => string | undefined {
  const pattern = template?.includes('{referenceId}') ? templatePattern(template) : undefined;
  return (url) => {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed) return undefined;
    const target = `${parsed.pathname}${parsed.search}`;
    const matched = pattern?.exec(target)?.[1];
    if (matched) return safeDecode(matched);
    const segments = parsed.pathname.split('/').map(safeDecode);
    return segments.reverse().find((s) => UUID_V4.test(s));
  };
}

function templatePattern(template: string): RegExp {
  const url = new URL(template.replaceAll('{referenceId}', 'REFERENCE-ID-PLACEHOLDER'));
  const target = `${url.pathname}${url.search}`;
  const source = target
    .split('REFERENCE-ID-PLACEHOLDER')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('([^/?&#]+)');
  return new RegExp(`^${source}$`);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
