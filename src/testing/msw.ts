import { type HttpHandler, HttpResponse, http } from 'msw';
import { type CoreHandler, DROP } from './http';

export type { HttpHandler };

/** The only file that imports msw: one catch-all handler on the base URL. */
export function createHandlers(handle: CoreHandler, baseUrl: string): HttpHandler[] {
  return [
    http.all(`${baseUrl}/*`, async ({ request }) => {
      const result = await handle(request);
      return result === DROP ? HttpResponse.error() : result;
    }),
  ];
}
