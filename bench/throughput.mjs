/**
 * Measured child: one client (argv: kind, server url, plan as JSON) against the bench
 * server, warmed up (token fetched, connections open, code paths hot), then sequential
 * lookups, N-way lookups and N-way creating calls. Reports ops/s of each.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from './clients/index.mjs';
import { credentials, depositBody } from './lib/config.mjs';
import { report } from './lib/processes.mjs';

const [kind, url, planJson] = process.argv.slice(2);
const { sequentialOps, parallelOps, concurrency } = JSON.parse(planJson);

/** Runs `task` `total` times, at most `concurrency` at once. */
async function parallel(total, concurrency, task) {
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
}

async function opsPerSecond(total, run) {
  const started = performance.now();
  await run();
  return total / ((performance.now() - started) / 1000);
}

const client = await createClient(kind, url, credentials);
// An id the server never accepted reads as settled long ago: a SUCCESSFUL lookup each time.
const knownId = randomUUID();

await parallel(concurrency * 8, concurrency, () => client.lookup(knownId));
await parallel(concurrency * 4, concurrency, () => client.create(depositBody));
for (let i = 0; i < 100; i++) await client.lookup(knownId);

const sequential = await opsPerSecond(sequentialOps, async () => {
  for (let i = 0; i < sequentialOps; i++) await client.lookup(knownId);
});
const lookups = await opsPerSecond(parallelOps, () =>
  parallel(parallelOps, concurrency, () => client.lookup(knownId)),
);
const creates = await opsPerSecond(parallelOps, () =>
  parallel(parallelOps, concurrency, () => client.create(depositBody)),
);
report({ sequential, lookups, creates, rssMB: process.memoryUsage().rss / 2 ** 20 });
