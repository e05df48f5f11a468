import { MomoError, ValidationError } from 'momo-partner-sdk';

/** What the SDK needs of a query's answer: node-postgres' `QueryResult`, structurally. */
export interface PostgresResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

/** A client checked out of the pool (`await pool.connect()`), as node-postgres gives it. */
export interface PostgresPoolClient {
  /** Runs one statement on this client's connection (inside its transaction, if any). */
  query(text: string, values?: unknown[]): Promise<PostgresResult>;
  /** Gives the client back to the pool; with an error, the pool closes its connection. */
  release(error?: Error | boolean): void;
}

/**
 * The partner's `pg.Pool` (node-postgres 8), structurally: `pg` is an optional peer the
 * SDK never imports. Any pool with node-postgres' `query` and `connect` fits.
 */
export interface PostgresPool {
  /** Runs one statement on any idle connection (autocommitted). */
  query(text: string, values?: unknown[]): Promise<PostgresResult>;
  /** Checks a client out of the pool, for a transaction. */
  connect(): Promise<PostgresPoolClient>;
}

/**
 * The SDK's tables are missing or older than this version needs (`db.migrate()` was not
 * run, or ran on another schema), or newer than it knows. A MomoError naming the schema.
 */
export class PostgresSchemaError extends MomoError {
  override readonly name = 'PostgresSchemaError';
  /** The schema the SDK was given. */
  readonly schema: string;

  constructor(schema: string, message: string) {
    super(message);
    this.schema = schema;
  }
}
Object.defineProperty(PostgresSchemaError, 'name', { value: 'PostgresSchemaError' });

/** A ValidationError for one bad option of `createPostgresState`. */
export function optionError(path: string, message: string): ValidationError {
  return new ValidationError([{ path, message }], { operation: 'postgres' });
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The pool, once checked to be one: a pg.Client, a pooled client or anything else is refused. */
export function checkPool(pool: unknown): PostgresPool {
  const candidate = pool as Partial<PostgresPool & PostgresPoolClient> | null;
  const isPool =
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.query === 'function' &&
    typeof candidate.connect === 'function' &&
    typeof candidate.release !== 'function' &&
    // A pg.Client has query and connect too: a pool counts its clients.
    typeof (candidate as { totalCount?: unknown }).totalCount === 'number';
  if (!isPool) {
    throw optionError(
      'pool',
      'must be a pg Pool (new pg.Pool(...)), not a client or anything else',
    );
  }
  return candidate as PostgresPool;
}

/** The schema name, checked: lower-case letters, digits and `_`, at most 63 characters. */
export function checkSchema(schema: unknown): string {
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
    const message =
      'must be a schema name: lower-case letters, digits and _, at most 63 characters';
    throw optionError('schema', message);
  }
  return schema;
}

/** A whole positive number of milliseconds, or a ValidationError naming the option. */
export function positiveMs(field: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) {
    throw optionError(field, 'must be a whole positive number of milliseconds');
  }
  return value;
}

/** What a pg client is beside its queries: an EventEmitter (its `'error'` events). */
interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Runs `use` on a client checked out of `pool` for a transaction of the SDK's own, then
 * gives it back. While a client is checked out pg-pool hears none of its errors: a server
 * that goes away would emit an `'error'` nobody listens to (an uncaught exception in the
 * partner's process). Here it is heard, and the client is given back with it (the pool
 * then closes that connection); `use` reports a connection it broke itself by `broke`.
 */
export async function withClient<T>(
  pool: PostgresPool,
  use: (client: PostgresPoolClient, broke: (error: Error) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const events = client as Partial<ErrorEmitter>;
  let broken: Error | undefined;
  const broke = (error: Error) => {
    broken ??= error;
  };
  events.on?.('error', broke);
  try {
    return await use(client, broke);
  } finally {
    events.removeListener?.('error', broke);
    client.release(broken);
  }
}

/**
 * Runs the SDK's statements on the partner's pool, one autocommitted statement each
 * (durable once it returns: PostgreSQL's COMMIT). A missing table or schema becomes a
 * PostgresSchemaError that says to run `migrate()`.
 */
export class PostgresConnection {
  readonly pool: PostgresPool;
  readonly schema: string;

  constructor(pool: PostgresPool, schema: string) {
    this.pool = pool;
    this.schema = schema;
  }

  /** `"<schema>".<name>`: a table of the SDK's (the schema name was checked). */
  table(name: string): string {
    return `"${this.schema}".${name}`;
  }

  async query(text: string, values: unknown[] = []): Promise<PostgresResult> {
    try {
      return await this.pool.query(text, values);
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** Undefined tables or schema (42P01, 3F000): the schema was never migrated. */
  translate(error: unknown): unknown {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === '42P01' || code === '3F000') {
      return new PostgresSchemaError(
        this.schema,
        `The momo-partner-sdk tables are missing in schema "${this.schema}": run db.migrate() (or docs/postgres.sql) first`,
      );
    }
    return error;
  }
}
