import type { CallbackBus, CallbackBusEvent } from '../contracts/callback-bus';
import type { ComponentHealth } from '../contracts/health';
import type { Poller } from '../polling/poller';
import { isFinal, type StatusLike, UUID_V4 } from '../schemas/common';
import { requireMethods } from './require-methods';

const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/**
 * A client's end of its callback bus: wakes this client's waits with what other
 * instances confirmed, and publishes what this one confirmed. Without a bus, both
 * are no-ops; a failing bus costs latency only (the waits keep polling).
 */
export class CallbackFanOut {
  readonly #bus: CallbackBus | undefined;
  readonly #health: ComponentHealth;

  constructor(bus: CallbackBus | undefined, poller: Poller, health: ComponentHealth) {
    requireMethods(bus, 'callbackBus', ['publish', 'subscribe']);
    this.#bus = bus;
    this.#health = health;
    if (bus) this.#listen(bus, poller, RETRY_FIRST_MS);
  }

  /** Tells the other instances' waits to look up now (a final result confirmed here); never throws. */
  async publish(referenceId: string, result: StatusLike): Promise<void> {
    if (!this.#bus || !isFinal(result)) return;
    try {
      await this.#bus.publish({ referenceId, result });
      this.#health.ok();
    } catch (error) {
      this.#health.failed(error);
    }
  }

  #listen(bus: CallbackBus, poller: Poller, retryMs: number): void {
    const onEvent = (event: CallbackBusEvent) => {
      // Only well-formed finals wake, and only as a hint: the woken waits look up now, and
      // the lookup, not the message, ends them (anybody on the channel could forge one).
      if (!isEvent(event)) return;
      poller.wake(event.referenceId);
    };
    bus.subscribe(onEvent).then(
      () => this.#health.ok(),
      (error) => {
        this.#health.failed(error);
        const retry = setTimeout(
          () => this.#listen(bus, poller, Math.min(RETRY_MAX_MS, retryMs * 2)),
          retryMs,
        );
        retry.unref(); // a retry never keeps the process alive
      },
    );
  }
}

function isEvent(value: unknown): value is CallbackBusEvent {
  if (value === null || typeof value !== 'object') return false;
  const { referenceId, result } = value as Partial<CallbackBusEvent>;
  return (
    typeof referenceId === 'string' &&
    UUID_V4.test(referenceId) &&
    result !== null &&
    typeof result === 'object' &&
    isFinal(result)
  );
}
