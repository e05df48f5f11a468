import type { ClientSurface } from '../client-surface';
import type { Subscription, SubscriptionStatus } from '../contracts/subscription-store';
import { ValidationError } from '../errors';
import { checkSecret } from '../payments/ids';
import type { PlanInput, SubscribeInput } from './plan';
import type { SubscriptionsReport } from './report';
import type { SubscriptionEngine } from './subscriptions';
import type {
  RunDueOptions,
  RunDueReport,
  SubscriptionRunner,
  SubscriptionRunnerOptions,
  SubscriptionsOptions,
} from './types';

const issue = (path: string, message: string) => new ValidationError([{ path, message }]);

/** The options checked at once, before anything is loaded or sent. */
function checkOptions(options: SubscriptionsOptions): void {
  if (options === null || typeof options !== 'object') throw issue('options', 'must be an object');
  const { store, secret } = options;
  if (store === null || typeof store !== 'object' || typeof store.put !== 'function') {
    throw issue('store', 'must be a subscription store (memorySubscriptionStore(), ...)');
  }
  if (secret === undefined)
    throw issue('secret', 'is required: the reference ids are derived from it');
  checkSecret(secret);
  if (options.now !== undefined && typeof options.now !== 'function') {
    throw issue('now', 'must be a function returning epoch milliseconds');
  }
  for (const name of ['waitMs', 'recheckMs', 'concurrency', 'leaseMs'] as const) {
    const value = options[name];
    const least = name === 'concurrency' || name === 'leaseMs' ? 1 : 0;
    if (value !== undefined && !(Number.isInteger(value) && value >= least)) {
      throw issue(name, `must be a whole number >= ${least}`);
    }
  }
}

/**
 * Recurring collections on the provider's pre-approvals (docs/subscriptions.md):
 * `plan`, `subscribe`, `get`, `list`, `cancel`, `runDue({ now })` and `start()`. Its
 * options are checked at once; the code that does the work is loaded on first use (a
 * chunk of its own in the ESM build: an app that never subscribes never parses it).
 */
export class Subscriptions {
  readonly #engine: Promise<SubscriptionEngine>;

  constructor(momo: ClientSurface, options: SubscriptionsOptions) {
    checkOptions(options);
    this.#engine = import('./subscriptions').then((m) => new m.SubscriptionEngine(momo, options));
    this.#engine.catch(() => {}); // reported by the first call that uses it
  }

  /** Defines (or redefines) a plan; a redefinition applies from each subscription's next charge. */
  async plan(input: PlanInput): Promise<void> {
    return (await this.#engine).plan(input);
  }

  /**
   * Subscribes a payer: the mandate (a pre-approval, under an id derived from the key) is
   * asked for now, and the subscription is PENDING_MANDATE until the payer approves it.
   * The same subscription again (same key, plan, payer and start) gives the stored one;
   * another under a used key is a ValidationError.
   */
  async subscribe(input: SubscribeInput): Promise<Subscription> {
    return (await this.#engine).subscribe(input);
  }

  /** The subscription, or undefined. */
  async get(key: string): Promise<Subscription | undefined> {
    return (await this.#engine).get(key);
  }

  /** Subscriptions by status, or due before a time (read from the due index: only those due). */
  async list(
    filter: { status?: SubscriptionStatus; dueBefore?: Date | number; limit?: number } = {},
  ): Promise<Subscription[]> {
    return (await this.#engine).list(filter);
  }

  /** Cancels: no charge is made again, and the approved mandate is cancelled at the provider. */
  async cancel(key: string): Promise<Subscription> {
    return (await this.#engine).cancel(key);
  }

  /**
   * Changes a subscription's plan the way a payer can trust (docs/subscriptions.md): a new mandate
   * stating the new plan's terms is asked for; they apply from the first period starting
   * after its approval (and at or after `from`), the old terms until then.
   */
  async changePlan(
    key: string,
    planId: string,
    options: { from?: Date | number } = {},
  ): Promise<Subscription> {
    return (await this.#engine).changePlan(key, planId, options);
  }

  /** Skips the periods starting from now until `until`: not charged, not in arrears. */
  async pause(key: string, options: { until: Date | number }): Promise<Subscription> {
    return (await this.#engine).pause(key, options);
  }

  /** Ends a pause now: the periods from now on are charged. */
  async resume(key: string): Promise<Subscription> {
    return (await this.#engine).resume(key);
  }

  /**
   * Finance's report over [from, to): per period who paid, who is in arrears (amount and
   * since when), invoices outstanding, and mandates to renew. Reads every subscription of
   * the store; sends nothing.
   */
  async report(options: { from: Date | number; to: Date | number }): Promise<SubscriptionsReport> {
    return (await this.#engine).report(options);
  }

  /** One pass: every subscription due by `now` (default the `now` option's time), each once. */
  async runDue(options: RunDueOptions = {}): Promise<RunDueReport> {
    return (await this.#engine).runDue(options);
  }

  /** A loop of passes, on any number of instances (each subscription worked on by one at a time). */
  start(options: SubscriptionRunnerOptions = {}): SubscriptionRunner {
    if (options.onCharge !== undefined && typeof options.onCharge !== 'function') {
      throw issue('onCharge', 'must be a function');
    }
    const runner = this.#engine.then((engine) => engine.start(options));
    runner.catch(() => {}); // reported by stop()
    return { stop: async () => (await runner).stop() };
  }
}
