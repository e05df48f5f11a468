import type { Reason } from '../schemas/common';

/** Options of `wait()` and `waitForX(referenceId)`. */
export interface WaitOptions<R = unknown> {
  /** Deadline of this wait; default `polling.timeoutMs`. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Called on every change of status the wait observes, the first one and the final
   * one included (whether a lookup or a confirmed callback brought it). A lookup that
   * repeats the previous status does not call it again.
   */
  onStatus?(result: R): void;
}

/** A final result: SUCCESSFUL, or FAILED with its reason. */
export type Final<R> = R & ({ status: 'SUCCESSFUL' } | { status: 'FAILED'; reason: Reason });
