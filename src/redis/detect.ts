import { optionError } from './errors';
import type { RedisOptions } from './options';

export type RedisKind = 'node-redis' | 'node-redis-cluster' | 'ioredis' | 'ioredis-cluster';

type Candidate = {
  call?: unknown;
  status?: unknown;
  sendCommand?: unknown;
  isReady?: unknown;
  isOpen?: unknown;
  sSubscribe?: unknown;
  masters?: unknown;
  nodes?: unknown;
  isCluster?: unknown;
  options?: { keyPrefix?: unknown; redisOptions?: { keyPrefix?: unknown } };
};

/**
 * Which library and shape the client is, or a ValidationError saying what is wrong with
 * it (and with the options): refused at construction, never at the first payment.
 */
export function checkClient(client: unknown, options: RedisOptions): RedisKind {
  const kind = kindOf(client);
  const prefix = options.prefix;
  if (prefix !== undefined && (typeof prefix !== 'string' || /[\s{}]/.test(prefix))) {
    throw optionError('prefix', 'must be a string without spaces or braces ({ } are hash tags)');
  }
  const timeout = options.commandTimeoutMs;
  if (
    timeout !== undefined &&
    !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)
  ) {
    throw optionError('commandTimeoutMs', 'must be a positive number of milliseconds');
  }
  return kind;
}

function kindOf(client: unknown): RedisKind {
  const candidate = (client ?? {}) as Candidate;
  if (typeof client !== 'object' || client === null) {
    throw optionError('client', 'must be a node-redis or ioredis client (or cluster)');
  }
  // ioredis (`Redis` and `Cluster`) has `call` and a string `status`; its sendCommand
  // is of another shape than node-redis' one.
  if (typeof candidate.call === 'function' && typeof candidate.status === 'string') {
    const cluster = candidate.isCluster === true || typeof candidate.nodes === 'function';
    const keyPrefix = cluster
      ? (candidate.options?.keyPrefix ?? candidate.options?.redisOptions?.keyPrefix)
      : candidate.options?.keyPrefix;
    if (typeof keyPrefix === 'string' && keyPrefix !== '') {
      // Scripts build key names from their arguments: a prefix added by the driver to
      // KEYS only would split one entry across two names.
      throw optionError(
        'client',
        'ioredis keyPrefix is not supported: remove it and pass the prefix option instead',
      );
    }
    return cluster ? 'ioredis-cluster' : 'ioredis';
  }
  if (typeof candidate.sendCommand === 'function') {
    if ('isReady' in candidate) return 'node-redis';
    if ('isOpen' in candidate && typeof candidate.sSubscribe === 'function') {
      return 'node-redis-cluster';
    }
  }
  if ('isOpen' in candidate && typeof candidate.sendCommand === 'function') {
    throw optionError('client', 'node-redis cluster without sharded pub/sub: use node-redis v4.6+');
  }
  throw optionError(
    'client',
    'must be a node-redis client (createClient or createCluster) or an ioredis client (Redis or Cluster)',
  );
}
