import type {
  OutboxClaim,
  OutboxOutcome,
  OutboxPayment,
  OutboxSetback,
  OutboxStore,
} from 'momo-partner-sdk';
import { Coalescer, type Waiting } from './coalescer';
import type { PostgresConnection, PostgresPoolClient } from './connection';
import type { OutboxListener } from './listener';
import { listPayments, PAYMENT_COLUMNS, toPayment } from './outbox';
import { OutboxSettler } from './outbox-settle';

/** The row's claim is `$2` and its lease has not run out (on the database's clock). */
const CLAIM_HELD = 'key = $1 AND claim_token = $2 AND claim_expires > clock_timestamp()';
const lease = (param: string) =>
  `clock_timestamp() + make_interval(secs => ${param}::float8 / 1000)`;
const CLEAR_CLAIM = 'claim_owner = NULL, claim_token = NULL, claim_expires = NULL';

/**
 * The relays' store on `<schema>.outbox`: rows claimed oldest first with `FOR UPDATE SKIP
 * LOCKED` (a claim never waits on another relay's), a lease on the database's clock and
 * a fencing token from a sequence; every write carries the token and is refused once the
 * lease ran out or another relay claimed the row.
 */
export class PostgresOutboxStore implements OutboxStore<PostgresPoolClient> {
  readonly leaseMs: number;
  readonly #db: PostgresConnection;
  readonly #listener: OutboxListener;
  readonly #outbox: string;
  readonly #marks = new Coalescer((batch: Waiting<{ key: string; token: string }, boolean>[]) =>
    this.#markSent(batch),
  );
  readonly #settler: OutboxSettler;

  constructor(db: PostgresConnection, leaseMs: number, listener: OutboxListener) {
    this.#db = db;
    this.leaseMs = leaseMs;
    this.#listener = listener;
    this.#outbox = db.table('outbox');
    this.#settler = new OutboxSettler(db);
  }

  /** Every payment it holds, in enqueue order (`db.outbox.payments()`). */
  payments(options: { since?: number } = {}): AsyncIterable<OutboxPayment> {
    return listPayments(this.#db, options);
  }

  async claim(owner: string, limit: number, tenant?: string | null): Promise<OutboxClaim[]> {
    const { rows } = await this.#db.query(
      `UPDATE ${this.#outbox} AS o
       SET claim_owner = $1,
         claim_token = nextval('${this.#db.table('outbox_fence')}')::text || ':' || $1,
         claim_expires = ${lease('$3')}
       FROM (
         SELECT key FROM ${this.#outbox}
         WHERE delivered_at IS NULL
           AND (claim_expires IS NULL OR claim_expires <= clock_timestamp())
           AND (not_before IS NULL OR not_before <= clock_timestamp())
           AND (NOT $4::boolean OR tenant IS NOT DISTINCT FROM $5::text)
         ORDER BY seq LIMIT $2
         FOR UPDATE SKIP LOCKED
       ) AS due
       WHERE o.key = due.key
      RETURNING ${PAYMENT_COLUMNS.replaceAll(/(\w+)/g, 'o.$1')}, o.callback_url,
        o.claim_token, o.settled_at, o.seq`,
      [owner, limit, this.leaseMs, tenant !== undefined, tenant ?? null],
    );
    return rows
      .sort((a, b) => Number(a.seq) - Number(b.seq))
      .map((row) => ({
        ...toPayment(row),
        body: row.body,
        ...(typeof row.callback_url === 'string' ? { callbackUrl: row.callback_url } : {}),
        token: String(row.claim_token),
        settled: row.settled_at !== null,
      }));
  }

  /** Batched: the SENT marks asked for while one is being written go out together. */
  markSent(key: string, token: string): Promise<boolean> {
    return this.#marks.add({ key, token });
  }

  /** Batched (`OutboxSettler`): one statement, or one transaction, for many outcomes. */
  settle(
    key: string,
    token: string,
    outcome: OutboxOutcome,
    deliver?: (payment: OutboxPayment, tx: PostgresPoolClient) => Promise<void>,
  ): Promise<boolean> {
    return this.#settler.settle({ key, token, outcome, deliver });
  }

  async #markSent(batch: Waiting<{ key: string; token: string }, boolean>[]): Promise<void> {
    const { rows } = await this.#db.query(
      `UPDATE ${this.#outbox} AS o SET status = 'SENT'
       FROM unnest($1::text[], $2::text[]) AS c(key, token)
       WHERE o.key = c.key AND o.claim_token = c.token
         AND o.claim_expires > clock_timestamp() AND o.settled_at IS NULL
       RETURNING o.key`,
      [batch.map((w) => w.item.key), batch.map((w) => w.item.token)],
    );
    const marked = new Set(rows.map((row) => String(row.key)));
    for (const { item, resolve } of batch) resolve(marked.has(item.key));
  }

  async giveBack(
    key: string,
    token: string,
    retryInMs: number,
    outcome?: OutboxOutcome,
    setback?: OutboxSetback,
  ): Promise<boolean> {
    const values: unknown[] = [key, token, Math.max(0, Math.ceil(retryInMs))];
    const param = (value: unknown) => `$${values.push(value)}`;
    let set = '';
    if (outcome) {
      set += `, status = ${param(outcome.status)}, reason = ${param(outcome.reason ?? null)},
        financial_transaction_id = ${param(outcome.financialTransactionId ?? null)},
        settled_at = coalesce(settled_at, now())`;
    }
    if (setback) {
      const { name, code, at } = setback.error;
      set += `, last_error_name = ${param(name)}, last_error_code = ${param(code ?? null)},
        last_error_at = ${param(at)}, maybe_sent = maybe_sent OR ${param(setback.maybeSent)}`;
    }
    const { rowCount } = await this.#db.query(
      `UPDATE ${this.#outbox}
       SET ${CLEAR_CLAIM}, not_before = ${lease('$3')},
         attempts = attempts + CASE WHEN $3::float8 > 0 THEN 1 ELSE 0 END${set}
       WHERE ${CLAIM_HELD}`,
      values,
    );
    return rowCount === 1;
  }

  async renew(tokens: readonly string[]): Promise<Set<string>> {
    const { rows } = await this.#db.query(
      `UPDATE ${this.#outbox} SET claim_expires = ${lease('$2')}
       WHERE claim_token = ANY($1::text[]) AND claim_expires > clock_timestamp()
       RETURNING claim_token`,
      [tokens, this.leaseMs],
    );
    return new Set(rows.map((row) => String(row.claim_token)));
  }

  subscribe(wake: () => void): () => void {
    return this.#listener.subscribe(wake);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PostgresOutboxStore { schema: '${this.#db.schema}', leaseMs: ${this.leaseMs} }`;
  }
}
