/** How many recent answers the offset is the minimum of (clocks drift slowly; a stall passes). */
const SAMPLES = 64;

/**
 * Maps moments on the store's clock onto this process's, never early. Each answer gives
 * `answeredAt - storeNow` = the clocks' offset + the answer's way back (>= 0), so the
 * smallest of the recent ones is the offset plus the quickest way back seen: a moment
 * mapped with it is late by that little, the same for every reservation of this process.
 * Mapping each by its own answer's delay instead made every reservation late by its own
 * way back (a commit, a busy event loop): one answered slowly and the next quickly could
 * go closer together than their window allows.
 */
export class StoreClock {
  readonly #samples: number[] = [];
  #next = 0;

  toLocal(storeAt: number, storeNow: number, answeredAt: number): number {
    const sample = answeredAt - storeNow;
    if (this.#samples.length < SAMPLES) this.#samples.push(sample);
    else this.#samples[this.#next] = sample;
    this.#next = (this.#next + 1) % SAMPLES;
    return storeAt + Math.min(...this.#samples);
  }

  /** Another moment of the same answer, mapped with the offset `toLocal` just used. */
  alsoLocal(storeAt: number): number {
    return storeAt + Math.min(...this.#samples);
  }
}
