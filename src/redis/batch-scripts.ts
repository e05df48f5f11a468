import { lua } from './connection';

/**
 * The Lua scripts of the Redis batch store. Every key of one batch shares the hash tag
 * `{<prefix>batch:<id>}`: one cluster slot, so each script runs on one node, atomically.
 *
 * Per batch: `:claim:<key>` (the item's claim, `<n>:<owner>`, with the lease as its TTL),
 * `:fence` (the counter `n` comes from), `:intents` and `:outcomes` (hashes by item key),
 * `:order` (the keys, first recorded first) and `:open` (items recorded and not final).
 */

/**
 * Claims an item. KEYS: claim, fence. ARGV: owner, leaseMs. A free (or expired) claim is
 * taken with SET NX PX; the holder claiming again renews it; both get a new fencing token
 * from the counter. Another owner's live claim: nil.
 */
export const CLAIM = lua(`
local held = redis.call('GET', KEYS[1])
if held then
  local sep = string.find(held, ':', 1, true)
  if not sep or string.sub(held, sep + 1) ~= ARGV[1] then return false end
end
local token = redis.call('INCR', KEYS[2]) .. ':' .. ARGV[1]
if held then
  redis.call('SET', KEYS[1], token, 'PX', ARGV[2])
elseif not redis.call('SET', KEYS[1], token, 'NX', 'PX', ARGV[2]) then
  return false
end
return token`);

/**
 * Renews many claims at once. KEYS: their claim keys. ARGV: leaseMs, then each claim's
 * token in KEYS' order. A claim still its token's (a lapsed one is gone: its key expired)
 * gets the lease again; returns the tokens renewed.
 */
export const RENEW = lua(`
local kept = {}
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[i + 1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
    kept[#kept + 1] = ARGV[i + 1]
  end
end
return kept`);

/** Gives a claim up while it is still this token's. KEYS: claim. ARGV: token. */
export const RELEASE = lua(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);

/**
 * Records an intent under a live claim; the first intent of a key wins. KEYS: claim,
 * intents, order, open, outcomes, fence. ARGV: token, key, intent JSON. Returns the
 * intent JSON held (the new one or the first), or nil when the token is not current.
 * A new intent makes the batch unfinished again: its keys lose their TTL.
 */
export const RECORD_INTENT = lua(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
local first = redis.call('HGET', KEYS[2], ARGV[2])
if first then return first end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('RPUSH', KEYS[3], ARGV[2])
redis.call('INCR', KEYS[4])
for i = 2, #KEYS do redis.call('PERSIST', KEYS[i]) end
return ARGV[3]`);

/**
 * Records an outcome under a live claim (the last wins). KEYS: claim, intents, outcomes,
 * open, order, fence. ARGV: token, key, outcome JSON, its status, retentionMs. 1, or 0
 * when the token is not current or the key has no intent. When the last open item
 * becomes final, every key of the batch expires after retentionMs.
 */
export const RECORD_OUTCOME = lua(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 0 then return 0 end
local before = redis.call('HGET', KEYS[3], ARGV[2])
local wasFinal = before and cjson.decode(before).status ~= 'SENT'
local isFinal = ARGV[4] ~= 'SENT'
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
if isFinal and not wasFinal then
  if redis.call('DECR', KEYS[4]) <= 0 then
    for i = 2, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
  end
elseif wasFinal and not isFinal then
  redis.call('INCR', KEYS[4])
  for i = 2, #KEYS do redis.call('PERSIST', KEYS[i]) end
end
return 1`);

/**
 * Records from the order list, `ARGV[1]`..`ARGV[2]` (LRANGE bounds): a flat array of
 * key, intent JSON, outcome JSON ('' when none). KEYS: order, intents, outcomes.
 */
export const READ = lua(`
local keys = redis.call('LRANGE', KEYS[1], ARGV[1], ARGV[2])
local out = {}
for _, key in ipairs(keys) do
  out[#out + 1] = key
  out[#out + 1] = redis.call('HGET', KEYS[2], key) or ''
  out[#out + 1] = redis.call('HGET', KEYS[3], key) or ''
end
return out`);

/** One record: intent JSON and outcome JSON, '' when none. KEYS: intents, outcomes. ARGV: key. */
export const GET = lua(`
return { redis.call('HGET', KEYS[1], ARGV[1]) or '', redis.call('HGET', KEYS[2], ARGV[1]) or '' }`);
