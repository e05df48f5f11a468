/**
 * `momo-partner-sdk/postgres`: the SDK's durable state in the partner's own PostgreSQL,
 * on the partner's `pg.Pool` (node-postgres 8; an optional peer, never bundled): the
 * journal of operations in flight, a batch store on which several processes run one
 * batch together (leases and fencing tokens), shared access tokens with one refresh
 * lock, and the transactional outbox (`db.outbox`: intents committed in the partner's
 * transaction, sent by relays exactly once), and the subscription store (`db.subscriptionStore`). Everything is durable once its statement commits. docs/postgres.md: the schema,
 * the guarantees beside Redis', running your own migrations (docs/postgres.sql).
 */
import {
  DEFAULT_LEASE_MS,
  type MomoClient,
  type OutboxIntent,
  type OutboxPayment,
} from 'momo-partner-sdk';
import {
  type OutboxRelay,
  type OutboxRelayOptions,
  startOutboxRelay,
} from 'momo-partner-sdk/outbox';
import { PostgresBatchStore } from './batch-store';
import {
  checkPool,
  checkSchema,
  PostgresConnection,
  type PostgresPool,
  type PostgresPoolClient,
  positiveMs,
} from './connection';
import { PostgresJournal } from './journal';
import { OutboxListener } from './listener';
import { migrate } from './migrations';
import { channelOf, enqueue, getPayment, listPayments, pendingPayments } from './outbox';
import { cancelPayment } from './outbox-cancel';
import { PostgresOutboxStore } from './outbox-store';
import { PostgresRateBudget } from './rate-budget';
import { PostgresSubscriptionStore } from './subscription-store';
import { PostgresTokenStore } from './token-store';

export { PostgresBatchStore } from './batch-store';
export {
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresResult,
  PostgresSchemaError,
} from './connection';
export { PostgresJournal } from './journal';
export { PostgresOutboxStore } from './outbox-store';
export { PostgresRateBudget } from './rate-budget';
export { PostgresSubscriptionStore } from './subscription-store';
export { PostgresTokenStore } from './token-store';

/** Options of `createPostgresState(pool, options)`. */
export interface PostgresStateOptions {
  /** The schema the SDK's tables live in (created by `migrate()`). Default `momo`. */
  schema?: string;
  /** How long a finished journal entry stays readable (late callbacks, audits). Default 24 hours. */
  retentionMs?: number;
  /**
   * How long a batch item's or outbox payment's claim lasts without renewal: a process
   * that died holding them gives them up this long after its last renewal (a live one
   * renews at a third of it). Default 15 000: a dead process's work goes on within 15 s.
   */
  leaseMs?: number;
}

/** The transactional outbox: payment intents committed with your own rows, sent by relays. */
export interface PostgresOutbox {
  /**
   * Records a payment intent on `client`, inside your transaction (`pool.connect()`, then
   * `BEGIN`): it is sent only if that transaction commits. The reference id is chosen now
   * and returned at once; the same key and body again return the same one. Bad input, the
   * pool, a client outside a transaction, a key reused with another body: a ValidationError
   * naming the cause, nothing stored, your transaction still usable.
   */
  enqueue(client: PostgresPoolClient, intent: OutboxIntent): Promise<{ referenceId: string }>;
  /** The payment enqueued under `key` (committed), with its `attempts` and `lastError`; or undefined. */
  get(key: string): Promise<OutboxPayment | undefined>;
  /** The committed payments not yet final (QUEUED or SENT), oldest first, with their `attempts` and `lastError`. */
  pending(): Promise<OutboxPayment[]>;
  /**
   * Ends an intent never sent as CANCELLED (`reason`, default `CANCELLED`, kept as its
   * reason); a relay then runs `onSettled` with it. One that may have reached the provider
   * (SENT or final, held by a relay, or a send whose answer is not known) is refused: a
   * ValidationError naming the key, nothing changed (money may move). Already CANCELLED:
   * returned as it is.
   */
  cancel(key: string, reason?: string): Promise<OutboxPayment>;
  /**
   * Every committed payment, whatever its status, in enqueue order (read a page at a
   * time); with `since` (epoch ms), those enqueued at or after it. What `reconcile(momo, books,
   * { outbox: db.outbox })` reads to find the payments the books lack.
   */
  payments(options?: { since?: number }): AsyncIterable<OutboxPayment>;
  /**
   * Starts a relay on this instance (any number of instances may run one): each committed
   * intent is sent once under its reference id, waited to its final status, and delivered
   * to `onSettled` in the transaction that marks it delivered. Woken by the NOTIFY of each
   * commit (one LISTEN connection per state, taken from the pool), polling as the fallback.
   */
  start(momo: MomoClient, options?: OutboxRelayOptions<PostgresPoolClient>): OutboxRelay;
  /** The relays' store (the `OutboxStore` contract), e.g. for `checkOutboxStore` of ./testing. */
  readonly store: PostgresOutboxStore;
}

