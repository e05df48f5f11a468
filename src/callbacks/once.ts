/** Bounded, so that forged ids cannot grow the memory of what was delivered. */
const MAX_DELIVERED = 10_000;

/**
 * Runs `onEvent` at most once per key (operation, final status, trusted or not) in this
 * handler: a replay while the first delivery runs shares its outcome; after it
 * succeeded, a replay is a duplicate; after it threw, the next one delivers again.
 */
export class DeliveredOnce {
  readonly #delivered = new Map<string, Promise<void>>();

  /** `'duplicate'` when `key` was delivered (or is being delivered) already. */
  async deliver(key: string, run: () => Promise<void>): Promise<'delivered' | 'duplicate'> {
    const earlier = this.#delivered.get(key);
    if (earlier) {
      await earlier; // rethrows when the first delivery failed: answered like it
      return 'duplicate';
    }
    const running = run();
    this.#delivered.set(key, running);
    if (this.#delivered.size > MAX_DELIVERED) {
      const oldest = this.#delivered.keys().next().value;
      if (oldest !== undefined) this.#delivered.delete(oldest);
    }
    try {
      await running;
    } catch (error) {
      if (this.#delivered.get(key) === running) this.#delivered.delete(key);
      throw error;
    }
    return 'delivered';
  }
}
