/** An access token as cached and as handed to a TokenStore. */
export interface StoredToken {
  accessToken: string;
  tokenType: string;
  /** Epoch milliseconds when the service stops accepting it. */
  expiresAt: number;
  /** Epoch milliseconds when it was issued; sets the refresh window. */
  issuedAt: number;
}

/** Ends a refresh lock (only if this holder still holds it). */
export type ReleaseLock = () => Promise<void>;

/**
 * Shares tokens across processes (Redis, a database...). Keys name product, API user and
 * environment. `checkTokenStore` (momo-partner-sdk/testing) checks a store against it.
 */
export interface TokenStore {
  /** The token stored under `key`, or undefined (never one past its `expiresAt`). */
  get(key: string): Promise<StoredToken | undefined> | StoredToken | undefined;
  /** Stores a token under `key` (keep it until `token.expiresAt`). */
  set(key: string, token: StoredToken): Promise<void> | void;
  /**
   * Drops the key. With `accessToken`, a store that can compare and delete atomically
   * drops it only while it still holds that token (a newer one is kept).
   */
  delete(key: string, accessToken?: string): Promise<void> | void;
  /**
   * Optional cross-process refresh lock: resolves to a release function when this caller
   * now holds the lock for `ttlMs`, or `undefined` when another holder has it. With it,
   * any number of processes going cold at once make one token request.
   */
  lock?(key: string, ttlMs: number): Promise<ReleaseLock | undefined>;
}
