/** The classes of call whose rate a client option sets: `createRate` and `lookupRate`. */
export type RateClass = 'create' | 'lookup';

/**
 * One budget per partner, not per process (the `rateBudget` client option): the provider
 * caps the partner, so every instance asks one shared budget before each call of a paced
 * class goes. `createRedisState(redis).rateBudget` is one; any store that can order
 * reservations atomically can be another.
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
   */
  reserve(kind: RateClass, perSecond: number, marginMs: number): Promise<number>;
}
