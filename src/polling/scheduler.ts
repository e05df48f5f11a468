import { Waiter } from '../core/abortable';

/**
 * One sleep in the heap: a `Waiter` (core/abortable.ts) whose deadline is its due time,
 * when it resolves. It carries what a wake-up delivered, so a pending sleep costs one
 * object and its promise, not a set of closures: thousands of idle waits each hold one.
 */
export class Sleep<T = unknown> extends Waiter {
  readonly seq: number;
  /** What the waker handed over (e.g. a confirmed result); read once the sleep ends. */
  delivered: T | undefined;
  readonly #scheduler: Scheduler;

  constructor(scheduler: Scheduler, at: number, seq: number, signal: AbortSignal | undefined) {
    super(signal, at);
    this.#scheduler = scheduler;
    this.seq = seq;
  }

  /** Due (or woken): resolves, once. */
  run(): void {
    this.resolve();
  }

  /** Ends the sleep now; `delivered` is handed over even if it had just ended. */
  wake(delivered?: T): void {
    this.delivered = delivered;
    if (this.resolve()) this.#scheduler.rearm();
  }

  /** A finished sleep must not keep the timer (or the process) alive. */
  protected override aborted(): void {
    this.#scheduler.rearm();
  }
}

/**
 * One timer for every pending wait: sleeps sit in a min-heap by due time and a single
 * setTimeout is armed for the earliest. Thousands of waits cost heap entries, not timers.
 */
export class Scheduler {
  readonly #heap: Sleep[] = [];
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  /**
   * Resolves after `ms`, or at once when `wake()` is called, and rejects with the
   * signal's reason on abort.
   */
  sleep<T = unknown>(ms: number, signal?: AbortSignal): Sleep<T> {
    const sleep = new Sleep<T>(this, Date.now() + Math.max(0, ms), this.#seq++, signal);
    if (sleep.listen()) this.#push(sleep);
    return sleep;
  }

  #push(entry: Sleep): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as Sleep, heap[parent] as Sleep)) break;
      [heap[i], heap[parent]] = [heap[parent] as Sleep, heap[i] as Sleep];
      i = parent;
    }
    this.rearm();
  }

  #pop(): Sleep | undefined {
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
        if (l < heap.length && before(heap[l] as Sleep, heap[m] as Sleep)) m = l;
        if (r < heap.length && before(heap[r] as Sleep, heap[m] as Sleep)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m] as Sleep, heap[i] as Sleep];
        i = m;
      }
    }
    return top;
  }

  /** Keeps exactly one timer, set for the earliest live entry. */
  rearm(): void {
    while (this.#heap[0]?.done) this.#pop();
    const next = this.#heap[0];
    if (!next) {
      this.#clear();
      return;
    }
    if (this.#timer !== undefined && this.#timerAt <= next.deadline) return;
    this.#clear();
    this.#timerAt = next.deadline;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, next.deadline - Date.now()));
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = Date.now();
    while (this.#heap[0] && (this.#heap[0].done || this.#heap[0].deadline <= now)) {
      this.#pop()?.run();
    }
    this.rearm();
  }

  #clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }
}

function before(a: Sleep, b: Sleep): boolean {
  return a.deadline < b.deadline || (a.deadline === b.deadline && a.seq < b.seq);
}
