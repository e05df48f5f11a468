/** Response helpers shared by the core: JSON bodies, error bodies, and the DROP marker. */

/** Returned by the core instead of a Response when the connection is to be lost. */
export const DROP: unique symbol = Symbol('momo-simulator.drop');
export type Drop = typeof DROP;

/** The framework-free core: what every adapter (fetch, msw, node:http) delegates to. */
export type CoreHandler = (request: Request) => Promise<Response | Drop>;

const JSON_TYPE = 'application/json; charset=utf-8';

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': JSON_TYPE, ...headers },
  });
}

export function empty(status: number): Response {
  return new Response(null, { status });
}

/** Error body of spec 7.1: `{code, message}`. */
export function codeError(status: number, code: string, message: string): Response {
  return json(status, { code, message });
}

/** Error body of 401 answers (spec 4.7, 4.18, 7.3): `{error}`. */
export function unauthorized(error: string): Response {
  return json(401, { error });
}

/** Thrown by validators and guards; the core turns it into its response. */
export class Rejection extends Error {
  constructor(readonly response: Response) {
    super(`rejected with ${response.status}`);
    this.name = 'Rejection';
  }
}

export function reject(status: number, code: string, message: string): never {
  throw new Rejection(codeError(status, code, message));
}

/** A 400 for invalid data (spec 7.3). The spec shows no code for it; see docs/simulator.md. */
export function badRequest(message: string): never {
  return reject(400, 'BAD_REQUEST', message);
}

/** Answer of a `status` fault: JSON for objects, text for strings, empty otherwise. */
export function faultResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  if (body === undefined || body === null) return new Response(null, { status, headers });
  if (typeof body === 'string') {
    return new Response(body, { status, headers: { 'content-type': 'text/plain', ...headers } });
  }
  return json(status, body, headers);
}

/** Error body of spec 7.2 (standard-style endpoints). */
export function mmError(
  status: number,
  errorCategory: string,
  errorCode: string,
  errorDescription: string,
): Response {
  return json(status, {
    errorCategory,
    errorCode,
    errorDescription,
    errorDateTime: new Date().toISOString(),
  });
}

export function rejectMm(
  status: number,
  errorCategory: string,
  errorCode: string,
  errorDescription: string,
): never {
  throw new Rejection(mmError(status, errorCategory, errorCode, errorDescription));
}

/** A 400 in the 7.2 format, Validation category. */
export function invalidMm(errorCode: string, errorDescription: string): never {
  return rejectMm(400, 'Validation', errorCode, errorDescription);
}

/** OAuth 2.0 / CIBA error body (RFC 6749 5.2): `{error, error_description}`. */
export function oauthError(status: number, error: string, description: string): Response {
  return json(status, { error, error_description: description });
}

export function rejectOauth(error: string, description: string): never {
  throw new Rejection(oauthError(400, error, description));
}
