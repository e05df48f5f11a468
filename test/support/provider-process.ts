import { fileURLToPath } from 'node:url';
import type { MomoClientOptions } from 'momo-partner-sdk';
import type { Fault, SimulatorOptions } from 'momo-partner-sdk/testing';
import { Instance } from '../redis/support/instances';
import type { Arrival, CreatingCall, HeldTransaction } from './workers/provider';

export type { Arrival, CreatingCall, HeldTransaction } from './workers/provider';

const WORKER = fileURLToPath(new URL('./workers/provider.ts', import.meta.url));

/** What a partner's process needs to reach the provider (crosses IPC to a child). */
export type ProviderClientOptions = Pick<
  MomoClientOptions,
  'baseUrl' | 'targetEnvironment' | 'subscriptionKey' | 'apiUser'
>;

/** The simulator served from a process of its own (test/support/workers/provider.ts). */
export class ProviderProcess {
  readonly client: ProviderClientOptions;
  readonly #instance: Instance;

  private constructor(instance: Instance, client: ProviderClientOptions) {
    this.#instance = instance;
    this.client = client;
  }

  static async start(
    options: Pick<SimulatorOptions, 'settleMs' | 'limits'>,
  ): Promise<ProviderProcess> {
    const instance = await Instance.spawn(WORKER);
    const { url, credentials } = await instance.call<{
      url: string;
      credentials: Omit<ProviderClientOptions, 'baseUrl'>;
    }>('start', options);
    return new ProviderProcess(instance, { ...credentials, baseUrl: url });
  }

  /** The creating calls it answered under `path` (429s left out), in arrival order. */
  creates(path: string): Promise<CreatingCall[]> {
    return this.#instance.call('creates', { path });
  }

  /** Arms a one-shot fault; `before`: the requests arrived so far (the fault hits a later one). */
  inject(fault: Fault): Promise<{ before: number }> {
    return this.#instance.call('inject', { fault });
  }

  /** Every creating call under `path` as it arrived (refused ones included), in order. */
  arrivals(path: string): Promise<Arrival[]> {
    return this.#instance.call('arrivals', { path });
  }

  transactions(): Promise<HeldTransaction[]> {
    return this.#instance.call('transactions');
  }

  async settle(referenceId: string, status: 'SUCCESSFUL' | 'FAILED'): Promise<void> {
    await this.#instance.call('settle', { referenceId, status });
  }

  close(): Promise<void> {
    return this.#instance.close();
  }
}

/** How many creating calls each reference id took. */
export function callsPerId(calls: readonly CreatingCall[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.referenceId, (counts.get(call.referenceId) ?? 0) + 1);
  return counts;
}
