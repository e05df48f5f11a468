import type {
  StoredSubscription,
  Subscription,
  SubscriptionFilter,
  SubscriptionPlan,
  SubscriptionStore,
} from 'momo-partner-sdk';
import { type RedisClient, RedisConnection, type RedisOptions } from './connection';
import { INDEX, INDEX_BEFORE, PUT } from './subscription-scripts';

/** Index entries read per round trip: bounded memory whatever the number of subscriptions. */
const PAGE = 200;

/**
 * Subscriptions in Redis (single node or Cluster), for any number of runners: each
 * subscription one hash under its own hash tag, written by compare-and-set in a Lua
 * script; plans, the list of keys and the due index (a sorted set by `dueAt`) under one
 * shared tag, so `due(now)` reads only the entries due, never every subscription. On a
 * Cluster the index is one slot (every write touches it once); the records spread.
 * A write keeps the index early, never late, across crashes (subscription-scripts.ts).
 */
export class RedisSubscriptionStore implements SubscriptionStore {
  readonly #redis: RedisConnection;

  constructor(client: RedisClient | RedisConnection, options: RedisOptions = {}) {
    this.#redis = client instanceof RedisConnection ? client : new RedisConnection(client, options);
  }

  /** Stores a plan under its id (a plan of that id again replaces it). */
  async putPlan(plan: SubscriptionPlan): Promise<void> {
    const plans = this.#key('plans');
    await this.#redis.command(['HSET', plans, plan.id, JSON.stringify(plan)], plans);
  }

  /** The plan of `id`, or undefined. */
  async getPlan(id: string): Promise<SubscriptionPlan | undefined> {
    const plans = this.#key('plans');
    const json = await this.#redis.command(['HGET', plans, id], plans);
    return typeof json === 'string' ? (JSON.parse(json) as SubscriptionPlan) : undefined;
  }

