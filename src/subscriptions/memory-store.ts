import type {
  StoredSubscription,
  Subscription,
  SubscriptionPlan,
  SubscriptionStore,
} from '../contracts/subscription-store';
import { DueIndex, ofTenant } from './due-index';

/**
 * Subscriptions in this process's memory: for tests and a single process that may lose
 * them on a restart (the derived reference ids then keep a re-run from charging twice).
 * Each read and write is a copy: nothing the caller holds changes the store.
 */
export function memorySubscriptionStore(): SubscriptionStore {
  const plans = new Map<string, SubscriptionPlan>();
  const rows = new Map<string, StoredSubscription>();
  const index = new DueIndex();
  return {
    async putPlan(plan) {
      plans.set(plan.id, structuredClone(plan));
    },
    async getPlan(id) {
      const plan = plans.get(id);
      return plan && structuredClone(plan);
    },
    async get(key) {
      const row = rows.get(key);
      return row && structuredClone(row);
    },
    async put(subscription, expected) {
      const current = rows.get(subscription.key)?.version;
      if (current !== expected) return undefined;
      const version = (current ?? 0) + 1;
      rows.set(subscription.key, { subscription: structuredClone(subscription), version });
      index.set(subscription.key, subscription.dueAt);
      return version;
    },
    async due(now, limit, tenant) {
      if (tenant === undefined) return index.due(now, limit);
      return index.due(now, limit, (key) => ofTenant(rows.get(key)?.subscription, tenant));
    },
    async list(filter = {}) {
      const out: Subscription[] = [];
      const keys =
        filter.dueBefore === undefined
          ? rows.keys()
          : index.due(filter.dueBefore - 1, Number.MAX_SAFE_INTEGER).values();
      for (const key of keys) {
        const row = rows.get(key);
        if (!row || (filter.status !== undefined && row.subscription.status !== filter.status))
          continue;
        if (filter.tenant !== undefined && !ofTenant(row.subscription, filter.tenant)) continue;
        out.push(structuredClone(row.subscription));
        if (filter.limit !== undefined && out.length >= filter.limit) break;
      }
      return out;
    },
  };
}
