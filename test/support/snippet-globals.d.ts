/**
 * Names the README's and docs' snippets use without defining them: what the prose around
 * them says they are ("`momo` is your client", your database, your logger...).
 */
import type { ConsentToken, MomoClientOptions, TransferBody } from 'momo-partner-sdk';

declare global {
  /** The simulator of docs/simulator.md (`const sim = createSimulator()`). */
  const sim: import('momo-partner-sdk/testing').Simulator;
  const createSimulator: typeof import('momo-partner-sdk/testing').createSimulator;
  const MomoClient: typeof import('momo-partner-sdk').MomoClient;
  const headers: Record<string, string>;
  /** The test runner's hooks (vitest or Jest globals). */
  function beforeAll(run: () => unknown): void;
  function afterEach(run: () => unknown): void;
  function afterAll(run: () => unknown): void;
  function it(name: string, run: () => Promise<void>, timeoutMs?: number): void;
  /** Your client. */
  const momo: import('momo-partner-sdk').MomoClient;
  /** The shared state of docs/redis.md (`createRedisState(redis)`). */
  const shared: import('momo-partner-sdk/redis').RedisState;
  /** Your client options (as in First payment). */
  const options: MomoClientOptions;
  const body: TransferBody;
  const consent: ConsentToken;
  const referenceId: string;
  const authReqId: string;
  const myStoredUuidV4: string;
  const signal: AbortSignal;
  const order: { id: string; amount: string; msisdn: string };
  /** The rows of a list to pay, as docs/batches.md runs them. */
  const rows: Iterable<import('momo-partner-sdk/batches').BatchItem>;
  /** Reads a payroll file's rows, one at a time (docs/batches.md). */
  function readRows(path: string): AsyncIterator<import('momo-partner-sdk/batches').BatchItem>;
  /** A batch's id and store (docs/batches.md). */
  const id: string;
  const store: import('momo-partner-sdk').BatchStore;
  /** Your Redis client (node-redis or ioredis), as docs/redis.md connects it. */
  const redis: import('momo-partner-sdk/redis').RedisClient;
  /** The batch's secret (docs/batches.md: derived reference ids). */
  const secret: string;
  /** Your books, as docs/reconcile.md reads them: one record per payment sent. */
  const books: AsyncIterable<import('momo-partner-sdk/reconcile').ReconcileRecord>;
  /** Your database. */
  const db: {
    orders: {
      update(id: string, fields: Record<string, unknown>): Promise<void>;
      settle(referenceId: string, status: 'SUCCESSFUL' | 'FAILED'): Promise<void>;
      pending(): Promise<{ referenceId: string }[]>;
    };
  };
  const orders: {
    markPaid(referenceId: string, status: string): Promise<void>;
    settle(referenceId: string, status: string): Promise<void>;
    retryLater(referenceId: string): Promise<void>;
  };
  const onEvent: (event: import('momo-partner-sdk').ConfirmedCallback) => void;
  /** Where an aggregator keeps each merchant's credentials (docs/tenants.md). */
  const vault: {
    credentialsOf(
      tenantId: string,
    ): Promise<import('momo-partner-sdk/tenants').TenantCredentials | undefined>;
  };
  /** The aggregator's tenants (docs/tenants.md: `new Tenants(...)`). */
  const tenants: import('momo-partner-sdk/tenants').Tenants;
  /** An aggregator's orders, per merchant (docs/tenants.md). */
  const merchantOrders: {
    settle(tenant: string, referenceId: string, status: string): Promise<void>;
  };
  function log(...values: unknown[]): void;
  function refused(): unknown;
  function expired(): unknown;
  function badRequest(field: string, issues: unknown): unknown;
  function retryLater(referenceId: string | undefined): unknown;
  const metrics: { histogram(name: string, value: number, tags: Record<string, string>): void };
}
