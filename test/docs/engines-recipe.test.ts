import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as bullmq from 'bullmq';
import * as ioredis from 'ioredis';
import * as sdk from 'momo-partner-sdk';
import * as batches from 'momo-partner-sdk/batches';
import * as bullmqEntry from 'momo-partner-sdk/bullmq';
import * as redisEntry from 'momo-partner-sdk/redis';
import type { Simulator } from 'momo-partner-sdk/testing';
import * as testing from 'momo-partner-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithRedis, RedisServer } from '../redis/support/redis-server';
import { collectSnippets, evalSnippet } from '../support/snippets';

// docs/engines.md's BullMQ recipe, run as written on a scratch redis-server: its imports
// handed in (the simulator it creates kept, to count what reached the provider), its
// console compared with the output the page shows; then run again: nothing sent again.
const root = resolve(import.meta.dirname, '../..');
const doc = readFileSync(resolve(root, 'docs/engines.md'), 'utf8');
const section = /^### Recipe: a payroll on BullMQ\n([\s\S]*?)(?=^## )/m.exec(doc)?.[1] ?? '';
const printed = /```text\n([\s\S]*?)```/.exec(section)?.[1]?.trim().split('\n') ?? [];
const recipe = collectSnippets(root).find(
  (s) => s.where.startsWith('docs/engines.md') && s.heading.startsWith('Recipe: a payroll'),
);

describeWithRedis('docs/engines.md BullMQ recipe (real redis-server)', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(() => server?.dispose());

  it('a payroll: one paid, one refused by its payee, a bad row REJECTED; run again, nothing sent again', async () => {
    expect(recipe?.code).toContain('removeOnComplete: true');
    expect(recipe?.code).toContain('paymentProcessor(momo, { secret, store })');
    const run = async () => {
      const logged: string[] = [];
      const sims: Simulator[] = [];
      await evalSnippet(
        recipe as NonNullable<typeof recipe>,
        {
          bullmq,
          ioredis,
          'momo-partner-sdk': sdk,
          'momo-partner-sdk/batches': batches,
          'momo-partner-sdk/bullmq': bullmqEntry,
          'momo-partner-sdk/redis': redisEntry,
          'momo-partner-sdk/testing': {
            ...testing,
            createSimulator: (...args: Parameters<typeof testing.createSimulator>) => {
              const sim = testing.createSimulator(...args);
              sims.push(sim);
              return sim;
            },
          },
        },
        {
          console: { log: (...values: unknown[]) => logged.push(values.join(' ').trim()) },
          process: { env: { REDIS_URL: server.url } },
        },
      );
      return { logged, sim: sims[0] as Simulator };
    };
    const first = await run();
    expect(printed.length).toBe(5);
    expect(first.logged).toEqual(printed);
    const posts = (sim: Simulator) =>
      sim.requests.filter(
        (r) => r.method === 'POST' && r.path.startsWith('/disbursement/v1_0/transfer'),
      );
    expect(posts(first.sim)).toHaveLength(2); // the bad row never reached the provider

    // The same payroll again, on the same Redis (a fresh provider: it would take anything):
    // each job finds its outcome in the store; not one creating call.
    const second = await run();
    expect(second.logged).toEqual(printed);
    expect(posts(second.sim)).toHaveLength(0);
  }, 60_000);
});
