import type { MomoError } from '../errors';
import type { CallbackBus } from '../scale-out/callback-bus';
import type { Journal } from '../scale-out/journal';
import type { Telemetry } from './telemetry';

/** The three products; each has its own subscription key, API user, token and account. */
export type ProductName = 'disbursement' | 'collection' | 'remittance';

/** Which form wins where the provider's documents and the specification disagree. */
export type Compat = 'spec' | 'provider';

/** An API user and its API key (Basic credentials of the token requests). */
export interface ApiUser {
  /** API user id (X-Reference-Id used when the API user was created). */
  id: string;
  /** API key of that user. */
  key: string;
}

/** Credentials of one product, overriding the client-wide ones. */
export interface ProductOptions {
  subscriptionKey?: string | undefined;
  apiUser?: ApiUser | undefined;
}

/** How `wait()` looks a result up: backoff bounds and the default deadline. */
export interface PollingOptions {
  /** Delay before the first lookup after acceptance, and the first backoff step. */
  initialDelayMs?: number | undefined;
  /** Backoff ceiling between lookups. */
  maxDelayMs?: number | undefined;
  /** Default deadline of `wait()`. */
  timeoutMs?: number | undefined;
}

/** Receives SDK log lines. Nothing secret is ever passed to it. */
export interface Logger {
  /** Per-attempt detail (logLevel `debug`). */
  debug?(message: string, fields?: Record<string, unknown>): void;
  /** Notable events, e.g. an earlier attempt that landed. */
  info?(message: string, fields?: Record<string, unknown>): void;
  /** Retries and degraded states. */
  warn?(message: string, fields?: Record<string, unknown>): void;
  /** Failures the SDK could not handle itself. */
  error?(message: string, fields?: Record<string, unknown>): void;
}

/** An access token as cached and as handed to a TokenStore. */
export interface StoredToken {
  accessToken: string;
  tokenType: string;
  /** Epoch milliseconds when the service stops accepting it. */
  expiresAt: number;
  /** Epoch milliseconds when it was issued; sets the refresh window. */
  issuedAt: number;
}

/** Ends a refresh lock (only if this holder still holds it). */
export type ReleaseLock = () => Promise<void>;

/** Shares tokens across processes (Redis, a database...). Keys name product, API user and environment. */
export interface TokenStore {
  /** The token stored under `key`, or undefined. */
  get(key: string): Promise<StoredToken | undefined> | StoredToken | undefined;
  /** Stores a token under `key` (keep it until `token.expiresAt`). */
  set(key: string, token: StoredToken): Promise<void> | void;
  /**
   * Drops the key. With `accessToken`, a store that can compare and delete atomically
   * drops it only while it still holds that token (a newer one is kept).
   */
  delete(key: string, accessToken?: string): Promise<void> | void;
  /**
   * Optional cross-process refresh lock: resolves to a release function when this caller
   * now holds the lock for `ttlMs`, or `undefined` when another holder has it. With it,
   * any number of processes going cold at once make one token request.
   */
  lock?(key: string, ttlMs: number): Promise<ReleaseLock | undefined>;
}

/** What a hook is told about one HTTP attempt. Never a header, a body or a secret. */
export interface RequestInfo {
  /** `product.method`, e.g. `disbursement.deposit`. */
  operation: string;
  method: string;
  /** The request path, e.g. `/disbursement/v1_0/deposit`. */
  path: string;
  referenceId: string | undefined;
  /** 1 for the first attempt of a call. */
  attempt: number;
}

export interface ResponseInfo extends RequestInfo {
  /** The HTTP status; undefined when no answer came (see `error`). */
  status: number | undefined;
  durationMs: number;
  /** The ConnectionError or TimeoutError of an attempt that got no answer. */
  error?: MomoError;
}

export interface RetryInfo extends RequestInfo {
  /** How long the SDK waits before the next attempt. */
  delayMs: number;
  /** Why the attempt failed. */
  error: MomoError;
}

/**
 * Observes every HTTP attempt, for metrics and tracing. Hooks run synchronously, must
 * not throw (a throwing hook is ignored), and see no secret.
 */
export interface ClientHooks {
  /** Before each HTTP attempt is sent. */
  onRequest?(info: RequestInfo): void;
  /** After each HTTP attempt: its status and duration, or the error of an attempt that got no answer. */
  onResponse?(info: ResponseInfo): void;
  /** Before each retry: why, and how long the SDK waits. */
  onRetry?(info: RetryInfo): void;
}

