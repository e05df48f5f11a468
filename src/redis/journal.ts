import {
  type Journal,
  type JournalEntry,
  type JournalOutcome,
  type JournalRecord,
  referenceKey,
} from 'momo-partner-sdk';
import {
  lua,
  optionError,
  type RedisClient,
  RedisConnection,
  type RedisOptions,
} from './connection';

/** Options of `new RedisJournal(client, options)`. */
export interface RedisJournalOptions extends RedisOptions {
  /** How long a finished entry stays readable (late callbacks, audits). Default 24 hours. */
  retentionMs?: number;
}

/** The index score of a pending entry: never pruned while it is pending. */
const PENDING_SCORE = '9007199254740991';

/**
 * Records a pending entry, unless one is pending under this id already. `seq` counts
 * records across every instance: entries of the same millisecond list in record order.
 * KEYS[4], the index of every entry held, scores each by when its hash expires (a pending
 * one never): entries whose time has passed are pruned from it here.
 */
const RECORD = lua(`
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[4])
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('HEXISTS', KEYS[1], 'outcome') == 0 then
  return 0
end
redis.call('ZADD', KEYS[4], ARGV[9], ARGV[5])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'product', ARGV[1], 'operation', ARGV[2], 'referenceId', ARGV[3],
  'createdAt', ARGV[4], 'baseUrl', ARGV[6], 'targetEnvironment', ARGV[7],
  'seq', redis.call('INCR', KEYS[3]))
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'tag', ARGV[8]) end
if ARGV[10] ~= nil and ARGV[10] ~= '' then redis.call('HSET', KEYS[1], 'tenant', ARGV[10]) end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
return 1`);

/** Marks an entry finished (first outcome wins), starts its retention, drops it from pending. */
const FINISH = lua(`
redis.call('ZREM', KEYS[2], ARGV[4])
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], 'outcome') == 0 then
  redis.call('HSET', KEYS[1], 'outcome', ARGV[1], 'finishedAt', ARGV[2])
  if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'reason', ARGV[5]) end
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  redis.call('ZADD', KEYS[3], 'XX', tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[4])
end
return 1`);

/** A page of ids of a sorted set (the index or the pending set) with their entries. */
const PAGE_OF = lua(`
local ids = redis.call('ZRANGE', KEYS[1], ARGV[2], ARGV[3])
local entries = {}
for i, id in ipairs(ids) do entries[i] = redis.call('HGETALL', ARGV[1] .. id) end
return entries`);

/** Entries read per round trip by `entries()`. */
const PAGE = 500;

/** Every pending entry in one round trip, oldest first. */
const PENDING = lua(`
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local entries = {}
for i, id in ipairs(ids) do entries[i] = redis.call('HGETALL', ARGV[1] .. id) end
return entries`);

/**
 * The journal in Redis: it survives restarts and is shared by every instance. Layout:
 * a hash `{<prefix>journal}:entry:<referenceId>` per entry and a sorted set
 * `{<prefix>journal}:pending` (score: createdAt). The hash tag puts them all in one
 * cluster slot, as the scripts that touch several of them need. Pending entries have no
 * TTL; finished ones expire after `retentionMs`. No secrets, no personal data.
 */
export class RedisJournal implements Journal {
  readonly #redis: RedisConnection;
  readonly #retentionMs: number;

  constructor(client: RedisClient | RedisConnection, options: RedisJournalOptions = {}) {
    this.#redis = client instanceof RedisConnection ? client : new RedisConnection(client, options);
    const retentionMs = options.retentionMs ?? 24 * 60 * 60 * 1000;
    if (!(Number.isInteger(retentionMs) && retentionMs > 0)) {
      throw optionError('retentionMs', 'must be a whole positive number of milliseconds');
    }
    this.#retentionMs = retentionMs;
  }

  async record(entry: JournalRecord): Promise<void> {
    const id = referenceKey(entry.referenceId);
    await this.#redis.script(
      RECORD,
      [this.#entryKey(id), this.#pendingKey, `${this.#redis.tag('journal')}:seq`, this.#indexKey],
      [
        entry.product,
        entry.operation,
        entry.referenceId,
        String(entry.createdAt),
        id,
        entry.baseUrl,
        entry.targetEnvironment,
        entry.tag ?? '',
        PENDING_SCORE,
        entry.tenant ?? '',
      ],
    );
  }

