import type { RateClass, RateScope, SharedRateBudget } from 'momo-partner-sdk';
import { pauseWindow, rateWindows } from '../stores/rate-windows';
import { notePause, StoreClock } from '../stores/store-clock';
import {
  lua,
  type RedisClient,
  RedisCommandError,
  RedisConnection,
  type RedisOptions,
} from './connection';

/**
 * One reservation in one or two windows at once. KEYS: the windows' sorted sets (each
 * reservation counted at its moment plus its spread, Redis time in ms), the pause, then
 * each window's last moment. ARGV: marginMs, spreadMs (how much later than its moment the
 * asking process may send: StoreClock), then each window's perSecond. On Redis' own clock
 * (TIME): the next moment is the latest of now and, in every window, its last moment +
 * 1000 / perSecond (even spacing, of the moments themselves) and its Nth most recent count
 * + 1000 + marginMs (never N + 1 in a sliding second, wherever each call went within its
 * spread). Only the window rule needs the spread: counted in the spacing too, it made
 * every two reservations a spread apart, which capped a loaded fleet at a few calls a
 * second. Entries older than 2 s (and the margin) are dropped: they can no longer hold
 * anything back. Returns the moment and Redis' now, as strings (a Lua number reply would
 * lose the fraction).
 */
const RESERVE = lua(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local margin = tonumber(ARGV[1])
local spread = tonumber(ARGV[2])
local windows = #ARGV - 2
local paused = tonumber(redis.call('GET', KEYS[windows + 1]) or '0')
local at = math.max(now, paused)
for i = 1, windows do
  local key = KEYS[i]
  local rate = tonumber(ARGV[i + 2])
  local n = math.max(1, math.floor(rate))
  redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('(%.3f', now - 2000 - margin))
  local last = tonumber(redis.call('GET', KEYS[windows + 1 + i]) or '')
  if last then at = math.max(at, last + 1000 / rate) end
  local nth = redis.call('ZRANGE', key, -n, -n, 'WITHSCORES')
  if nth[2] and redis.call('ZCARD', key) >= n then
    at = math.max(at, tonumber(nth[2]) + 1000 + margin)
  end
end
local moment = string.format('%.3f', at)
local ttl = math.ceil(at + spread - now + 2000 + margin)
for i = 1, windows do
  redis.call('ZADD', KEYS[i], string.format('%.3f', at + spread), moment)
  redis.call('PEXPIRE', KEYS[i], ttl)
  redis.call('SET', KEYS[windows + 1 + i], moment, 'PX', ttl)
end
return { moment, string.format('%.3f', now), string.format('%.3f', paused) }`);

/**
 * A pause the provider asked for, kept for every process: KEYS[1] holds its end (Redis
 * time in ms), moved only later, expiring a second after it. ARGV: its length in ms.
 */
const PAUSE = lua(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local ms = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if now + ms > current then
  redis.call('SET', KEYS[1], string.format('%.3f', now + ms), 'PX', math.ceil(ms) + 1000)
end
return 1`);

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
  /** Per paused window: the end of its pause the latest reservation showed (this process's clock). */
  readonly #pausedUntil = new Map<string, number>();

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
    const paused = `${tag}:pause:${pauseWindow('redis', kind, 0, scope)}`;
    let reply: { at: number; pausedAt: number } | undefined;
    const local = await this.#clock.reserve(async (spreadMs) => {
      const answer = await this.#redis.script(
        RESERVE,
        [...windows.map(([key]) => key), paused, ...windows.map(([key]) => `${key}:last`)],
        [String(marginMs), String(spreadMs), ...windows.map(([, rate]) => String(rate))],
      );
      const [at, now, pausedAt] = Array.isArray(answer) ? answer.map(Number) : [];
      if (!(Number.isFinite(at) && Number.isFinite(now))) {
        throw new RedisCommandError('EVALSHA', 'UNEXPECTED_REPLY');
      }
      reply = { at: at as number, pausedAt: Number.isFinite(pausedAt) ? (pausedAt as number) : 0 };
      return { at: at as number, now: now as number };
    });
    notePause(this.#pausedUntil, paused, reply, local);
    return local;
  }

  /** Every reservation of the class (the scope's window) after it waits `ms` from Redis' now. */
  async pause(kind: RateClass, ms: number, scope?: RateScope): Promise<void> {
    const key = `${this.#redis.tag('rate')}:pause:${pauseWindow('redis', kind, ms, scope)}`;
    await this.#redis.script(PAUSE, [key], [String(ms)]);
  }

  pausedUntil(kind: RateClass, scope?: RateScope): number {
    const key = `${this.#redis.tag('rate')}:pause:${pauseWindow('redis', kind, 0, scope)}`;
    return this.#pausedUntil.get(key) ?? 0;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `RedisRateBudget { prefix: '${this.#redis.prefix}' }`;
  }
}
