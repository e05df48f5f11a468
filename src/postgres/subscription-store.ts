import type {
  StoredSubscription,
  Subscription,
  SubscriptionFilter,
  SubscriptionPlan,
  SubscriptionStore,
} from 'momo-partner-sdk';
import type { PostgresConnection, PostgresPoolClient, PostgresResult } from './connection';
import { inTransaction } from './transaction';

/**
 * Subscriptions in the partner's PostgreSQL, for any number of runners: plans in
 * `<schema>.subscription_plans`, one row per subscription in `<schema>.subscriptions`,
 * written by compare-and-set on its `version` (an INSERT that does nothing on a key
 * already there, an UPDATE naming the version read), each write durable once it returns.
 * `due(now)` reads the partial index on `due_at` (only subscriptions not stopped), never
 * every row. `putInTransaction` writes in a transaction that also runs the subscriptions'
 * `onCharge(charge, tx)`: the charge's outcome and the partner's own rows commit together.
 */
export class PostgresSubscriptionStore implements SubscriptionStore {
  readonly #db: PostgresConnection;
  readonly #table: string;
  readonly #plans: string;

  constructor(db: PostgresConnection) {
    this.#db = db;
    this.#table = db.table('subscriptions');
    this.#plans = db.table('subscription_plans');
  }

  /** Stores a plan under its id (a plan of that id again replaces it). */
  async putPlan(plan: SubscriptionPlan): Promise<void> {
    await this.#db.query(
      `INSERT INTO ${this.#plans} (id, plan) VALUES ($1, $2::jsonb)
       ON CONFLICT (id) DO UPDATE SET plan = EXCLUDED.plan`,
      [plan.id, JSON.stringify(plan)],
    );
  }

  /** The plan of `id`, or undefined. */
  async getPlan(id: string): Promise<SubscriptionPlan | undefined> {
    const { rows } = await this.#db.query(`SELECT plan FROM ${this.#plans} WHERE id = $1`, [id]);
    return rows[0] ? (json(rows[0].plan) as SubscriptionPlan) : undefined;
  }

  /** The subscription of `key` with its version, or undefined. */
  async get(key: string): Promise<StoredSubscription | undefined> {
    const { rows } = await this.#db.query(
      `SELECT version, subscription FROM ${this.#table} WHERE key = $1`,
      [key],
    );
    const row = rows[0];
    if (!row) return undefined;
    return { subscription: json(row.subscription) as Subscription, version: Number(row.version) };
  }

  async put(subscription: Subscription, expected: number | undefined): Promise<number | undefined> {
    return this.#write((text, values) => this.#db.query(text, values), subscription, expected);
  }

  /**
   * As `put`, in one transaction on a client of the pool: the INSERT or UPDATE, then
   * `within(client)` (the subscriptions' `onCharge`), then COMMIT. A throw rolls both back
   * and is rethrown; a write refused (another writer came first) runs nothing.
   */
  async putInTransaction(
    subscription: Subscription,
    expected: number | undefined,
    within: (tx: PostgresPoolClient) => Promise<void>,
  ): Promise<number | undefined> {
    return inTransaction(
      this.#db,
      async (client) => {
        const version = await this.#write(
          (text, values) => client.query(text, values),
          subscription,
          expected,
        );
        if (version !== undefined) await within(client);
        return version;
      },
      'onCharge',
    );
  }

  async #write(
    query: (text: string, values: unknown[]) => Promise<PostgresResult>,
    subscription: Subscription,
    expected: number | undefined,
  ): Promise<number | undefined> {
    const { key, plan, status, dueAt, tenant } = subscription;
    const values = [key, plan, status, dueAt ?? null, JSON.stringify(subscription), tenant ?? null];
    const { rows } =
      expected === undefined
        ? await query(
            `INSERT INTO ${this.#table} (key, version, plan, status, due_at, subscription, tenant)
             VALUES ($1, 1, $2, $3, $4, $5::jsonb, $6)
             ON CONFLICT (key) DO NOTHING RETURNING version`,
            values,
          )
        : await query(
            `UPDATE ${this.#table} SET version = version + 1, plan = $2, status = $3,
               due_at = $4, subscription = $5::jsonb, tenant = $6, updated_at = now()
             WHERE key = $1 AND version = $7 RETURNING version`,
            [...values, expected],
          );
    return rows[0] ? Number(rows[0].version) : undefined;
  }

  /** With `tenant`: its own due subscriptions alone, on the (tenant, due_at) index. */
  async due(now: number, limit: number, tenant?: string | null): Promise<string[]> {
    if (limit <= 0) return [];
    const { rows } = await this.#db.query(
      `SELECT key FROM ${this.#table} WHERE due_at IS NOT NULL AND due_at <= $1
         AND (NOT $3::boolean OR tenant IS NOT DISTINCT FROM $4::text)
       ORDER BY due_at, key COLLATE "C" LIMIT $2`,
      [now, Math.min(limit, Number.MAX_SAFE_INTEGER), tenant !== undefined, tenant ?? null],
    );
    return rows.map((row) => String(row.key));
  }

  /** The subscriptions the filter names (by status, due before a time, at most a limit). */
  async list(filter: SubscriptionFilter = {}): Promise<Subscription[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    if (filter.status !== undefined) {
      values.push(filter.status);
      where.push(`status = $${values.length}`);
    }
    if (filter.dueBefore !== undefined) {
      values.push(filter.dueBefore);
      where.push(`due_at IS NOT NULL AND due_at < $${values.length}`);
    }
    if (filter.tenant !== undefined) {
      values.push(filter.tenant);
      where.push(`tenant IS NOT DISTINCT FROM $${values.length}::text`);
    }
    const order = filter.dueBefore === undefined ? 'key COLLATE "C"' : 'due_at, key COLLATE "C"';
    let text = `SELECT subscription FROM ${this.#table}`;
    if (where.length > 0) text += ` WHERE ${where.join(' AND ')}`;
    text += ` ORDER BY ${order}`;
    if (filter.limit !== undefined) {
      values.push(filter.limit);
      text += ` LIMIT $${values.length}`;
    }
    const { rows } = await this.#db.query(text, values);
    return rows.map((row) => json(row.subscription) as Subscription);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PostgresSubscriptionStore { schema: '${this.#db.schema}' }`;
  }
}

/** A jsonb column as node-postgres gives it (parsed), or as text from another driver. */
function json(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
