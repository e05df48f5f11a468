/**
 * The Redis batch store of the built package, when it has one: `redisBatchStore(client,
 * { prefix })` from 'momo-partner-sdk/redis' (else `createRedisState(...).batchStore`).
 */

/** Why the build has no Redis batch store, or undefined when it has one. */
export async function redisBatchStoreMissing() {
  try {
    const redis = await import('momo-partner-sdk/redis');
    if (typeof redis.redisBatchStore === 'function') return undefined;
    return "the build's 'momo-partner-sdk/redis' exports no redisBatchStore";
  } catch (error) {
    return `'momo-partner-sdk/redis' does not load (${error.message.split('\n')[0]})`;
  }
}

/** A Redis batch store on a fresh node-redis connection to `url`, and how to close it. */
export async function openRedisBatchStore(url) {
  const { redisBatchStore } = await import('momo-partner-sdk/redis');
  const { createClient } = await import('redis');
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  const store = redisBatchStore(client, { prefix: `bench-${process.pid}:` });
  return { store, close: () => client.quit() };
}
