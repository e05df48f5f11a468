import type { Telemetry } from '../core/telemetry';
import { UUID_V4 } from '../schemas/common';

/** What the handler learnt of a callback, for its trace: the reference id, once checked. */
export interface CallbackSeen {
  referenceId?: string;
}

type Handle = (request: Request, seen?: CallbackSeen) => Promise<Response>;

/**
 * The handler without telemetry, else wrapped in one SERVER trace per request: its route,
 * method, answer status and the reference id it named.
 */
export function tracedHandler(
  handle: Handle,
  telemetry: Telemetry | undefined,
  template: string | undefined,
): (request: Request) => Promise<Response> {
  // Only the request is passed on: frameworks call handlers with a second argument of theirs.
  if (telemetry === undefined) return (request) => handle(request);
  const mounted = routeOf(template);
  return async (request) => {
    const trace = telemetry.callback({
      method: request.method,
      route: mounted ?? routeOfUrl(request.url),
    });
    const seen: CallbackSeen = {};
    try {
      const response = await handle(request, seen);
      trace.end({ status: response.status, referenceId: seen.referenceId });
      return response;
    } catch (error) {
      trace.end({ status: 500, referenceId: seen.referenceId, error });
      throw error;
    }
  };
}

/** The path of the callback URL template, `{referenceId}` kept as is (a low-cardinality route). */
function routeOf(template: string | undefined): string | undefined {
  if (template === undefined) return undefined;
  const placeholder = 'momo-reference-id-placeholder';
  const filled = template.replaceAll('{referenceId}', placeholder);
  if (!URL.canParse(filled)) return undefined;
  return new URL(filled).pathname.replaceAll(placeholder, '{referenceId}');
}

/** Without a template: the request's path, each UUID segment as `{referenceId}`. */
function routeOfUrl(url: string): string {
  if (!URL.canParse(url)) return '/';
  return new URL(url).pathname
    .split('/')
    .map((segment) => (UUID_V4.test(segment) ? '{referenceId}' : segment))
    .join('/');
}
