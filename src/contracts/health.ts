/**
 * What a shared component (journal keeper, token cache, callback bus, rate budget) reports to the
 * client's health, after each call to shared state: failed, or answered. Internal: not
 * exported from the package.
 */
export interface ComponentHealth {
  failed(error: unknown): void;
  ok(): void;
}

/**
 * `in-process`: no shared component configured (the default, by design). `ok`: the
 * shared one answers. `unavailable`: it cannot be reached (Redis down, timed out): the
 * client carries on in memory and copies back once it answers. `failing`: it answers with
 * errors (Redis `CROSSSLOT`, `WRONGTYPE`, `NOAUTH`...): a configuration to fix; the
 * client still carries on in memory, and logs an error again every minute it lasts.
 */
export type ComponentState = 'in-process' | 'ok' | 'unavailable' | 'failing';

/** One shared component's state, as `momo.health()` reports it. */
export interface ComponentStatus {
  state: ComponentState;
  /** Epoch milliseconds of the last change of state (undefined: never changed). */
  since: number | undefined;
  /** The last failure, as error name and code only (`RedisCommandError (CROSSSLOT)`). */
  cause: string | undefined;
  /** Failed calls since the state last changed. */
  failures: number;
}

/** `momo.health()`: each shared component of the client, apart. */
export interface SharedStateHealthReport {
  journal: ComponentStatus;
  tokenStore: ComponentStatus;
  callbackBus: ComponentStatus;
  /**
   * The budget of `lookupRate` and `createRate` shared by every instance (`rateBudget`):
   * present only when one is configured. `unavailable` or `failing`: each process keeps
   * its own rates meanwhile.
   */
  rateBudget?: ComponentStatus;
}
