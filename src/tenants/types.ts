import type {
  CallbackBus,
  CallbackHandlerOptions,
  ConfirmedCallback,
  Journal,
  MomoClientOptions,
  SharedRateBudget,
  TokenStore,
} from 'momo-partner-sdk';

/**
 * What `resolve(tenantId)` returns: one merchant's credentials and platform, the
 * credential part of `MomoClientOptions`. `callbackUrl` may carry `{tenant}` (filled with
 * the tenant's id); once filled, its path names the tenant right before the reference id
 * (`https://partner.example/momo/{tenant}/{referenceId}`), so that one receiver routes
 * every tenant's callbacks.
 */
export type TenantCredentials = Pick<
  MomoClientOptions,
  | 'baseUrl'
  | 'targetEnvironment'
  | 'accountHoldingInstitutionIdentifier'
  | 'subscriptionKey'
  | 'apiUser'
  | 'disbursement'
  | 'collection'
  | 'remittance'
  | 'callbackUrl'
  | 'callbackSecret'
>;

/** The options every tenant's client shares (logging, timeouts, polling, transport...). */
export type TenantClientOptions = Omit<
  MomoClientOptions,
  | keyof TenantCredentials
  | 'journal'
  | 'tokenStore'
  | 'rateBudget'
  | 'callbackBus'
  | 'createRate'
  | 'lookupRate'
  | 'tenant'
>;

/** Calls per second of each class (the provider's caps). */
export interface TenantRates {
  /** Creating calls per second. */
  createRate?: number | undefined;
  /** GET requests per second. */
  lookupRate?: number | undefined;
}

/** One of each for all tenants: what every tenant's client is given. */
export interface TenantsShared {
  /** One journal for all: each entry carries its `tenant`; a tenant resumes only its own. */
  journal?: Journal | undefined;
  /**
   * One token store for all (keyed by base URL, subscription key and API user, so no
   * tenant ever gets another's token). Default: one in memory, shared by this process's
   * tenants, so an evicted tenant's client made again reuses its token.
   */
  tokenStore?: TokenStore | undefined;
  /** One rate budget for all: each key under `limits`, everyone under `globalLimits`. */
  rateBudget?: SharedRateBudget | undefined;
  /** Confirmed callback results to every instance's waits. */
  callbackBus?: CallbackBus | undefined;
}

/** Options of `new Tenants(options)`. */
export interface TenantsOptions {
  /**
   * A tenant's credentials, read on its first use, after its eviction and on `refresh`;
   * `undefined` for an id that is no tenant (`UnknownTenantError`; a callback for it: 404).
   */
  resolve(tenantId: string): Promise<TenantCredentials | undefined> | TenantCredentials | undefined;
  shared?: TenantsShared | undefined;
  /** Clients kept at most; the least recently used is closed beyond it. Default 500. */
  maxLive?: number | undefined;
  /** Per subscription key (the provider's caps): each tenant client's own rates. */
  limits?: TenantRates | undefined;
  /** All tenants together (one egress address): needs `shared.rateBudget`. */
  globalLimits?: TenantRates | undefined;
  /**
   * The callback URL template of tenants whose credentials name none, with `{tenant}` and
   * `{referenceId}`: `https://partner.example/momo/{tenant}/{referenceId}`.
   */
  callbackUrl?: string | undefined;
  /**
   * Resume a tenant's pending journal entries when its client is made (first use, or
   * again after eviction). Default true with `shared.journal`.
   */
  resumeOnUse?: boolean | undefined;
  /** Every tenant client's other options (logger, timeouts, polling, fetch...). */
  client?: TenantClientOptions | undefined;
}

/** What the tenants' `onEvent` receives: a client's confirmed callback, with its tenant. */
export type TenantCallback = ConfirmedCallback & { tenant: string };

/** Options of `tenants.callbacks.handler()`: a client handler's, with tenant events. */
export interface TenantCallbackHandlerOptions
  extends Omit<CallbackHandlerOptions, 'onEvent' | 'callbackUrl' | 'lookup'> {
  /** Called once per operation and final status, once the tenant's own client confirmed it. */
  onEvent?(event: TenantCallback): void | Promise<void>;
}
