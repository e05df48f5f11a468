import { createSimulator, type SimulatorHandlers } from 'momo-partner-sdk/testing';
import { type HttpHandler, HttpResponse, http, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expectTypeOf, it } from 'vitest';

// sim.handlers is typed without msw (an optional peer): what a project with msw does
// with them must still type-check against msw's own types.
describe('sim.handlers with msw installed', () => {
  const sim = createSimulator();

  it('spread into setupServer and server.use', () => {
    const server = setupServer(...sim.handlers);
    server.use(...sim.handlers);
    server.resetHandlers(
      ...sim.handlers,
      http.get('https://other.example/*', () => HttpResponse.json({})),
    );
    expectTypeOf(sim.handlers).toEqualTypeOf<SimulatorHandlers>();
  });

  it('assigned to msw handler arrays, and mixed with msw handlers', () => {
    const requestHandlers: RequestHandler[] = sim.handlers;
    const httpHandlers: HttpHandler[] = sim.handlers;
    const mixed = [
      ...sim.handlers,
      http.all('https://other.example/*', () => HttpResponse.error()),
    ];
    expectTypeOf(mixed).toEqualTypeOf<HttpHandler[]>();
    expectTypeOf(requestHandlers).toExtend<Parameters<typeof setupServer>>();
    expectTypeOf(httpHandlers).items.toExtend<RequestHandler>();
  });
});
