import { createHash } from 'node:crypto';
import { ValidationError, type ValidationIssue } from 'momo-partner-sdk';

/** The parts of a node-redis (v4, v5) client this package uses. */
export interface NodeRedisClient {
  readonly isReady: boolean;
  /** Sends one command (`['GET', key]`). */
  sendCommand(args: string[]): Promise<unknown>;
  /** A second connection, for the callback subscriber. */
  duplicate(): unknown;
  /** Connection errors (node-redis needs a listener). */
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The parts of an ioredis (v5) client this package uses. */
export interface IoRedisClient {
  readonly status: string;
  /** Sends one command (`call('GET', key)`). */
  call(command: string, ...args: string[]): Promise<unknown>;
  /** A second connection, for the callback subscriber. */
  duplicate(): unknown;
  /** Connection errors. */
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** A connected client of either library; the package detects which. No client is bundled. */
export type RedisClient = NodeRedisClient | IoRedisClient;

/** Options shared by the Redis token store, callback bus and journal. */
export interface RedisOptions {
  /** Prepended to every key and channel, so that several apps share one Redis. Default `momo:`. */
  prefix?: string;
  /** A command not answered within this long counts as Redis being down. Default 1 000. */
  commandTimeoutMs?: number;
}

/** Redis is not connected, or did not answer in time. The SDK degrades to in-process state. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

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
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  connect(): Promise<unknown>;
  subscribe(channel: string): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
};

/**
 * One client, one way of speaking to it: raw commands (the same for both libraries and
 * for every version), Lua scripts by SHA, and a subscriber on a duplicate connection.
 * Commands fail fast while the client is not connected instead of queueing.
 */
export class RedisConnection {
  readonly prefix: string;
  readonly #client: RedisClient;
  readonly #timeoutMs: number;
  readonly #kind: 'node-redis' | 'ioredis';

  constructor(client: RedisClient, options: RedisOptions = {}) {
    this.#kind = checkInput(client, options);
    this.#client = client;
    this.prefix = options.prefix ?? 'momo:';
    this.#timeoutMs = options.commandTimeoutMs ?? 1_000;
    // A lost connection must never crash the process through an unhandled 'error' event
    // (once per client, however many stores share it).
    if (!guarded.has(client)) {
      guarded.add(client);
      client.on('error', () => {});
    }
  }

  get kind(): 'node-redis' | 'ioredis' {
    return this.#kind;
  }

  get ready(): boolean {
    return this.#kind === 'ioredis'
      ? (this.#client as IoRedisClient).status === 'ready'
      : (this.#client as NodeRedisClient).isReady;
  }

  /** Sends one command on the partner's client, whichever library it is. */
  command(args: string[]): Promise<unknown> {
    if (!this.ready) return Promise.reject(new RedisUnavailableError('Redis is not connected'));
    const [name, ...rest] = args as [string, ...string[]];
    const sent =
      this.#kind === 'ioredis'
        ? (this.#client as IoRedisClient).call(name, ...rest)
        : (this.#client as NodeRedisClient).sendCommand(args);
    return withTimeout(sent, this.#timeoutMs);
  }

  /** Runs a Lua script by its SHA, loading it on first use (or after a server restart). */
  async script(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.command(['EVALSHA', script.sha, ...tail]);
    } catch (error) {
      if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
      return this.command(['EVAL', script.source, ...tail]);
    }
  }

  /**
   * Listens to a channel on a duplicate connection (a subscribed connection can do
   * nothing else). The libraries reconnect and resubscribe on their own.
   */
  async subscribe(channel: string, onMessage: (message: string) => void) {
    const duplicate = this.#client.duplicate();
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
    subscriber.on('error', () => {});
    subscriber.on('message', (from, message) => {
      if (from === channel) onMessage(message);
    });
    if (subscriber.status === 'wait') await subscriber.connect(); // lazyConnect clients
    await subscriber.subscribe(channel);
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

/** Which library the client comes from; a ValidationError naming the field otherwise. */
function checkInput(client: unknown, options: RedisOptions): 'node-redis' | 'ioredis' {
  const issues: ValidationIssue[] = [];
  const candidate = client as Partial<NodeRedisClient & IoRedisClient> | null;
  // ioredis has a sendCommand too (of another shape): tell them apart by `status`/`isReady`.
  const isIoRedis = typeof candidate?.call === 'function' && typeof candidate.status === 'string';
  const isNodeRedis =
    !isIoRedis && typeof candidate?.sendCommand === 'function' && 'isReady' in candidate;
  if (!isNodeRedis && !isIoRedis) {
    issues.push({
      path: 'client',
      message: 'must be a node-redis (createClient) or ioredis client',
    });
  }
  if (
    options.prefix !== undefined &&
    (typeof options.prefix !== 'string' || /\s/.test(options.prefix))
  ) {
    issues.push({ path: 'prefix', message: 'must be a string without spaces' });
  }
  const timeout = options.commandTimeoutMs;
  if (
    timeout !== undefined &&
    !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)
  ) {
    issues.push({ path: 'commandTimeoutMs', message: 'must be a positive number of milliseconds' });
  }
  if (issues.length > 0) throw new ValidationError(issues, { operation: 'redis' });
  return isIoRedis ? 'ioredis' : 'node-redis';
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
