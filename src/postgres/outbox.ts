import { type OutboxIntent, type OutboxPayment, ValidationError } from 'momo-partner-sdk';
import { type CheckedOutboxIntent, checkOutboxIntent } from 'momo-partner-sdk/outbox';
import type { PostgresConnection, PostgresPoolClient } from './connection';

/** The columns an `OutboxPayment` is read from (its amount and currency from the body). */
export const PAYMENT_COLUMNS =
  'key, operation, reference_id, status, reason, financial_transaction_id, body, attempts, last_error_name, last_error_code, last_error_at, tenant';

/** A row as an `OutboxPayment`, its reason, transaction id and last error only when there are. */
export function toPayment(row: Record<string, unknown>): OutboxPayment {
  const payment: OutboxPayment = {
    key: String(row.key),
    operation: String(row.operation),
    referenceId: String(row.reference_id),
    status: row.status as OutboxPayment['status'],
    attempts: Number(row.attempts ?? 0),
  };
  if (typeof row.reason === 'string') payment.reason = row.reason;
  if (typeof row.tenant === 'string') payment.tenant = row.tenant;
  if (typeof row.financial_transaction_id === 'string') {
    payment.financialTransactionId = row.financial_transaction_id;
  }
  const { amount, currency } = (row.body ?? {}) as { amount?: unknown; currency?: unknown };
  if (typeof amount === 'string') payment.amount = amount;
  if (typeof currency === 'string') payment.currency = currency;
  if (typeof row.last_error_name === 'string') {
    payment.lastError = {
      name: row.last_error_name,
      ...(typeof row.last_error_code === 'string' ? { code: row.last_error_code } : {}),
      at: Number(row.last_error_at),
    };
  }
  return payment;
}

/** The channel `enqueue` notifies and the relays' LISTEN client listens on. */
export const channelOf = (schema: string) => `${schema}.outbox`;

const SAVEPOINT = 'momo_outbox';

const clientError = (message: string) =>
  new ValidationError([{ path: 'client', message }], { operation: 'outbox.enqueue' });

/** The client, once checked to be a checked-out client (never the pool itself). */
function checkClient(client: unknown): PostgresPoolClient {
  const candidate = client as { query?: unknown; totalCount?: unknown } | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.query !== 'function'
  ) {
    throw clientError(
      'must be the pg client of your transaction (await pool.connect(), then BEGIN)',
    );
  }
  if (typeof candidate.totalCount === 'number') {
    throw clientError(
      'must be a client of a BEGIN (await pool.connect(), then BEGIN), not the pool: the intent must commit with your rows',
    );
  }
  return candidate as PostgresPoolClient;
}

/**
 * `db.outbox.enqueue(client, intent)`: the intent checked, then written on the partner's
 * client inside their transaction, under a savepoint (a refusal of ours leaves their
 * transaction usable). Visible to the relays, and their NOTIFY delivered, only if it commits.
 */
export async function enqueue(
  db: PostgresConnection,
  client: unknown,
  input: OutboxIntent,
): Promise<{ referenceId: string }> {
  const tx = checkClient(client);
  const intent = await checkOutboxIntent(input);
  try {
    await tx.query(`SAVEPOINT ${SAVEPOINT}`);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === '25P01') {
      throw clientError(
        'is outside a transaction: run BEGIN on it first, then enqueue, then COMMIT',
      );
    }
    if (code === '25P02') {
      throw clientError(
        'is in a failed transaction (an earlier statement failed): ROLLBACK and start again',
      );
    }
    throw error;
  }
  try {
    const referenceId = await write(db, tx, intent);
    await tx.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
    return { referenceId };
  } catch (error) {
    await tx
      .query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`)
      .then(() => tx.query(`RELEASE SAVEPOINT ${SAVEPOINT}`))
      .catch(() => undefined);
    throw db.translate(error);
  }
}

/** The row inserted (and the relays notified), or the reference id of the same intent enqueued before. */
async function write(
  db: PostgresConnection,
  tx: PostgresPoolClient,
  intent: CheckedOutboxIntent,
): Promise<string> {
  const outbox = db.table('outbox');
  // One statement: the row, and the NOTIFY only when a row was inserted.
  const inserted = await tx.query(
    `WITH inserted AS (
       INSERT INTO ${outbox} (key, operation, body, callback_url, fingerprint, reference_id, tenant)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6, $8)
       ON CONFLICT (key) DO NOTHING RETURNING reference_id
     )
     SELECT reference_id, pg_notify($7, '') FROM inserted`,
    [
      intent.key,
      intent.operation,
      JSON.stringify(intent.body),
      intent.callbackUrl ?? null,
      intent.fingerprint,
      intent.referenceId,
      channelOf(db.schema),
      intent.tenant ?? null,
    ],
  );
  const fresh = inserted.rows[0]?.reference_id;
  if (typeof fresh === 'string') return fresh;
  const { rows } = await tx.query(
    `SELECT fingerprint, reference_id, tenant FROM ${outbox} WHERE key = $1`,
    [intent.key],
  );
  if ((rows[0]?.tenant ?? undefined) !== intent.tenant) {
    // Another tenant's payment (or one of no tenant): its reference id is not this one's.
    throw new ValidationError(
      [{ path: 'key', message: `"${intent.key}" was enqueued by another tenant; not stored` }],
      { operation: 'outbox.enqueue' },
    );
  }
  if (rows[0]?.fingerprint !== intent.fingerprint) {
    throw new ValidationError(
      [
        {
          path: 'key',
          message: `"${intent.key}" was enqueued with another operation or body; not stored`,
        },
      ],
      { operation: 'outbox.enqueue' },
    );
  }
  return String(rows[0]?.reference_id);
}

/** `db.outbox.get(key)`: the payment as recorded (committed), or undefined. */
export async function getPayment(
  db: PostgresConnection,
  key: string,
): Promise<OutboxPayment | undefined> {
  const { rows } = await db.query(
    `SELECT ${PAYMENT_COLUMNS} FROM ${db.table('outbox')} WHERE key = $1`,
    [key],
  );
  return rows[0] ? toPayment(rows[0]) : undefined;
}

/** `db.outbox.pending()`: the committed payments not yet final (QUEUED or SENT), oldest first. */
export async function pendingPayments(db: PostgresConnection): Promise<OutboxPayment[]> {
  const { rows } = await db.query(
    `SELECT ${PAYMENT_COLUMNS} FROM ${db.table('outbox')}
     WHERE delivered_at IS NULL AND status IN ('QUEUED', 'SENT') ORDER BY seq`,
  );
  return rows.map(toPayment);
}

/** Payments read per query by `listPayments`: bounded memory whatever the outbox's size. */
const PAGE = 500;

/**
 * `db.outbox.payments({ since })`: every payment the outbox holds, whatever its status,
 * in enqueue order, a page at a time; with `since` (epoch ms), those enqueued at or after it.
 */
export async function* listPayments(
  db: PostgresConnection,
  options: { since?: number } = {},
): AsyncIterable<OutboxPayment> {
  const since = options.since === undefined ? null : new Date(options.since);
  for (let after = -1; ; ) {
    const { rows } = await db.query(
      `SELECT ${PAYMENT_COLUMNS}, seq FROM ${db.table('outbox')}
       WHERE seq > $1 AND ($2::timestamptz IS NULL OR enqueued_at >= $2)
       ORDER BY seq LIMIT ${PAGE}`,
      [after, since],
    );
    for (const row of rows) yield toPayment(row);
    if (rows.length < PAGE) return;
    after = Number(rows[rows.length - 1]?.seq);
  }
}
