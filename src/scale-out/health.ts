import type { Log } from '../core/logger';

/** What a component reports: a failed call to shared state, or an answered one. */
export interface ComponentHealth {
  failed(error: unknown): void;
  ok(): void;
}

/**
 * Health of a client's shared state (token store, callback bus, journal), usually one
 * Redis. Its loss is logged once (a warning, not one per call) and its return once
 * (info); in between the client carries on with in-process state.
 */
export class SharedStateHealth {
  readonly #log: Log;
  #down = false;

  constructor(log: Log) {
    this.#log = log;
  }

  get down(): boolean {
    return this.#down;
  }

  failed(component: string, error: unknown): void {
    if (this.#down) return;
    this.#down = true;
    this.#log('warn', `shared state unavailable (${component}): continuing in memory`, {
      component,
      cause: describe(error),
    });
  }

  ok(component: string): void {
    if (!this.#down) return;
    this.#down = false;
    this.#log('info', `shared state reachable again (${component})`, { component });
  }

  of(component: string): ComponentHealth {
    return { failed: (error) => this.failed(component, error), ok: () => this.ok(component) };
  }
}

const byClient = new WeakMap<object, SharedStateHealth>();

/** The one health tracker of a client, found by its resolved config. */
export function sharedStateHealth(config: { log: Log }): SharedStateHealth {
  let health = byClient.get(config);
  if (!health) {
    health = new SharedStateHealth(config.log);
    byClient.set(config, health);
  }
  return health;
}

/** Error name and code only: a driver's message may carry connection details. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name} (${code})` : error.name;
}