/** The least severe level the logger receives; `silent` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** Options of `new MomoClient(options)` (and of `new Disbursement`, `new Collection`, `new Remittance`). */
export interface MomoClientOptions {
  /** e.g. `https://sandbox.momodeveloper.mtn.com`; plain http only for loopback hosts. */
  baseUrl: string;
  /** X-Target-Environment, and the default X-Account-Holding-Institution-Identifier. */
  targetEnvironment: string;
  /** X-Account-Holding-Institution-Identifier of the standard-style endpoints; default `targetEnvironment`. */
  accountHoldingInstitutionIdentifier?: string | undefined;
  /** Default subscription key (Ocp-Apim-Subscription-Key) of every product. */
  subscriptionKey?: string | undefined;
  /** Default API user of every product. */
  apiUser?: ApiUser | undefined;
  /** Credentials of Disbursement, overriding the client-wide ones. */
  disbursement?: ProductOptions | undefined;
  /** Credentials of Collection (also used by consent and the standard-style calls). */
  collection?: ProductOptions | undefined;
  /** Credentials of Remittance, overriding the client-wide ones. */
  remittance?: ProductOptions | undefined;
  /**
   * Default X-Callback-Url; `{referenceId}` is replaced by the call's reference id. https,
   * or plain http in the sandbox, to loopback or to a host in `allowInsecureHosts`.
   */
  callbackUrl?: string | undefined;
  /**
   * Authenticates callbacks (32 characters or more; keep it like an API key). With it,
   * every callback URL the SDK sends carries a per-operation token, `HMAC-SHA256` of the
   * reference id under this secret: at the template's `{callbackToken}`, or appended as
   * the query parameter `callbackToken`. The handler refuses a wrong token (401), and only
   * a callback with the right one may settle an operation that has no status lookup
   * (voucher redeem, standard-style disbursement). Give every instance the same secret.
   */
  callbackSecret?: string | undefined;
  /**
   * Host names (no scheme or port) that `baseUrl` and callback URLs may reach over plain
   * http besides loopback, e.g. `['momo-sim']` for a simulator in docker-compose. For
   * test hosts only: nothing sent to them is encrypted.
   */
  allowInsecureHosts?: readonly string[] | undefined;
  /** Per attempt. Default 30 000. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number | undefined;
  /** How `wait()` polls; defaults 1 000 ms first delay, 15 000 ms at most, 300 000 ms deadline. */
  polling?: PollingOptions | undefined;
  /** Your own fetch (a proxy, a test double); it always wins over the built-in Node transport. */
  fetch?: typeof globalThis.fetch | undefined;
  /** Receives log lines (never a secret); `console` works. */
  logger?: Logger | undefined;
  /** The least severe level passed to `logger`. Default `info` (`debug` logs every attempt). */
  logLevel?: LogLevel | undefined;
  /** Observe every HTTP attempt (metrics, tracing). */
  hooks?: ClientHooks | undefined;
  /** Traces calls, retries, waits and callbacks: `otel()` from `momo-partner-sdk/otel`. */
  telemetry?: Telemetry | undefined;
  /** Share access tokens across processes. */
  tokenStore?: TokenStore | undefined;
  /**
   * Where the provider's OpenAPI documents and the specification disagree, `'spec'`
   * (default) sends the specification's form and `'provider'` the documents' form
   * (request to withdraw v2 by POST; see docs/assumptions.md).
   */
  compat?: Compat | undefined;
  /**
   * Requests in flight at once for this client; more calls wait in a queue (keeping
   * their signal and deadline) before any request is built. Default 128.
   */
  maxConcurrency?: number | undefined;
  /** Socket cap of the built-in Node connection pool. Default 128. */
  maxSockets?: number | undefined;
  /**
   * GET requests per second for this client (the provider caps them), shared by every
   * status lookup, `wait()`, callback confirmation, account-holder check, balance and
   * other GET, each attempt counted; never more in any sliding second. Requests beyond it
   * queue (their signal and deadline, a wait's deadline too, still hold). Default: no
   * fixed budget (a 429 on any GET still slows every GET).
   */
  lookupRate?: number | undefined;
  /**
   * Creating calls (those sending a reference id) per second for this client, each
   * attempt counted; never more in any sliding second. Calls beyond it queue like
   * `lookupRate`'s. Default: unlimited.
   */
  createRate?: number | undefined;
  /**
   * Refresh an access token this long before it expires (the provider asks for about 10
   * minutes); at most half a token's lifetime. Default 600 000.
   */
  tokenRefreshWindowMs?: number | undefined;
  // --- scale-out (momo-partner-sdk/redis) ---
  /** Carries confirmed callback results to every instance's waits. */
  callbackBus?: CallbackBus | undefined;
  /** Records creating calls before they are sent; default in memory. */
  journal?: Journal | undefined;
}

/** The last, optional argument of every method. */
export interface RequestOptions {
  /** X-Reference-Id (UUID v4) of a creating call; generated when omitted. */
  referenceId?: string | undefined;
  /** X-Callback-Url for this call; `{referenceId}` is filled in. */
  callbackUrl?: string | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  /** Extra headers; they never replace the headers the SDK owns. */
  headers?: Record<string, string> | undefined;
}
