import type { StoredToken, TokenStore } from '../core/options';

export type { StoredToken, TokenStore };

/** Refresh this long before expiry: a tenth of the lifetime, at most one minute. */
export function refreshMarginMs(token: StoredToken): number {
  return Math.min(60_000, (token.expiresAt - token.issuedAt) / 10);
}

export function isFresh(token: StoredToken | undefined, now: number): token is StoredToken {
  return token !== undefined && token.expiresAt - refreshMarginMs(token) > now;
}

/**
 * Tokens per key, kept for their real lifetime. Any number of concurrent callers of
 * a cold or expiring key share one request (single flight).
 */
export class TokenCache {
  readonly #tokens = new Map<string, StoredToken>();
  readonly #inFlight = new Map<string, Promise<StoredToken>>();
  readonly #store: TokenStore | undefined;

  constructor(store?: TokenStore) {
    this.#store = store;
  }

  get(
    key: string,
    fetchToken: () => Promise<StoredToken>,
    forceRefresh = false,
  ): Promise<StoredToken> {
    const cached = this.#tokens.get(key);
    if (!forceRefresh && isFresh(cached, Date.now())) return Promise.resolve(cached);
    const pending = this.#inFlight.get(key);
    if (pending) return pending;
    const request = this.#load(key, fetchToken, forceRefresh).finally(() => {
      this.#inFlight.delete(key);
    });
    this.#inFlight.set(key, request);
    return request;
  }

  /** Drops a token the service refused, unless a newer one has replaced it already. */
  async invalidate(key: string, accessToken: string): Promise<void> {
    if (this.#tokens.get(key)?.accessToken === accessToken) this.#tokens.delete(key);
    const stored = await this.#store?.get(key);
    if (stored?.accessToken === accessToken) await this.#store?.delete(key);
  }

  async #load(key: string, fetchToken: () => Promise<StoredToken>, forceRefresh: boolean) {
    if (!forceRefresh && this.#store) {
      const shared = await this.#store.get(key);
      if (isFresh(shared, Date.now())) {
        this.#tokens.set(key, shared);
        return shared;
      }
    }
    const token = await fetchToken();
    this.#tokens.set(key, token);
    await this.#store?.set(key, token);
    return token;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `TokenCache(${this.#tokens.size} tokens)`;
  }
}
