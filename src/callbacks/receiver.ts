import type { ClientContext } from '../context';
import { tokenMatches } from '../core/callback-token';
import { referenceKey } from '../core/reference-id';
import { isNotFoundError } from '../errors';
import { trackedByJournal } from '../scale-out/callbacks';
import { isFinal, type StatusLike, UUID_V4 } from '../schemas/common';
import { readRequestBody } from './body';
import { Confirmer, type ConfirmLimits } from './confirmer';
import type { ConfirmedCallback } from './events';
import { DeliveredOnce } from './once';
import { type CallbackEvent, parseCallback } from './parse';
import { type RouteMatch, type RouteReader, routeReader } from './route';
import type { CallbackSeen } from './traced';

/** What the receiver calls of the handler's options (`CallbackHandlerOptions`). */
export interface ReceiverOptions {
  onEvent?(event: ConfirmedCallback): void | Promise<void>;
  lookup?(referenceId: string): Promise<StatusLike | undefined>;
}

const answer = (
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

const RETRY_LATER = { 'retry-after': '1' };
const UNVERIFIED =
  'unverified callback for an operation without a status lookup: not settled (a callback ' +
  'settles it only with its callback token: client option callbackSecret)';

/** A callback as read from its request, its token checked when one came. */
interface Received {
  referenceId: string;
  event: CallbackEvent;
  /** The callback token matched; undefined when none came or no secret is set. */
  tokenOk: true | undefined;
}

/** The operation a callback names, and the lookup that confirms it (none: by token only). */
interface Found {
  operation: string | undefined;
  lookup: (() => Promise<StatusLike | undefined>) | undefined;
}

/** One handler's steps for each callback: read, find the operation, confirm, share, wake. */
export class Receiver {
  readonly #ctx: ClientContext;
  readonly #options: ReceiverOptions;
  readonly #readTimeoutMs: number;
  readonly #readRoute: RouteReader;
  readonly #once = new DeliveredOnce();
  readonly #confirmer: Confirmer;
  readonly #userLookup: ReceiverOptions['lookup'];

  constructor(
    ctx: ClientContext,
    options: ReceiverOptions,
    limits: ConfirmLimits & { readTimeoutMs: number },
    template: string | undefined,
  ) {
    this.#ctx = ctx;
    this.#options = options;
    this.#readTimeoutMs = limits.readTimeoutMs;
    this.#readRoute = routeReader(template);
    this.#userLookup = options.lookup?.bind(options);
    // Once per lookup made, however many callbacks share it. A final result is settled
    // (the journal, the other instances); this process's waits are woken once onEvent
    // has run (a partner's receiver records the outcome before an awaiting caller reads
    // it). A pending one tells a wait nothing, so it never wakes one early.
    this.#confirmer = new Confirmer(limits, {
      final: (referenceId, result) =>
        ctx.outcomes.settleStatus(referenceId, result.status, { confirmed: result }),
      failed: (referenceId) => {
        const operation = ctx.operations.get(referenceId)?.operation;
        ctx.config.log('warn', 'callback could not be confirmed: the status lookup failed', {
          referenceId,
          operation,
        });
      },
    });
  }

  async handle(request: Request, seen?: CallbackSeen): Promise<Response> {
    const read = await this.#read(request);
    if (read instanceof Response) return read;
    const received = this.#identify(read.event, read.route, seen);
    if (received instanceof Response) return received;
    const found = await this.#find(received.referenceId);
    if (found instanceof Response) return found;
    const confirmed = await this.#confirm(received, found);
    if (confirmed instanceof Response) return confirmed;
    return this.#share(received, found, confirmed.result);
  }

  /** The request's method, route and body, parsed. */
  async #read(request: Request): Promise<{ event: CallbackEvent; route: RouteMatch } | Response> {
    if (request.method !== 'PUT' && request.method !== 'POST') {
      return answer(405, { error: 'callbacks are PUT or POST' }, { allow: 'PUT, POST' });
    }
    const route = this.#readRoute(request.url);
    if (!route) return answer(404, { error: 'not a callback route' });
    const text = await readRequestBody(request, this.#readTimeoutMs);
    if (typeof text !== 'string') {
      return answer(text.status, { error: text.error }, { connection: 'close' });
    }
    try {
      return { event: parseCallback(text), route };
    } catch (error) {
      return answer(400, { error: (error as Error).message });
    }
  }

  /** The reference id the body or the URL names; a callback token that came must match. */
  #identify(
    event: CallbackEvent,
    route: RouteMatch,
    seen: CallbackSeen | undefined,
  ): Received | Response {
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
    const secret = this.#ctx.config.callbackSecret;
    if (secret === undefined || route.token === undefined) {
      return { referenceId, event, tokenOk: undefined };
    }
    if (tokenMatches(secret.reveal(), referenceId, route.token)) {
      return { referenceId, event, tokenOk: true };
    }
    this.#ctx.config.log('warn', 'callback with a wrong callback token refused', { referenceId });
    return answer(401, { error: 'wrong callback token' });
  }

  /**
   * The operation, created or awaited here, else as the journal (shared across instances)
   * knows it, else by the handler's `lookup` option. Its own lookup settles nothing: the
   * confirmation settles what it finds.
   */
  async #find(referenceId: string): Promise<Found | Response> {
    const ctx = this.#ctx;
    const tracked = ctx.operations.get(referenceId) ?? (await trackedByJournal(ctx, referenceId));
    const confirmedBy = tracked?.confirmedBy;
    const userLookup = this.#userLookup;
    const lookup = confirmedBy
      ? () => ctx.api.lookup(confirmedBy, referenceId, {}, undefined, undefined, false)
      : !tracked && userLookup
        ? () => userLookup(referenceId)
        : undefined;
    if (!tracked && !lookup) {
      ctx.config.log('warn', 'callback for an unknown reference id refused', {
        referenceId,
        operation: undefined,
      });
      return answer(404, { error: 'unknown reference id' });
    }
    return { operation: tracked?.operation, lookup };
  }

  /** The lookup's result (none without a lookup); a contradicted final claim is refused. */
  async #confirm(
    { referenceId, event }: Received,
    { operation, lookup }: Found,
  ): Promise<{ result: StatusLike | undefined } | Response> {
    if (!lookup) return { result: undefined };
    const log = this.#ctx.config.log;
    const confirmation = await this.#confirmer.confirm(referenceId, lookup, event.status);
    if (confirmation === 'busy') {
      log('warn', 'callback refused for now: too many confirmations running', {
        referenceId,
        operation,
      });
      return answer(503, { error: 'busy; send it again later' }, RETRY_LATER);
    }
    if (confirmation.error !== undefined) {
      if (isNotFoundError(confirmation.error)) {
        return answer(404, { error: 'unknown to the service' });
      }
      const retry = { error: 'could not confirm the outcome; send it again later' };
      return answer(503, retry, RETRY_LATER);
    }
    const result = confirmation.result;
    if (!result) return answer(404, { error: 'unknown reference id' });
    if (isFinal(event.status) && result.status !== event.status) {
      this.#wake(referenceId, result); // the truth ends the waits
      log('warn', 'callback contradicts the status lookup: not trusted', {
        referenceId,
        operation,
        claimed: event.status,
        actual: result.status,
      });
      return answer(409, { error: 'the callback does not match the transaction status' });
    }
    return { result };
  }

  /**
   * Passes the callback on to `onEvent`, once per operation and final status (a non-final
   * one each time); a token-verified outcome is settled first, and the waits woken after.
   */
  async #share(
    { referenceId, event, tokenOk }: Received,
    { operation }: Found,
    result: StatusLike | undefined,
  ): Promise<Response> {
    const log = this.#ctx.config.log;
    const verifiedBy = result !== undefined ? 'lookup' : tokenOk ? 'token' : undefined;
    const status = result?.status ?? event.status;
    const context = { referenceId, operation };
    if (verifiedBy === undefined) log('warn', UNVERIFIED, { ...context, claimed: event.status });
    const deliver = async () => {
      // Only a verified outcome settles: an unverified claim leaves the operation pending.
      if (verifiedBy === 'token') await this.#ctx.outcomes.settleStatus(referenceId, status);
      try {
        await this.#options.onEvent?.({
          referenceId,
          operation,
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
        this.#wake(referenceId, result);
      }
    };
    const key = `${referenceKey(referenceId)} ${status} ${verifiedBy ?? 'unverified'}`;
    let delivered: 'delivered' | 'duplicate' = 'delivered';
    try {
      if (isFinal({ status })) delivered = await this.#once.deliver(key, deliver);
      else await deliver();
    } catch {
      return answer(500, { error: 'the receiver failed; send it again later' });
    }
    const body =
      delivered === 'duplicate' ? { received: true, duplicate: true } : { received: true };
    // An unverified claim is answered 200 too (the sender has nothing to retry), saying so.
    return answer(200, verifiedBy === undefined ? { ...body, confirmed: false } : body);
  }

  /** The truth, whatever the callback claimed: a final result ends the waits on this id. */
  #wake(referenceId: string, result: StatusLike | undefined): void {
    if (result) this.#ctx.outcomes.wake(referenceId, result);
  }
}
