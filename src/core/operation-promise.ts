import type { Final, WaitOptions } from '../contracts/wait';
import type { RequestOptions } from './options';

/** A creating call the service accepted (202). */
export interface Accepted<R> {
  /** X-Reference-Id: the caller's, or a generated UUID v4. Persist it to resume later. */
  referenceId: string;
  /** The X-Callback-Url actually sent, if any. */
  callbackUrl?: string;
  /**
   * The provider's id for the accepting request (`X-Request-Id`, `Request-Id` or
   * `apim-request-id`), when it sent one: quote it in a support ticket.
   */
  requestId?: string;
  /**
   * `true` when this call was accepted by a retry's 409 `RESOURCE_ALREADY_EXIST`: an
   * earlier attempt, whose answer was lost, landed (the retry created nothing new).
   * `false` for an ordinary 202.
   */
  landedEarlier: boolean;
  /** One status lookup. */
  status(options?: RequestOptions): Promise<R>;
  /** Looks up until SUCCESSFUL or FAILED; resolves with FAILED too (a business outcome). */
  wait(options?: WaitOptions<R>): Promise<Final<R>>;
}

/** `await op` gives the acceptance; `await op.wait()` gives the final result. */
export type OperationPromise<R> = Promise<Accepted<R>> & {
  /** Sends the call if needed, then looks up until SUCCESSFUL or FAILED (both resolve). */
  wait(options?: WaitOptions<R>): Promise<Final<R>>;
};

export function toOperationPromise<R>(accepted: Promise<Accepted<R>>): OperationPromise<R> {
  return Object.assign(accepted, {
    wait: (options?: WaitOptions<R>) => accepted.then((a) => a.wait(options)),
  });
}
