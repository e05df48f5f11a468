import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSubscriptionStore, memorySubscriptionStore } from 'momo-partner-sdk/subscriptions';
import { afterAll, describe, it } from 'vitest';
import { aYearOn } from './year';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('subscriptions: a year on each store kind (Redis and PostgreSQL in test/redis, test/postgres)', () => {
  it('memorySubscriptionStore: each period charged once, by two runners', async () => {
    await aYearOn(memorySubscriptionStore());
  }, 120_000);

  it('fileSubscriptionStore: each period charged once, by two runners', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'momo-subs-year-'));
    folders.push(dir);
    await aYearOn(fileSubscriptionStore(dir));
  }, 120_000);
});