/** The SDK's state on one pool, ready for `MomoClient`'s options and `new Batches(momo).run`. */
export interface PostgresState {
  journal: PostgresJournal;
  /** Batches several processes run together (`new Batches(momo).run(items, { id, store })`). */
  batchStore: PostgresBatchStore;
  tokenStore: PostgresTokenStore;
  /** The transactional outbox (docs/postgres.md, "Outbox"). */
  outbox: PostgresOutbox;
  /** Subscriptions any number of runners share (`new Subscriptions(momo, { store, secret })`). */
  subscriptionStore: PostgresSubscriptionStore;
  /**
   * One `lookupRate` and `createRate` for every instance (the client option `rateBudget`),
   * with the tenants' scopes (a key's window and all keys' together).
   */
  rateBudget: PostgresRateBudget;
  /** Creates or upgrades the tables in the schema; idempotent, safe on many instances at once. */
  migrate(): Promise<void>;
  /** Stops this state's relays and releases its LISTEN client; the pool stays the partner's. */
  close(): Promise<void>;
}

/**
 * `const db = createPostgresState(pool, { schema: 'momo' }); await db.migrate();` then
 * `new MomoClient({ ...options, tokenStore: db.tokenStore, journal: db.journal })`.
 * A pool that is not a pg Pool, or a bad option: a ValidationError naming it, nothing sent.
 */
export function createPostgresState(
  pool: PostgresPool,
  options: PostgresStateOptions = {},
): PostgresState {
  const db = new PostgresConnection(checkPool(pool), checkSchema(options.schema ?? 'momo'));
  const retentionMs = positiveMs('retentionMs', options.retentionMs ?? 24 * 60 * 60 * 1000);
  const leaseMs = positiveMs('leaseMs', options.leaseMs ?? DEFAULT_LEASE_MS);
  const listener = new OutboxListener(db.pool, channelOf(db.schema));
  const store = new PostgresOutboxStore(db, leaseMs, listener);
  const relays = new Set<OutboxRelay>();
  return {
    journal: new PostgresJournal(db, retentionMs),
    batchStore: new PostgresBatchStore(db, leaseMs),
    tokenStore: new PostgresTokenStore(db),
    subscriptionStore: new PostgresSubscriptionStore(db),
    rateBudget: new PostgresRateBudget(db),
    outbox: {
      enqueue: (client, intent) => enqueue(db, client, intent),
      get: (key) => getPayment(db, key),
      pending: () => pendingPayments(db),
      store,
      cancel: (key, reason) => cancelPayment(db, key, reason),
      payments: (listing) => listPayments(db, listing),
      start: (momo, relayOptions) => {
        const relay = startOutboxRelay(momo, store, relayOptions);
        relays.add(relay);
        return {
          stop: () => relay.stop().finally(() => relays.delete(relay)),
        };
      },
    },
    migrate: () => migrate(db),
    close: async () => {
      await Promise.all([...relays].map((relay) => relay.stop()));
      relays.clear();
      listener.close();
    },
  };
}
