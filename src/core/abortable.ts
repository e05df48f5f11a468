/**
 * The one way a wait in the core listens to an abort signal: `onAbort` runs at most once,
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
