import {
  type Journal,
  type JournalEntry,
  type JournalOutcome,
  type JournalRecord,
  referenceKey,
} from 'momo-partner-sdk';
import type { PostgresConnection } from './connection';

/** Entries read per query by `entries()`: bounded memory whatever the journal's size. */
const PAGE = 500;
/** Finished entries older than the retention are deleted at most this often per journal. */
const SWEEP_EVERY_MS = 60_000;

const COLUMNS =
  'reference_id, product, operation, created_at, base_url, target_environment, tag, outcome, finished_at, reason, tenant';

/**
 * The journal in the partner's PostgreSQL: shared by every instance, and an entry is
 * durable once `record()` returns (its statement committed). One row per reference id;
 * pending entries have no outcome; finished ones stay readable for `retentionMs`, then
 * are deleted. No secrets, no personal data.
 */
export class PostgresJournal implements Journal {
  readonly #db: PostgresConnection;
  readonly #retentionMs: number;
  #sweptAt = 0;

  constructor(db: PostgresConnection, retentionMs: number) {
    this.#db = db;
    this.#retentionMs = retentionMs;
  }

  /** A new row, or a finished one recorded again (a new seq: the newest record); a pending one is kept. */
  async record(entry: JournalRecord): Promise<void> {
    const journal = this.#db.table('journal');
    const seq = `nextval('${this.#db.table('journal_seq')}')`;
    await this.#db.query(
      `INSERT INTO ${journal} AS j (id, ${COLUMNS}, seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL, NULL, $9, ${seq})
       ON CONFLICT (id) DO UPDATE SET reference_id = EXCLUDED.reference_id,
         product = EXCLUDED.product, operation = EXCLUDED.operation,
         created_at = EXCLUDED.created_at, base_url = EXCLUDED.base_url,
         target_environment = EXCLUDED.target_environment, tag = EXCLUDED.tag,
         tenant = EXCLUDED.tenant,
         outcome = NULL, finished_at = NULL, reason = NULL, seq = ${seq}
       WHERE j.outcome IS NOT NULL`,
      [
        referenceKey(entry.referenceId),
        entry.referenceId,
        entry.product,
        entry.operation,
        entry.createdAt,
        entry.baseUrl,
        entry.targetEnvironment,
        entry.tag ?? null,
        entry.tenant ?? null,
      ],
    );
  }

  /** The first outcome wins; an id the journal does not hold is left alone. */
  async finish(
    referenceId: string,
    outcome: JournalOutcome,
    finishedAt: number,
    reason?: string,
  ): Promise<void> {
    await this.#db.query(
      `UPDATE ${this.#db.table('journal')} SET outcome = $2, finished_at = $3, reason = $4
       WHERE id = $1 AND outcome IS NULL`,
      [referenceKey(referenceId), outcome, finishedAt, reason ?? null],
    );
    await this.#sweep(finishedAt);
  }

  async get(referenceId: string): Promise<JournalEntry | undefined> {
    const { rows } = await this.#db.query(
      `SELECT ${COLUMNS} FROM ${this.#db.table('journal')}
       WHERE id = $1 AND (outcome IS NULL OR finished_at > $2)`,
      [referenceKey(referenceId), Date.now() - this.#retentionMs],
    );
    return rows[0] ? toEntry(rows[0]) : undefined;
  }

  async pending(): Promise<JournalEntry[]> {
    const { rows } = await this.#db.query(
      `SELECT ${COLUMNS} FROM ${this.#db.table('journal')}
       WHERE outcome IS NULL ORDER BY created_at, seq`,
    );
    return rows.map(toEntry);
  }

  /**
   * Every entry within its retention (pending, and finished ones not yet past it), oldest
   * first, read a page at a time; with `since`, those created at or after it.
   */
  async *entries(options: { since?: number } = {}): AsyncIterable<JournalEntry> {
    const journal = this.#db.table('journal');
    const retained = Date.now() - this.#retentionMs;
    // Keyset pages on (created_at, seq): the first from `since`, each next after the last row.
    let from = `created_at >= $2 AND $3::bigint IS NULL`;
    let params: unknown[] = [retained, options.since ?? Number.MIN_SAFE_INTEGER, null];
    for (;;) {
      const { rows } = await this.#db.query(
        `SELECT ${COLUMNS}, seq FROM ${journal}
         WHERE (outcome IS NULL OR finished_at > $1) AND ${from}
         ORDER BY created_at, seq LIMIT ${PAGE}`,
        params,
      );
      for (const row of rows) yield toEntry(row);
      const last = rows[rows.length - 1];
      if (rows.length < PAGE || !last) return;
      from = `(created_at, seq) > ($2::bigint, $3::bigint)`;
      params = [retained, last.created_at, last.seq];
    }
  }

  /** Deletes the entries finished longer ago than the retention (at most once a minute). */
  async #sweep(now: number): Promise<void> {
    if (now - this.#sweptAt < SWEEP_EVERY_MS) return;
    this.#sweptAt = now;
    await this.#db.query(
      `DELETE FROM ${this.#db.table('journal')} WHERE outcome IS NOT NULL AND finished_at <= $1`,
      [now - this.#retentionMs],
    );
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PostgresJournal { schema: '${this.#db.schema}' }`;
  }
}

/** A row as an entry (bigint columns come back as strings from node-postgres). */
function toEntry(row: Record<string, unknown>): JournalEntry {
  const entry = {
    product: row.product,
    operation: row.operation,
    referenceId: row.reference_id,
    createdAt: Number(row.created_at),
    baseUrl: row.base_url,
    targetEnvironment: row.target_environment,
  } as JournalEntry;
  if (typeof row.tag === 'string') entry.tag = row.tag;
  if (typeof row.tenant === 'string') entry.tenant = row.tenant;
  if (typeof row.outcome === 'string') {
    entry.outcome = row.outcome as JournalOutcome;
    entry.finishedAt = Number(row.finished_at);
    if (typeof row.reason === 'string') entry.reason = row.reason;
  }
  return entry;
}
