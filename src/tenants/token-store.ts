import type { StoredToken, TokenStore } from 'momo-partner-sdk';

/** Tokens kept at most; past it, the longest stored go first (a few KB per thousand). */
const MAX_TOKENS = 50_000;

/**
 * The tenants' token store when none is shared: one in this process, so that a tenant's
 * client made again after eviction reuses its token instead of asking for another. Keys
 * are the SDK's (base URL, subscription key digest, API user, product): never a secret.
 */
export class MemoryTokenStore implements TokenStore {
  readonly #tokens = new Map<string, StoredToken>();

  get(key: string): StoredToken | undefined {
    const token = this.#tokens.get(key);
    if (token && token.expiresAt <= Date.now()) {
      this.#tokens.delete(key);
      return undefined;
    }
    return token;
  }

  set(key: string, token: StoredToken): void {
    this.#tokens.delete(key);
    this.#tokens.set(key, token);
    if (this.#tokens.size > MAX_TOKENS) this.#prune();
  }

  delete(key: string, accessToken?: string): void {
    if (accessToken === undefined || this.#tokens.get(key)?.accessToken === accessToken) {
      this.#tokens.delete(key);
    }
  }

  /** Expired tokens out, then the oldest set (first in the Map) until under the bound. */
  #prune(): void {
    const now = Date.now();
    for (const [key, token] of this.#tokens) if (token.expiresAt <= now) this.#tokens.delete(key);
    for (const key of this.#tokens.keys()) {
      if (this.#tokens.size <= MAX_TOKENS) return;
      this.#tokens.delete(key);
    }
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `MemoryTokenStore(${this.#tokens.size} tokens)`;
  }
}
