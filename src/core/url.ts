import type { ValidationIssue } from '../errors';
import { callbackToken, TOKEN_PARAMETER, TOKEN_PLACEHOLDER } from './callback-token';
import type { Secret } from './secret';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopback(hostname: string): boolean {
  return (
    LOOPBACK.has(hostname) ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname) ||
    hostname.endsWith('.localhost')
  );
}

/**
 * Hosts that may be reached over plain http besides loopback: the client option
 * `allowInsecureHosts` (e.g. `['momo-sim']` for a simulator in docker-compose), lower-case
 * host names without scheme or port.
 */
export type InsecureHosts = ReadonlySet<string>;

const NO_HOSTS: InsecureHosts = new Set();

/** Why an `allowInsecureHosts` entry is unacceptable, or undefined. */
export function checkInsecureHost(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'must be a non-empty host name';
  if (!/^[a-z0-9.-]+$/i.test(value)) {
    return 'must be a bare host name such as "momo-sim" (no scheme, port or path)';
  }
  return undefined;
}

function plainHttpAllowed(url: URL, insecureHosts: InsecureHosts): boolean {
  return isLoopback(url.hostname) || insecureHosts.has(url.hostname);
}

/** Why a service base URL is unacceptable, or undefined. https unless loopback or allowed. */
export function checkServiceUrl(
  value: unknown,
  insecureHosts: InsecureHosts = NO_HOSTS,
): string | undefined {
  const url = parseUrl(value);
  if (!url) return 'must be an absolute URL';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.search || url.hash) return 'must not have a query or a fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && plainHttpAllowed(url, insecureHosts)) return undefined;
  return (
    'must use https (plain http is allowed only for loopback hosts and the hosts named in ' +
    `allowInsecureHosts, e.g. allowInsecureHosts: ['${url.hostname}'] for a test host)`
  );
}

/**
 * A checked service URL in its normal form (lower-case host, default port dropped, path
 * percent-encoded), without a trailing slash: request URLs are this plus an encoded path.
 */
export function normalServiceUrl(value: string): string {
  const url = new URL(value);
  return withoutTrailingSlashes(url.origin + url.pathname);
}

/** `value` without its trailing slashes: a loop, as `/\/+$/` backtracks on `////x`. */
export function withoutTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 47) end--;
  return value.slice(0, end);
}

/** What decides whether a callback URL may use plain http (the client's Config has both). */
export interface CallbackUrlRules {
  targetEnvironment: string;
  allowInsecureHosts: InsecureHosts;
  /** Whether a `{callbackToken}` can be filled in (the client's `callbackSecret`). */
  callbackSecret?: unknown;
}

/**
 * Why a callback URL is unacceptable, or undefined. `{referenceId}` may appear in it.
 * Plain http is refused outside the sandbox (target environment `sandbox`), where the
 * service would post the payment's outcome unencrypted, unless the host is loopback or
 * named in `allowInsecureHosts`.
 */
export function checkCallbackUrl(
  value: unknown,
  rules: CallbackUrlRules = { targetEnvironment: 'sandbox', allowInsecureHosts: NO_HOSTS },
): string | undefined {
  if (typeof value !== 'string') return 'must be a string URL';
  if (value.includes(TOKEN_PLACEHOLDER) && rules.callbackSecret === undefined) {
    return `has ${TOKEN_PLACEHOLDER} but the client has no callbackSecret to derive it from`;
  }
  const url = parseUrl(
    value
      .replaceAll('{referenceId}', '00000000-0000-4000-8000-000000000000')
      .replaceAll(TOKEN_PLACEHOLDER, 'token'),
  );
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol === 'https:' || rules.targetEnvironment === 'sandbox') return undefined;
  if (plainHttpAllowed(url, rules.allowInsecureHosts)) return undefined;
  return (
    `must use https outside the sandbox (target environment "${rules.targetEnvironment}"): ` +
    `plain http is allowed only for loopback hosts and the hosts named in allowInsecureHosts`
  );
}

/**
 * The callback URL of one operation: `{referenceId}` filled in and, with a callback
 * secret, its token at `{callbackToken}` (appended as a query parameter otherwise).
 */
export function fillCallbackUrl(
  template: string,
  referenceId: string,
  secret: Secret | undefined,
): string {
  const url = template.replaceAll('{referenceId}', encodeURIComponent(referenceId));
  if (secret === undefined) return url;
  const token = callbackToken(secret.reveal(), referenceId);
  if (url.includes(TOKEN_PLACEHOLDER)) return url.replaceAll(TOKEN_PLACEHOLDER, token);
  const hash = url.indexOf('#');
  const [head, tail] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  return `${head}${head.includes('?') ? '&' : '?'}${TOKEN_PARAMETER}=${token}${tail}`;
}

/**
 * Fills `{name}` placeholders, each value encoded as one path segment. `.` and `..`
 * are refused: a URL parser would resolve them and escape the intended path.
 */
export function buildPath(
  template: string,
  params: Record<string, string>,
  issues: ValidationIssue[],
): string {
  const parts = templateParts(template);
  let path = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    const value = params[name];
    if (typeof value !== 'string' || value.length === 0) {
      issues.push({ path: name, message: 'is required' });
    } else if (value === '.' || value === '..') {
      issues.push({ path: name, message: 'must not be a relative path segment' });
    } else path += encodeURIComponent(value);
    path += parts[i + 1] as string;
  }
  return path;
}

/** A path template split once into text and `{name}`s, in turn (text first and last). */
const templates = new Map<string, readonly string[]>();
function templateParts(template: string): readonly string[] {
  let parts = templates.get(template);
  if (parts === undefined) {
    parts = template.split(/\{(\w+)\}/);
    templates.set(template, parts); // bounded: the templates are the operation tables'
  }
  return parts;
}

/** `value` as a URL, or undefined when it is not a string or not an absolute URL. */
export function parseUrl(value: unknown): URL | undefined {
  return typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
}
