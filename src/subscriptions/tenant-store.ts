import type {
  StoredSubscription,
  Subscription,
  SubscriptionFilter,
  SubscriptionPlan,
  SubscriptionStore,
} from '../contracts/subscription-store';
import { ValidationError } from '../errors';

/**
 * One tenant's view of a subscription store tenants may share (docs/tenants.md): what
 * it writes carries its `tenant` (none for a runner of no tenant), and it reads only its
 * own plans and subscriptions, so a runner on tenant A's client never charges, changes
 * or reports tenant B's, whatever their keys. Keys and plan ids stay unique in the store:
 * one another tenant holds is refused (`refuseAnothers`), never adopted
 * (docs/assumptions.md). The due index is asked for the tenant's keys alone where the
 * store can (`due(now, limit, tenant)`); a store that cannot still gives every key, and
 * `get` hides the others'.
 */
export class TenantSubscriptionStore implements SubscriptionStore {
  readonly #shared: SubscriptionStore;
  readonly #tenant: string | undefined;
  readonly putInTransaction?: NonNullable<SubscriptionStore['putInTransaction']>;

  constructor(shared: SubscriptionStore, tenant: string | undefined) {
    this.#shared = shared;
    this.#tenant = tenant;
    const inTransaction = shared.putInTransaction?.bind(shared);
    // Only where the shared store has it: its absence is what the runner goes by.
    if (inTransaction) {
      this.putInTransaction = (subscription, expected, within) =>
        inTransaction(this.#stamp(subscription), expected, within);
    }
  }

  async putPlan(plan: SubscriptionPlan): Promise<void> {
    const held = await this.#shared.getPlan(plan.id);
    if (held && !this.#own(held)) throw anothers('id', 'plan', plan.id);
    await this.#shared.putPlan(this.#stamp(plan));
  }

  async getPlan(id: string): Promise<SubscriptionPlan | undefined> {
    const plan = await this.#shared.getPlan(id);
    return plan && this.#own(plan) ? plan : undefined;
  }

  async get(key: string): Promise<StoredSubscription | undefined> {
    const stored = await this.#shared.get(key);
    return stored && this.#own(stored.subscription) ? stored : undefined;
  }

  /** A ValidationError when another tenant holds `key`: before anything is asked of a payer. */
  async refuseAnothers(key: string): Promise<void> {
    const stored = await this.#shared.get(key);
    if (stored && !this.#own(stored.subscription)) throw anothers('key', 'subscription', key);
  }

  put(subscription: Subscription, expected: number | undefined): Promise<number | undefined> {
    return this.#shared.put(this.#stamp(subscription), expected);
  }

  due(now: number, limit: number): Promise<string[]> {
    return this.#shared.due(now, limit, this.#tenant ?? null);
  }

  async list(filter: SubscriptionFilter = {}): Promise<Subscription[]> {
    const found = await this.#shared.list({ ...filter, tenant: this.#tenant ?? null });
    return found.filter((subscription) => this.#own(subscription));
  }

  #own(record: { tenant?: string | undefined }): boolean {
    return record.tenant === this.#tenant;
  }

  #stamp<T extends { tenant?: string | undefined }>(record: T): T {
    if (this.#tenant === undefined || record.tenant === this.#tenant) return record;
    return { ...record, tenant: this.#tenant };
  }
}

function anothers(path: string, what: string, name: string): ValidationError {
  return new ValidationError([
    {
      path,
      message: `${JSON.stringify(name)} is another tenant's ${what} in this store: keys and plan ids are unique in a store tenants share (prefix them with the tenant); nothing sent`,
    },
  ]);
}
