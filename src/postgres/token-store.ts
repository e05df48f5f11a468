import type { ReleaseLock, StoredToken, TokenStore } from 'momo-partner-sdk';
import type { PostgresConnection } from './connection';

/**
 * Access tokens in the partner's PostgreSQL (`<schema>.tokens`), shared by every
 * instance, with a refresh lock (a row of `<schema>.locks` with an expiry on the
 * database's clock, released by its holder only) so that any number of instances going
 * cold at once make one token request, and a dead holder's lock lapses after its ttl.
 * The database holds tokens in clear: protect it as you protect the API key.
 */
export class PostgresTokenStore implements TokenStore {
  readonly #db: PostgresConnection;

  constructor(db: PostgresConnection) {
    this.#db = db;
  }

  /** The token stored under `key`, unless it has expired, or undefined. */
  async get(key: string): Promise<StoredToken | undefined> {
    const { rows } = await this.#db.query(
      `SELECT token FROM ${this.#db.table('tokens')} WHERE key = $1 AND expires_at > $2`,
      [key, Date.now()],
    );
    const value = rows[0]?.token;
    return typeof value === 'string' ? parseToken(value) : undefined;
  }

  async set(key: string, token: StoredToken): Promise<void> {
    if (token.expiresAt <= Date.now()) return;
    await this.#db.query(
      `INSERT INTO ${this.#db.table('tokens')} (key, token, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at`,
      [key, JSON.stringify(token), token.expiresAt],
    );
  }

  /** Drops the key; with `accessToken`, only while it still holds that token. */
  async delete(key: string, accessToken?: string): Promise<void> {
    const tokens = this.#db.table('tokens');
    if (accessToken === undefined) {
      await this.#db.query(`DELETE FROM ${tokens} WHERE key = $1`, [key]);
    } else {
      await this.#db.query(
        `DELETE FROM ${tokens} WHERE key = $1 AND (token::jsonb ->> 'accessToken') = $2`,
        [key, accessToken],
      );
    }
  }

  /** Takes the lock row when free or expired; its release deletes it only for this holder. */
  async lock(key: string, ttlMs: number): Promise<ReleaseLock | undefined> {
    const locks = this.#db.table('locks');
    const holder = crypto.randomUUID();
    const { rows } = await this.#db.query(
      `INSERT INTO ${locks} AS l (key, holder, expires_at)
       VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3::float8 / 1000))
       ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
       WHERE l.expires_at <= clock_timestamp()
       RETURNING holder`,
      [`token:${key}`, holder, Math.max(1, Math.floor(ttlMs))],
    );
    if (rows[0]?.holder !== holder) return undefined;
    return async () => {
      await this.#db.query(`DELETE FROM ${locks} WHERE key = $1 AND holder = $2`, [
        `token:${key}`,
        holder,
      ]);
    };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PostgresTokenStore { schema: '${this.#db.schema}' }`;
  }
}

/** A stored token of the expected shape, or undefined (a miss, never trusted). */
function parseToken(value: string): StoredToken | undefined {
  try {
    const token = JSON.parse(value) as Partial<StoredToken> | null;
    const { accessToken, tokenType, expiresAt, issuedAt } = token ?? {};
    if (
      typeof accessToken === 'string' &&
      typeof tokenType === 'string' &&
      typeof expiresAt === 'number' &&
      typeof issuedAt === 'number'
    ) {
      return { accessToken, tokenType, expiresAt, issuedAt };
    }
  } catch {
    // Not ours: a miss.
  }
  return undefined;
}
