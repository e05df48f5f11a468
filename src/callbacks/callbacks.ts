import type { MomoClientOptions } from '../core/options';
import { inspectSymbol } from '../inspect';
import { type ClientContext, sharedContext } from '../products/client-context';
import {
  type CallbackHandler,
  type CallbackHandlerOptions,
  createCallbackHandler,
} from './handler';

/** `momo.callbacks`: receive the service's outcome callbacks and trust them only once checked. */
export class Callbacks {
  readonly #ctx: ClientContext;

  /** `context` is internal: MomoClient passes the context its products share. */
  constructor(options: MomoClientOptions, context?: unknown) {
    this.#ctx = sharedContext(options, context);
  }

  /**
   * A Fetch-API handler `(Request) => Promise<Response>` for PUT and POST callbacks: it
   * finds the reference id (body, or the `{referenceId}` of the callback URL), confirms
   * the outcome by a status lookup, wakes in-process waits and calls `onEvent`. A
   * callback of an operation pending here is answered 202 at once and confirmed after;
   * malformed or unknown callbacks get a 4xx; none is trusted before its lookup.
   */
  handler(options?: CallbackHandlerOptions): CallbackHandler {
    return createCallbackHandler(this.#ctx, options);
  }

  [inspectSymbol](): string {
    return 'Callbacks';
  }
}
