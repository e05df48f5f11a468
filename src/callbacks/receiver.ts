import { tokenMatches } from '../core/callback-token';
import { referenceKey } from '../core/reference-id';
import type { ClientContext } from '../products/client-context';
import { type StatusLike, UUID_V4 } from '../schemas/common';
import { trackedByJournal } from '../settle/callbacks';
import { AcceptedCallbacks } from './accepted';
import { readRequestBody } from './body';
import { Confirmer, type ConfirmLimits } from './confirmer';
import {
  answer,
  Delivery,
  type DeliveryOptions,
  type Found,
  RETRY_LATER,
  type Received,
} from './deliver';
import { type CallbackEvent, parseCallback } from './parse';
import { type RouteMatch, type RouteReader, routeReader } from './route';
import type { CallbackSeen } from './traced';

/** What the receiver calls of the handler's options (`CallbackHandlerOptions`). */
export interface ReceiverOptions extends DeliveryOptions {
  lookup?(referenceId: string): Promise<StatusLike | undefined>;
}

/**
 * One handler's steps for each callback: read, identify, find the operation, then answer.
 * A callback of an operation known pending here (created or awaited, or in the journal)
 * is answered 202 once read and confirmed after (`AcceptedCallbacks`); one a kept
 * confirmation answers, or with no lookup to make, at once; one of an id the handler's
 * `lookup` option confirms, after its lookup ('busy' past `maxConfirms`: 503).
 */
export class Receiver {
  readonly #ctx: ClientContext;
  readonly #readTimeoutMs: number;
  readonly #readRoute: RouteReader;
  readonly #confirmer: Confirmer;
  readonly #delivery: Delivery;
  readonly #accepted: AcceptedCallbacks;
  readonly #userLookup: ReceiverOptions['lookup'];

  constructor(
    ctx: ClientContext,
    options: ReceiverOptions,
    limits: ConfirmLimits & { readTimeoutMs: number },
    template: string | undefined,
  ) {
    this.#ctx = ctx;
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
    this.#delivery = new Delivery(ctx, options);
    this.#accepted = new AcceptedCallbacks(
      ctx,
      this.#confirmer,
      this.#delivery,
      limits.confirmIntervalMs,
    );
  }

  async handle(request: Request, seen?: CallbackSeen): Promise<Response> {
    const read = await this.#read(request);
    if (read instanceof Response) return read;
    const received = this.#identify(read.event, read.route, seen);
    if (received instanceof Response) return received;
    const found = await this.#find(received.referenceId);
    if (found instanceof Response) return found;
    const { referenceId, event } = received;
    const { lookup } = found;
    if (!lookup) return this.#delivery.share(received, found, undefined);
    // A replay, or a claim a kept result answers: no lookup, answered as it says.
    const reused = this.#confirmer.reuse(referenceId, event.status);
    if (reused?.result !== undefined) return this.#delivery.confirmed(received, found, reused);
    if (found.known) return this.#accepted.accept(received, found, lookup);
    const confirmation = await this.#confirmer.confirm(referenceId, lookup, event.status);
    if (confirmation === 'busy') {
      this.#ctx.config.log('warn', 'callback refused for now: too many confirmations running', {
        referenceId,
        operation: found.operation,
      });
      return answer(503, { error: 'busy; send it again later' }, RETRY_LATER);
    }
    return this.#delivery.confirmed(received, found, confirmation);
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
    return { operation: tracked?.operation, lookup, known: tracked !== undefined };
  }
}
