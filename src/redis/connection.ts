import { createHash } from 'node:crypto';
import { checkClient, type RedisKind } from './detect';
import { RedisCommandError, RedisUnavailableError, toRedisError } from './errors';
import type { RedisOptions } from './options';
import { type IoRedisReadiness, ioredisReady, nodeRedisNotReady, watchReady } from './readiness';

export { optionError, RedisCommandError, RedisUnavailableError } from './errors';
export type { RedisOptions } from './options';

/** The parts of a node-redis (v4, v5) `createClient` client this package uses. */
export interface NodeRedisClient {
  readonly isReady: boolean;
  /** Sends one command (`['GET', key]`). */
  sendCommand(args: string[]): Promise<unknown>;
  /** A second connection, for the callback subscriber. */
  duplicate(): unknown;
  /** Connection errors (node-redis needs a listener). */
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The parts of a node-redis (v4, v5) `createCluster` client this package uses. */
export interface NodeRedisCluster {
  readonly isOpen: boolean;
  /** Sends one command to the node serving `firstKey`'s slot. */
  sendCommand(firstKey: string | undefined, isReadonly: boolean, args: string[]): Promise<unknown>;
  /** Sharded subscribe (SSUBSCRIBE): the callback bus's channel. */
  sSubscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  /** Ends a sharded subscription. */
  sUnsubscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  /** Connection errors (node-redis needs a listener). */
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The parts of an ioredis (v5) client, `Redis` or `Cluster`, this package uses. */
export interface IoRedisClient {
  readonly status: string;
  /** Sends one command (`call('GET', key)`). */
  call(command: string, ...args: string[]): Promise<unknown>;
  /** A second connection, for the callback subscriber. */
  duplicate(): unknown;
  /** Connection errors. */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** 'ready' once connected: a client still connecting is waited for. */
  on(event: 'ready', listener: () => void): unknown;
  /** The 'ready' listener taken off once the wait is over. */
  removeListener(event: 'ready', listener: () => void): unknown;
}

/** A connected client of either library, single node or cluster; the package detects which. */
export type RedisClient = NodeRedisClient | NodeRedisCluster | IoRedisClient;

type NodeSubscriber = {
  isReady: boolean;
  on(event: 'error', listener: (error: Error) => void): unknown;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  /** v5: graceful `close`, immediate `destroy`; v4: graceful `quit`, immediate `disconnect`. */
  close?(): Promise<unknown>;
  destroy?(): void;
  quit(): Promise<unknown>;
  disconnect(): Promise<unknown>;
};
type IoSubscriber = {
  status: string;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'message' | 'smessage', listener: (channel: string, message: string) => void): unknown;
  connect(): Promise<unknown>;
  subscribe(channel: string): Promise<unknown>;
  ssubscribe(channel: string): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
};

/**
 * One client, one way of speaking to it: raw commands (the same for both libraries, every
 * version, single node or cluster), Lua scripts by SHA, and a subscriber. Commands fail
 * fast while the client is not connected instead of queueing; every failure is either a
 * `RedisUnavailableError` (not reachable) or a `RedisCommandError` (reachable, refused).
 */
export class RedisConnection {
  readonly prefix: string;
  readonly #client: RedisClient;
  readonly #timeoutMs: number;
  readonly #kind: RedisKind;

  constructor(client: RedisClient, options: RedisOptions = {}) {
    this.#kind = checkClient(client, options);
    this.#client = client;
    this.prefix = options.prefix ?? 'momo:';
    this.#timeoutMs = options.commandTimeoutMs ?? 1_000;
    // A lost connection must never crash the process through an unhandled 'error' event
    // (once per client, however many stores share it).
    if (!guarded.has(client)) {
      guarded.add(client);
      client.on('error', () => {});
      if (this.#io) watchReady(client as IoRedisReadiness);
    }
  }

  get #io(): boolean {
    return this.#kind === 'ioredis' || this.#kind === 'ioredis-cluster';
  }

  get kind(): RedisKind {
    return this.#kind;
  }

  /** Keys a script touches together share this hash tag: one cluster slot. */
  tag(family: string): string {
    return `{${this.prefix}${family}}`;
  }

