import {
  type BatchClaimToken,
  type BatchHandle,
  type BatchIntent,
  type BatchOutcome,
  type BatchRecord,
  type BatchStore,
  ValidationError,
} from 'momo-partner-sdk';
import type { PostgresConnection, PostgresPoolClient } from './connection';
import { inTransaction } from './transaction';

/** Well-formed (no lone surrogate), no C0, DEL or C1 control character (docs/batches.md). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const BATCH_ID = /^[^\p{Cs}\u0000-\u001f\u007f-\u009f]*$/u;

/** Records read per query by `records()`: bounded memory whatever the batch's size. */
const PAGE = 500;
const RECORD_COLUMNS =
  'key, operation, fingerprint, reference_id, status, reason, financial_transaction_id, tenant';
/** The row's claim is `$3` and its lease has not run out (on the database's clock). */
const CLAIM_HELD = 'claim_token = $3 AND claim_expires > clock_timestamp()';

/**
 * A batch store in the partner's PostgreSQL, on which several processes run one batch
 * together: one row per item in `<schema>.batch_items`; an item is claimed with a lease on
 * the database's clock and a fencing token from a sequence (`FOR UPDATE SKIP LOCKED`: a
 * claim never waits on another process's); every write carries the token and is refused
 * once another owner claimed the item. An intent is durable once `recordIntent` returns.
 */
export class PostgresBatchStore implements BatchStore {
  readonly #db: PostgresConnection;
  readonly #leaseMs: number;

  constructor(db: PostgresConnection, leaseMs: number) {
    this.#db = db;
    this.#leaseMs = leaseMs;
  }

  async open(id: string): Promise<BatchHandle> {
    if (typeof id !== 'string' || id.length === 0 || id.length > 200 || !BATCH_ID.test(id)) {
      const message =
        'must be a non-empty string of at most 200 characters, well-formed, without control characters';
      throw new ValidationError([{ path: 'id', message }]);
    }
    return new PostgresBatchHandle(id, this.#db, this.#leaseMs);
  }

  /** The id of every batch with an item recorded, in id order, a page at a time. */
  async *batches(): AsyncIterable<string> {
    const items = this.#db.table('batch_items');
    for (let after: string | null = null; ; ) {
      const { rows } = await this.#db.query(
        `SELECT DISTINCT batch_id FROM ${items}
         WHERE ($1::text IS NULL OR batch_id > $1) ORDER BY batch_id LIMIT ${PAGE}`,
        [after],
      );
      for (const row of rows) yield String(row.batch_id);
      if (rows.length < PAGE) return;
      after = String(rows[rows.length - 1]?.batch_id);
    }
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PostgresBatchStore { schema: '${this.#db.schema}', leaseMs: ${this.#leaseMs} }`;
  }
}

class PostgresBatchHandle implements BatchHandle {
  readonly id: string;
  readonly leaseMs: number;
  readonly #db: PostgresConnection;
  readonly #items: string;

  constructor(id: string, db: PostgresConnection, leaseMs: number) {
    this.id = id;
    this.leaseMs = leaseMs;
    this.#db = db;
    this.#items = db.table('batch_items');
  }

  async *records(): AsyncIterable<BatchRecord> {
    for (let after = 0; ; ) {
      const { rows } = await this.#db.query(
        `SELECT ${RECORD_COLUMNS}, seq FROM ${this.#items}
         WHERE batch_id = $1 AND seq > $2 ORDER BY seq LIMIT ${PAGE}`,
        [this.id, after],
      );
      for (const row of rows) yield toRecord(row);
      if (rows.length < PAGE) return;
      after = Number(rows[rows.length - 1]?.seq);
    }
  }

  async get(key: string): Promise<BatchRecord | undefined> {
    const { rows } = await this.#db.query(
      `SELECT ${RECORD_COLUMNS} FROM ${this.#items}
       WHERE batch_id = $1 AND key = $2 AND reference_id IS NOT NULL`,
      [this.id, key],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /**
   * One statement: a new row is claimed as it is inserted; an existing one is taken when
   * free, expired, or this owner's (a renewal), skipping a row another claim has locked.
   */
  async claim(key: string, owner: string, leaseMs: number) {
    const token = `nextval('${this.#db.table('batch_fence')}')::text || ':' || $3`;
    const expires = `clock_timestamp() + make_interval(secs => $4::float8 / 1000)`;
    const { rows } = await this.#db.query(
      `WITH fresh AS (
         INSERT INTO ${this.#items} (batch_id, key, claim_owner, claim_token, claim_expires)
         VALUES ($1, $2, $3, ${token}, ${expires})
         ON CONFLICT (batch_id, key) DO NOTHING
         RETURNING claim_token
       ), free AS (
         SELECT batch_id, key FROM ${this.#items}
         WHERE batch_id = $1 AND key = $2
           AND (claim_token IS NULL OR claim_expires <= clock_timestamp() OR claim_owner = $3)
         FOR UPDATE SKIP LOCKED
       ), taken AS (
         UPDATE ${this.#items} AS i
         SET claim_owner = $3, claim_token = ${token}, claim_expires = ${expires}
         FROM free
         WHERE i.batch_id = free.batch_id AND i.key = free.key AND NOT EXISTS (SELECT 1 FROM fresh)
         RETURNING i.claim_token
       )
       SELECT claim_token FROM fresh UNION ALL SELECT claim_token FROM taken`,
      [this.id, key, owner, Math.max(1, Math.ceil(leaseMs))],
    );
    const claimed = rows[0]?.claim_token;
    return typeof claimed === 'string' ? claimed : undefined;
  }

  async release(key: string, token: BatchClaimToken): Promise<void> {
    await this.#db.query(
      `UPDATE ${this.#items} SET claim_owner = NULL, claim_token = NULL, claim_expires = NULL
       WHERE batch_id = $1 AND key = $2 AND claim_token = $3`,
      [this.id, key, token],
    );
  }

