/**
 * Express: the callback routes. With no body parser the listener reads the request
 * stream itself; behind express.json(), express.raw() or express.text() it takes the
 * `req.body` the parser left (object, Buffer or string).
 */
import express, { type RequestHandler } from 'express';
import { type ConfirmedCallback, type MomoClient, toNodeListener } from 'momo-partner-sdk';

export function expressCallbacks(
  momo: MomoClient,
  onEvent: (event: ConfirmedCallback) => void | Promise<void>,
  bodyParser?: RequestHandler, // e.g. express.json(), as the rest of your app may have
): express.Express {
  const app = express();
  if (bodyParser) app.use(bodyParser);
  const onCallback = toNodeListener(momo.callbacks.handler({ onEvent }));
  app.put('/momo/callbacks/:referenceId', onCallback);
  app.post('/momo/callbacks/:referenceId', onCallback);
  return app;
}
