/**
 * One instance of an aggregator's backend in its own process: a MomoClient per tenant,
 * each given `tenantRateBudget(shared.rateBudget, …)` on a shared Redis or PostgreSQL.
 * Driven over IPC by the nested-rate tests.
 */
import { MomoClient } from 'momo-partner-sdk';
import { createPostgresState } from 'momo-partner-sdk/postgres';
import { createRedisState } from 'momo-partner-sdk/redis';
import pg from 'pg';
import { tenantRateBudget } from '../../../src/tenants/budget';
import { connectClient } from '../../redis/support/clients';
import { serveParent } from '../../support/worker';
import type { TenantCredentials } from './partners-provider';

export interface RunnerInit {
  baseUrl: string;
  targetEnvironment: string;
  tenants: TenantCredentials[];
  store: { redisUrl: string; prefix: string } | { postgres: pg.PoolConfig; schema: string };
  createRate: number;
  lookupRate: number;
  globalLimits: { createRate?: number; lookupRate?: number };
  /** Status polling of `wait()` (the bench's big batch waits every deposit). */
  polling?: { initialDelayMs: number; maxDelayMs: number; timeoutMs: number };
}

const clients = new Map<string, MomoClient>();
let closeStore: () => Promise<void> = async () => {};

const deposit = (momo: MomoClient, externalId: string) =>
  momo.disbursement.deposit({
    amount: '10',
    currency: 'EUR',
    externalId,
    payee: { partyIdType: 'MSISDN', partyId: '46733123459' },
  });

const client = (key: string) => {
  const momo = clients.get(key);
  if (!momo) throw new Error(`no tenant ${key}`);
  return momo;
};

serveParent({
  async init(input: RunnerInit) {
    clients.clear();
    await closeStore().catch(() => undefined);
    let shared: import('momo-partner-sdk').SharedRateBudget;
    if ('redisUrl' in input.store) {
      const redis = await connectClient('node-redis', input.store.redisUrl);
      shared = createRedisState(redis.client, { prefix: input.store.prefix }).rateBudget;
      closeStore = () => redis.close();
    } else {
      const pool = new pg.Pool({ ...input.store.postgres, max: 4 });
      pool.on('error', () => {});
      shared = createPostgresState(pool, { schema: input.store.schema }).rateBudget;
      closeStore = () => pool.end();
    }
    for (const tenant of input.tenants) {
      clients.set(
        tenant.subscriptionKey,
        new MomoClient({
          baseUrl: input.baseUrl,
          targetEnvironment: input.targetEnvironment,
          subscriptionKey: tenant.subscriptionKey,
          apiUser: tenant.apiUser,
          createRate: input.createRate,
          lookupRate: input.lookupRate,
          rateBudget: tenantRateBudget(shared, {
            subscriptionKey: tenant.subscriptionKey,
            baseUrl: input.baseUrl,
            globalLimits: input.globalLimits,
          }),
          timeoutMs: 600_000,
          ...(input.polling ? { polling: input.polling } : {}),
        }),
      );
    }
    return {};
  },

  /** Each tenant: `deposits` creating calls and `balances` lookups, all at once. */
  async burst(input: { deposits: number; balances: number }) {
    const calls = [...clients.values()].flatMap((momo) => [
      ...Array.from({ length: input.deposits }, (_, i) => deposit(momo, `burst-${i}`)),
      ...Array.from({ length: input.balances }, () => momo.disbursement.getBalance()),
    ]);
    const settled = await Promise.allSettled(calls);
    const failed = settled.filter((s) => s.status === 'rejected').map((s) => String(s.reason));
    return { ok: settled.length - failed.length, failed: failed.slice(0, 3) };
  },

  /** A token for the tenant first (a balance), so that its next call waits for nothing else. */
  async warm(input: { key: string }) {
    await client(input.key).disbursement.getBalance();
    return {};
  },

  /** `count` deposits of one tenant queued at once (externalId `batch-<i>`). */
  async batch(input: { key: string; count: number }) {
    const momo = client(input.key);
    const settled = await Promise.allSettled(
      Array.from({ length: input.count }, (_, i) => deposit(momo, `batch-${i}`)),
    );
    return { ok: settled.filter((s) => s.status === 'fulfilled').length };
  },

  /** One deposit of one tenant (externalId `single`). */
  async single(input: { key: string }) {
    const accepted = await deposit(client(input.key), 'single');
    return { referenceId: accepted.referenceId };
  },

  /**
   * `count` deposits of one tenant queued at once, each then waited to its final status
   * (its lookups under the overall lookup rate); not awaited: answers at once.
   */
  async bigBatch(input: { key: string; count: number }) {
    const momo = client(input.key);
    for (let i = 0; i < input.count; i++) {
      deposit(momo, `big-${i}`)
        .then((accepted) => accepted.wait())
        .catch(() => undefined);
    }
    return { queued: input.count };
  },

  /** One deposit of one tenant waited to its final status: ms to accepted and to final. */
  async singleTimed(input: { key: string; externalId: string }) {
    const started = Date.now();
    const accepted = await deposit(client(input.key), input.externalId);
    const acceptedMs = Date.now() - started;
    const final = await accepted.wait();
    return { acceptedMs, finalMs: Date.now() - started, status: final.status };
  },

  async close() {
    await closeStore().catch(() => undefined);
    setImmediate(() => process.exit(0));
    return {};
  },
});
