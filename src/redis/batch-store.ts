import {
  type BatchClaimToken,
  type BatchHandle,
  type BatchIntent,
  type BatchOutcome,
  type BatchRecord,
  type BatchStore,
  DEFAULT_LEASE_MS,
  ValidationError,
} from 'momo-partner-sdk';
import { CLAIM, GET, READ, RECORD_INTENT, RECORD_OUTCOME, RELEASE, RENEW } from './batch-scripts';
import { optionError, type RedisClient, RedisConnection, type RedisOptions } from './connection';

/** Well-formed (no lone surrogate), no C0, DEL or C1 control character (docs/batches.md). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const BATCH_ID = /^[^\p{Cs}\u0000-\u001f\u007f-\u009f]*$/u;

/** Options of `redisBatchStore(client, options)`. */
export interface RedisBatchStoreOptions extends RedisOptions {
  /**
   * How long an item's claim lasts without renewal: a process that died holding items
   * gives them up this long after its last renewal (the runner renews at a third of it
   * while an item is in flight). Default 15 000: a dead process's items go on within 15 s.
   */
  leaseMs?: number;
  /**
   * How long a finished batch (every recorded item final) stays in Redis after its last
   * outcome, for re-runs and reports; a new intent keeps it again. Default 30 days.
   */
  retentionMs?: number;
}

const DAY = 24 * 60 * 60 * 1000;
/** Records read per round trip by `records()`: bounded memory whatever the batch's size. */
const PAGE = 500;

/**
 * A batch store in Redis (single node or Cluster) on which several processes run one
 * batch together: each item claimed by one (SET NX with a lease and a fencing token),
 * a dead process's claims taken over once their lease ran out, and every write checked
 * against the item's current token in the same Lua script, so a process whose claim was
 * taken over can record nothing more. An intent is as durable as Redis makes a write
 * (docs/batches.md: AOF and `appendfsync`).
 */
export class RedisBatchStore implements BatchStore {
  readonly #redis: RedisConnection;
  readonly #leaseMs: number;
  readonly #retentionMs: number;

  constructor(client: RedisClient | RedisConnection, options: RedisBatchStoreOptions = {}) {
    this.#leaseMs = positive('leaseMs', options.leaseMs ?? DEFAULT_LEASE_MS);
    this.#retentionMs = positive('retentionMs', options.retentionMs ?? 30 * DAY);
    this.#redis = client instanceof RedisConnection ? client : new RedisConnection(client, options);
  }

  async open(id: string): Promise<BatchHandle> {
    if (typeof id !== 'string' || id.length === 0 || id.length > 200 || !BATCH_ID.test(id)) {
      const message =
        'must be a non-empty string of at most 200 characters, well-formed, without control characters';
      throw new ValidationError([{ path: 'id', message }]);
    }
    // Encoded: no brace or colon of the id can move the hash tag or meet another batch's keys.
    const tag = this.#redis.tag(`batch:${encodeURIComponent(id)}`);
    // Listed for `batches()` (the reconciliation's), before anything of it is recorded.
    await this.#redis.command(['SADD', this.#indexKey, id], this.#indexKey);
    return new RedisBatchHandle(id, this.#redis, tag, this.#leaseMs, this.#retentionMs);
  }

  /**
   * The id of every batch opened on this prefix (since this release: one opened only by
   * an earlier one is not listed until it is opened again). A batch whose state expired
   * stays listed, with no records.
   */
  async *batches(): AsyncIterable<string> {
    let cursor = '0';
    do {
      const reply = (await this.#redis.command(
        ['SSCAN', this.#indexKey, cursor, 'COUNT', String(PAGE)],
        this.#indexKey,
      )) as [unknown, unknown[]] | { cursor: unknown; members: unknown[] };
      const [next, members] = Array.isArray(reply) ? reply : [reply.cursor, reply.members];
      for (const member of members ?? []) yield String(member);
      cursor = String(next);
    } while (cursor !== '0');
  }

  get #indexKey(): string {
    return `${this.#redis.tag('batches')}:ids`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `RedisBatchStore { prefix: '${this.#redis.prefix}', leaseMs: ${this.#leaseMs} }`;
  }
}

/** `redisBatchStore(redis, { prefix: 'shop:' })`: the Redis batch store on your client. */
export function redisBatchStore(
  client: RedisClient | RedisConnection,
  options: RedisBatchStoreOptions = {},
): RedisBatchStore {
  return new RedisBatchStore(client, options);
}

class RedisBatchHandle implements BatchHandle {
  readonly id: string;
  readonly leaseMs: number;
  readonly #redis: RedisConnection;
  readonly #tag: string;
  readonly #retentionMs: number;

