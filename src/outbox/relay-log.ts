import type { Logger } from '../contracts/hooks';

/**
 * What the relay cannot reach (the database, the provider), each said once when it
 * starts failing and once when it is back, however often it fails meanwhile.
 */
export class RelayLog {
  readonly #logger: Logger | undefined;
  readonly #down = new Map<string, string>();

  constructor(logger: Logger | undefined) {
    this.#logger = logger;
  }

  /** `part` failed (`why`): logged when it was not failing, or fails another way now. */
  failing(part: string, error: unknown): void {
    const why = describe(error);
    if (this.#down.get(part) === why) return;
    this.#down.set(part, why);
    this.#say('warn', `outbox relay: ${part}: ${why}; retrying`);
  }

  /**
   * One payment refused by the provider (it answered: nothing is down): one line naming
   * the payment's key and the code, each time.
   */
  refused(key: string, code: string): void {
    this.#say(
      'warn',
      `outbox relay: payment ${JSON.stringify(key)} refused by the provider: ${code}; FAILED, not retried`,
    );
  }

  /** `part` worked: logged when it was failing. */
  working(part: string): void {
    if (!this.#down.delete(part)) return;
    this.#say('info', `outbox relay: ${part}: back`);
  }

  #say(level: 'warn' | 'info', message: string): void {
    try {
      this.#logger?.[level]?.(message);
    } catch {
      // A broken logger must not stop the relay.
    }
  }
}

/** An error's name and code, never its full message (which may echo a query's values). */
function describe(error: unknown): string {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  const label = typeof name === 'string' ? name : 'Error';
  return typeof code === 'string' ? `${label} ${code}` : label;
}
