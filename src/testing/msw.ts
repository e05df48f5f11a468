import { createRequire } from 'node:module';
import { type CoreHandler, DROP } from './http';

/**
 * `sim.handlers`: msw request handlers, typed without msw's types so that the
 * declarations of `momo-partner-sdk/testing` compile where msw (an optional peer) is not
 * installed. An element type of `never` fits every handler parameter of msw, so
 * `setupServer(...sim.handlers)`, `server.use(...sim.handlers)` and
 * `const handlers: RequestHandler[] = sim.handlers` type-check as with msw's own types.
 */
export type SimulatorHandlers = never[];

type Msw = typeof import('msw');

/**
 * The only file that touches msw, and only when `sim.handlers` is first read: a partner
 * who serves the simulator through `sim.fetch` or `sim.listen` needs no msw installed,
 * and importing `./testing` never loads it (nor anything it keeps running). It is
 * loaded synchronously, so `sim.handlers` stays a plain array; msw recognises handlers by
 * their `kind`, so handlers built by its CommonJS copy serve an ESM `setupServer` alike.
 */
export function createHandlers(handle: CoreHandler, baseUrl: string): SimulatorHandlers {
  const { http, HttpResponse } = loadMsw();
  const handlers = [
    http.all(`${baseUrl}/*`, async ({ request }) => {
      const result = await handle(request);
      return result === DROP ? HttpResponse.error() : result;
    }),
  ];
  return handlers as never[];
}

function loadMsw(): Msw {
  // Resolved from this file, i.e. from the partner's node_modules once installed.
  const load = createRequire(import.meta.url);
  try {
    return load('msw') as Msw;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(
      'sim.handlers needs msw (npm install --save-dev msw); sim.fetch and sim.listen() work without it',
      { cause: error },
    );
  }
}
