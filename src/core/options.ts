import type { CallbackBus } from '../contracts/callback-bus';
import type { ClientHooks, Logger, LogLevel } from '../contracts/hooks';
import type { Journal } from '../contracts/journal';
import type { ProductName } from '../contracts/product';
import type { SharedRateBudget } from '../contracts/rate-budget';
import type { Telemetry } from '../contracts/telemetry';
import type { TokenStore } from '../contracts/token-store';

// The contracts (src/contracts) an option names, for the code that reads the options.
export type { ClientHooks, Logger, LogLevel, ProductName, TokenStore };

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
  /**
   * For the SDK's simulator only: creating calls that have a `tag` (a batch's rows are
   * tagged `<batch id>/<item key>`) send it in `X-Momo-Simulator-Tag`, so that the
   * simulator's page shows batches. Default false: no tag ever leaves the client, whatever
   * a server answers. `sim.client()` sets it; never set it for a real provider.
   */
  simulatorTags?: boolean | undefined;
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
   * Shares `lookupRate` and `createRate` with every instance given the same budget
   * (`createRedisState(redis).rateBudget`): the provider caps the partner, not a
   * process, so N processes together stay at most at the rate in any sliding second.
   * While it cannot be reached, each process keeps its own rate (`momo.health().rateBudget`).
   * Give every instance the same rates. Without `lookupRate` or `createRate` it shares nothing.
   */
  rateBudget?: SharedRateBudget | undefined;
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
  /**
   * The tenant (merchant) this client serves, set by `momo-partner-sdk/tenants` (and the
   * CLI's `--tenant`): the drivers stamp it on what they record (batch items,
   * subscriptions, outbox intents) and read only records stamped with it from a store all
   * tenants share. Absent for a client of its own.
   */
  tenant?: string | undefined;
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
  /**
   * Whose call this is, recorded on its journal entry (creating calls): your order id, or
   * `<batch id>/<item key>` for a batch's item. Default: the body's `externalId`. So an
   * entry maps back to your row after a restart. Not sent to the provider.
   */
  tag?: string | undefined;
}
