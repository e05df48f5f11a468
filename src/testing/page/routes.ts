import { CONTROL_PREFIX } from '../control';
import type { Engine } from '../engine';
import { type CoreHandler, codeError, json } from '../http';
import { PAGE_CSS } from './css';
import { feedOf } from './feed';
import { PAGE_HTML } from './html';
import { PAGE_SCRIPT } from './script';
import { eventStream } from './stream';

/**
 * Serves the payer's phone in front of `inner` (the control routes and the simulated API):
 * what pageRoute does not answer goes on to `inner`.
 */
export function withPayerPhone(engine: Engine, inner: CoreHandler): CoreHandler {
  return async (request) => {
    const { pathname } = new URL(request.url);
    // The page lives at /_simulator/ (with the slash: its assets are relative).
    if (pathname === '/_simulator') {
      return new Response(null, { status: 308, headers: { location: CONTROL_PREFIX } });
    }
    if (!pathname.startsWith(CONTROL_PREFIX)) return inner(request);
    const path = pathname.slice(CONTROL_PREFIX.length);
    const page = pageRoute(engine, request.method.toUpperCase(), path);
    return page ?? inner(request);
  };
}

/**
 * The payer's phone: `GET /_simulator/` (the page, its script and style), the event
 * stream, and the routes its buttons call. Answers undefined for any other path, which
 * the other control routes then handle. Everything is served from the package: no CDN.
 */
export function pageRoute(engine: Engine, method: string, path: string): Response | undefined {
  if (method === 'GET') {
    if (path === '') return asset(PAGE_HTML, 'text/html');
    if (path === 'page.js') return asset(PAGE_SCRIPT, 'text/javascript');
    if (path === 'page.css') return asset(PAGE_CSS, 'text/css');
    if (path === 'events') return eventStream(feedOf(engine));
    return undefined;
  }
  const resend = /^callbacks\/(\d+)\/resend$/.exec(path);
  const disarm = /^faults\/(\d+)$/.exec(path);
  let response: Response | undefined;
  // Approve and Decline go to the control routes' own `operations/{id}/approve|decline`
  // (sim.decide(), the rule of each kind).
  if (resend && method === 'POST') {
    const index = Number(resend[1]);
    response = engine.internals.callbacks.resend(index)
      ? json(202, { resent: index })
      : codeError(404, 'NOT_FOUND', `No callback ${index}.`);
  } else if (disarm && method === 'DELETE') {
    const id = Number(disarm[1]);
    response = engine.internals.faults.disarm(id)
      ? new Response(null, { status: 204 })
      : codeError(404, 'NOT_FOUND', `No armed fault ${id}.`);
  }
  if (response) feedOf(engine).notify();
  return response;
}

/**
 * Strict headers: the page loads nothing but its own script and style, and no other site
 * may frame it (a framed page's Approve button is one click away from a clickjacking
 * approval): `frame-ancestors 'none'`, and X-Frame-Options for browsers without CSP 2.
 */
function asset(body: string, type: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': `${type}; charset=utf-8`,
      'cache-control': 'no-store',
      'content-security-policy':
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    },
  });
}
