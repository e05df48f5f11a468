import type { Operation } from '../core/operation';
import { referenceKey } from '../core/reference-id';
import type { StatusLike } from '../schemas/common';

/** How the callback handler can check what a callback claims about one operation. */
export interface Tracked {
  /** Operation name, e.g. `collection.requestToPay`. */
  operation: string;
  /**
   * The status lookup of that operation; absent when the specification has none. The
   * handler looks it up without settling: its confirmation settles what it finds.
   */
  confirmedBy?: Operation<never, StatusLike> | undefined;
}

/** Bounded so that a long-running process never grows without limit. */
const MAX_TRACKED = 10_000;

/**
 * Operations this process created or waits on, by reference id: what lets the callback
 * handler confirm a callback by the right status lookup. Oldest entries go first.
 */
export class OperationRegistry {
  readonly #entries = new Map<string, Tracked>();
  /**
   * Walks the entries oldest first, kept across calls: a new iterator per eviction would
   * skip every slot the earlier evictions left empty (about 5 µs a call at the bound).
   */
  #oldest: Iterator<string> | undefined;

  track(referenceId: string, entry: Tracked): void {
    const key = referenceKey(referenceId);
    this.#entries.delete(key); // re-insert: newest last
    this.#entries.set(key, entry);
    if (this.#entries.size > MAX_TRACKED) {
      this.#oldest ??= this.#entries.keys();
      this.#entries.delete(this.#oldest.next().value as string);
    }
  }

  get(referenceId: string): Tracked | undefined {
    return this.#entries.get(referenceKey(referenceId));
  }
}
