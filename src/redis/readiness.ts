import { RedisUnavailableError } from './errors';

/** What of an ioredis client (`Redis` or `Cluster`) the wait for its first 'ready' uses. */
export interface IoRedisReadiness {
  readonly status: string;
  on(event: 'ready', listener: () => void): unknown;
  removeListener(event: 'ready', listener: () => void): unknown;
}

/** Clients seen ready at least once: from then on, not ready is an outage. */
const seenReady = new WeakSet<object>();

/** Remembers when `client` becomes ready (called once per client). */
export function watchReady(client: IoRedisReadiness): void {
  if (client.status === 'ready') seenReady.add(client);
  client.on('ready', () => seenReady.add(client));
}

/** Why a node-redis client is not ready: never connected, or a lost connection. */
export function nodeRedisNotReady(client: { isOpen?: unknown }): RedisUnavailableError {
  return new RedisUnavailableError(
    client.isOpen === false
      ? 'Redis is not connected: the node-redis client is not open (await client.connect() before handing it over)'
      : 'Redis is not connected',
  );
}

/**
 * `new Redis()` connects in the background and its status is 'connecting' for a moment:
 * the SDK, handed such a client (docs/redis.md shows exactly that), waits for its first
 * 'ready' (at most `timeoutMs`) rather than refusing the first payments. Once a client has
 * been ready, a lost connection fails fast as before (an outage, not a start). A client
 * that will not connect by itself (lazyConnect, closed) is refused at once, saying why.
 */
export async function ioredisReady(client: IoRedisReadiness, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') {
    seenReady.add(client);
    return;
  }
  if (seenReady.has(client)) throw new RedisUnavailableError('Redis is not connected');
  if (client.status === 'wait') {
    throw new RedisUnavailableError(
      'Redis is not connected: the ioredis client was made with lazyConnect and never connected (await client.connect() before handing it over)',
    );
  }
  if (client.status === 'end' || client.status === 'close') {
    throw new RedisUnavailableError(
      `Redis is not connected: the ioredis client is closed (status '${client.status}')`,
    );
  }
  let onReady = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ready = new Promise<boolean>((resolve) => {
    onReady = () => resolve(true);
    client.on('ready', onReady);
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref?.();
  });
  try {
    if (await ready) {
      seenReady.add(client);
      return;
    }
  } finally {
    clearTimeout(timer);
    client.removeListener('ready', onReady);
  }
  throw new RedisUnavailableError(
    `Redis is not connected: the ioredis client was still '${client.status}' after ${timeoutMs} ms and has never been ready (is Redis reachable? commandTimeoutMs sets this wait)`,
  );
}
