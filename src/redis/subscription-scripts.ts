import { lua } from './connection';

/**
 * The Lua scripts of the Redis subscription store. A subscription's record is one hash,
 * `{<prefix>sub:<key>}` (fields `v`, the version, and `s`, the JSON): its own hash tag, so
 * subscriptions spread over a Cluster's slots. The due index and the list of keys are
 * shared, under the tag `{<prefix>subs}` (one slot): `:due` (a sorted set, key by dueAt),
 * `:ver` (the highest version the index was told of, by key), `:keys` and `:plans`.
 *
 * The record and the index are in different slots, so no one script writes both: a write
 * lowers the index first (INDEX_BEFORE), then sets the record (PUT), then sets the index
 * exactly (INDEX). A crash between the steps leaves an entry early (never late, never
 * missing); `due()` reads each entry's record and puts an early one right (INDEX again).
 */

/**
 * Compare-and-set of one record. KEYS: record. ARGV: expected version ('' for none), JSON.
 * The new version, or nil when the stored version is not the expected one.
 */
export const PUT = lua(`
local v = redis.call('HGET', KEYS[1], 'v')
if (v or '') ~= ARGV[1] then return false end
local n = (tonumber(v) or 0) + 1
redis.call('HSET', KEYS[1], 'v', n, 's', ARGV[2])
return n`);

/**
 * Before a write: the key listed, its entry lowered to the new dueAt (added if absent;
 * never raised), and the version the write will make noted, so that an older write's
 * INDEX coming late cannot raise the entry past it. KEYS: due, ver, keys. ARGV: key, the
 * version the write makes, dueAt ('' when stopped).
 */
export const INDEX_BEFORE = lua(`
redis.call('ZADD', KEYS[3], 0, ARGV[1])
local held = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if tonumber(ARGV[2]) > held then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[1], 'LT', ARGV[3], ARGV[1]) end
return 1`);

/**
 * After a write (or a repair by `due()`): the entry set to the record's dueAt, or removed
 * when stopped, unless a newer version was announced. KEYS: due, ver. ARGV: key, version,
 * dueAt ('' when stopped). 1 when applied.
 */
export const INDEX = lua(`
local held = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if tonumber(ARGV[2]) < held then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1])
else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1`);
