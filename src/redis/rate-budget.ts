import type { RateClass, RateScope, SharedRateBudget } from 'momo-partner-sdk';
import { rateWindows } from '../stores/rate-windows';
import { StoreClock } from '../stores/store-clock';
import {
  lua,
  type RedisClient,
  RedisCommandError,
  RedisConnection,
  type RedisOptions,
} from './connection';

/**
 * One reservation in one or two windows at once. KEYS: the windows' sorted sets (each
 * reservation counted at its moment plus its spread, Redis time in ms). ARGV: marginMs,
 * spreadMs (how much later than its moment the asking process may send: StoreClock), then
 * each window's perSecond. On Redis' own clock (TIME): the next moment is the latest of
 * now and, in every window, its last count + 1000 / perSecond (even spacing) and its Nth
 * most recent + 1000 + marginMs (never N + 1 in a sliding second); that moment plus the
 * spread is added to every window, so each keeps its guarantee wherever the call goes
 * within it. Entries older than 2 s (and the margin) are dropped: they can no longer hold
 * anything back. Returns the moment and Redis' now, as strings (a Lua number reply would
 * lose the fraction).
 */
const RESERVE = lua(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local margin = tonumber(ARGV[1])
local spread = tonumber(ARGV[2])
local at = now
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[i + 2])
  local n = math.max(1, math.floor(rate))
  redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('(%.3f', now - 2000 - margin))
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if last[2] then at = math.max(at, tonumber(last[2]) + 1000 / rate) end
  local nth = redis.call('ZRANGE', key, -n, -n, 'WITHSCORES')
  if nth[2] and redis.call('ZCARD', key) >= n then
    at = math.max(at, tonumber(nth[2]) + 1000 + margin)
  end
end
local member = string.format('%.3f', at + spread)
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, member, member)
  redis.call('PEXPIRE', key, math.ceil(at + spread - now + 2000 + margin))
end
return { string.format('%.3f', at), string.format('%.3f', now) }`);

/**
 * The budget of `createRate` and `lookupRate` shared by every instance on one Redis
 * (the client option `rateBudget`): each call of a paced class reserves its moment with
 * one script on `{<prefix>rate}:<class>`; a tenant's (a `RateScope`) on
 * `{<prefix>rate}:key:<scope id>:<class>` and, under `globalLimits`,
 * `{<prefix>rate}:all:<class>` together: every window in one cluster slot, so that one
 * script reserves in both atomically. Moments are
 * taken on Redis' clock and handed back on this process's through the offset its
 * answers show (`StoreClock`: never early, and counted at the store as late as its
 * mapping may make it), so clocks that disagree between hosts or processes do not matter.
 */
export class RedisRateBudget implements SharedRateBudget {
  readonly scopes = true;
  readonly #redis: RedisConnection;
  readonly #clock = new StoreClock();

  constructor(client: RedisClient | RedisConnection, options: RedisOptions = {}) {
    this.#redis = client instanceof RedisConnection ? client : new RedisConnection(client, options);
  }

  async reserve(
    kind: RateClass,
    perSecond: number,
    marginMs: number,
    scope?: RateScope,
  ): Promise<number> {
    const tag = this.#redis.tag('rate');
    const windows = rateWindows('redis', kind, perSecond, marginMs, scope).map(
      ([name, rate]): [string, number] => [`${tag}:${name}`, rate],
    );
    return this.#clock.reserve(async (spreadMs) => {
      const reply = await this.#redis.script(
        RESERVE,
        windows.map(([key]) => key),
        [String(marginMs), String(spreadMs), ...windows.map(([, rate]) => String(rate))],
      );
      const [at, now] = Array.isArray(reply) ? reply.map(Number) : [];
      if (!(Number.isFinite(at) && Number.isFinite(now))) {
        throw new RedisCommandError('EVALSHA', 'UNEXPECTED_REPLY');
      }
      return { at: at as number, now: now as number };
    });
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `RedisRateBudget { prefix: '${this.#redis.prefix}' }`;
  }
}
