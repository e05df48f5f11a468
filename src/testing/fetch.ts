import { type CoreHandler, DROP } from './http';

/**
 * A `fetch` served by the core, with no network. A dropped connection rejects like
 * Node's fetch does: `TypeError('fetch failed')`.
 */
export function createFetch(handle: CoreHandler, baseUrl: string): typeof fetch {
  const simulatorFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request =
      input instanceof Request
        ? new Request(input, init)
        : new Request(absolute(input, baseUrl), init);
    request.signal.throwIfAborted();
    const result = await handle(request);
    request.signal.throwIfAborted();
    if (result === DROP) {
      throw new TypeError('fetch failed', { cause: new Error('simulated connection loss') });
    }
    return result;
  };
  return simulatorFetch as typeof fetch;
}

function absolute(input: string | URL, baseUrl: string): URL {
  return new URL(String(input), `${baseUrl}/`);
}