  /** One statement for them all: each claim still its token's and unexpired gets the lease again. */
  async renew(claims: readonly { key: string; token: BatchClaimToken }[], leaseMs: number) {
    if (claims.length === 0) return new Set<BatchClaimToken>();
    const { rows } = await this.#db.query(
      `UPDATE ${this.#items} AS i
       SET claim_expires = clock_timestamp() + make_interval(secs => $4::float8 / 1000)
       FROM unnest($2::text[], $3::text[]) AS c(key, token)
       WHERE i.batch_id = $1 AND i.key = c.key AND i.claim_token = c.token
         AND i.claim_expires > clock_timestamp()
       RETURNING i.claim_token`,
      [
        this.id,
        claims.map((c) => c.key),
        claims.map((c) => c.token),
        Math.max(1, Math.ceil(leaseMs)),
      ],
    );
    return new Set(rows.map((row) => String(row.claim_token)));
  }

  /** Under a live claim: the first intent of the key, or this one written now. */
  async recordIntent(intent: BatchIntent, token: BatchClaimToken) {
    const { rows } = await this.#db.query(
      `WITH held AS (
         SELECT ${RECORD_COLUMNS} FROM ${this.#items}
         WHERE batch_id = $1 AND key = $2 AND ${CLAIM_HELD}
         FOR UPDATE
       ), written AS (
         UPDATE ${this.#items} AS i
         SET operation = $4, fingerprint = $5, reference_id = $6, tenant = $7,
           seq = nextval('${this.#db.table('batch_order')}')
         FROM held
         WHERE i.batch_id = $1 AND i.key = $2 AND held.reference_id IS NULL
         RETURNING i.key, i.operation, i.fingerprint, i.reference_id, i.status, i.reason,
           i.financial_transaction_id, i.tenant
       )
       SELECT * FROM written UNION ALL SELECT * FROM held WHERE reference_id IS NOT NULL`,
      [
        this.id,
        intent.key,
        token,
        intent.operation,
        intent.fingerprint,
        intent.referenceId,
        intent.tenant ?? null,
      ],
    );
    if (!rows[0]) return undefined;
    const { outcome: _, ...held } = toRecord(rows[0]);
    return held;
  }

  /**
   * Under a live claim, for a key with an intent; the last outcome wins. With `settled`
   * (the run's `onItemSettled`): one transaction, the UPDATE then `settled(client)`, then
   * COMMIT; a throw rolls both back and is rethrown.
   */
  async recordOutcome(
    key: string,
    outcome: BatchOutcome,
    token: BatchClaimToken,
    settled?: (tx: PostgresPoolClient) => Promise<void>,
  ) {
    const update = `UPDATE ${this.#items} SET status = $4, reason = $5, financial_transaction_id = $6
       WHERE batch_id = $1 AND key = $2 AND ${CLAIM_HELD} AND reference_id IS NOT NULL`;
    const values = [
      this.id,
      key,
      token,
      outcome.status,
      outcome.reason ?? null,
      outcome.financialTransactionId ?? null,
    ];
    if (!settled) return (await this.#db.query(update, values)).rowCount === 1;
    return inTransaction(this.#db, async (client) => {
      const { rowCount } = await client.query(update, values);
      if (rowCount !== 1) return false; // fenced out: nothing to deliver
      await settled(client);
      return true;
    });
  }

  /** Nothing to release: the pool stays the partner's. */
  async close(): Promise<void> {}

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PostgresBatchHandle { id: ${JSON.stringify(this.id)} }`;
  }
}

/** A row as a record, its outcome only when one was recorded. */
function toRecord(row: Record<string, unknown>): BatchRecord {
  const record: BatchRecord = {
    key: String(row.key),
    operation: String(row.operation),
    fingerprint: String(row.fingerprint),
    referenceId: String(row.reference_id),
  };
  if (typeof row.tenant === 'string') record.tenant = row.tenant;
  if (typeof row.status === 'string') {
    const outcome: BatchOutcome = { status: row.status as BatchOutcome['status'] };
    if (typeof row.reason === 'string') outcome.reason = row.reason;
    if (typeof row.financial_transaction_id === 'string') {
      outcome.financialTransactionId = row.financial_transaction_id;
    }
    record.outcome = outcome;
  }
  return record;
}
