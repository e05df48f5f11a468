/** Loaded on first use, like node:http: importing the SDK stays free of Node modules. */
const isProxy = (value: unknown) => process.getBuiltinModule('node:util').types.isProxy(value);

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
// Assembled at run time (a minifier folds a constant template), so that the built file holds
// no `require(...)` a bundler or check would follow.
const NODE_FETCH_SOURCE = ['require', "('internal/deps/undici/undici')"].join('');

function isNodesOwnFetch(candidate: unknown): boolean {
  if (typeof candidate !== 'function' || isProxy(candidate)) return false;
  if (candidate.name !== 'fetch') return false;
  return Function.prototype.toString.call(candidate).includes(NODE_FETCH_SOURCE);
}

/**
 * Node's undici installs its default dispatcher, `new Agent()`, when it first loads, and so
 * does the npm package. A dispatcher is left to fetch unless it is such a default: an Agent
 * (by class name: not a ProxyAgent, EnvHttpProxyAgent, MockAgent...), not a Proxy (what
 * `compose()` returns, with interceptors), built with no options but the defaults undici
 * fills in itself (undici 6 and 7 keep them under a symbol described `options`). An Agent
 * with a CA, a connection limit or anything else set is the partner's choice. If undici's
 * internals ever change shape, the check answers false: the SDK falls back to fetch.
 */
function isDefaultDispatcher(dispatcher: unknown): boolean {
  if (dispatcher === undefined) return true;
  if (typeof dispatcher !== 'object' || dispatcher === null || isProxy(dispatcher)) {
    return false;
  }
  if (dispatcher.constructor?.name !== 'Agent') return false;
  const key = Object.getOwnPropertySymbols(dispatcher).find((s) => s.description === 'options');
  const options = key && (dispatcher as Record<symbol, unknown>)[key];
  if (typeof options !== 'object' || options === null) return false;
  return Object.entries(options).every(
    ([name, value]) => value === undefined || (name === 'maxOrigins' && value === Infinity),
  );
}

/** The last fetch and dispatcher checked, and their verdicts: each check runs once per value. */
let lastFetch: unknown;
let fetchIsNodes = false;
let lastDispatcher: unknown;
let dispatcherIsDefault = true;

/**
 * True only while the fast path may stand in for fetch: `globalThis.fetch` is Node's own
 * (not msw's, not a partner's), the global dispatcher is undici's default (none set with
 * setGlobalDispatcher) and no proxy variable is set. Anything else means someone configured
 * fetch: the SDK then goes through `globalThis.fetch` so that it applies. Asked per exchange
 * on Node only: the pool is never made under Bun or Deno (`loadNodePath`, ../sender.ts).
 */
export function isNativeFetch(): boolean {
  const fetch = globalThis.fetch;
  if (fetch !== lastFetch) {
    lastFetch = fetch;
    fetchIsNodes = isNodesOwnFetch(fetch);
  }
  if (!fetchIsNodes) return false;
  const dispatcher = (globalThis as Record<symbol, unknown>)[DISPATCHER];
  if (dispatcher !== lastDispatcher) {
    lastDispatcher = dispatcher;
    dispatcherIsDefault = isDefaultDispatcher(dispatcher);
  }
  if (!dispatcherIsDefault) return false;
  return !proxyConfigured();
}

/** Proxy variables are read at most once a second: process.env reads cost per call. */
let proxyCheckedAt = -Infinity;
let proxySet = false;

function proxyConfigured(): boolean {
  const now = Date.now();
  if (now - proxyCheckedAt >= 1_000 || now < proxyCheckedAt) {
    proxyCheckedAt = now;
    const env = process.env;
    proxySet = PROXY_VARIABLES.some((name) => Boolean(env[name]));
  }
  return proxySet;
}
