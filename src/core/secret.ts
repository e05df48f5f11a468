import { inspectSymbol } from '../inspect';

/**
 * A credential that never prints itself: not in `String()`, JSON or `util.inspect`.
 * Only the transport calls `reveal()`, when it writes a header.
 */
const REDACTED = '[redacted]';

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspectSymbol](): string {
    return REDACTED;
  }
}

/**
 * Every secret value the client has seen (keys, Basic credentials, tokens), so that text
 * coming back from the server can be scrubbed before it reaches an error or a log line.
 */
export class SecretScrubber {
  readonly #values = new Set<string>();

  add(value: string): void {
    // Very short values would redact ordinary words; credentials are never that short.
    if (value.length >= 6) this.#values.add(value);
  }

  scrub(text: string): string {
    let out = text;
    for (const value of this.#values) {
      if (out.includes(value)) out = out.split(value).join(REDACTED);
    }
    return out;
  }

  /**
   * Deep copy of a parsed JSON value with every string scrubbed. Every key is copied as
   * an own data property (defined, not assigned): a body's `"__proto__"` key stays a key
   * and never becomes the copy's prototype.
   */
  scrubValue<T>(value: T): T {
    if (this.#values.size === 0) return value;
    if (typeof value === 'string') return this.scrub(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.scrubValue(v)) as T;
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const copy = this.scrubValue(v);
        Object.defineProperty(out, k, {
          value: copy,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out as T;
    }
    return value;
  }

  [inspectSymbol](): string {
    return `SecretScrubber(${this.#values.size} values)`;
  }
}
