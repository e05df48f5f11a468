/**
 * How a one-off wait (a send, a timer-or-event wait) listens to an abort signal; queued
 * and sleeping waits are `Waiter`s (below), their own listeners. `onAbort` runs at most once,
 * and the returned function removes the listener (call it when the wait ends, so that a
 * long-lived signal collects no listeners). An already aborted signal runs it at once.
 */
export function whenAborted(
  signal: AbortSignal | undefined,
  onAbort: (reason: unknown) => void,
): () => void {
  if (signal === undefined) return noop;
  if (signal.aborted) {
    onAbort(signal.reason);
    return noop;
  }
  const listener = () => onAbort(signal.reason);
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

function noop(): void {}

/**
 * A timer-or-event wait made abortable: `start` begins it and returns how to cancel it;
 * the promise rejects with the signal's reason (as it is) on abort, after cancelling.
 */
export function abortable<T>(
  signal: AbortSignal | undefined,
  start: (resolve: (value: T) => void, reject: (reason: unknown) => void) => () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let stopListening = noop;
    const cancel = start(
      (value) => {
        stopListening();
        resolve(value);
      },
      (reason) => {
        stopListening();
        reject(reason);
      },
    );
    stopListening = whenAborted(signal, (reason) => {
      cancel();
      reject(reason);
    });
  });
}

/**
 * The one queued or sleeping wait of the core (an admission queue's entry, a poller's
 * sleep): a promise settled once, by its owner (`resolve`, `reject`: whichever comes
 * first wins, the later ones are no-ops) or by its signal's abort. It is its own abort
 * listener (`handleEvent`), so a pending wait costs this object and its promise, not a
 * set of closures: thousands of queued calls and idle waits each hold one. `deadline`
 * (epoch ms) is read by its owner, which queues it: the time it must leave the queue by.
 */
export class Waiter<T = void> {
  done = false;
  declare readonly promise: Promise<T>;
  declare readonly signal: AbortSignal | undefined;
  declare readonly deadline: number;
  #resolve: (value: T) => void = noop;
  #reject: (reason: unknown) => void = noop;

  constructor(signal: AbortSignal | undefined, deadline: number) {
    this.signal = signal;
    this.deadline = deadline;
    this.promise = new Promise<T>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /**
   * Starts listening to the signal; false (and rejected with its reason) when it is
   * already aborted: the owner then does not queue it.
   */
  listen(): boolean {
    const signal = this.signal;
    if (signal === undefined) return true;
    if (signal.aborted) {
      this.reject(signal.reason);
      return false;
    }
    signal.addEventListener('abort', this, { once: true });
    return true;
  }

  /** Settles with `value` unless settled already; true if this call settled it. */
  resolve(value: T): boolean {
    if (this.done) return false;
    this.#end();
    this.#resolve(value);
    return true;
  }

  /** Rejects with `reason` unless settled already; true if this call settled it. */
  reject(reason: unknown): boolean {
    if (this.done) return false;
    this.#end();
    this.#reject(reason);
    return true;
  }

  /** The signal's abort (EventTarget calls `handleEvent` on listener objects). */
  handleEvent(): void {
    if (this.reject(this.signal?.reason)) this.aborted();
  }

  /** Told once the signal's abort has rejected this wait (the owner may re-arm a timer). */
  protected aborted(): void {}

  #end(): void {
    this.done = true;
    this.signal?.removeEventListener('abort', this);
  }
}
