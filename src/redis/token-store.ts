import { randomUUID } from 'node:crypto';
import type { ReleaseLock, StoredToken, TokenStore } from 'momo-partner-sdk';
import { lua, type RedisClient, RedisConnection, type RedisOptions } from './connection';

/** Deletes the key only while it still holds this token (a newer one is kept). */
const DELETE_IF_TOKEN = lua(`
local value = redis.call('GET', KEYS[1])
if not value then return 0 end
local ok, token = pcall(cjson.decode, value)
if ok and type(token) == 'table' and token.accessToken == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`);

/** Releases a lock only while this holder still holds it (an expired one may be another's now). */
const RELEASE_IF_HOLDER = lua(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);

/**
 * Access tokens in Redis (single node or cluster), with the Redis TTL set to their real expiry, and a refresh
 * lock (`SET NX PX`, released by compare-and-delete) so that any number of processes
 * going cold at once make one token request. Tokens are never logged; Redis holds them
 * in clear, so protect it as you protect the API key.
 */
export class RedisTokenStore implements TokenStore {
  readonly #redis: RedisConnection;

  constructor(client: RedisClient | RedisConnection, options: RedisOptions = {}) {
    this.#redis = client instanceof RedisConnection ? client : new RedisConnection(client, options);
  }

  /** The token stored under `key` in Redis, or undefined. */
  async get(key: string): Promise<StoredToken | undefined> {
    const value = await this.#redis.command(['GET', this.#key(key)], this.#key(key));
    return typeof value === 'string' ? parseToken(value) : undefined;
  }

  /** Stores a token in Redis with its remaining lifetime as TTL. */
  async set(key: string, token: StoredToken): Promise<void> {
    const ttlMs = Math.floor(token.expiresAt - Date.now());
    if (ttlMs <= 0) return;
    const redisKey = this.#key(key);
    await this.#redis.command(
      ['SET', redisKey, JSON.stringify(token), 'PX', String(ttlMs)],
      redisKey,
    );
  }

  async delete(key: string, accessToken?: string): Promise<void> {
    if (accessToken === undefined)
      await this.#redis.command(['DEL', this.#key(key)], this.#key(key));
    else await this.#redis.script(DELETE_IF_TOKEN, [this.#key(key)], [accessToken]);
  }

  async lock(key: string, ttlMs: number): Promise<ReleaseLock | undefined> {
    const lockKey = this.#lockKey(key);
    const holder = randomUUID();
    const ttl = String(Math.max(1, Math.floor(ttlMs)));
    const answer = await this.#redis.command(['SET', lockKey, holder, 'NX', 'PX', ttl], lockKey);
    if (answer !== 'OK') return undefined;
    return async () => {
      await this.#redis.script(RELEASE_IF_HOLDER, [lockKey], [holder]);
    };
  }

  /**
   * `{<prefix>token:<product>:<apiUserId>:<environment>:<baseUrl>}` (the cache key's own `momo:`
   * dropped); its lock is the same hash tag plus `:lock`, so both live on one cluster slot.
   */
  #key(key: string): string {
    return this.#redis.tag(`token:${key.replace(/^momo:/, '')}`);
  }

  #lockKey(key: string): string {
    return `${this.#key(key)}:lock`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `RedisTokenStore { prefix: '${this.#redis.prefix}' }`;
  }
}

/** A stored token of the expected shape, or undefined (treated as a miss, never trusted). */
function parseToken(value: string): StoredToken | undefined {
  try {
    const token = JSON.parse(value) as Partial<StoredToken> | null;
    if (
      typeof token?.accessToken === 'string' &&
      typeof token.tokenType === 'string' &&
      typeof token.expiresAt === 'number' &&
      typeof token.issuedAt === 'number'
    ) {
      const { accessToken, tokenType, expiresAt, issuedAt } = token;
      return { accessToken, tokenType, expiresAt, issuedAt };
    }
  } catch {
    // Not ours: a miss.
  }
  return undefined;
}