  get ready(): boolean {
    switch (this.#kind) {
      case 'ioredis':
      case 'ioredis-cluster':
        return (this.#client as IoRedisClient).status === 'ready';
      case 'node-redis-cluster':
        return (this.#client as NodeRedisCluster).isOpen;
      default:
        return (this.#client as NodeRedisClient).isReady;
    }
  }

  /** A command; `key` routes it on a cluster (its first key, or its channel). */
  async command(args: string[], key?: string): Promise<unknown> {
    if (!this.ready) {
      if (!this.#io) throw nodeRedisNotReady(this.#client as { isOpen?: unknown });
      // A `new Redis()` still making its first connection is waited for (bounded).
      await ioredisReady(this.#client as IoRedisReadiness, this.#timeoutMs);
    }
    const [name, ...rest] = args as [string, ...string[]];
    let sent: Promise<unknown>;
    if (this.#kind === 'ioredis' || this.#kind === 'ioredis-cluster') {
      sent = (this.#client as IoRedisClient).call(name, ...rest);
    } else if (this.#kind === 'node-redis-cluster') {
      sent = (this.#client as NodeRedisCluster).sendCommand(key, false, args);
    } else {
      sent = (this.#client as NodeRedisClient).sendCommand(args);
    }
    return withTimeout(sent, this.#timeoutMs).catch((error: unknown) => {
      throw toRedisError(error, name);
    });
  }

  /** Runs a Lua script by its SHA, loading it on first use (or after a restart, on each node). */
  async script(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.command(['EVALSHA', script.sha, ...tail], keys[0]);
    } catch (error) {
      if (!(error instanceof RedisCommandError && error.code === 'NOSCRIPT')) throw error;
      return this.command(['EVAL', script.source, ...tail], keys[0]);
    }
  }

  /** Whether the bus uses sharded pub/sub (SPUBLISH, SSUBSCRIBE): on a cluster that offers it. */
  get sharded(): boolean {
    if (this.#kind === 'node-redis-cluster') return true;
    if (this.#kind !== 'ioredis-cluster') return false;
    const options = (this.#client as { options?: { shardedSubscribers?: boolean } }).options;
    return options?.shardedSubscribers === true;
  }

  /** Publishes on the callback bus's channel (SPUBLISH on a cluster that shards pub/sub). */
  publish(channel: string, message: string): Promise<unknown> {
    return this.command([this.sharded ? 'SPUBLISH' : 'PUBLISH', channel, message], channel);
  }

  /**
   * Listens to a channel: on a duplicate connection (a subscribed connection can do
   * nothing else), or through node-redis' cluster, which keeps its own per-shard
   * subscribers. The libraries reconnect and resubscribe on their own.
   */
  async subscribe(channel: string, onMessage: (message: string) => void) {
    if (this.#kind === 'node-redis-cluster') {
      const cluster = this.#client as NodeRedisCluster;
      await withTimeout(cluster.sSubscribe(channel, onMessage), this.#timeoutMs).catch((e) => {
        throw toRedisError(e, 'SSUBSCRIBE');
      });
      return async () => {
        await withTimeout(cluster.sUnsubscribe(channel, onMessage), this.#timeoutMs).catch(
          () => {},
        );
      };
    }
    const duplicate = (this.#client as NodeRedisClient | IoRedisClient).duplicate();
    if (this.#kind === 'node-redis') {
      const subscriber = duplicate as NodeSubscriber;
      subscriber.on('error', () => {});
      await subscriber.connect();
      await subscriber.subscribe(channel, onMessage);
      const force = async () => {
        await (subscriber.destroy ? subscriber.destroy() : subscriber.disconnect());
      };
      const graceful = () => (subscriber.close ? subscriber.close() : subscriber.quit());
      return () => this.#close(subscriber.isReady, graceful, force);
    }
    const subscriber = duplicate as IoSubscriber;
    const sharded = this.sharded;
    subscriber.on('error', () => {});
    subscriber.on(sharded ? 'smessage' : 'message', (from, message) => {
      if (from === channel) onMessage(message);
    });
    if (subscriber.status === 'wait') await subscriber.connect(); // lazyConnect clients
    await (sharded ? subscriber.ssubscribe(channel) : subscriber.subscribe(channel));
    const force = async () => subscriber.disconnect();
    return () => this.#close(subscriber.status === 'ready', () => subscriber.quit(), force);
  }

  /**
   * Closes gracefully while connected, at once otherwise; a graceful close that Redis
   * does not answer in time (it went away unnoticed) is forced: shutdown never hangs.
   */
  async #close(ready: boolean, graceful: () => Promise<unknown>, force: () => Promise<void>) {
    if (!ready) return force();
    try {
      await withTimeout(graceful(), this.#timeoutMs);
    } catch {
      await force();
    }
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `RedisConnection { kind: '${this.#kind}', prefix: '${this.prefix}' }`;
  }
}

const guarded = new WeakSet<object>();

/** A Lua script and its SHA1, as EVALSHA wants it. */
export interface LuaScript {
  source: string;
  sha: string;
}

export function lua(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RedisUnavailableError(`Redis did not answer in ${ms} ms`)),
      ms,
    );
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
