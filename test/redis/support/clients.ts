import { Cluster, Redis } from 'ioredis';
import type { RedisClient } from 'momo-partner-sdk/redis';
import { createClient, createCluster } from 'redis';
import { createClient as createClientV4 } from 'redis4';

/** The client libraries (and majors) the package is tested with, on one redis-server. */
export const LIBRARIES = ['node-redis', 'node-redis-v4', 'ioredis'] as const;
/** The cluster clients the package is tested with, on a real Redis Cluster. */
export const CLUSTER_LIBRARIES = ['node-redis-cluster', 'ioredis-cluster'] as const;
export type Library = (typeof LIBRARIES)[number] | (typeof CLUSTER_LIBRARIES)[number];

export interface ConnectedClient {
  client: RedisClient;
  close(): Promise<void>;
}

/**
 * A connected client of the given library, as a partner would create it. `url`: the
 * server; for a cluster library, any of its nodes (comma-separated for several).
 */
export async function connectClient(library: Library, url: string): Promise<ConnectedClient> {
  if (library === 'ioredis-cluster') return connectIoRedisCluster(url.split(','));
  if (library === 'node-redis-cluster') {
    const cluster = createCluster({
      rootNodes: url.split(',').map((node) => ({ url: node })),
      defaults: { socket: { reconnectStrategy: (retries: number) => Math.min(retries * 50, 500) } },
    });
    cluster.on('error', () => {});
    await cluster.connect();
    return {
      client: cluster,
      close: async () => {
        await bounded(cluster.close()).catch(() => cluster.destroy());
      },
    };
  }
  if (library === 'ioredis') {
    const client = new Redis(url, { retryStrategy: (times) => Math.min(times * 50, 500) });
    client.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      client.once('ready', resolve);
      client.once('end', () => reject(new Error('ioredis could not connect')));
    });
    const close = async () => {
      if (client.status === 'ready') await bounded(client.quit()).catch(() => {});
      client.disconnect(); // Redis gone (noticed or not): do not wait for it
    };
    return { client, close };
  }
  const socket = { reconnectStrategy: (retries: number) => Math.min(retries * 50, 500) };
  if (library === 'node-redis') {
    const client = createClient({ url, socket });
    client.on('error', () => {});
    await client.connect();
    return { client, close: () => quit(client) };
  }
  const client = createClientV4({ url, socket });
  client.on('error', () => {});
  await client.connect();
  return { client, close: () => quit(client) };
}

async function connectIoRedisCluster(urls: string[]): Promise<ConnectedClient> {
  const nodes = urls.map((node) => {
    const { hostname, port } = new URL(node);
    return { host: hostname, port: Number(port) };
  });
  // Sharded pub/sub (SSUBSCRIBE) for the callback bus: ioredis' own option.
  const client = new Cluster(nodes, {
    shardedSubscribers: true,
    clusterRetryStrategy: (times) => Math.min(times * 50, 500),
  });
  client.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    client.once('ready', resolve);
    client.once('end', () => reject(new Error('ioredis could not connect to the cluster')));
  });
  const close = async () => {
    if (client.status === 'ready') await bounded(client.quit()).catch(() => {});
    client.disconnect();
  };
  return { client, close };
}

async function quit(client: {
  isOpen: boolean;
  isReady: boolean;
  quit(): Promise<unknown>;
  disconnect(): Promise<unknown>;
}): Promise<void> {
  if (client.isReady) await bounded(client.quit()).catch(() => {});
  if (client.isOpen) await client.disconnect(); // Redis gone (noticed or not): do not wait for it
}

/** Rejects if Redis does not answer a graceful close within a second. */
function bounded(closing: Promise<unknown>): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer to QUIT')), 1_000);
  });
  return Promise.race([closing, late]).finally(() => clearTimeout(timer));
}
