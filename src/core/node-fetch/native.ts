import { types } from 'node:util';

/** Where undici (Node's own copy and the npm package alike) keeps the global dispatcher. */
const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;

/**
 * Node's fetch (20 to 24) is an own, writable data property of globalThis holding a plain
 * function named `fetch` whose body lazily runs `require('internal/deps/undici/undici')`: that
 * specifier only resolves inside Node's own bootstrap code, so no library or partner writes a
 * function with it. Replacements fail the test: msw's interceptor and most wrappers are other
 * functions, a Proxy is caught by isProxy (its source text would read as native code), a bound
 * copy is named `bound fetch` and reads as native code.
 */
const NODE_FETCH_SOURCE = "require('internal/deps/undici/undici')";

function isNodesOwnFetch(candidate: unknown): boolean {
  if (typeof candidate !== 'function' || types.isProxy(candidate)) return false;
  if (candidate.name !== 'fetch') return false;
  return Function.prototype.toString.call(candidate).includes(NODE_FETCH_SOURCE);
}

/**
 * Reading `Headers` makes Node load its undici copy, which installs its default dispatcher
 * when none is there yet. What is there right after is Node's default, unless a partner set
 * one before this module loaded: a ProxyAgent, MockAgent or the like is then recognised by
 * its class name; a plain Agent (custom TLS options, say) cannot be told from Node's own.
 */
void globalThis.Headers;
const dispatcherAtLoad: unknown = (globalThis as Record<symbol, unknown>)[DISPATCHER];
const defaultDispatcher =
  dispatcherAtLoad === undefined || dispatcherAtLoad?.constructor?.name === 'Agent'
    ? dispatcherAtLoad
    : null;

/** The last fetch checked and its verdict: the source test runs once per function seen. */
let lastFetch: unknown = globalThis.fetch;
let lastVerdict = isNodesOwnFetch(lastFetch);

/**
 * True only while the fast path may stand in for fetch: the runtime is Node (not Bun or Deno),
 * `globalThis.fetch` is Node's own (not msw's, not a partner's), the global dispatcher is
 * Node's default (no setGlobalDispatcher) and no proxy variable is set. Anything else means
 * someone configured fetch: the SDK then goes through `globalThis.fetch` so that it applies.
 */
export function isNativeFetch(): boolean {
  if (typeof process === 'undefined' || process.versions?.bun !== undefined) return false;
  if ('Deno' in globalThis) return false;
  const current = globalThis.fetch;
  if (current !== lastFetch) {
    lastFetch = current;
    lastVerdict = isNodesOwnFetch(current);
  }
  if (!lastVerdict) return false;
  if ((globalThis as Record<symbol, unknown>)[DISPATCHER] !== defaultDispatcher) return false;
  const env = process.env;
  for (const name of PROXY_VARIABLES) if (env[name]) return false;
  return true;
}
