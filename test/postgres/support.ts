import { createPostgresState, type PostgresState } from 'momo-partner-sdk/postgres';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { PostgresServer } from '../support/postgres-server';

let schemas = 0;

/**
 * A pool as node-postgres asks partners to keep one: an idle client whose server went
 * away (the restart tests) emits 'error' on the pool, which must be listened to.
 */
function newPool(server: PostgresServer, max: number): pg.Pool {
  const pool = new pg.Pool({ ...server.config, max });
  pool.on('error', () => {});
  return pool;
}

/** A scratch PostgreSQL for this file (started in beforeAll), a pool on it, fresh schemas. */
export function usePostgres() {
  const held: { server?: PostgresServer; pool?: pg.Pool } = {};
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    held.server = await PostgresServer.start();
    held.pool = newPool(held.server, 10);
    pools.push(held.pool);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await held.server?.dispose();
  });
  const pool = () => held.pool as pg.Pool;
  return {
    server: () => held.server as PostgresServer,
    pool,
    /** Another pool on the same server: another instance of the partner's backend. */
    newPool(): pg.Pool {
      const next = newPool(held.server as PostgresServer, 4);
      pools.push(next);
      return next;
    },
    /** A schema name no other test of this run uses. */
    freshSchema: () => `momo_t${++schemas}_${process.pid}`,
    /** A state on a fresh schema, migrated. */
    async freshState(on: pg.Pool = pool()): Promise<PostgresState & { schema: string }> {
      const schema = `momo_t${++schemas}_${process.pid}`;
      const state = createPostgresState(on, { schema });
      await state.migrate();
      return Object.assign(state, { schema });
    },
  };
}
