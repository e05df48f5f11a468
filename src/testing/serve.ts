import { CONTROL_PREFIX, withControlRoutes } from './control';
import type { Engine } from './engine';
import { type CoreHandler, codeError } from './http';
import { listen } from './listen';
import { withPayerPhone } from './page/routes';
import type { ListeningServer, ListenOptions } from './types';

/**
 * An engine served over node:http (`sim.listen()` and the CLI): the payer's phone and the
 * control routes, guarded against cross-site requests, in front of the simulated API.
 */
export function serveEngine(engine: Engine, options: ListenOptions = {}): Promise<ListeningServer> {
  return listen(sameOriginOnly(withPayerPhone(engine, withControlRoutes(engine))), options);
}

/**
 * The page and control routes change state, and a browser would send a page of any site's
 * form or `text/plain` fetch to them: what changes state (any method but GET and HEAD) must
 * come from the same origin (an `Origin`, when sent, equal to the server's own; a
 * `Sec-Fetch-Site`, when sent, `same-origin`), else 403; a POST must be
 * `Content-Type: application/json` (which a cross-site page cannot send unasked), else 415.
 */
export function sameOriginOnly(inner: CoreHandler): CoreHandler {
  return async (request) => {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const control = url.pathname === '/_simulator' || url.pathname.startsWith(CONTROL_PREFIX);
    if (!control || method === 'GET' || method === 'HEAD') return inner(request);
    const origin = request.headers.get('origin');
    const site = request.headers.get('sec-fetch-site');
    if (
      (origin !== null && origin.toLowerCase() !== url.origin) ||
      (site !== null && site !== 'same-origin' && site !== 'none')
    ) {
      return codeError(
        403,
        'FORBIDDEN',
        `Cross-site request refused: ${method} ${url.pathname} must come from ${url.origin} itself (Origin ${origin ?? 'absent'}, Sec-Fetch-Site ${site ?? 'absent'}).`,
      );
    }
    const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (method === 'POST' && type !== 'application/json') {
      return codeError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `${url.pathname} takes Content-Type: application/json (given: ${type ?? 'none'}).`,
      );
    }
    return inner(request);
  };
}
