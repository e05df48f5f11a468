import { join } from 'node:path';
import { fileBatchStore } from '../../batches/file-store';
import type { Journal } from '../../contracts/journal';
import type { SubscriptionStore } from '../../contracts/subscription-store';
import type { PostgresPool } from '../../postgres/connection';
import type { ReconcileStores } from '../../reconcile/types';
import { fileSubscriptionStore } from '../../subscriptions/file-store';
import { CliFailure, ExitCode, UsageError } from '../output';

/** The SDK's state `--from-store` names, opened: what reconcile lists, and how to let go. */
export interface OpenedStore {
  /** How the progress line names it (no password). */
  label: string;
  stores: ReconcileStores;
  /** The state's journal, for the client: a reference id is looked up where it was sent. */
  journal?: Journal;
  /** The state's subscription store (`subscriptions due|run|report --store`). */
  subscriptionStore: SubscriptionStore;
  close(): Promise<void>;
}

const hint = (flagName: string) =>
  `${flagName} takes file:<state dir> (as payouts --state-dir), redis://... or postgres://...`;

/**
 * `--from-store <where>`:
 * - `file:<dir>` (or a plain path): the batches `payouts --state-dir <dir>` ran (their
 *   state is `<dir>/batches`); the CLI keeps no journal on disk, so batches only.
 * - `redis://` or `rediss://` URL (`?prefix=` the key prefix, default `momo:`): the
 *   journal and batch store of `createRedisState`.
 * - `postgres://` or `postgresql://` URL (`?schema=` the schema, default `momo`): the
 *   journal, the outbox and the batch store of `createPostgresState`.
 * The Redis client (node-redis, else ioredis) and pg are the partner's own, loaded only here.
 */
export async function openStore(where: string, flag = '--from-store'): Promise<OpenedStore> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(where)?.[1]?.toLowerCase();
  if (scheme === 'redis' || scheme === 'rediss') return openRedis(where, flag);
  if (scheme === 'postgres' || scheme === 'postgresql') return openPostgres(where, flag);
  const dir = scheme === 'file' ? where.slice('file:'.length) : where;
  if (scheme !== undefined && scheme !== 'file' && scheme.length > 1) {
    throw new UsageError(`Unknown store "${scheme}:": ${hint(flag)}`);
  }
  if (dir === '') throw new UsageError(`Missing the folder of file: (${hint(flag)})`);
  return {
    label: `file:${dir}`,
    stores: { batchStore: fileBatchStore(join(dir, 'batches')) },
    subscriptionStore: fileSubscriptionStore(join(dir, 'subscriptions')),
    close: async () => {},
  };
}

/** The URL without the named parameter, and its value. */
function takeParam(
  where: string,
  name: string,
  flag: string,
): { url: string; value: string | undefined } {
  let url: URL;
  try {
    url = new URL(where);
  } catch {
    throw new UsageError(`${flag}: not a valid URL (${hint(flag)})`);
  }
  const value = url.searchParams.get(name) ?? undefined;
  url.searchParams.delete(name);
  return { url: url.toString(), value };
}

/** The URL as shown: its password replaced. */
function shown(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

async function load<T>(name: string, what: string, flag: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch {
    throw new CliFailure(
      `${flag} ${what} needs the ${name} package installed beside momo-partner-sdk (npm install ${name})`,
      ExitCode.usage,
    );
  }
}

async function openPostgres(where: string, flag: string): Promise<OpenedStore> {
  const { url, value: schema } = takeParam(where, 'schema', flag);
  const pg = await load<{ default: { Pool: new (o: object) => PgPool & PostgresPool } }>(
    'pg',
    'postgres://',
    flag,
  );
  const { createPostgresState } = await import('../../postgres/index');
  const pool = new pg.default.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {}); // an idle client's lost connection: the next query says so
  const state = createPostgresState(pool, schema ? { schema } : {});
  return {
    label: shown(url),
    stores: { journal: state.journal, outbox: state.outbox, batchStore: state.batchStore },
    journal: state.journal,
    subscriptionStore: state.subscriptionStore,
    close: async () => {
      await state.close();
      await pool.end();
    },
  };
}

interface PgPool {
  on(event: 'error', listener: () => void): void;
  end(): Promise<void>;
}

async function openRedis(where: string, flag: string): Promise<OpenedStore> {
  const { url, value: prefix } = takeParam(where, 'prefix', flag);
  const { client, quit } = await redisClient(url, flag);
  const { createRedisState } = await import('../../redis/index');
  const state = createRedisState(client as never, prefix ? { prefix } : {});
  return {
    label: shown(url),
    stores: { journal: state.journal, batchStore: state.batchStore },
    journal: state.journal,
    subscriptionStore: state.subscriptionStore,
    close: async () => {
      await state.close();
      await quit();
    },
  };
}

/** node-redis when installed, else ioredis; connected to `url`. */
async function redisClient(
  url: string,
  flag: string,
): Promise<{ client: unknown; quit(): Promise<unknown> }> {
  try {
    const { createClient } = (await import('redis')) as {
      createClient(o: object): {
        connect(): Promise<unknown>;
        quit(): Promise<unknown>;
        on(e: string, f: () => void): void;
      };
    };
    const client = createClient({ url, socket: { reconnectStrategy: false } });
    client.on('error', () => {});
    await client.connect().catch((error: unknown) => {
      throw unreachable(url, error, flag);
    });
    return { client, quit: () => client.quit() };
  } catch (error) {
    if (error instanceof CliFailure) throw error;
  }
  const ioredis = await load<{ default: new (url: string, o: object) => IoRedis }>(
    'ioredis',
    'redis:// (node-redis or ioredis)',
    flag,
  );
  const client = new ioredis.default(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  await client.connect().catch((error: unknown) => {
    throw unreachable(url, error, flag);
  });
  return { client, quit: () => client.quit() };
}

interface IoRedis {
  connect(): Promise<unknown>;
  quit(): Promise<unknown>;
  on(event: string, listener: () => void): void;
}

function unreachable(url: string, error: unknown, flag: string): CliFailure {
  const reason = error instanceof Error ? error.message : String(error);
  return new CliFailure(`${flag} ${shown(url)}: cannot connect (${reason})`, ExitCode.api);
}
