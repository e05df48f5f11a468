/** The classes of call whose rate a client option sets: `createRate` and `lookupRate`. */
export type RateClass = 'create' | 'lookup';

/**
 * A reservation's place in a nested budget (the tenant layer's): its own window, and
 * optionally one shared by every scope of the budget. The call's moment keeps both
 * windows' guarantees, taken together in one atomic step.
 */
export interface RateScope {
  /**
   * Names the scope's own window (a subscription key with its base URL): an opaque id,
   * a hash, never the key itself (it ends up in store keys and rows).
   */
  readonly id: string;
  /**
   * Calls per second of this class allowed to all scopes of the budget together (the
   * tenants' `globalLimits`); undefined: no overall window, only the scope's own.
   */
  readonly totalPerSecond?: number | undefined;
}

/**
 * One budget per partner, not per process (the `rateBudget` client option): the provider
 * caps the partner, so every instance asks one shared budget before each call of a paced
 * class goes. `createRedisState(redis).rateBudget` and `createPostgresState(pool).rateBudget`
 * are two; any store that can order reservations atomically can be another.
 */
export interface SharedRateBudget {
  /**
   * Reserves one call of `kind` under `perSecond` shared by every client of this budget,
   * and resolves with the moment (epoch milliseconds, on this process's clock) at which
   * that call may go. Successive reservations of a kind, whoever made them, are never
   * sooner than 1000 / `perSecond` ms apart, and each is at least 1000 + `marginMs` ms
   * after the one `perSecond` (its whole part, at least 1) reservations before it: never
   * more than `perSecond` in any sliding second. A reservation that is not used is
   * simply lost (the budget then keeps under its rate). Rejects when the budget cannot be
   * reached: the client then keeps its own budget (`momo.health().rateBudget`).
   *
   * With `scope` (only passed when `scopes` is true): the same guarantee within the
   * scope's own window at `perSecond`, AND within the window all scopes share at
   * `scope.totalPerSecond` (when set), for the one moment returned. Reservations without
   * a scope use a window of their own, apart from both.
   */
  reserve(kind: RateClass, perSecond: number, marginMs: number, scope?: RateScope): Promise<number>;
  /**
   * True when `reserve` honours its `scope` argument (the Redis and PostgreSQL budgets).
   * A budget written before scopes existed leaves it undefined; the tenant layer then
   * reserves every tenant's calls in its one window at the lowest of the rates
   * (`tenantRateBudget`): safe for every cap, slower.
   */
  readonly scopes?: boolean;
  /**
   * Optional: records a pause the provider asked for (a 429's or a 503's `Retry-After`)
   * for every client of this budget: no reservation of `kind` (in the scope's own window,
   * with `scope`) made after it resolves earlier than `ms` from the store's now. Without
   * it a pause holds only the process whose call was refused (docs/engines.md: a 429 pauses
   * every worker's creating calls; docs/assumptions.md PC3).
   */
  pause?(kind: RateClass, ms: number, scope?: RateScope): Promise<void>;
  /**
   * Optional, with `pause`: when (epoch ms, this process's clock) the pause of `kind` (in
   * the scope's window) that the budget's latest answer showed ends; 0 or past: none. A
   * client reads it after each reservation, so that time held by another process's pause
   * is the provider's, never spent from a queued attempt's timeout (docs/assumptions.md, OF1).
   */
  pausedUntil?(kind: RateClass, scope?: RateScope): number;
}
