import type { RateClass, SharedRateBudget } from 'momo-partner-sdk';
import {
  lua,
  optionError,
  type RedisClient,
  RedisCommandError,
  RedisConnection,
  type RedisOptions,
} from './connection';

/**
 * One reservation. KEYS: the class's sorted set (reserved moments, Redis time in ms).
 * ARGV: perSecond, marginMs. On Redis' own clock (TIME): the next moment is the latest of
 * now, the last reservation + 1000 / perSecond (even spacing), and the Nth most recent
 * + 1000 + marginMs (never N + 1 in a sliding second). Entries older than 2 s (and the
 * margin) are dropped: they can no longer hold anything back. Returns the moment and
 * Redis' now, as strings (a Lua number reply would lose the fraction).
 */
const RESERVE = lua(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local rate = tonumber(ARGV[1])
local margin = tonumber(ARGV[2])
local n = math.max(1, math.floor(rate))
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('(%.3f', now - 2000 - margin))
local at = now
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then at = math.max(at, tonumber(last[2]) + 1000 / rate) end
local nth = redis.call('ZRANGE', KEYS[1], -n, -n, 'WITHSCORES')
if nth[2] and redis.call('ZCARD', KEYS[1]) >= n then
  at = math.max(at, tonumber(nth[2]) + 1000 + margin)
end
local member = string.format('%.3f', at)
redis.call('ZADD', KEYS[1], member, member)
redis.call('PEXPIRE', KEYS[1], math.ceil(at - now + 2000 + margin))
return { member, string.format('%.3f', now) }`);

const KINDS: readonly string[] = ['create', 'lookup'];

/**
 * The budget of `createRate` and `lookupRate` shared by every instance on one Redis
 * (the client option `rateBudget`): each call of a paced class reserves its moment with
 * one script on `{<prefix>rate}:<class>` (both classes in one cluster slot). Moments are
 * taken on Redis' clock and handed back on this process's, by the delay Redis gave
 * (measured from when its answer came: a little late, never early), so clocks that
 * disagree between hosts do not matter.
 */
export class RedisRateBudget implements SharedRateBudget {
  readonly #redis: RedisConnection;

  constructor(client: RedisClient | RedisConnection, options: RedisOptions = {}) {
    this.#redis = client instanceof RedisConnection ? client : new RedisConnection(client, options);
  }

  async reserve(kind: RateClass, perSecond: number, marginMs: number): Promise<number> {
    if (!KINDS.includes(kind)) throw optionError('kind', "must be 'create' or 'lookup'");
    if (!(Number.isFinite(perSecond) && perSecond > 0)) {
      throw optionError('perSecond', 'must be a positive number');
    }
    if (!(Number.isFinite(marginMs) && marginMs >= 0)) {
      throw optionError('marginMs', 'must be a number of milliseconds, 0 or more');
    }
    const key = `${this.#redis.tag('rate')}:${kind}`;
    const reply = await this.#redis.script(RESERVE, [key], [String(perSecond), String(marginMs)]);
    const answeredAt = Date.now();
    const [at, now] = Array.isArray(reply) ? reply.map(Number) : [];
    if (!(Number.isFinite(at) && Number.isFinite(now))) {
      throw new RedisCommandError('EVALSHA', 'UNEXPECTED_REPLY');
    }
    return answeredAt + Math.max(0, (at as number) - (now as number));
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `RedisRateBudget { prefix: '${this.#redis.prefix}' }`;
  }
}
