import { type OutboxPayment, ValidationError } from 'momo-partner-sdk';
import type { PostgresConnection } from './connection';
import { channelOf, PAYMENT_COLUMNS, toPayment } from './outbox';

const refusal = (path: string, message: string) =>
  new ValidationError([{ path, message }], { operation: 'outbox.cancel' });

/**
 * `db.outbox.cancel(key, reason?)`: ends an intent never sent as CANCELLED, in one
 * statement that takes it only while it is QUEUED, unclaimed and never sent with an
 * answer not known (a send that met a 5xx or a lost connection may have reached the
 * provider). The relays are notified: one claims it and runs `onSettled` with it, in the
 * transaction that marks it delivered. A payment already CANCELLED is returned as it is;
 * any other is refused (a ValidationError naming the key): money may move.
 */
export async function cancelPayment(
  db: PostgresConnection,
  key: unknown,
  reason?: unknown,
): Promise<OutboxPayment> {
  if (typeof key !== 'string' || key === '') {
    throw refusal('key', 'must be the key of an enqueued intent (a non-empty string)');
  }
  if (reason !== undefined && (typeof reason !== 'string' || reason.length > 200)) {
    throw refusal('reason', 'must be a string of at most 200 characters');
  }
  const outbox = db.table('outbox');
  const { rows } = await db.query(
    `WITH cancelled AS (
       UPDATE ${outbox}
       SET status = 'CANCELLED', reason = $2, settled_at = now(), not_before = NULL
       WHERE key = $1 AND status = 'QUEUED' AND settled_at IS NULL
         AND claim_token IS NULL AND NOT maybe_sent
       RETURNING ${PAYMENT_COLUMNS}
     )
     SELECT cancelled.*, pg_notify($3, '') FROM cancelled`,
    [key, reason ?? 'CANCELLED', channelOf(db.schema)],
  );
  if (rows[0]) return toPayment(rows[0]);
  const found = await db.query(
    `SELECT ${PAYMENT_COLUMNS}, claim_token, maybe_sent FROM ${outbox} WHERE key = $1`,
    [key],
  );
  const row = found.rows[0];
  if (!row) throw refusal('key', `no intent was enqueued under "${key}"`);
  const payment = toPayment(row);
  if (payment.status === 'CANCELLED') return payment;
  if (payment.status !== 'QUEUED') {
    const final = payment.status === 'SENT' ? 'the provider accepted it' : 'it is final';
    throw refusal(
      'key',
      `"${key}" was sent (status ${payment.status}: ${final}); not cancelled, money may move`,
    );
  }
  const why =
    row.maybe_sent === true
      ? 'a send met an answer not known (the provider may hold it)'
      : 'a relay holds it and may be sending it now';
  throw refusal('key', `"${key}" may have reached the provider: ${why}; not cancelled`);
}
