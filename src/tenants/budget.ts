import { createHash } from 'node:crypto';
import type { RateClass, RateScope, SharedRateBudget } from 'momo-partner-sdk';

/** The tenants' overall caps (`globalLimits`): all tenants together, per class. */
export interface GlobalRateLimits {
  createRate?: number | undefined;
  lookupRate?: number | undefined;
}

/** What `tenantRateBudget` needs of one tenant. */
export interface TenantRateOptions {
  /** The tenant's subscription key: hashed into the scope's id, never stored or shown. */
  subscriptionKey: string;
  /** The provider it is sent to: the same key on another base URL is another window. */
  baseUrl: string;
  /** All tenants together (one egress address): calls per second per class. */
  globalLimits?: GlobalRateLimits | undefined;
}

/**
 * The scope's id of a subscription key on a base URL: a SHA-256 (128 bits kept), so that
 * the key, a secret, never appears in a Redis key, a PostgreSQL row or a log.
 */
export function rateScopeId(subscriptionKey: string, baseUrl: string): string {
  let end = baseUrl.length;
  while (end > 0 && baseUrl[end - 1] === '/') end--;
  const url = baseUrl.slice(0, end);
  return createHash('sha256')
    .update(`momo-rate\u0000${url}\u0000${subscriptionKey}`, 'utf8')
    .digest('hex')
    .slice(0, 32);
}

function totalOf(limits: GlobalRateLimits | undefined, kind: RateClass): number | undefined {
  const rate = kind === 'create' ? limits?.createRate : limits?.lookupRate;
  if (rate === undefined) return undefined;
  if (!(Number.isFinite(rate) && rate > 0)) {
    throw new TypeError(`globalLimits.${kind}Rate must be a positive number`);
  }
  return rate;
}

/**
 * The `rateBudget` a tenant's MomoClient is given. Its per-key rates are the client's own
 * `createRate`/`lookupRate` (what `reserve` is called with); this budget makes them hold
 * for the subscription key across every process sharing `shared`, and adds the overall
 * `globalLimits` of all tenants together, both kept for the one moment a call goes
 * (one atomic reservation in both windows: `RateScope`).
 *
 * - `shared` undefined: undefined (each client keeps its own per-process rates); with
 *   `globalLimits` that is refused, since nothing could hold all tenants together.
 * - `shared` without `scopes` (a budget written before scopes): every tenant's calls are
 *   reserved in its one window at the lowest of the key's rate and the overall one, which
 *   keeps both caps (all tenants together under the lowest), only slower.
 */
export function tenantRateBudget(
  shared: SharedRateBudget | undefined,
  options: TenantRateOptions,
): SharedRateBudget | undefined {
  const limits = options.globalLimits;
  totalOf(limits, 'create');
  totalOf(limits, 'lookup');
  if (shared === undefined) {
    if (limits?.createRate !== undefined || limits?.lookupRate !== undefined) {
      throw new TypeError(
        'globalLimits need a shared rateBudget (createRedisState(redis).rateBudget, createPostgresState(pool).rateBudget, or memoryRateBudget() in one process)',
      );
    }
    return undefined;
  }
  if (typeof options.subscriptionKey !== 'string' || options.subscriptionKey === '') {
    throw new TypeError('subscriptionKey must be a non-empty string');
  }
  const id = rateScopeId(options.subscriptionKey, options.baseUrl);
  if (shared.scopes !== true) return new LowestRateBudget(shared, limits);
  return new ScopedRateBudget(shared, id, limits);
}

/**
 * The `createRate` and `lookupRate` a tenant's client needs for `tenantRateBudget` to hold:
 * a client asks the shared budget only for a class it has a rate of, so a class under
 * `globalLimits` without a per-key limit gets the overall rate as its key's (one key can
 * never go faster than all together). Undefined: the class is not paced.
 */
export function tenantClientRates(
  limits: GlobalRateLimits | undefined,
  globalLimits: GlobalRateLimits | undefined,
): { createRate?: number; lookupRate?: number } {
  const createRate = limits?.createRate ?? globalLimits?.createRate;
  const lookupRate = limits?.lookupRate ?? globalLimits?.lookupRate;
  return {
    ...(createRate === undefined ? {} : { createRate }),
    ...(lookupRate === undefined ? {} : { lookupRate }),
  };
}

/**
 * One tenant's view of a scoped budget: each reservation in its key's window and the
 * overall one. The scope of each class is made once: a reservation costs what the shared
 * budget's own does.
 */
class ScopedRateBudget implements SharedRateBudget {
  readonly scopes = false;
  readonly #shared: SharedRateBudget;
  readonly #id: string;
  readonly #byClass: Readonly<Record<RateClass, RateScope>>;

  constructor(shared: SharedRateBudget, id: string, limits: GlobalRateLimits | undefined) {
    this.#shared = shared;
    this.#id = id;
    const scope = (kind: RateClass): RateScope =>
      Object.freeze({ id, totalPerSecond: totalOf(limits, kind) });
    this.#byClass = { create: scope('create'), lookup: scope('lookup') };
  }

  reserve(kind: RateClass, perSecond: number, marginMs: number): Promise<number> {
    return this.#shared.reserve(kind, perSecond, marginMs, this.#byClass[kind]);
  }

  /** A 429 on this tenant's key pauses its key's calls in every process (not other tenants'). */
  async pause(kind: RateClass, ms: number): Promise<void> {
    await this.#shared.pause?.(kind, ms, { id: this.#id });
  }

  pausedUntil(kind: RateClass): number {
    return this.#shared.pausedUntil?.(kind, { id: this.#id }) ?? 0;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `TenantRateBudget { scope: '${this.#id.slice(0, 8)}…' }`;
  }
}

/** A budget without scopes: one window for all tenants at the lowest rate (safe for every cap). */
class LowestRateBudget implements SharedRateBudget {
  readonly scopes = false;
  readonly #shared: SharedRateBudget;
  readonly #totals: Readonly<Record<RateClass, number | undefined>>;

  constructor(shared: SharedRateBudget, limits: GlobalRateLimits | undefined) {
    this.#shared = shared;
    this.#totals = { create: totalOf(limits, 'create'), lookup: totalOf(limits, 'lookup') };
  }

  reserve(kind: RateClass, perSecond: number, marginMs: number): Promise<number> {
    const total = this.#totals[kind];
    const rate = total === undefined ? perSecond : Math.min(perSecond, total);
    return this.#shared.reserve(kind, rate, marginMs);
  }

  /** One window for all tenants: a pause of one holds them all (safe, slower). */
  async pause(kind: RateClass, ms: number): Promise<void> {
    await this.#shared.pause?.(kind, ms);
  }

  pausedUntil(kind: RateClass): number {
    return this.#shared.pausedUntil?.(kind) ?? 0;
  }
}

export { memoryRateBudget } from './memory-budget';
