import type { Subscription } from '../contracts/subscription-store';

/**
 * The due index of the memory and file stores: (dueAt, key) pairs kept sorted, so that
 * `due(now)` reads only the subscriptions due (a prefix), never every subscription.
 */
export class DueIndex {
  readonly #entries: { at: number; key: string }[] = [];
  readonly #atOf = new Map<string, number>();

  /** Sets (or, with undefined, removes) the key's due time. */
  set(key: string, at: number | undefined): void {
    const old = this.#atOf.get(key);
    if (old === at) return;
    if (old !== undefined) {
      const i = this.#find(old, key);
      if (this.#entries[i]?.key === key) this.#entries.splice(i, 1);
      this.#atOf.delete(key);
    }
    if (at === undefined) return;
    this.#entries.splice(this.#find(at, key), 0, { at, key });
    this.#atOf.set(key, at);
  }

  get(key: string): number | undefined {
    return this.#atOf.get(key);
  }

  /** Keys due at or before `now`, soonest first, at most `limit`; with `keep`, those it keeps. */
  due(now: number, limit: number, keep?: (key: string) => boolean): string[] {
    const out: string[] = [];
    for (const entry of this.#entries) {
      if (entry.at > now || out.length >= limit) break;
      if (!keep || keep(entry.key)) out.push(entry.key);
    }
    return out;
  }

  /** Every (key, dueAt), for a file store's index file. */
  toJSON(): Record<string, number> {
    return Object.fromEntries(this.#atOf);
  }

  /** First position whose (at, key) is not before (at, key). */
  #find(at: number, key: string): number {
    let lo = 0;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const e = this.#entries[mid] as { at: number; key: string };
      if (e.at < at || (e.at === at && e.key < key)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Whether `subscription` is `tenant`'s (`null`: of no tenant), as `due` and `list` select. */
export function ofTenant(subscription: Subscription | undefined, tenant: string | null): boolean {
  return subscription !== undefined && (subscription.tenant ?? null) === tenant;
}