  /** The subscription of `key` with its version, or undefined. */
  async get(key: string): Promise<StoredSubscription | undefined> {
    const record = this.#record(key);
    const reply = (await this.#redis.command(['HMGET', record, 'v', 's'], record)) as unknown[];
    const [version, json] = reply ?? [];
    if (typeof json !== 'string' || version === null || version === undefined) return undefined;
    return { subscription: JSON.parse(json) as Subscription, version: Number(version) };
  }

  async put(subscription: Subscription, expected: number | undefined): Promise<number | undefined> {
    const { key } = subscription;
    const dueAt = subscription.dueAt === undefined ? '' : String(subscription.dueAt);
    const next = String((expected ?? 0) + 1);
    await this.#redis.script(INDEX_BEFORE, this.#indexKeys(true), [key, next, dueAt]);
    const written = await this.#redis.script(
      PUT,
      [this.#record(key)],
      [expected === undefined ? '' : String(expected), JSON.stringify(subscription)],
    );
    if (written === null || written === undefined || written === false) return undefined;
    const version = Number(written);
    await this.#redis.script(INDEX, this.#indexKeys(false), [key, String(version), dueAt]);
    return version;
  }

  /** With `tenant`, its own alone: each entry's record is read anyway (its dueAt checked). */
  async due(now: number, limit: number, tenant?: string | null): Promise<string[]> {
    if (limit <= 0) return [];
    const size = Math.min(PAGE, Math.max(limit, 16));
    const found: { key: string; at: number }[] = [];
    // Entries come in score order and a score is never later than its record's dueAt: once
    // `limit` are found, entries scored at or past the limit-th soonest need not be read.
    for (let offset = 0; ; offset += size) {
      const page = await this.#entries(now, offset, size);
      const records = await this.#read(page.map((e) => e.key));
      const repairs: Promise<void>[] = [];
      for (const [i, entry] of page.entries()) {
        const stored = records[i];
        const dueAt = stored?.subscription.dueAt;
        if (dueAt !== entry.score) repairs.push(this.#repair(entry.key, stored));
        const mine = tenant === undefined || (stored?.subscription.tenant ?? null) === tenant;
        if (mine && dueAt !== undefined && dueAt <= now) found.push({ key: entry.key, at: dueAt });
      }
      await Promise.all(repairs);
      found.sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const last = page[page.length - 1];
      const kth = found[limit - 1];
      if (page.length < size || (last && kth && last.score >= kth.at)) {
        return found.slice(0, limit).map((f) => f.key);
      }
    }
  }

  /** The subscriptions the filter names (by status, due before a time, at most a limit). */
  async list(filter: SubscriptionFilter = {}): Promise<Subscription[]> {
    const out: Subscription[] = [];
    const limit = filter.limit ?? Number.POSITIVE_INFINITY;
    for (let offset = 0; out.length < limit; offset += PAGE) {
      const keys =
        filter.dueBefore === undefined
          ? await this.#keys(offset)
          : (await this.#entries(filter.dueBefore - 1, offset, PAGE)).map((e) => e.key);
      for (const stored of await this.#read(keys)) {
        const s = stored?.subscription;
        if (!s || (filter.status !== undefined && s.status !== filter.status)) continue;
        if (filter.tenant !== undefined && (s.tenant ?? null) !== filter.tenant) continue;
        if (
          filter.dueBefore !== undefined &&
          !(s.dueAt !== undefined && s.dueAt < filter.dueBefore)
        )
          continue;
        out.push(s);
        if (out.length >= limit) break;
      }
      if (keys.length < PAGE) break;
    }
    return out;
  }

  /** At most `count` index entries scored at or before `max`, from `offset`, in score order. */
  async #entries(
    max: number,
    offset: number,
    count: number,
  ): Promise<{ key: string; score: number }[]> {
    const due = this.#key('due');
    const args = ['ZRANGEBYSCORE', due, '-inf', String(max), 'WITHSCORES'];
    const reply = (await this.#redis.command(
      [...args, 'LIMIT', String(offset), String(count)],
      due,
    )) as unknown[];
    const out: { key: string; score: number }[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) {
      out.push({ key: String(reply[i]), score: Number(reply[i + 1]) });
    }
    return out;
  }

  async #keys(offset: number): Promise<string[]> {
    const keys = this.#key('keys');
    const reply = (await this.#redis.command(
      ['ZRANGE', keys, String(offset), String(offset + PAGE - 1)],
      keys,
    )) as unknown[];
    return reply.map(String);
  }

  /** The records of `keys` (each in its own slot: one command each, all at once). */
  #read(keys: string[]): Promise<(StoredSubscription | undefined)[]> {
    return Promise.all(keys.map((key) => this.get(key)));
  }

  /** Sets an entry that does not match its record (early, or of a stopped or missing one). */
  async #repair(key: string, stored: StoredSubscription | undefined): Promise<void> {
    const dueAt = stored?.subscription.dueAt;
    const args = [key, String(stored?.version ?? 0), dueAt === undefined ? '' : String(dueAt)];
    await this.#redis.script(INDEX, this.#indexKeys(false), args);
  }

  #indexKeys(withList: boolean): string[] {
    const keys = [this.#key('due'), this.#key('ver')];
    return withList ? [...keys, this.#key('keys')] : keys;
  }

  #key(name: 'due' | 'ver' | 'keys' | 'plans'): string {
    return `${this.#redis.tag('subs')}:${name}`;
  }

  /** Encoded: no brace or colon of the key can move the hash tag or meet another's keys. */
  #record(key: string): string {
    return this.#redis.tag(`sub:${encodeURIComponent(key)}`);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `RedisSubscriptionStore { prefix: '${this.#redis.prefix}' }`;
  }
}

/** `redisSubscriptionStore(redis, { prefix: 'shop:' })`: the Redis subscription store on your client. */
export function redisSubscriptionStore(
  client: RedisClient | RedisConnection,
  options: RedisOptions = {},
): RedisSubscriptionStore {
  return new RedisSubscriptionStore(client, options);
}
