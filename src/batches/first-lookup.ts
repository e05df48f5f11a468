import { sleep, wakeableSleep } from '../payments/time';

/** While nothing is learned, the n-th item accepted looks first n steps after its acceptance... */
const LADDER_STEP_MS = 100;
/** ...and no item holds its first lookup longer than this after its acceptance. */
const MAX_HOLD_MS = 10_000;

/**
 * When to look an item up first: the batch learns how long the provider takes to settle
 * from its own items, instead of looking each one up at once (a lookup that finds it
 * PENDING spends the provider's lookup budget for nothing).
 *
 * The learned time is the shortest from an item's send (its creating call started) to its
 * wait ending SUCCESSFUL (a FAILED refusal can come at once, and says nothing of
 * how long a payment takes). Each item's wait starts no earlier than its acceptance plus
 * that time, so that its first lookup usually finds it final. Until something is learned
 * the items probe a ladder: the n-th accepted holds n × 100 ms, so that the first to end
 * SUCCESSFUL ends within a step of the settle time; the others hold until then. No hold
 * is longer than 10 s: a provider that settles later costs the lookups it always did.
 */
export class FirstLookupPlanner {
  #learnedMs: number | undefined;
  #rungs = 0;
  /** Holders on the ladder, woken when a time is learned. */
  readonly #holding = new Set<() => void>();

  /**
   * Resolves when the item accepted at `acceptedAt` should be looked up first, at most
   * `maxHoldMs` (its wait's deadline) after its acceptance.
   */
  async hold(acceptedAt: number, signal?: AbortSignal, maxHoldMs = MAX_HOLD_MS): Promise<void> {
    const most = Math.min(MAX_HOLD_MS, maxHoldMs);
    if (this.#learnedMs === undefined) {
      const rung = Math.min(most, this.#rungs++ * LADDER_STEP_MS);
      await this.#untilLearnedOr(acceptedAt + rung, signal);
    }
    if (this.#learnedMs === undefined) return;
    const ms = acceptedAt + Math.min(this.#learnedMs, most) - Date.now();
    if (ms > 0) await sleep(ms, signal);
  }

  /**
   * An item sent at `sentAt` (its creating call started) was seen SUCCESSFUL at `seenAt`.
   * Counted from the send, not from reading its answer: the provider accepted it no
   * earlier, so the time learned is never shorter than the provider's settle time, however
   * late a loaded process read an answer; and as each item holds from reading its own
   * answer (no earlier than the provider accepted it), its first lookup finds it final.
   */
  learn(sentAt: number, seenAt: number): void {
    const ms = Math.max(0, seenAt - sentAt);
    if (this.#learnedMs !== undefined && this.#learnedMs <= ms) return;
    this.#learnedMs = ms;
    for (const wake of [...this.#holding]) wake();
  }

  /** Resolves at `at`, or as soon as a time is learned; rejects when `signal` fires. */
  async #untilLearnedOr(at: number, signal: AbortSignal | undefined): Promise<void> {
    const ms = at - Date.now();
    if (ms <= 0) return;
    const held = wakeableSleep(ms, signal);
    this.#holding.add(held.wake);
    try {
      await held.done;
    } finally {
      this.#holding.delete(held.wake);
    }
  }
}
