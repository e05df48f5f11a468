/**
 * Counters around a subscription store and the stores' backends, for the subscriptions
 * section (bench/subs.mjs): how many calls of each store method a pass makes and how many
 * records its reads return (a `get` that finds one, each key `due` gives), the queries a
 * PostgreSQL pool runs, and the commands a Redis server executed (INFO commandstats).
 */

const METHODS = ['putPlan', 'getPlan', 'get', 'put', 'due', 'list'];

/** `store` with every method counted; `counts()` and `reset()` read and zero the counters. */
export function countingStore(store) {
  let calls;
  let records;
  const reset = () => {
    calls = Object.fromEntries(METHODS.map((name) => [name, 0]));
    records = { get: 0, due: 0, list: 0 };
  };
  reset();
  const wrapped = {
    async putPlan(plan) {
      calls.putPlan++;
      return store.putPlan(plan);
    },
    async getPlan(id) {
      calls.getPlan++;
      return store.getPlan(id);
    },
    async get(key) {
      calls.get++;
      const found = await store.get(key);
      if (found) records.get++;
      return found;
    },
    async put(subscription, expected) {
      calls.put++;
      return store.put(subscription, expected);
    },
    async due(now, limit) {
      calls.due++;
      const keys = await store.due(now, limit);
      records.due += keys.length;
      return keys;
    },
    async list(filter) {
      calls.list++;
      const found = await store.list(filter);
      records.list += found.length;
      return found;
    },
  };
  const counts = () => {
    const reads = calls.getPlan + calls.get + calls.due + calls.list;
    const writes = calls.putPlan + calls.put;
    return { calls: { ...calls }, records: { ...records }, reads, writes };
  };
  return { store: wrapped, counts, reset };
}

/** `pool` with its queries counted (pool.query, and the clients `await pool.connect()` gives). */
export function countingPool(pool) {
  let queries = 0;
  const query = pool.query.bind(pool);
  pool.query = (...args) => {
    queries++;
    return query(...args);
  };
  const connect = pool.connect.bind(pool);
  const counted = (client) => {
    if (client && !client.benchCounted) {
      const clientQuery = client.query.bind(client);
      client.query = (...a) => {
        queries++;
        return clientQuery(...a);
      };
      client.benchCounted = true;
    }
    return client;
  };
  // pool.query connects with a callback (its query is counted above): only the clients a
  // caller connects itself (a transaction) are counted on their own.
  pool.connect = (callback) =>
    typeof callback === 'function' ? connect(callback) : connect().then(counted);
  return {
    pool,
    queries: () => queries,
    reset: () => {
      queries = 0;
    },
  };
}

/** Commands a Redis server has executed so far, by command (INFO commandstats). */
export async function redisCommands(client) {
  const text = await client.info('commandstats');
  const byCommand = {};
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    byCommand[match[1]] = Number(match[2]);
  }
  return byCommand;
}

/** What ran between two `redisCommands` readings (the INFO of the second left out). */
export function commandsBetween(before, after) {
  const out = {};
  let total = 0;
  for (const [name, calls] of Object.entries(after)) {
    const n = calls - (before[name] ?? 0) - (name === 'info' ? 1 : 0);
    if (n > 0) {
      out[name] = n;
      total += n;
    }
  }
  return { total, byCommand: out };
}
