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
const { sequentialOps, parallelOps, concurrency, warmupOps } = JSON.parse(planJson);

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

/** CPU time (user + system) this process spent per operation of each workload, in µs. */
const cpuPerOp = {};

/**
 * ops/s of `run`, and its CPU µs per op under `name`: on a shared machine the CPU a call
 * costs varies far less than the rate (which also waits for the server and other work).
 */
async function opsPerSecond(name, total, run) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  cpuPerOp[name] = (used.user + used.system) / total;
  return total / (elapsed / 1000);
}

const client = await createClient(kind, url, credentials);
// An id the server never accepted reads as settled long ago: a SUCCESSFUL lookup each time.
const knownId = randomUUID();

// Each workload once at its measured size before any is measured: the figures are a warm
// process's (code optimized, pools grown), not the compiler's work on first use, which a
// process pays once and which counts in its CPU (compiler threads included).
for (let i = 0; i < warmupOps; i++) await client.lookup(knownId);
await parallel(warmupOps, concurrency, () => client.lookup(knownId));
await parallel(warmupOps, concurrency, () => client.create(depositBody));

const sequential = await opsPerSecond('sequential', sequentialOps, async () => {
  for (let i = 0; i < sequentialOps; i++) await client.lookup(knownId);
});
const lookups = await opsPerSecond('lookups', parallelOps, () =>
  parallel(parallelOps, concurrency, () => client.lookup(knownId)),
);
const creates = await opsPerSecond('creates', parallelOps, () =>
  parallel(parallelOps, concurrency, () => client.create(depositBody)),
);
report({
  sequential,
  lookups,
  creates,
  cpuPerOp,
  rssMB: process.memoryUsage().rss / 2 ** 20,
});
