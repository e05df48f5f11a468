interface Entry {
  at: number;
  seq: number;
  run: () => void;
  done: boolean;
}

/**
 * One timer for every pending wait: sleeps sit in a min-heap by due time and a single
 * setTimeout is armed for the earliest. Thousands of waits cost heap entries, not timers.
 */
export class Scheduler {
  readonly #heap: Entry[] = [];
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  /**
   * Resolves after `ms`, or at once when `wake()` is called, and rejects with the
   * signal's reason on abort.
   */
  sleep(ms: number, signal?: AbortSignal): { promise: Promise<void>; wake(): void } {
    let wake = () => {};
    const promise = new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        entry.done = true;
        reject(signal?.reason);
        this.#arm(); // a finished sleep must not keep the timer (or the process) alive
      };
      const entry: Entry = {
        at: Date.now() + Math.max(0, ms),
        seq: this.#seq++,
        done: false,
        run: () => {
          if (entry.done) return;
          entry.done = true;
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      wake = () => {
        if (entry.done) return;
        entry.run();
        this.#arm();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#push(entry);
    });
    return { promise, wake: () => wake() };
  }

  #push(entry: Entry): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as Entry, heap[parent] as Entry)) break;
      [heap[i], heap[parent]] = [heap[parent] as Entry, heap[i] as Entry];
      i = parent;
    }
    this.#arm();
  }

  #pop(): Entry | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l] as Entry, heap[m] as Entry)) m = l;
        if (r < heap.length && before(heap[r] as Entry, heap[m] as Entry)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m] as Entry, heap[i] as Entry];
        i = m;
      }
    }
    return top;
  }

  /** Keeps exactly one timer, set for the earliest live entry. */
  #arm(): void {
    while (this.#heap[0]?.done) this.#pop();
    const next = this.#heap[0];
    if (!next) {
      this.#clear();
      return;
    }
    if (this.#timer !== undefined && this.#timerAt <= next.at) return;
    this.#clear();
    this.#timerAt = next.at;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, next.at - Date.now()));
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    while (this.#heap[0] && (this.#heap[0].done || this.#heap[0].at <= now)) {
      this.#pop()?.run();
    }
    this.#arm();
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
