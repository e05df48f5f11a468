import type { RateClass, RateScope, SharedRateBudget } from 'momo-partner-sdk';
import { pauseWindow, rateWindows } from '../stores/rate-windows';
import { notePause, StoreClock } from '../stores/store-clock';
import type { PostgresConnection } from './connection';

/**
 * The budget of `createRate` and `lookupRate` shared by every instance on one PostgreSQL
 * (the client option `rateBudget`, `createPostgresState(pool).rateBudget`): each call of a
 * paced class reserves its moment with one statement (`<schema>.rate_reserve`), which
 * locks the rows of its windows (`<schema>.rate_windows`: the class's; a tenant's key and
 * all tenants' together) and returns the earliest moment every window allows, on the
 * database's clock (migration 7: counted there at that moment plus this process's spread).
 * Handed back on this process's clock through the offset its answers show (`StoreClock`:
 * never early, and counted as late as its mapping may make it): clocks that disagree
 * between hosts or processes do not matter. The same guarantees as the Redis budget's.
 */
export class PostgresRateBudget implements SharedRateBudget {
  readonly scopes = true;
  readonly #db: PostgresConnection;
  readonly #clock = new StoreClock();
  /** Per paused window: the end of its pause the latest reservation showed (this process's clock). */
  readonly #pausedUntil = new Map<string, number>();

  constructor(db: PostgresConnection) {
    this.#db = db;
  }

  async reserve(
    kind: RateClass,
    perSecond: number,
    marginMs: number,
    scope?: RateScope,
  ): Promise<number> {
    const windows = rateWindows('postgres', kind, perSecond, marginMs, scope);
    const names = windows.map(([name]) => name);
    const rates = windows.map(([, rate]) => rate);
    let reply: { at: number; pausedAt: number } | undefined;
    const local = await this.#clock.reserve(async (spreadMs) => {
      const { rows } = await this.#db.query(
        `SELECT ${this.#db.table('rate_reserve')}($1::text[], $2::float8[], $3::float8, $4::float8) AS reply`,
        [names, rates, marginMs, spreadMs],
      );
      const answer = rows[0]?.reply;
      const [at, now, pausedAt] = Array.isArray(answer) ? answer.map(Number) : [];
      if (!(Number.isFinite(at) && Number.isFinite(now))) {
        throw new TypeError('rate_reserve() did not answer with a moment');
      }
      reply = { at: at as number, pausedAt: Number.isFinite(pausedAt) ? (pausedAt as number) : 0 };
      return { at: at as number, now: now as number };
    });
    notePause(this.#pausedUntil, pauseWindow('postgres', kind, 0, scope), reply, local);
    return local;
  }

  /** Every reservation of the class (the scope's window) after it waits `ms` from the database's now. */
  async pause(kind: RateClass, ms: number, scope?: RateScope): Promise<void> {
    const window = pauseWindow('postgres', kind, ms, scope);
    await this.#db.query(`SELECT ${this.#db.table('rate_pause')}($1::text, $2::float8)`, [
      window,
      ms,
    ]);
  }

  pausedUntil(kind: RateClass, scope?: RateScope): number {
    return this.#pausedUntil.get(pauseWindow('postgres', kind, 0, scope)) ?? 0;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PostgresRateBudget { schema: '${this.#db.schema}' }`;
  }
}
