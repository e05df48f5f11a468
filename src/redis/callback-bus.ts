import type { CallbackBus, CallbackBusEvent } from 'momo-partner-sdk';
import { type RedisClient, RedisConnection, type RedisOptions } from './connection';

type Listener = (event: CallbackBusEvent) => void;

/**
 * Confirmed callback results over Redis pub/sub, taken by every instance as a hint to look
 * up at once (never as the outcome: a PUBLISH on the channel proves nothing), channel `<prefix>callbacks`: sharded
 * pub/sub (SPUBLISH, SSUBSCRIBE: one shard carries it) on a node-redis cluster and on an
 * ioredis `Cluster` created with `shardedSubscribers: true`, classic pub/sub otherwise
 * (a cluster forwards it to every node). Pub/sub keeps nothing: an instance that is
 * disconnected misses the message, and its wait goes on polling (a missed wake costs
 * latency, never a result).
 */
export class RedisCallbackBus implements CallbackBus {
  readonly #redis: RedisConnection;
  readonly #listeners = new Set<Listener>();
  #subscribing: Promise<() => Promise<void>> | undefined;

  constructor(client: RedisClient | RedisConnection, options: RedisOptions = {}) {
    this.#redis = client instanceof RedisConnection ? client : new RedisConnection(client, options);
  }

  get channel(): string {
    return `${this.#redis.prefix}callbacks`;
  }

  /** Publishes a confirmed final result to every instance subscribed on this prefix. */
  async publish(event: CallbackBusEvent): Promise<void> {
    await this.#redis.publish(this.channel, JSON.stringify(event));
  }

  /** One subscriber connection for every listener of this bus. */
  async subscribe(listener: Listener): Promise<() => Promise<void>> {
    this.#subscribing ??= this.#redis.subscribe(this.channel, (message) => this.#deliver(message));
    try {
      await this.#subscribing;
    } catch (error) {
      this.#subscribing = undefined; // let a later call try again
      throw error;
    }
    this.#listeners.add(listener);
    return async () => {
      this.#listeners.delete(listener);
    };
  }

  /** Closes the subscriber connection (the client you passed stays yours to close). */
  async close(): Promise<void> {
    const subscribing = this.#subscribing;
    this.#subscribing = undefined;
    this.#listeners.clear();
    if (subscribing) await (await subscribing.catch(() => async () => {}))();
  }

  #deliver(message: string): void {
    let event: unknown;
    try {
      event = JSON.parse(message);
    } catch {
      return; // not one of ours
    }
    for (const listener of this.#listeners) listener(event as CallbackBusEvent);
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    const mode = this.#redis.sharded ? 'sharded' : 'classic';
    return `RedisCallbackBus { channel: '${this.channel}', pubsub: '${mode}' }`;
  }
}
