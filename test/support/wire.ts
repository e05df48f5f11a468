import {
  createSimulator,
  type RecordedRequest,
  type SimulatorOptions,
} from 'momo-partner-sdk/testing';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const CALLBACK_TEMPLATE = 'https://partner.test/momo/{referenceId}';

/**
 * Wire tests: the real client, through msw, against the simulator's handlers. The
 * helpers assert what went over the wire (method, exact path, headers, body).
 */
export function useWireSimulator(options: SimulatorOptions = { settleMs: 0 }) {
  // The callback receiver is an msw handler on partner.test: a callback host to name.
  const sim = createSimulator({ callbackHosts: ['partner.test'], ...options });
  const callbacks: Array<{ method: string; path: string; body: unknown }> = [];
  const server = setupServer(
    ...sim.handlers,
    http.all('https://partner.test/momo/*', async ({ request }) => {
      callbacks.push({
        method: request.method,
        path: new URL(request.url).pathname,
        body: await request.json(),
      });
      return new HttpResponse(null, { status: 200 });
    }),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    sim.reset();
    callbacks.length = 0;
  });
  afterAll(() => server.close());

  const { subscriptionKey, targetEnvironment } = sim.credentials;
  // Through msw (global fetch), not sim.fetch: the handlers are what is under test.
  const momo = () => sim.client({ fetch: (input, init) => globalThis.fetch(input, init) });
  const sent = (method: string, path: string): RecordedRequest[] =>
    sim.requests.filter((r) => r.method === method && r.path === path);
  function only(method: string, path: string): RecordedRequest {
    const matching = sent(method, path);
    expect(matching, `${method} ${path}`).toHaveLength(1);
    return matching[0] as RecordedRequest;
  }
  function expectBearerCall(request: RecordedRequest, token = /^Bearer \S+$/) {
    expect(request.headers.authorization).toMatch(token);
    expect(request.headers['ocp-apim-subscription-key']).toBe(subscriptionKey);
    expect(request.headers['x-target-environment']).toBe(targetEnvironment);
  }
  function expectCreate(request: RecordedRequest, referenceId: string, json: unknown) {
    expectBearerCall(request);
    expect(request.headers['x-reference-id']).toBe(referenceId);
    expect(referenceId).toMatch(UUID_V4);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual(json);
  }
  function expectLookup(request: RecordedRequest) {
    expectBearerCall(request);
    expect(request.headers['x-reference-id']).toBeUndefined();
    expect(request.headers['content-type']).toBeUndefined();
    expect(request.body).toBeUndefined();
  }
  /** The form body of a recorded request, as an object. */
  const form = (request: RecordedRequest) =>
    Object.fromEntries(new URLSearchParams(String(request.body)));

  return { sim, momo, callbacks, sent, only, expectBearerCall, expectCreate, expectLookup, form };
}
