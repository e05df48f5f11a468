/**
 * npm run bench: builds the package first (tsup), then measures the built package as
 * partners run it, everything in one run, as ratios against baselines measured in the same
 * run (absolute figures on a shared machine mean little on their own):
 *
 * - throughput: raw fetch, raw node:http, the SDK on its default transport and the SDK
 *   with `fetch: globalThis.fetch`, each in fresh child processes against one loopback
 *   keep-alive server in its own process (bench/server.mjs);
 * - start-up: import, and import + first call, in fresh processes; the cold start of a
 *   single-file bundle of `MomoClient` before and after the drivers left it
 *   (sections/cold-start.mjs);
 * - bundle size of the main and ./testing entries, and which HTTP libraries are in them;
 * - waits at scale: 5,000 / 10,000 / 50,000 deposits awaited at once, an idle wait's
 *   retention, a pending wait keeping its process alive; the in-memory scheduler line;
 * - under the provider's lookup cap: 2,000 waits against 100 lookups/s, without a budget
 *   and with `lookupRate: 90` (sections/rate-limit.mjs);
 * - batches: 2,000 rows under that cap against the floor it sets, 100,000 rows streamed
 *   through fileBatchStore (peak RSS), the same from a CSV file through the `payouts`
 *   command (its peak RSS), per-row cost of each batch store (sections/batch.mjs);
 * - PostgreSQL: the journal's cost per payment beside the in-memory and Redis ones, and the
 *   transactional outbox's cost, COMMIT-to-send latency and relay throughput
 *   (sections/postgres.mjs; skipped, and said so, without PostgreSQL);
 * - subscriptions: 10,000 charges due at once under 20 creates/s and 100 lookups/s against
 *   the floor those caps set (BENCH_SUBS_CHARGES), the runner's memory, each store's cost
 *   per charge, runDue on 100,000 subscriptions with 1% due (sections/subscriptions.mjs);
 * - the targets, PASS/MISS per Node version (never a failing exit code).
 *
 * On this Node and on Node 24 when present (BENCH_NODE24=path overrides its location).
 * BENCH_QUICK=1: a reduced run. BENCH_MAX_CONCURRENCY / BENCH_MAX_SOCKETS: the limits
 * passed to SDK clients. BENCH_VERBOSE=1: children's stderr passed through.
 * Exits 0 unless a measurement crashed.
 */
import { cpus } from 'node:os';
import { limits, nodes, quick } from './lib/config.mjs';
import { startServer } from './lib/processes.mjs';
import { providerPriority } from './lib/provider-priority.mjs';
import {
  printBundles,
  printImports,
  printScheduler,
  printThroughput,
  printWaits,
} from './report.mjs';
import { batchCrashes, measureBatch, printBatch } from './sections/batch.mjs';
import { measureBundles } from './sections/bundle.mjs';
import { measureColdStart, printColdStart } from './sections/cold-start.mjs';
import { measureImports } from './sections/imports.mjs';
import { measurePostgres, postgresCrashes, printPostgres } from './sections/postgres.mjs';
import { measureRateLimit, printRateLimit } from './sections/rate-limit.mjs';
import {
  measureSubscriptions,
  printSubscriptions,
  subscriptionsCrashes,
} from './sections/subscriptions.mjs';
import { measureTelemetry, printTelemetry } from './sections/telemetry.mjs';
import { measureThroughput } from './sections/throughput.mjs';
import { measureScheduler, measureWaits } from './sections/waits.mjs';
import { printTargets } from './targets.mjs';

const started = performance.now();
const { list, skipped } = nodes();
console.log(
  `momo-partner-sdk bench (${quick ? 'BENCH_QUICK' : 'full'} run) on ${list.map((n) => n.label).join(' and ')}, ${cpus().length} cores`,
);
for (const line of skipped) console.log(line);
console.log(
  `SDK clients get maxConcurrency ${limits.maxConcurrency}, maxSockets ${limits.maxSockets} (ignored by SDK versions without them)`,
);
console.log(
  'Server: bench/server.mjs in its own process, node:http keep-alive (65 s idle), default backlog',
);

const crashes = [];
const timings = [];
/** Runs one section and notes how long it took (printed at the end). */
async function timed(name, run) {
  const sectionStarted = performance.now();
  const result = await run();
  timings.push(`${name} ${((performance.now() - sectionStarted) / 1000).toFixed(0)} s`);
  return result;
}
const server = await startServer();
try {
  const bundles = await timed('bundle', measureBundles);
  printBundles(bundles);
  const perNode = [];
  for (const [index, node] of list.entries()) {
    const throughput = await timed(`throughput ${node.label}`, () =>
      measureThroughput(node, server),
    );
    printThroughput(node, throughput);
    const tracing = await timed(`tracing ${node.label}`, () => measureTelemetry(node, server));
    printTelemetry(node, tracing);
    const imports = await timed(`start-up ${node.label}`, () => measureImports(node, server));
    printImports(node, imports);
    const coldStart = await timed(`cold start ${node.label}`, () => measureColdStart(node));
    printColdStart(coldStart);
    if (coldStart.failures.length) crashes.push(`${node.label} cold-start probes`);
    // The biggest wait runs (they only have to complete) on the first Node version only.
    const waits = await timed(`waits ${node.label}`, () =>
      measureWaits(node, server, { big: index === 0 }),
    );
    printWaits(node, waits);
    perNode.push({ throughput, tracing, imports, waits });
    for (const [kind, row] of Object.entries(throughput.rows)) {
      if (row.error) crashes.push(`${node.label} throughput ${kind}`);
    }
    if (imports.failures.length) crashes.push(`${node.label} start-up probes`);
    for (const run of [...waits.runs, waits.idle]) {
      if (run.error) crashes.push(`${node.label} waits`);
    }
  }
  const rateLimit = await timed('lookup cap', () => measureRateLimit(list[0]));
  printRateLimit(rateLimit);
  for (const run of rateLimit.runs) if (run.error) crashes.push(`lookup cap ${run.label}`);
  const batch = await timed('batches', () => measureBatch(list[0]));
  printBatch(batch);
  perNode[0].batch = batch;
  for (const part of batchCrashes(batch)) crashes.push(`batches ${part}`);
  const postgres = await timed('postgres', () => measurePostgres(list[0], server));
  printPostgres(postgres);
  perNode[0].postgres = postgres;
  for (const part of postgresCrashes(postgres)) crashes.push(`postgres ${part}`);
  const subscriptions = await timed('subscriptions', () => measureSubscriptions(list[0]));
  printSubscriptions(subscriptions);
  perNode[0].subscriptions = subscriptions;
  for (const part of subscriptionsCrashes(subscriptions)) crashes.push(`subscriptions ${part}`);
  const scheduler = await timed('scheduler', () => measureScheduler(list[0]));
  printScheduler(scheduler);
  if (scheduler.error) crashes.push('scheduler');
  printTargets(list, perNode, bundles);
} finally {
  server.stop();
}
console.log(`Capped providers (lookup cap, batches, subscriptions): ${providerPriority()}.`);
console.log(
  `\nWhole run ${((performance.now() - started) / 1000).toFixed(0)} s (${timings.join(', ')}).`,
);
if (crashes.length) {
  console.log(`Crashed: ${crashes.join('; ')} (see above).`);
  process.exitCode = 1;
}
