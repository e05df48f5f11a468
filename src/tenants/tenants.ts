import {
  type Journal,
  MomoClient,
  type MomoClientOptions,
  type ResumeOptions,
  ValidationError,
} from 'momo-partner-sdk';
import { tenantClientRates, tenantRateBudget } from './budget';
import { TenantCallbacks } from './callbacks';
import { TenantJournal } from './journal';
import { LiveClients } from './live-clients';
import { type CheckedTenantsOptions, checkTenantsOptions, tenantCallbackUrl } from './options';
import { checkTenantId, UnknownTenantError } from './tenant-id';
import { MemoryTokenStore } from './token-store';
import type { TenantCredentials, TenantsOptions } from './types';

/**
 * Many merchants, one deployment (docs/tenants.md): a `MomoClient` per tenant, made lazily
 * from the resolver's credentials and kept while used (at most `maxLive`; the least
 * recently used one is closed beyond it), every client given the one journal, token
 * store, rate budget and callback bus all tenants share. A tenant's calls carry its own
 * credentials only: each client is built from its tenant's alone, and the shared token
 * store keys tokens by base URL, subscription key and API user.
 *
 * Take the client per use (`(await tenants.client(id)).disbursement.deposit(...)`):
 * after `refresh` or eviction a held client still finishes what it started, but new
 * calls belong on the one `client(id)` gives.
 */
export class Tenants {
  readonly #options: CheckedTenantsOptions;
  /** The live clients, least recently used first. */
  readonly #live = new LiveClients();
  /** Clients being made (first use, eviction, refresh): concurrent callers share one. */
  readonly #making = new Map<string, Promise<MomoClient>>();
  readonly #tokenStore;
  #callbacks: TenantCallbacks | undefined;

  constructor(options: TenantsOptions) {
    this.#options = checkTenantsOptions(options);
    this.#tokenStore = options.shared?.tokenStore ?? new MemoryTokenStore();
  }

  /** Live clients now (at most `maxLive`). */
  get size(): number {
    return this.#live.size;
  }

  /**
   * The tenant's client: the live one, or one made from `resolve(id)` (concurrent first
   * calls share one). Made again after eviction, it resumes the tenant's pending journal
   * entries in the background (`resumeOnUse`). `UnknownTenantError` when `resolve` knows
   * no such tenant; a ValidationError for an id that is not a tenant id.
   */
  client(id: string): Promise<MomoClient> {
    // A client being made (first use, refresh) is the one to wait for: after a refresh,
    // the new credentials, not the live client's old ones.
    const making = this.#making.size === 0 ? undefined : this.#making.get(id);
    if (making !== undefined) return making;
    // The common case, once per call: a Map hit and the client's settled promise. Only a
    // checked id is ever live, so it is not checked again.
    const live = this.#live.use(id);
    if (live !== undefined) return live;
    try {
      checkTenantId(id, 'tenants.client');
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#make(id);
  }

  /**
   * Reads the tenant's credentials again (key rotation) and makes its client anew: calls
   * in flight on the old client finish on it (its sockets are let go of once answered),
   * calls from then on use the new credentials. A tenant not live now is only checked.
   */
  async refresh(id: string): Promise<void> {
    checkTenantId(id, 'tenants.refresh');
    await this.#making.get(id)?.catch(() => undefined);
    if (!this.#live.has(id)) return;
    await this.#make(id);
  }

  /**
   * The tenant's view of the shared journal (its entries only), for `reconcile(momo,
   * books, { journal })` per merchant. A ValidationError naming `shared.journal` without one.
   */
  journal(id: string): Journal {
    checkTenantId(id, 'tenants.journal');
    const shared = this.#options.shared?.journal;
    if (!shared) {
      throw new ValidationError(
        [{ path: 'shared.journal', message: 'is needed for a tenant journal' }],
        { operation: 'tenants.journal' },
      );
    }
    return new TenantJournal(shared, id);
  }

  /** One receiver for every tenant's callbacks: `tenants.callbacks.handler({ onEvent })`. */
  get callbacks(): TenantCallbacks {
    this.#callbacks ??= new TenantCallbacks((id) => this.client(id));
    return this.#callbacks;
  }

  /** Closes every live client (at shutdown): calls in flight still finish. */
  close(): void {
    for (const client of this.#live.clear()) client.close();
  }

  #make(id: string): Promise<MomoClient> {
    const making = (async () => {
      const credentials = await this.#options.resolve(id);
      if (credentials === undefined) throw new UnknownTenantError(id, 'tenants.client');
      const client = new MomoClient(this.#clientOptions(id, credentials));
      const old = this.#live.set(id, client);
      if (old && old !== client) old.close();
      else this.#resume(id, client);
      this.#evict();
      return client;
    })();
    this.#making.set(id, making);
    const done = () => {
      if (this.#making.get(id) === making) this.#making.delete(id);
    };
    making.then(done, done);
    return making;
  }

  #clientOptions(id: string, credentials: TenantCredentials): MomoClientOptions {
    const { shared, limits, globalLimits, client } = this.#options;
    const callbackUrl = tenantCallbackUrl(id, credentials.callbackUrl, this.#options.callbackUrl);
    // The key the provider caps: the tenant's own (a product's, when it has only those).
    const subscriptionKey =
      credentials.subscriptionKey ??
      credentials.disbursement?.subscriptionKey ??
      credentials.collection?.subscriptionKey ??
      credentials.remittance?.subscriptionKey ??
      '';
    const rateBudget = tenantRateBudget(shared?.rateBudget, {
      subscriptionKey,
      baseUrl: credentials.baseUrl,
      globalLimits,
    });
    return {
      ...client,
      ...credentials,
      callbackUrl,
      tenant: id,
      tokenStore: this.#tokenStore,
      journal: shared?.journal && new TenantJournal(shared.journal, id),
      callbackBus: shared?.callbackBus,
      rateBudget,
      // A class under globalLimits alone is paced too: a client asks the budget only for a
      // class it has a rate for.
      ...tenantClientRates(limits, globalLimits),
    };
  }

  /** A client made again after eviction picks up its tenant's pending operations. */
  #resume(id: string, client: MomoClient): void {
    if (!this.#options.resumeOnUse || !this.#options.shared?.journal) return;
    const options: ResumeOptions = {};
    client.journal.resume(options).catch((error: unknown) => {
      this.#options.client?.logger?.error?.('tenants: resuming a tenant failed', {
        tenant: id,
        error: error instanceof Error ? error.name : 'error',
      });
    });
  }

  /** Beyond `maxLive`: the least recently used clients closed (their calls still finish). */
  #evict(): void {
    for (const client of this.#live.evictBeyond(this.#options.maxLive)) client.close();
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Tenants(${this.#live.size} live)`;
  }
}
