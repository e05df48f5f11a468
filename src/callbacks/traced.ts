import type { Telemetry } from '../contracts/telemetry';
import { UUID_V4 } from '../schemas/common';
import { routeOf } from './route';

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
  const mounted = template === undefined ? undefined : routeOf(template);
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

/** Without a template: the request's path, each UUID segment as `{referenceId}`. */
function routeOfUrl(url: string): string {
  if (!URL.canParse(url)) return '/';
  return new URL(url).pathname
    .split('/')
    .map((segment) => (UUID_V4.test(segment) ? '{referenceId}' : segment))
    .join('/');
}
