import { fileURLToPath } from 'node:url';
import { Instance } from '../redis/support/instances';
import type { FaultScenario } from './fault-scenarios';
import type { ProviderClientOptions } from './provider-process';
import type { HeldTransaction } from './workers/provider';

const WORKER = fileURLToPath(new URL('./workers/fault-provider.ts', import.meta.url));

/**
 * The simulator behind the fault proxy, both in a process of their own
 * (test/support/workers/fault-provider.ts), the faults decided there by `scenario`.
 * `client` points at the proxy.
 */
export class FaultProviderProcess {
  readonly client: ProviderClientOptions;
  readonly #instance: Instance;

  private constructor(instance: Instance, client: ProviderClientOptions) {
    this.#instance = instance;
    this.client = client;
  }

  static async start(options: {
    scenario: FaultScenario;
    /** How many calls the test makes (the mix's last one 503s on every send). */
    calls: number;
    settleMs: number;
  }): Promise<FaultProviderProcess> {
    const instance = await Instance.spawn(WORKER);
    const { url, credentials } = await instance.call<{
      url: string;
      credentials: Omit<ProviderClientOptions, 'baseUrl'>;
    }>('start', options);
    return new FaultProviderProcess(instance, { ...credentials, baseUrl: url });
  }

  /** The transactions the simulator holds, keyed by their externalId. */
  transactions(): Promise<HeldTransaction[]> {
    return this.#instance.call('transactions');
  }

  close(): Promise<void> {
    return this.#instance.close();
  }
}
