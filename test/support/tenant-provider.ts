import { fileURLToPath } from 'node:url';
import type { TenantCredentials } from 'momo-partner-sdk/tenants';
import { Instance } from '../redis/support/instances';
import type { Audit, TenantPartner } from './workers/tenant-provider';

export type { Audit } from './workers/tenant-provider';

const WORKER = fileURLToPath(new URL('./workers/tenant-provider.ts', import.meta.url));

export interface HeldPayment {
  partner: string | undefined;
  referenceId: string;
  externalId: string | undefined;
  status: string;
}

/** The simulator with one partner per tenant, in a process of its own. */
export class TenantProvider {
  readonly #instance: Instance;
  readonly #url: string;
  readonly #targetEnvironment: string;
  readonly partners: readonly TenantPartner[];

  private constructor(instance: Instance, url: string, env: string, partners: TenantPartner[]) {
    this.#instance = instance;
    this.#url = url;
    this.#targetEnvironment = env;
    this.partners = partners;
  }

  static async start(options: {
    partners: number;
    settleMs: number;
    rotating?: boolean;
  }): Promise<TenantProvider> {
    const instance = await Instance.spawn(WORKER);
    const started = await instance.call<{
      url: string;
      targetEnvironment: string;
      partners: TenantPartner[];
    }>('start', options);
    return new TenantProvider(instance, started.url, started.targetEnvironment, started.partners);
  }

  /** Tenant `merchant-<i>` is partner `p-<i>`; `key`: which of its keys (rotation). */
  credentials(tenant: string, key: 'first' | 'last' = 'first'): TenantCredentials | undefined {
    const index = Number(/^merchant-(\d+)$/.exec(tenant)?.[1] ?? Number.NaN);
    const partner = this.partners[index];
    if (!partner) return undefined;
    const keys = partner.subscriptionKeys;
    return {
      baseUrl: this.#url,
      targetEnvironment: this.#targetEnvironment,
      subscriptionKey: (key === 'first' ? keys[0] : keys.at(-1)) as string,
      apiUser: { ...partner.apiUser },
    };
  }

  audit(): Promise<Audit> {
    return this.#instance.call('audit');
  }

  transactions(): Promise<HeldPayment[]> {
    return this.#instance.call('transactions');
  }

  settleAll(): Promise<number> {
    return this.#instance.call('settleAll');
  }

  close(): Promise<void> {
    return this.#instance.close();
  }
}
