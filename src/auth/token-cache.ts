import type { ReleaseLock, StoredToken, TokenStore } from '../contracts/token-store';
import { sleep } from '../core/time';
import { inspectSymbol } from '../inspect';

export type { ReleaseLock, StoredToken, TokenStore };

/** Told when the store fails (the cache then works in-process) and when it answers again. */
export interface StoreHealth {
  failed(error: unknown): void;
  ok(): void;
}

/** The provider asks partners to refresh a token about 10 minutes before it expires. */
export const DEFAULT_REFRESH_WINDOW_MS = 600_000;

/**
 * Whether a token is fresh at `now`: it is refreshed `windowMs` before expiry, but at most
 * half its lifetime before (a short-lived token is still used for half its life, never
 * refreshed on every call).
 */
function isFresh(
  token: StoredToken | undefined,
  now: number,
  windowMs: number,
): token is StoredToken {
  return (
    token !== undefined &&
    token.expiresAt - Math.min(windowMs, (token.expiresAt - token.issuedAt) / 2) > now
  );
}

/** How long one process may hold the refresh lock; a dead holder's lock lapses after this. */
export const REFRESH_LOCK_TTL_MS = 10_000;
/** Waiters re-read the store at these growing intervals while another process refreshes. */
const FIRST_POLL_MS = 10;
const MAX_POLL_MS = 100;

/** Refused tokens remembered per key (a few rotations' worth). */
const MAX_REFUSED = 8;

/**
 * Tokens per key, kept for their real lifetime. Any number of concurrent callers of
 * a cold or expiring key share one request (single flight); with a store that locks,
 * so do any number of processes. A failing store never fails a call: the cache goes
 * on in-process and reports through `health`.
 */
export class TokenCache {
  readonly #tokens = new Map<string, StoredToken>();
  readonly #inFlight = new Map<string, Promise<StoredToken>>();
  /** Per key, the last tokens the provider refused: never used again, wherever found. */
  readonly #refused = new Map<string, string[]>();
  readonly #store: TokenStore | undefined;
  readonly #health: StoreHealth;
  readonly #windowMs: number;

  /** `refreshWindowMs`: the client's `tokenRefreshWindowMs` (DEFAULT_REFRESH_WINDOW_MS unless set). */
  constructor(store: TokenStore | undefined, health: StoreHealth, refreshWindowMs: number) {
    this.#store = store;
    this.#health = health;
    this.#windowMs = refreshWindowMs;
  }

  #fresh(key: string, token: StoredToken | undefined): token is StoredToken {
    return isFresh(token, Date.now(), this.#windowMs) && !this.#wasRefused(key, token);
  }

  #wasRefused(key: string, token: StoredToken): boolean {
    return this.#refused.get(key)?.includes(token.accessToken) === true;
  }

  /** The key's token if it is fresh, without waiting: what most calls need. */
  peek(key: string): StoredToken | undefined {
    const cached = this.#tokens.get(key);
    return this.#fresh(key, cached) ? cached : undefined;
  }

  get(
    key: string,
    fetchToken: () => Promise<StoredToken>,
    forceRefresh = false,
  ): Promise<StoredToken> {
    const cached = this.#tokens.get(key);
    if (!forceRefresh && this.#fresh(key, cached)) return Promise.resolve(cached);
    const pending = this.#inFlight.get(key);
    // A load started before a refusal may bring the refused token back: then a new load.
    if (pending) {
      return pending.then((token) =>
        this.#wasRefused(key, token) ? this.get(key, fetchToken) : token,
      );
    }
    const request = this.#load(key, fetchToken, forceRefresh).finally(() => {
      this.#inFlight.delete(key);
    });
    this.#inFlight.set(key, request);
    return request;
  }

  /**
   * Drops a token the service refused, unless a newer one has replaced it already (in a
   * shared store: compare-and-delete, so another process's newer token is kept). The
   * token is remembered as refused: found again (in the store, or from a load begun
   * before), it is never used, and one new token is fetched under the store's lock.
   */
  async invalidate(key: string, accessToken: string): Promise<void> {
    const refused = this.#refused.get(key) ?? [];
    if (!refused.includes(accessToken)) refused.push(accessToken);
    this.#refused.set(key, refused.slice(-MAX_REFUSED));
    if (this.#tokens.get(key)?.accessToken === accessToken) this.#tokens.delete(key);
    const stored = await this.#read(key);
    if (stored?.accessToken === accessToken) {
      await this.#attempt(() => this.#store?.delete(key, accessToken));
    }
  }

  async #load(key: string, fetchToken: () => Promise<StoredToken>, forceRefresh: boolean) {
    if (!forceRefresh) {
      const shared = await this.#read(key);
      if (this.#fresh(key, shared)) return this.#keep(key, shared);
    }
    if (this.#store?.lock) return this.#loadLocked(key, fetchToken, forceRefresh);
    return this.#fetchAndShare(key, fetchToken);
  }

  /**
   * One process fetches while the others re-read the store until its token appears. A
   * holder that dies leaves a lock that lapses after its TTL, and a waiter takes over.
   * Bounded: after three lock lifetimes a waiter fetches on its own.
   */
  async #loadLocked(key: string, fetchToken: () => Promise<StoredToken>, forceRefresh: boolean) {
    const giveUpAt = Date.now() + 3 * REFRESH_LOCK_TTL_MS;
    let pollMs = FIRST_POLL_MS;
    for (let waited = false; Date.now() < giveUpAt; waited = true) {
      const lock = this.#store?.lock;
      const release = await this.#attempt(() => lock?.call(this.#store, key, REFRESH_LOCK_TTL_MS));
      if (release === 'failed') return this.#fetchAndShare(key, fetchToken);
      if (release) {
        try {
          // Another process may have stored a token between our miss and our lock.
          if (!forceRefresh || waited) {
            const shared = await this.#read(key);
            if (this.#fresh(key, shared)) return this.#keep(key, shared);
          }
          return await this.#fetchAndShare(key, fetchToken);
        } finally {
          await release().catch(() => {}); // a lapsed lock needs no release
        }
      }
      await sleep(pollMs);
      pollMs = Math.min(MAX_POLL_MS, pollMs * 2);
      const shared = await this.#read(key);
      if (this.#fresh(key, shared)) return this.#keep(key, shared);
    }
    return this.#fetchAndShare(key, fetchToken);
  }

  /** A token expired on arrival serves the calls waiting for it, and is neither kept nor shared. */
  async #fetchAndShare(key: string, fetchToken: () => Promise<StoredToken>) {
    const token = await fetchToken();
    if (token.expiresAt <= Date.now()) return token;
    this.#keep(key, token);
    await this.#attempt(() => this.#store?.set(key, token));
    return token;
  }

  #keep(key: string, token: StoredToken): StoredToken {
    this.#tokens.set(key, token);
    return token;
  }

  /** A store read; a failing store reads as empty. */
  async #read(key: string): Promise<StoredToken | undefined> {
    const value = await this.#attempt(() => this.#store?.get(key));
    return value === 'failed' ? undefined : value;
  }

  /** Runs a store call: its answer, or `'failed'` (reported once per outage by `health`). */
  async #attempt<T>(call: () => Promise<T> | T): Promise<T | 'failed'> {
    if (!this.#store) return call();
    try {
      const value = await call();
      this.#health.ok();
      return value;
    } catch (error) {
      this.#health.failed(error);
      return 'failed';
    }
  }

  [inspectSymbol](): string {
    return `TokenCache(${this.#tokens.size} tokens)`;
  }
}
