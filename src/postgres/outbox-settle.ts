import type { OutboxOutcome, OutboxPayment } from 'momo-partner-sdk';
import { Coalescer, type Waiting } from './coalescer';
import { type PostgresConnection, type PostgresPoolClient, withClient } from './connection';
import { PAYMENT_COLUMNS, toPayment } from './outbox';

/** What `onSettled` is run as: the payment, in the transaction that marks it delivered. */
export type Deliver = (payment: OutboxPayment, tx: PostgresPoolClient) => Promise<void>;

/** One final outcome to record, under the claim that holds its row. */
export interface Settling {
  key: string;
  token: string;
  outcome: OutboxOutcome;
  deliver?: Deliver | undefined;
}

type Settle = Waiting<Settling, boolean>;

/** Delivery transactions in flight at once (each holds a pool client while onSettled runs). */
const DELIVERIES_IN_FLIGHT = 4;

/**
 * The final outcomes of many payments recorded in one statement, each row fenced by its
 * own claim (its token, its lease on the database's clock): without `deliver`, one
 * autocommitted UPDATE; with it, one transaction that runs every `deliver` of the batch,
 * in order, after the UPDATE and before COMMIT. A fenced-out row is not written and its
 * `deliver` not run (false).
 */
export class OutboxSettler {
  readonly #db: PostgresConnection;
  readonly #update: string;
  readonly #finals: Coalescer<Settling, boolean>;
  readonly #deliveries: Coalescer<Settling, boolean>;

  constructor(db: PostgresConnection) {
    this.#db = db;
    this.#update = `UPDATE ${db.table('outbox')} AS o
      SET status = c.status, reason = c.reason, financial_transaction_id = c.ftid,
        settled_at = coalesce(o.settled_at, now()), delivered_at = now(),
        claim_owner = NULL, claim_token = NULL, claim_expires = NULL
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
        AS c(key, token, status, reason, ftid)
      WHERE o.key = c.key AND o.claim_token = c.token AND o.claim_expires > clock_timestamp()
      RETURNING ${PAYMENT_COLUMNS.replaceAll(/(\w+)/g, 'o.$1')}`;
    this.#finals = new Coalescer((batch) => this.#record(batch));
    this.#deliveries = new Coalescer((batch) => this.#deliver(batch), {
      maxInFlight: DELIVERIES_IN_FLIGHT,
    });
  }

  settle(settling: Settling): Promise<boolean> {
    return (settling.deliver ? this.#deliveries : this.#finals).add(settling);
  }

  async #record(batch: Settle[]): Promise<void> {
    const { rows } = await this.#db.query(this.#update, values(batch));
    const written = new Set(rows.map((row) => String(row.key)));
    for (const { item, resolve } of batch) resolve(written.has(item.key));
  }

  /**
   * One transaction for the batch. A `deliver` that throws rolls it back: that payment's
   * write fails with its error, the others go again in the next batch (their `deliver`
   * runs again: at least once). A transaction `deliver` left failed (a statement of its
   * own failed, caught) ends in a ROLLBACK at COMMIT: each payment is then tried alone.
   */
  async #deliver(batch: Settle[]): Promise<void> {
    let threw: { settle: Settle; error: unknown } | undefined;
    let alone = false;
    await withClient(this.#db.pool, async (client, broke) => {
      try {
        await client.query('BEGIN');
        const { rows } = await client.query(this.#update, values(batch));
        const written = new Map(rows.map((row) => [String(row.key), toPayment(row)]));
        for (const settle of batch) {
          const payment = written.get(settle.item.key);
          if (!payment) continue; // fenced out: its new owner delivers it
          try {
            await settle.item.deliver?.(payment, client);
          } catch (error) {
            threw = { settle, error };
            throw error;
          }
        }
        const done = (await client.query('COMMIT')) as { command?: unknown };
        if (done.command === 'ROLLBACK') {
          if (batch.length === 1) {
            throw new Error(
              'onSettled left its transaction failed: rolled back, tried again later',
            );
          }
          alone = true;
        } else {
          for (const { item, resolve } of batch) resolve(written.has(item.key));
        }
      } catch (error) {
        await client.query('ROLLBACK').catch((failed: unknown) => {
          broke(failed instanceof Error ? failed : new Error('ROLLBACK failed'));
        });
        if (!threw) throw this.#db.translate(error);
        const { settle, error: thrown } = threw;
        settle.reject(this.#db.translate(thrown));
        this.#deliveries.retry(batch.filter((other) => other !== settle));
      }
    });
    if (alone) {
      for (const settle of batch) {
        await this.#deliver([settle]).catch((error: unknown) => settle.reject(error));
      }
    }
  }
}

function values(batch: readonly Settle[]): unknown[][] {
  const columns: unknown[][] = [[], [], [], [], []];
  for (const { item } of batch) {
    const { status, reason, financialTransactionId } = item.outcome;
    columns[0]?.push(item.key);
    columns[1]?.push(item.token);
    columns[2]?.push(status);
    columns[3]?.push(reason ?? null);
    columns[4]?.push(financialTransactionId ?? null);
  }
  return columns;
}
