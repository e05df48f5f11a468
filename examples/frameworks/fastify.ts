/**
 * Fastify: one route for PUT and POST that builds a web `Request` from the body Fastify
 * read and sends the handler's `Response` back. Its default JSON parser gives an object;
 * with `rawBody`, a string parser for application/json keeps the text as it came.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { ConfirmedCallback, MomoClient } from 'momo-partner-sdk';

export function fastifyCallbacks(
  momo: MomoClient,
  onEvent: (event: ConfirmedCallback) => void | Promise<void>,
  { rawBody = false } = {},
): FastifyInstance {
  const app = Fastify();
  if (rawBody) {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    );
  }
  const handle = momo.callbacks.handler({ onEvent });
  app.route({
    method: ['PUT', 'POST'],
    url: '/momo/callbacks/:referenceId',
    handler: async (req, reply) => {
      const response = await handle(
        // Only the path (the {referenceId} position) and the body are read.
        new Request(new URL(req.url, 'http://localhost'), {
          method: req.method,
          body: typeof req.body === 'string' ? req.body : JSON.stringify(req.body),
        }),
      );
      reply.code(response.status).headers(Object.fromEntries(response.headers));
      return reply.send(await response.text());
    },
  });
  return app;
}
