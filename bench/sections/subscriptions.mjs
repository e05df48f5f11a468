/**
 * Subscriptions (issue 34), `new Subscriptions(momo)` of the built package, the runner in its
 * own process (bench/subs.mjs) against a provider in another (bench/subs-server.mjs:
 * pre-approvals approved at once, requests to pay final `settleMs` after acceptance,
 * creating calls and lookups capped per sliding second with 429 `Retry-After: 1` beyond).
 * Every figure is from this run:
 *
 * a. Under the caps: BENCH_SUBS_CHARGES subscriptions (default 10,000; 1,000 with
 *    BENCH_QUICK), mandates approved before the timed part, all due at the same moment;
 *    one `runDue` of a client with `createRate: 20`, `lookupRate: 100` (the admission
 *    stage paces them; the engine's `concurrency` 200 keeps it full), memory store;
 *    provider caps 20 creates/s and 100 lookups/s. Floor = max(charges / 20, charges / 100)
 *    s. Targets: time <= 1.05x the floor; every charge SUCCESSFUL, none sent twice. Beside
 *    it: the runner's memory (RSS; heap after a GC half-way, per due subscription), its
 *    event-loop delay, and the memory store's calls per charge.
 * b. Store cost per charge: 1,000 charges (200 quick), provider uncapped, settling at once,
 *    for the memory store, PostgreSQL (queries through a counting pool) and Redis (commands,
 *    INFO commandstats), when installed: store calls, backend operations and ms per charge.
 * c. The due index: BENCH_SUBS_DUE_TOTAL subscriptions (default 100,000; 10,000 quick), 1%
 *    due, per store: the store's reads in a pass with none due and in the pass charging the
 *    1%, and their times; PostgreSQL's plan of the due query. Target: keys and records read
 *    <= 1.1 per due subscription (a scan: 100).
 *
 * Part of `npm run bench`; alone, after `npm run build`: `node bench/sections/subscriptions.mjs`.
 */
import { fileURLToPath } from 'node:url';
import { postgresBin, ScratchPostgres } from '../lib/postgres-server.mjs';
import { forkProvider, runMeasured } from '../lib/processes.mjs';
import { startRedis } from '../lib/redis-server.mjs';
import { subscriptionsPlan } from '../lib/subs-plan.mjs';
import { printSubscriptions, subscriptionsCrashes } from './subscriptions-report.mjs';

async function guarded(measure) {
  try {
    return await measure();
  } catch (error) {
    return { error: error.message };
  }
}

/** Runs bench/subs.mjs in `mode` against a fresh provider (its ids are kept across resets). */
async function runChild(node, mode, settings, providerArgs, timeoutMs) {
  const provider = await forkProvider('subs-server.mjs', providerArgs);
  try {
    return await runMeasured('subs.mjs', [mode, provider.url, JSON.stringify(settings)], {
      execPath: node.execPath,
      execArgv: ['--expose-gc'],
      server: provider,
      timeoutMs,
    });
  } finally {
    provider.stop();
  }
}

async function capped(node) {
  const c = subscriptionsPlan.capped;
  const floorMs = Math.max(c.charges / c.createCap, c.charges / c.lookupCap) * 1_000;
  const settings = {
    n: c.charges,
    store: 'memory',
    createRate: c.createRate,
    lookupRate: c.lookupRate,
    concurrency: c.concurrency,
  };
  const args = [c.createCap, c.lookupCap, c.settleMs];
  const run = await runChild(node, 'charges', settings, args, floorMs * 3 + 300_000);
  return { ...c, ...run, floorMs, vsFloor: run.elapsedMs / floorMs };
}

/** The backends of parts b and c: PostgreSQL and Redis of the bench's own, when installed. */
async function backends() {
  const notes = [];
  const out = { kinds: ['memory'], stop: [] };
  if (!postgresBin) notes.push('PostgreSQL skipped: not installed');
  else {
    const postgres = await ScratchPostgres.start();
    out.postgres = postgres.config;
    out.kinds.push('postgres');
    out.stop.push(() => postgres.dispose());
  }
  try {
    const redis = await startRedis();
    out.redisUrl = redis.url;
    out.kinds.push('redis');
    out.stop.push(async () => redis.stop());
  } catch {
    notes.push('Redis skipped: redis-server is not installed');
  }
  return { ...out, notes };
}

async function storeCost(node, b) {
  const perKind = {};
  for (const kind of b.kinds) {
    const settings = {
      n: subscriptionsPlan.storeCharges,
      store: kind,
      concurrency: 64,
      postgres: b.postgres,
      redisUrl: b.redisUrl,
    };
    perKind[kind] = await guarded(() => runChild(node, 'charges', settings, [0, 0, 0], 600_000));
  }
  return { perKind, notes: b.notes };
}

async function dueIndex(node, b) {
  const perKind = {};
  const total = subscriptionsPlan.dueTotal;
  const due = Math.round(total * subscriptionsPlan.dueShare);
  for (const kind of b.kinds) {
    const settings = { total, due, store: kind, postgres: b.postgres, redisUrl: b.redisUrl };
    perKind[kind] = await guarded(() => runChild(node, 'due', settings, [0, 0, 0], 900_000));
  }
  return { total, due, perKind, notes: b.notes };
}

export async function measureSubscriptions(node) {
  const { parts } = subscriptionsPlan;
  const skipped = { skipped: 'not in BENCH_SUBS_PARTS' };
  const result = { node: node.label, capped: skipped, stores: skipped, due: skipped };
  if (parts.includes('a')) result.capped = await guarded(() => capped(node));
  let b;
  try {
    if (parts.includes('b') || parts.includes('c')) b = await backends();
    if (parts.includes('b')) result.stores = await guarded(() => storeCost(node, b));
    if (parts.includes('c')) result.due = await guarded(() => dueIndex(node, b));
  } catch (error) {
    result.stores ??= { error: error.message };
    result.due ??= { error: error.message };
  } finally {
    for (const stop of b?.stop ?? []) await stop().catch(() => {});
  }
  return result;
}

export { subscriptionsTargets } from './subscriptions-report.mjs';
export { printSubscriptions, subscriptionsCrashes };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await measureSubscriptions({
    label: `node ${process.versions.node}`,
    execPath: process.execPath,
  });
  printSubscriptions(result, { alone: true });
  if (subscriptionsCrashes(result).length) process.exitCode = 1;
}