  async finish(
    referenceId: string,
    outcome: JournalOutcome,
    finishedAt: number,
    reason?: string,
  ): Promise<void> {
    const id = referenceKey(referenceId);
    await this.#redis.script(
      FINISH,
      [this.#entryKey(id), this.#pendingKey, this.#indexKey],
      [outcome, String(finishedAt), String(this.#retentionMs), id, reason ?? ''],
    );
  }

  async get(referenceId: string): Promise<JournalEntry | undefined> {
    const key = this.#entryKey(referenceKey(referenceId));
    return toEntry(fieldsOf(await this.#redis.command(['HGETALL', key], key)));
  }

  async pending(): Promise<JournalEntry[]> {
    const rows = await this.#redis.script(PENDING, [this.#pendingKey], [this.#entryKey('')]);
    if (!Array.isArray(rows)) return [];
    // The set's score is createdAt; ties would come back in id order, not record order.
    const read: { entry: JournalEntry; seq: number }[] = [];
    for (const row of rows) {
      const fields = fieldsOf(row);
      const entry = toEntry(fields);
      if (entry) read.push({ entry, seq: Number(fields.get('seq') ?? 0) });
    }
    return read
      .sort((a, b) => a.entry.createdAt - b.entry.createdAt || a.seq - b.seq)
      .map((row) => row.entry);
  }

  /**
   * Every entry held (pending, and finished within the retention), oldest first; with
   * `since`, those created at or after it. Read from the index of entries (and the
   * pending set, for entries recorded before the index existed), a page at a time.
   */
  async *entries(options: { since?: number } = {}): AsyncIterable<JournalEntry> {
    const since = options.since ?? Number.NEGATIVE_INFINITY;
    const read = new Map<string, { entry: JournalEntry; seq: number }>();
    for (const set of [this.#indexKey, this.#pendingKey]) {
      for (let start = 0; ; start += PAGE) {
        const args = [this.#entryKey(''), String(start), String(start + PAGE - 1)];
        const rows = await this.#redis.script(PAGE_OF, [set], args);
        const page = Array.isArray(rows) ? rows : [];
        for (const row of page) {
          const fields = fieldsOf(row);
          const entry = toEntry(fields);
          if (!entry || entry.createdAt < since) continue;
          read.set(referenceKey(entry.referenceId), { entry, seq: Number(fields.get('seq') ?? 0) });
        }
        if (page.length < PAGE) break;
      }
    }
    const sorted = [...read.values()].sort(
      (a, b) => a.entry.createdAt - b.entry.createdAt || a.seq - b.seq,
    );
    for (const { entry } of sorted) yield entry;
  }

  get #indexKey(): string {
    return `${this.#redis.tag('journal')}:entries`;
  }

  get #pendingKey(): string {
    return `${this.#redis.tag('journal')}:pending`;
  }

  #entryKey(id: string): string {
    return `${this.#redis.tag('journal')}:entry:${id}`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `RedisJournal { prefix: '${this.#redis.prefix}' }`;
  }
}

/** A HGETALL reply (flat array, or an object/Map under RESP3) as a map of its fields. */
function fieldsOf(reply: unknown): Map<string, string> {
  const fields = new Map<string, string>();
  if (Array.isArray(reply)) {
    for (let i = 0; i + 1 < reply.length; i += 2)
      fields.set(String(reply[i]), String(reply[i + 1]));
  } else if (reply instanceof Map) {
    for (const [k, v] of reply) fields.set(String(k), String(v));
  } else if (reply && typeof reply === 'object') {
    for (const [k, v] of Object.entries(reply)) fields.set(k, String(v));
  }
  return fields;
}

/** The entry a hash's fields hold; undefined if empty or incomplete. */
function toEntry(fields: Map<string, string>): JournalEntry | undefined {
  const product = fields.get('product');
  const operation = fields.get('operation');
  const referenceId = fields.get('referenceId');
  const createdAt = Number(fields.get('createdAt'));
  const baseUrl = fields.get('baseUrl') ?? '';
  const targetEnvironment = fields.get('targetEnvironment') ?? '';
  if (!product || !operation || !referenceId || !Number.isFinite(createdAt)) return undefined;
  const entry = {
    product,
    operation,
    referenceId,
    createdAt,
    baseUrl,
    targetEnvironment,
  } as JournalEntry;
  const tag = fields.get('tag');
  if (tag) entry.tag = tag;
  const tenant = fields.get('tenant');
  if (tenant) entry.tenant = tenant;
  const outcome = fields.get('outcome');
  if (outcome) {
    entry.outcome = outcome as JournalOutcome;
    entry.finishedAt = Number(fields.get('finishedAt'));
    const reason = fields.get('reason');
    if (reason) entry.reason = reason;
  }
  return entry;
}