  constructor(id: string, redis: RedisConnection, tag: string, leaseMs: number, retention: number) {
    this.id = id;
    this.leaseMs = leaseMs;
    this.#redis = redis;
    this.#tag = tag;
    this.#retentionMs = retention;
  }

  async *records(): AsyncIterable<BatchRecord> {
    const keys = [this.#key('order'), this.#key('intents'), this.#key('outcomes')];
    for (let start = 0; ; start += PAGE) {
      const args = [String(start), String(start + PAGE - 1)];
      const rows = (await this.#redis.script(READ, keys, args)) as unknown[];
      for (let i = 0; i + 2 < rows.length; i += 3) {
        const record = toRecord(rows[i + 1], rows[i + 2]);
        if (record) yield record;
      }
      if (rows.length < PAGE * 3) return;
    }
  }

  async get(key: string): Promise<BatchRecord | undefined> {
    const keys = [this.#key('intents'), this.#key('outcomes')];
    const [intent, outcome] = (await this.#redis.script(GET, keys, [key])) as unknown[];
    return toRecord(intent, outcome);
  }

  async claim(key: string, owner: string, leaseMs: number) {
    const lease = String(Math.max(1, Math.ceil(leaseMs)));
    const keys = [this.#claimKey(key), this.#key('fence')];
    const token = await this.#redis.script(CLAIM, keys, [owner, lease]);
    return typeof token === 'string' && token !== '' ? token : undefined;
  }

  async release(key: string, token: BatchClaimToken): Promise<void> {
    await this.#redis.script(RELEASE, [this.#claimKey(key)], [token]);
  }

  /** One script for them all (every claim key of the batch shares its hash tag: one slot). */
  async renew(claims: readonly { key: string; token: BatchClaimToken }[], leaseMs: number) {
    if (claims.length === 0) return new Set<BatchClaimToken>();
    const keys = claims.map((c) => this.#claimKey(c.key));
    const args = [String(Math.max(1, Math.ceil(leaseMs))), ...claims.map((c) => c.token)];
    const kept = (await this.#redis.script(RENEW, keys, args)) as unknown[] | null;
    return new Set((kept ?? []).map(String));
  }

  async recordIntent(intent: BatchIntent, token: BatchClaimToken) {
    const json = JSON.stringify({
      key: intent.key,
      operation: intent.operation,
      fingerprint: intent.fingerprint,
      referenceId: intent.referenceId,
      ...(intent.tenant === undefined ? {} : { tenant: intent.tenant }),
    });
    const keys = [this.#claimKey(intent.key), ...this.#dataKeys(['intents', 'order', 'open'])];
    const held = await this.#redis.script(RECORD_INTENT, keys, [token, intent.key, json]);
    return toRecord(held, '');
  }

  async recordOutcome(key: string, outcome: BatchOutcome, token: BatchClaimToken) {
    const kept: BatchOutcome = { status: outcome.status };
    if (outcome.reason !== undefined) kept.reason = outcome.reason;
    if (outcome.financialTransactionId !== undefined) {
      kept.financialTransactionId = outcome.financialTransactionId;
    }
    if (outcome.delivered === false) kept.delivered = false;
    const keys = [this.#claimKey(key), ...this.#dataKeys(['intents', 'outcomes', 'open'])];
    const args = [token, key, JSON.stringify(kept), kept.status, String(this.#retentionMs)];
    return Number(await this.#redis.script(RECORD_OUTCOME, keys, args)) === 1;
  }

  /** Nothing to release: the Redis client stays yours. */
  async close(): Promise<void> {}

  /** The named keys first, then the rest of the batch's keys (the scripts expire them all). */
  #dataKeys(first: string[]): string[] {
    const rest = ['intents', 'outcomes', 'open', 'order', 'fence'].filter(
      (k) => !first.includes(k),
    );
    return [...first, ...rest].map((name) => this.#key(name));
  }

  #key(name: string): string {
    return `${this.#tag}:${name}`;
  }

  #claimKey(key: string): string {
    return `${this.#tag}:claim:${key}`;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `RedisBatchHandle { id: ${JSON.stringify(this.id)} }`;
  }
}

function positive(field: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) {
    throw optionError(field, 'must be a whole positive number of milliseconds');
  }
  return value;
}

/** A record from its intent and outcome JSON ('' or nil when none); undefined without an intent. */
function toRecord(intent: unknown, outcome: unknown): BatchRecord | undefined {
  if (typeof intent !== 'string' || intent === '') return undefined;
  const record = JSON.parse(intent) as BatchRecord;
  if (typeof outcome === 'string' && outcome !== '') {
    record.outcome = JSON.parse(outcome) as BatchOutcome;
  }
  return record;
}
