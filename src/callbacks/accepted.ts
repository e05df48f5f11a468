import { referenceKey } from '../core/reference-id';
import type { ClientContext } from '../products/client-context';
import { isFinal, type StatusLike } from '../schemas/common';
import type { Confirmation, Confirmer } from './confirmer';
import { answer, type Delivery, type Found, RETRY_LATER, type Received } from './deliver';

type Lookup = () => Promise<StatusLike | undefined>;

/** Tries after the first for an accepted callback whose lookup or `onEvent` failed. */
const RETRIES = 3;

/**
 * Callbacks for operations the receiver knows pending (created or awaited here, or in its
 * journal), answered 202 as soon as they are read and confirmed after, in the confirmer's
 * queue: `maxConfirms` bounds the lookups in flight, not the callbacks accepted. What the
 * confirmation says is then what an answer would have said (`Delivery.confirmed`): the
 * outcome settled, `onEvent` run, the waits woken; a contradicted claim trusted in
 * nothing. Callbacks naming the same id and claiming the same status share one
 * confirmation; a final claim that a PENDING lookup contradicts is looked up once more
 * after `confirmIntervalMs` (the lookup may have been made just before the outcome); a
 * failed lookup or `onEvent` is tried again, up to 3 times, 1 s (or `confirmIntervalMs`)
 * later and doubling.
 */
export class AcceptedCallbacks {
  readonly #ctx: ClientContext;
  readonly #confirmer: Confirmer;
  readonly #delivery: Delivery;
  readonly #retryMs: number;
  /** Claims accepted and not yet confirmed, by id and claimed status. */
  readonly #claims = new Set<string>();

  constructor(ctx: ClientContext, confirmer: Confirmer, delivery: Delivery, intervalMs: number) {
    this.#ctx = ctx;
    this.#confirmer = confirmer;
    this.#delivery = delivery;
    this.#retryMs = Math.max(1_000, intervalMs);
  }

  /** 202 once the callback has its place in the queue; 503 only when the queue is full. */
  accept(received: Received, found: Found, lookup: Lookup): Response {
    const { referenceId, event } = received;
    const claim = `${referenceKey(referenceId)} ${isFinal(event.status) ? event.status : '-'}`;
    if (!this.#claims.has(claim)) {
      const later = this.#confirmer.queue(referenceId, lookup, event.status);
      if (later === 'full') {
        this.#ctx.config.log('warn', 'callback refused for now: too many confirmations waiting', {
          referenceId,
          operation: found.operation,
        });
        return answer(503, { error: 'busy; send it again later' }, RETRY_LATER);
      }
      this.#claims.add(claim);
      void this.#confirm({ received, found, lookup, claim }, later, 0, false);
    } else {
      this.#confirmer.renew(referenceId); // named again: its id to the newest end
    }
    return answer(202, { received: true, confirming: true });
  }

  async #confirm(
    accepted: Accepted,
    later: Promise<Confirmation>,
    tries: number,
    rechecked: boolean,
  ): Promise<void> {
    const { received, found, claim } = accepted;
    const context = { referenceId: received.referenceId, operation: found.operation };
    const log = this.#ctx.config.log;
    try {
      const confirmation = await later;
      const { result } = confirmation;
      if (!rechecked && result && !isFinal(result) && isFinal(received.event.status)) {
        return this.#again(accepted, 0, tries, true);
      }
      const { status } = await this.#delivery.confirmed(received, found, confirmation);
      if (status >= 500 && tries < RETRIES) {
        return this.#again(accepted, this.#retryMs * 2 ** tries, tries + 1, rechecked);
      }
      if (status === 404) log('warn', 'callback for an id the service does not know', context);
      if (status >= 500) {
        log(
          'warn',
          'callback given up: not confirmed after 4 tries (the operation stays pending)',
          {
            ...context,
          },
        );
      }
    } catch {
      log('error', 'callback confirmation failed', context);
    }
    this.#claims.delete(claim);
  }

  /** The same claim confirmed again after `delayMs` (in the queue like any other). */
  #again(accepted: Accepted, delayMs: number, tries: number, rechecked: boolean): void {
    const { received, lookup } = accepted;
    const retry = () => {
      const later = this.#confirmer.queue(received.referenceId, lookup, received.event.status);
      if (later === 'full') {
        this.#claims.delete(accepted.claim);
        this.#ctx.config.log('warn', 'callback given up: too many confirmations waiting', {
          referenceId: received.referenceId,
          operation: accepted.found.operation,
        });
        return;
      }
      void this.#confirm(accepted, later, tries, rechecked);
    };
    if (delayMs === 0) retry();
    else setTimeout(retry, delayMs);
  }
}

interface Accepted {
  received: Received;
  found: Found;
  lookup: Lookup;
  claim: string;
}
