/** One write waiting in a `Coalescer`, settled by the batch that takes it. */
export interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit for the relays' writes: a write made while `maxInFlight` batches are
 * running waits and goes out with the others that came meanwhile, in one statement. An
 * idle store writes at once (a batch of one): no timer, no added latency; a busy one
 * writes in fewer, larger statements the busier it is.
 */
export class Coalescer<T, R> {
  readonly #run: (batch: Waiting<T, R>[]) => Promise<void>;
  readonly #maxBatch: number;
  readonly #maxInFlight: number;
  #queue: Waiting<T, R>[] = [];
  #inFlight = 0;

  /** `run` settles every write of its batch; a throw of its own rejects those it left. */
  constructor(
    run: (batch: Waiting<T, R>[]) => Promise<void>,
    { maxBatch = 500, maxInFlight = 1 } = {},
  ) {
    this.#run = run;
    this.#maxBatch = maxBatch;
    this.#maxInFlight = maxInFlight;
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#next();
    });
  }

  /** Puts writes of a batch back, first in line (e.g. those a rolled-back batch carried). */
  retry(waiting: readonly Waiting<T, R>[]): void {
    this.#queue = [...waiting, ...this.#queue];
  }

  #next(): void {
    while (this.#inFlight < this.#maxInFlight && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#maxBatch);
      this.#inFlight += 1;
      this.#run(batch)
        .catch((error: unknown) => {
          for (const waiting of batch) waiting.reject(error); // a settled one stays settled
        })
        .finally(() => {
          this.#inFlight -= 1;
          this.#next();
        });
    }
  }
}
