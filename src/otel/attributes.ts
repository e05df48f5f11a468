import type { Attributes } from '@opentelemetry/api';

/**
 * Attribute names: the HTTP semantic conventions (stable since v1.23) and the SDK's own
 * `momo.*`. Written out rather than imported: `@semantic-conventions` is not a peer.
 */
export const ATTR = {
  method: 'http.request.method',
  status: 'http.response.status_code',
  resendCount: 'http.request.resend_count',
  route: 'http.route',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  urlFull: 'url.full',
  urlTemplate: 'url.template',
  errorType: 'error.type',
  operation: 'momo.operation',
  referenceId: 'momo.reference_id',
  waitLookups: 'momo.wait.lookups',
  waitStatus: 'momo.wait.status',
} as const;

/** Where a call goes: host and port (the scheme's default when the URL names none). */
export interface Server {
  address: string;
  port: number;
}

/** Origins seen (a client has one or two): each parsed once, not per call. */
const servers = new Map<string, Server | undefined>();
const ORIGIN = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;
/**
 * The origin of the previous call, its server, and whether it is free of credentials:
 * nearly every call repeats it.
 */
let last: { origin: string; server: Server | undefined; clean: boolean } | undefined;
/** The URL `serverOf` last found under `last.origin`: `fullUrlOf(it)` need not look again. */
let lastMatched: string | undefined;

/** True when `url` is `origin` followed by a path, query or fragment (or nothing). */
function startsWithOrigin(url: string, origin: string): boolean {
  if (!url.startsWith(origin)) return false;
  const next = url.charCodeAt(origin.length);
  return Number.isNaN(next) || next === 47 || next === 63 || next === 35; // end, / ? #
}

export function serverOf(url: string): Server | undefined {
  if (last !== undefined && startsWithOrigin(url, last.origin)) {
    lastMatched = url;
    return last.server;
  }
  lastMatched = undefined;
  const origin = ORIGIN.exec(url)?.[0];
  if (origin === undefined) return undefined;
  lastMatched = url;
  if (servers.has(origin)) {
    last = { origin, server: servers.get(origin), clean: !origin.includes('@') };
    return last.server;
  }
  let server: Server | undefined;
  if (URL.canParse(origin)) {
    const parsed = new URL(origin);
    const port = parsed.port !== '' ? Number(parsed.port) : parsed.protocol === 'http:' ? 80 : 443;
    server = { address: parsed.hostname, port };
  }
  if (servers.size >= 64) servers.clear(); // bounded, whatever a caller passes
  servers.set(origin, server);
  last = { origin, server, clean: !origin.includes('@') };
  return server;
}

/**
 * `url.full`: the URL as given (its `{name}` placeholders unencoded) without a query or
 * fragment, and rebuilt without credentials should it carry any (the port's has none).
 */
export function fullUrlOf(url: string): string {
  // The common case at no cost: the previous call's origin (no credentials in it), no query.
  if (
    last?.clean &&
    (url === lastMatched || startsWithOrigin(url, last.origin)) &&
    !url.includes('?') &&
    !url.includes('#')
  ) {
    return url;
  }
  const end = url.search(/[?#]/);
  const bare = end === -1 ? url : url.slice(0, end);
  const origin = ORIGIN.exec(bare)?.[0];
  if (origin === undefined || !origin.includes('@')) return bare;
  return origin.replace(/\/\/[^/@]*@/, '//') + bare.slice(origin.length);
}

export function serverAttributes(server: Server | undefined): Attributes {
  return server ? { [ATTR.serverAddress]: server.address, [ATTR.serverPort]: server.port } : {};
}

/** An outcome as the port reports it: an HTTP status, an error, or neither (a success). */
export interface Outcome {
  status?: number | undefined;
  error?: unknown;
}

/** A class name, nothing else: an error's message or fields are never recorded. */
const CLASS_NAME = /^[A-Za-z_$][\w$]{0,63}$/;

/**
 * `error.type` as the conventions define it: the error's class name, else an error status
 * as a string (`503`), else undefined (a success). `_OTHER` for a nameless throw.
 */
export function errorTypeOf(outcome: Outcome, isError: (status: number) => boolean) {
  const { error, status } = outcome;
  if (error !== undefined) {
    const name = error instanceof Error ? error.name : undefined;
    return name !== undefined && CLASS_NAME.test(name) ? name : '_OTHER';
  }
  if (status !== undefined && isError(status)) return String(status);
  return undefined;
}

/** A client call failed on any 4xx or 5xx; a server answer only on a 5xx. */
export const clientError = (status: number) => status >= 400;
export const serverError = (status: number) => status >= 500;
