/**
 * Hono: the handler takes the web `Request` Hono has (`c.req.raw`) and its `Response` is
 * the route's answer. Runs the same on Node (@hono/node-server), Bun, Deno and workers.
 */
import { Hono } from 'hono';
import type { ConfirmedCallback, MomoClient } from 'momo-partner-sdk';

export function honoCallbacks(
  momo: MomoClient,
  onEvent: (event: ConfirmedCallback) => void | Promise<void>,
): Hono {
  const app = new Hono();
  const handle = momo.callbacks.handler({ onEvent });
  app.on(['PUT', 'POST'], '/momo/callbacks/:referenceId', (c) => handle(c.req.raw));
  return app;
}
