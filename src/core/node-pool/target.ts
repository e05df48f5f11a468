/** Where a request goes: what node:http needs to pick the Agent and open a socket. */
export interface Target {
  secure: boolean;
  /** Without an IPv6 literal's brackets, as net.connect takes it. */
  hostname: string;
  port: number;
  /** The Host header: host and port as the URL spells them. */
  host: string;
}

/** Origins seen so far; a client talks to one or two, so a small cache always hits. */
const targets = new Map<string, Target>();
const MAX_TARGETS = 64;

/**
 * Splits a serialized absolute URL (what `Request.url` returns) into its target and the
 * request-target sent on the wire (path and query, never the fragment). Only the origin's
 * first sight parses a URL; the rest is string slicing on the already-normal form.
 */
export function splitUrl(url: string): { target: Target; path: string } {
  const scheme = url.startsWith('https://') ? 8 : url.startsWith('http://') ? 7 : -1;
  if (scheme === -1)
    throw new TypeError(`unsupported URL scheme: ${url.slice(0, url.indexOf(':'))}`);
  let pathStart = url.indexOf('/', scheme);
  if (pathStart === -1) pathStart = url.length;
  const origin = url.slice(0, pathStart);
  let target = targets.get(origin);
  if (target === undefined) {
    target = parseOrigin(origin);
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(origin, target);
  }
  const hash = url.indexOf('#', pathStart);
  const path = hash === -1 ? url.slice(pathStart) : url.slice(pathStart, hash);
  return { target, path: path === '' ? '/' : path };
}

function parseOrigin(origin: string): Target {
  const url = new URL(origin);
  const secure = url.protocol === 'https:';
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return {
    secure,
    hostname,
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    host: url.host,
  };
}
