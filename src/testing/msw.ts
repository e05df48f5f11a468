import { createRequire } from 'node:module';
import type { HttpHandler } from 'msw';
import { type CoreHandler, DROP } from './http';

export type { HttpHandler };

type Msw = typeof import('msw');

/**
 * The only file that touches msw, and only when `sim.handlers` is first read: a partner
 * who serves the simulator through `sim.fetch` or `sim.listen` needs no msw installed,
 * and importing `./testing` never loads it (nor anything it keeps running). It is
 * loaded synchronously, so `sim.handlers` stays a plain array; msw recognises handlers by
 * their `kind`, so handlers built by its CommonJS copy serve an ESM `setupServer` alike.
 */
export function createHandlers(handle: CoreHandler, baseUrl: string): HttpHandler[] {
  const { http, HttpResponse } = loadMsw();
  return [
    http.all(`${baseUrl}/*`, async ({ request }) => {
      const result = await handle(request);
      return result === DROP ? HttpResponse.error() : result;
    }),
  ];
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
