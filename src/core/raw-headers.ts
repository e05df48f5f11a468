/** What the SDK reads of an answer's headers: Headers has it, and so does RawHeaders. */
export interface ResponseHeaders {
  get(name: string): string | null;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}

/**
 * A read-only view of node:http's `rawHeaders` (names and values in turn), read the way
 * Headers reads them: names case-insensitive, repeated values joined with ", ". Built
 * only when asked (a Retry-After, an error's headers), so a successful answer costs no
 * Headers object.
 */
export class RawHeaders implements ResponseHeaders {
  readonly #raw: readonly string[];

  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const wanted = name.toLowerCase();
    let value: string | null = null;
    for (let i = 0; i < this.#raw.length; i += 2) {
      if ((this.#raw[i] as string).toLowerCase() !== wanted) continue;
      const next = this.#raw[i + 1] as string;
      value = value === null ? next : `${value}, ${next}`;
    }
    return value;
  }

  /** Lower-case names in sorted order, each once, as Headers iterates. */
  *[Symbol.iterator](): IterableIterator<[string, string]> {
    const names = new Set<string>();
    for (let i = 0; i < this.#raw.length; i += 2) names.add((this.#raw[i] as string).toLowerCase());
    for (const name of [...names].sort()) yield [name, this.get(name) as string];
  }
}
