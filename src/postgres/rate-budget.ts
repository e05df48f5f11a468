import type { RateClass, RateScope, SharedRateBudget } from 'momo-partner-sdk';
import { optionError, type PostgresConnection } from './connection';

const KINDS: readonly string[] = ['create', 'lookup'];
/** A scope's id goes into a row's name: a hash, never a raw subscription key. */
const SCOPE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The windows a reservation is made in, with their rates: the class's, or a scope's (and all scopes'). */
function windowsOf(kind: RateClass, perSecond: number, scope: RateScope | undefined) {
  if (scope === undefined) return { names: [kind], rates: [perSecond] };
  if (!SCOPE_ID.test(scope.id)) {
    throw optionError('scope.id', 'must be 1 to 64 letters, digits, _ or - (a hash)');
  }
  const names = [`key:${scope.id}:${kind}`];
  const rates = [perSecond];
  const total = scope.totalPerSecond;
  if (total !== undefined) {
    if (!(Number.isFinite(total) && total > 0)) {
      throw optionError('scope.totalPerSecond', 'must be a positive number');
    }
    names.push(`all:${kind}`);
    rates.push(total);
  }
  return { names, rates };
}

/**
 * The budget of `createRate` and `lookupRate` shared by every instance on one PostgreSQL
 * (the client option `rateBudget`, `createPostgresState(pool).rateBudget`): each call of a
 * paced class reserves its moment with one statement (`<schema>.rate_reserve`), which
 * locks the rows of its windows (`<schema>.rate_windows`: the class's; a tenant's key and
 * all tenants' together) and returns the earliest moment every window allows, on the
 * database's clock. Handed back on this process's clock by the delay the database gave,
 * measured from when its answer came (a little late, never early): clocks that disagree
 * between hosts do not matter. The same guarantees as the Redis budget's.
 */
export class PostgresRateBudget implements SharedRateBudget {
  readonly scopes = true;
  readonly #db: PostgresConnection;

  constructor(db: PostgresConnection) {
    this.#db = db;
  }

  async reserve(
    kind: RateClass,
    perSecond: number,
    marginMs: number,
    scope?: RateScope,
  ): Promise<number> {
    if (!KINDS.includes(kind)) throw optionError('kind', "must be 'create' or 'lookup'");
    if (!(Number.isFinite(perSecond) && perSecond > 0)) {
      throw optionError('perSecond', 'must be a positive number');
    }
    if (!(Number.isFinite(marginMs) && marginMs >= 0)) {
      throw optionError('marginMs', 'must be a number of milliseconds, 0 or more');
    }
    const { names, rates } = windowsOf(kind, perSecond, scope);
    const { rows } = await this.#db.query(
      `SELECT ${this.#db.table('rate_reserve')}($1::text[], $2::float8[], $3::float8) AS reply`,
      [names, rates, marginMs],
    );
    const answeredAt = Date.now();
    const reply = rows[0]?.reply;
    const [at, now] = Array.isArray(reply) ? reply.map(Number) : [];
    if (!(Number.isFinite(at) && Number.isFinite(now))) {
      throw new TypeError('rate_reserve() did not answer with a moment');
    }
    return answeredAt + Math.max(0, (at as number) - (now as number));
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PostgresRateBudget { schema: '${this.#db.schema}' }`;
  }
}
