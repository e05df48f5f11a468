import type {
  ComponentHealth,
  ComponentStatus,
  SharedStateHealthReport,
} from '../contracts/health';
import type { Log } from '../core/logger';

/** A component by its key in the report (`momo.health()`); logs name it in words (`token store`). */
type Component = keyof SharedStateHealthReport;
/** Reported only when configured (`rateBudget`): a client without one has no such part. */
const OPTIONAL: Component = 'rateBudget';

/** A failing (not unreachable) component is reported again after this long. */
const REPEAT_FAILING_MS = 60_000;
/** Error codes of a store that cannot be reached (as opposed to one that answers no). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

interface Tracked extends ComponentStatus {
  loggedAt: number;
}

/**
 * Health of a client's shared state (token store, callback bus, journal, rate budget), each component
 * apart: one warning when one becomes unavailable, one info line when it is back, whatever
 * the others do; a failing one logs an error, repeated every minute while it lasts.
 */
export class SharedStateHealth {
  readonly #log: Log;
  readonly #components = new Map<Component, Tracked>();

  constructor(log: Log) {
    this.#log = log;
  }

  /**
   * Which components are shared at all (the others are in process by design), each once,
   * before any is reported on; the report lists them in this order.
   */
  configure(shared: Record<Component, boolean>): void {
    for (const [name, isShared] of Object.entries(shared) as [Component, boolean][]) {
      const state = isShared ? 'ok' : 'in-process';
      this.#components.set(name, {
        state,
        since: undefined,
        cause: undefined,
        failures: 0,
        loggedAt: 0,
      });
    }
  }

  failed(key: Component, error: unknown): void {
    const component = this.#get(key);
    const name = words(key);
    const state = unreachable(error) ? 'unavailable' : 'failing';
    const now = Date.now();
    const cause = describe(error);
    if (component.state !== state) {
      Object.assign(component, { state, since: now, failures: 0 });
    } else if (state === 'unavailable' || now - component.loggedAt < REPEAT_FAILING_MS) {
      component.failures++;
      component.cause = cause;
      return;
    }
    component.failures++;
    component.cause = cause;
    component.loggedAt = now;
    if (state === 'unavailable') {
      this.#log('warn', `shared state unavailable (${name}): continuing in memory`, {
        component: name,
        cause,
      });
    } else {
      this.#log(
        'error',
        `shared state failing (${name}): it answers with errors; fix its configuration (continuing in memory meanwhile)`,
        {
          component: name,
          cause,
          failures: component.failures,
        },
      );
    }
  }

  ok(key: Component): void {
    const component = this.#get(key);
    if (component.state !== 'unavailable' && component.state !== 'failing') return;
    Object.assign(component, { state: 'ok', since: Date.now(), failures: 0 });
    const name = words(key);
    this.#log('info', `shared state reachable again (${name})`, { component: name });
  }

  of(name: Component): ComponentHealth {
    return { failed: (error) => this.failed(name, error), ok: () => this.ok(name) };
  }

  report(): SharedStateHealthReport {
    const report = {} as SharedStateHealthReport;
    for (const [name, { loggedAt: _, ...status }] of this.#components) {
      if (status.state === 'in-process' && name === OPTIONAL) continue;
      report[name] = status;
    }
    return report;
  }

  #get(name: Component): Tracked {
    return this.#components.get(name) as Tracked;
  }
}

/** `tokenStore` -> `token store`: how the log lines name a component. */
const words = (key: Component) => key.replace(/[A-Z]/, (upper) => ` ${upper.toLowerCase()}`);

/** Not reachable (as `RedisUnavailableError` or a socket error says), rather than refusing. */
function unreachable(error: unknown): boolean {
  if (error instanceof Error && error.name === 'RedisUnavailableError') return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNREACHABLE_CODES.has(code);
}

/** Error name and code only: a driver's message may carry connection details. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name} (${code})` : error.name;
}
