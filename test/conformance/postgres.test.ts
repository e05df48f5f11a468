/**
 * The exported journal, token store, subscription store and outbox store suites against the PostgreSQL
 * stores (the batch store's run in test/postgres/batch-store.test.ts), and the outbox
 * suite against two broken wrappers of the real store.
 */
import type { OutboxIntent, OutboxPayment, OutboxStore } from 'momo-partner-sdk';
import { createPostgresState, type PostgresPoolClient } from 'momo-partner-sdk/postgres';
import {
  checkOutboxStore,
  journalCases,
  type OutboxStoreUnderTest,
  outboxStoreCases,
  subscriptionStoreCases,
  tokenStoreCases,
} from 'momo-partner-sdk/testing';
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../postgres/support';
import { itConforms } from '../support/conformance';
import { describeWithPostgres } from '../support/postgres-server';

describeWithPostgres('conformance of the PostgreSQL stores (real PostgreSQL)', () => {
  const pg15 = usePostgres();
  const schemaOf = new WeakMap<object, string>();
  const fresh = async () => {
    const state = await pg15.freshState();
    schemaOf.set(state.journal, state.schema);
    schemaOf.set(state.tokenStore, state.schema);
    return state;
  };
  /** Another instance's state over the same tables: its own pool. */
  const again = (store: object) => {
    const schema = schemaOf.get(store) as string;
    return createPostgresState(pg15.newPool(), { schema });
  };

  describe('journal conformance: db.journal', () => {
    itConforms(
      journalCases(async () => (await fresh()).journal, { reopen: (j) => again(j).journal }),
    );
  });

  describe('token store conformance: db.tokenStore', () => {
    itConforms(
      tokenStoreCases(async () => (await fresh()).tokenStore, {
        reopen: (t) => again(t).tokenStore,
      }),
    );
  });

  describe('subscription store conformance: db.subscriptionStore', () => {
    itConforms(
      subscriptionStoreCases(
        async () => {
          const state = await fresh();
          schemaOf.set(state.subscriptionStore, state.schema);
          return state.subscriptionStore;
        },
        { reopen: (s) => again(s).subscriptionStore },
      ),
    );
  });

  /** db.outbox.store with a 1 s lease, and intents enqueued in committed transactions. */
  const outbox = async (): Promise<OutboxStoreUnderTest<PostgresPoolClient>> => {
    const { schema } = await pg15.freshState();
    const db = createPostgresState(pg15.pool(), { schema, leaseMs: 1_000 });
    return {
      store: db.outbox.store,
      enqueue: async (intent: OutboxIntent) => {
        const client = await pg15.pool().connect();
        try {
          await client.query('BEGIN');
          const queued = await db.outbox.enqueue(client, intent);
          await client.query('COMMIT');
          return queued;
        } finally {
          client.release();
        }
      },
    };
  };

  describe('outbox store conformance: db.outbox.store', () => {
    itConforms(outboxStoreCases(outbox));
  });

  describe('the outbox suite against broken stores', () => {
    /** The real store, with some of its methods replaced. */
    const broken = async (
      change: (store: OutboxStore<PostgresPoolClient>) => Partial<OutboxStore<PostgresPoolClient>>,
    ) => {
      const subject = await outbox();
      const real = subject.store;
      const store: OutboxStore<PostgresPoolClient> = {
        leaseMs: real.leaseMs,
        claim: (owner, limit, tenant) => real.claim(owner, limit, tenant),
        markSent: (key, token) => real.markSent(key, token),
        settle: (key, token, outcome, deliver) => real.settle(key, token, outcome, deliver),
        giveBack: (key, token, ms, outcome) => real.giveBack(key, token, ms, outcome),
        renew: (tokens) => real.renew(tokens),
        subscribe: (wake) => real.subscribe(wake),
        ...change(real),
      };
      return { ...subject, store };
    };

    it('fails a store that runs the delivery after its commit, not in it: the rollback case', async () => {
      const report = await checkOutboxStore(() =>
        broken((real) => ({
          settle: async (key, token, outcome, deliver) => {
            let payment: OutboxPayment | undefined;
            const written = await real.settle(key, token, outcome, async (p) => {
              payment = p;
            });
            if (written && deliver && payment) await deliver(payment, undefined as never);
            return written;
          },
        })),
      );
      expect(report.failed.map((f) => f.case)).toEqual([
        'rolls back a settle whose deliver throws; a row given back with its outcome is delivered again',
      ]);
    }, 60_000);

    it("fails a store whose SENT mark ignores the claim's token: the fencing case", async () => {
      const report = await checkOutboxStore(() =>
        broken((real) => {
          const current = new Map<string, string>();
          return {
            claim: async (owner, limit, tenant) => {
              const claims = await real.claim(owner, limit, tenant);
              for (const claim of claims) current.set(claim.key, claim.token);
              return claims;
            },
            markSent: (key) => real.markSent(key, current.get(key) ?? ''),
          };
        }),
      );
      expect(report.failed.map((f) => f.case)).toEqual([
        'fences off every write of a relay whose claim was taken over',
      ]);
      expect(String(report.failed[0]?.error)).toMatch(
        /markSent\(\) under the old token: expected false, got true/,
      );
    }, 60_000);
  });
});
