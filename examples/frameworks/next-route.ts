/**
 * Next.js (App Router): the route handlers of app/momo/callbacks/[referenceId]/route.ts.
 * Next calls them with the web `Request` and sends the `Response` they return, which is
 * what the callback handler takes and gives. In route.ts, with your client and onEvent:
 *
 *   export const { PUT, POST } = callbackRoute(momo, onEvent);
 */
import type { ConfirmedCallback, MomoClient } from 'momo-partner-sdk';

export function callbackRoute(
  momo: MomoClient,
  onEvent: (event: ConfirmedCallback) => void | Promise<void>,
): { PUT(request: Request): Promise<Response>; POST(request: Request): Promise<Response> } {
  const handle = momo.callbacks.handler({ onEvent });
  return { PUT: (request) => handle(request), POST: (request) => handle(request) };
}
