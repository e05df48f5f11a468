import { referenceKey } from '../core/reference-id';
import { isNotFoundError } from '../errors';
import type { ClientContext } from '../products/client-context';
import { isFinal, type StatusLike } from '../schemas/common';
import type { Confirmation } from './confirmer';
import type { ConfirmedCallback } from './events';
import { DeliveredOnce } from './once';
import type { CallbackEvent } from './parse';

/** A callback as read from its request, its token checked when one came. */
export interface Received {
  referenceId: string;
  event: CallbackEvent;
  /** The callback token matched; undefined when none came or no secret is set. */
  tokenOk: true | undefined;
}

/** The operation a callback names, and the lookup that confirms it (none: by token only). */
export interface Found {
  operation: string | undefined;
  lookup: (() => Promise<StatusLike | undefined>) | undefined;
  /** Created or awaited here, or in the journal: accepted at once, confirmed after. */
  known: boolean;
}

export const answer = (
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

export const RETRY_LATER = { 'retry-after': '1' };
const UNVERIFIED =
  'unverified callback for an operation without a status lookup: not settled (a callback ' +
  'settles it only with its callback token: client option callbackSecret)';

/** What the receiver calls of the handler's options (`CallbackHandlerOptions`). */
export interface DeliveryOptions {
  onEvent?(event: ConfirmedCallback): void | Promise<void>;
}

/**
 * What a confirmation means for one callback, and passing it on: a contradicted claim is
 * refused (the truth wakes the waits all the same), a confirmed one reaches `onEvent`
 * once per operation and final status, and the waits are woken after it.
 */
export class Delivery {
  readonly #ctx: ClientContext;
  readonly #options: DeliveryOptions;
  readonly #once = new DeliveredOnce();

  constructor(ctx: ClientContext, options: DeliveryOptions) {
    this.#ctx = ctx;
    this.#options = options;
  }

  /** The answer a callback gets once its confirmation is known, `onEvent` run first. */
  async confirmed(received: Received, found: Found, confirmation: Confirmation) {
    const { referenceId, event } = received;
    const log = this.#ctx.config.log;
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
        operation: found.operation,
        claimed: event.status,
        actual: result.status,
      });
      return answer(409, { error: 'the callback does not match the transaction status' });
    }
    return this.share(received, found, result);
  }

  /**
   * Passes the callback on to `onEvent`, once per operation and final status (a non-final
   * one each time); a token-verified outcome is settled first, and the waits woken after.
   */
  async share(
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
