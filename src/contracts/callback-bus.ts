import type { StatusLike } from '../schemas/tolerant';

/**
 * A final result that a status lookup confirmed after a callback, shared with every
 * instance. A receiver takes it as a hint, never as the outcome: it makes the waits on
 * `referenceId` look the operation up now, and only that lookup can end them.
 */
export interface CallbackBusEvent {
  referenceId: string;
  /** The lookup result (SUCCESSFUL or FAILED) the publisher saw; informative only. */
  result: StatusLike;
}

/**
 * Carries confirmed callback results between the instances of one deployment, so that
 * a callback received by any of them makes the `wait()` wherever it runs look up at once.
 * Whoever can publish on it can cost a lookup per wait on an id, never forge an outcome.
 */
export interface CallbackBus {
  /** Tells every instance (this one included) about a confirmed final result. */
  publish(event: CallbackBusEvent): Promise<void>;
  /**
   * Calls `listener` for every event any instance publishes (this one's included).
   * Resolves once listening, to a function that stops it.
   */
  subscribe(listener: (event: CallbackBusEvent) => void): Promise<() => Promise<void>>;
}
