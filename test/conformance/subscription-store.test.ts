/**
 * The exported subscription store suite against the memory and file stores, and against
 * broken stores: each must fail the cases that name what it broke (the Redis and
 * PostgreSQL stores run it in redis.test.ts and postgres.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SubscriptionStore } from 'momo-partner-sdk';
import { fileSubscriptionStore, memorySubscriptionStore } from 'momo-partner-sdk/subscriptions';
import { checkSubscriptionStore, subscriptionStoreCases } from 'momo-partner-sdk/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { itConforms } from '../support/conformance';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('subscription store conformance: memorySubscriptionStore', () => {
  itConforms(subscriptionStoreCases(() => memorySubscriptionStore()));
});

describe('subscription store conformance: fileSubscriptionStore', () => {
  itConforms(
    subscriptionStoreCases(() => {
      const dir = mkdtempSync(join(tmpdir(), 'momo-subs-conformance-'));
      folders.push(dir);
      return fileSubscriptionStore(dir);
    }),
  );
});

describe('the subscription store suite against broken stores', () => {
  /** The memory store with some of its methods replaced. */
  const broken = (change: (real: SubscriptionStore) => Partial<SubscriptionStore>) => () => {
    const real = memorySubscriptionStore();
    return { ...real, ...change(real) } as SubscriptionStore;
  };

  it('fails a store that ignores the version (last write wins): the compare-and-set cases', async () => {
    const report = await checkSubscriptionStore(
      broken((real) => ({
        put: async (subscription) => {
          const current = (await real.get(subscription.key))?.version;
          return real.put(subscription, current);
        },
      })),
    );
    expect(report.failed.map((f) => f.case)).toEqual([
      'creates a subscription once (expected undefined) and gives it back whole, with version',
      'writes by compare-and-set: only the current version wins, a stale one writes nothing',
      'leaves the due index as it was after a refused write',
    ]);
    expect(String(report.failed[0]?.error)).toMatch(
      /ConformanceError: a second create of the key: expected undefined, got 2/,
    );
  });

  it('fails a putInTransaction that runs within() after a write it cannot roll back', async () => {
    const report = await checkSubscriptionStore(
      broken((real) => ({
        putInTransaction: async (subscription, expected, within) => {
          const version = await real.put(subscription, expected);
          if (version !== undefined) await within(undefined);
          return version;
        },
      })),
    );
    expect(report.failed.map((f) => f.case)).toEqual([
      'putInTransaction rolls the write back when within throws, and rethrows',
    ]);
    expect(report.passed).toContain(
      'putInTransaction writes nothing and runs nothing when another writer came first',
    );
  });

  it('skips the putInTransaction cases of a store without it (it is optional)', async () => {
    const report = await checkSubscriptionStore(() => memorySubscriptionStore());
    expect(report.ok).toBe(true);
    expect(report.skipped).toHaveLength(3);
  });

  it('fails a store whose due index gives every indexed key, due or not', async () => {
    const report = await checkSubscriptionStore(
      broken((real) => ({ due: (_now, limit) => real.due(Number.MAX_SAFE_INTEGER, limit) })),
    );
    expect(report.failed.map((f) => f.case)).toEqual([
      "keeps a subscription's tenant; due() and list() select one tenant's (or those of none)",
      'due(now) gives only the keys due at or before now, soonest first, at most limit',
      'keeps the due index on every write: moved later, moved earlier, stopped, restarted',
      'leaves the due index as it was after a refused write',
    ]);
  });
});
