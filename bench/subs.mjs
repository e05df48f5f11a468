/**
 * Measured child of the subscriptions section (sections/subscriptions.mjs), the runner's
 * process. argv: mode, provider url, JSON settings. Built package, `momo.subscriptions`.
 *
 * `charges`: `n` subscriptions subscribed and their mandates approved by a setup pass
 * (a client without rates; the provider uncapped until its reset), all first due at the
 * same moment T. Then the provider is reset (its caps armed, counters zeroed) and one
 * `runDue({ now: T })` of a client with `createRate` / `lookupRate` is timed: each due
 * subscription charged once. Reports the time, the provider's counters, the store's
 * calls (a counting wrapper; PostgreSQL queries through a counting pool; Redis commands
 * by INFO commandstats) and the runner's memory: RSS sampled every 50 ms, and heap and
 * RSS after a GC once half the charges are in (the baseline: after the setup and a GC).
 *
 * `due`: `total` subscriptions written straight into the store (approved mandates,
 * outside the timing), `due` of them due at T and the rest 10 days later; one pass at
 * T - 1 (none due) and one at T (the due ones charged), each timed, with the store's
 * reads counted.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { MomoClient } from 'momo-partner-sdk';
import { memorySubscriptionStore, Subscriptions } from 'momo-partner-sdk/subscriptions';
import { sdkOptions } from './clients/sdk.mjs';
import { credentials } from './lib/config.mjs';
import {
  commandsBetween,
  countingPool,
  countingStore,
  redisCommands,
} from './lib/counting-store.mjs';
import { askServer, report } from './lib/processes.mjs';

const [mode, url, settingsText] = process.argv.slice(2);
const settings = JSON.parse(settingsText);
const SECRET = 'bench-subscriptions-secret-0123456789';
const DAY = 86_400_000;
const PLAN = { id: 'monthly', amount: '50', currency: 'EUR', every: 'month' };
const payer = (i) => ({ partyIdType: 'MSISDN', partyId: `4673${String(i).padStart(8, '0')}` });

/** The store named by settings.store, its backend counter, and how to close it. */
async function openStore() {
  if (settings.store === 'postgres') {
    const pg = (await import('pg')).default;
    const { createPostgresState } = await import('momo-partner-sdk/postgres');
    const counted = countingPool(new pg.Pool({ ...settings.postgres, max: 20 }));
    const db = createPostgresState(counted.pool, { schema: `bench_subs_${process.pid}` });
    await db.migrate();
    const backend = { read: async () => counted.queries(), reset: async () => counted.reset() };
    const explain = async (now, limit) => {
      const text = `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT key FROM "bench_subs_${process.pid}".subscriptions WHERE due_at IS NOT NULL AND due_at <= $1 ORDER BY due_at, key COLLATE "C" LIMIT $2`;
      const { rows } = await counted.pool.query(text, [now, limit]);
      return rows.map((row) => row['QUERY PLAN']);
    };
    return { store: db.subscriptionStore, backend, explain, close: () => counted.pool.end() };
  }
  if (settings.store === 'redis') {
    const { redisSubscriptionStore } = await import('momo-partner-sdk/redis');
    const { createClient } = await import('redis');
    const client = createClient({ url: settings.redisUrl });
    client.on('error', () => {});
    await client.connect();
    let before = {};
    const backend = {
      read: async () => {
        const between = commandsBetween(before, await redisCommands(client));
        backend.byCommand = between.byCommand;
        return between.total;
      },
      reset: async () => {
        before = await redisCommands(client);
      },
    };
    const store = redisSubscriptionStore(client, { prefix: `bench-subs-${process.pid}:` });
    return { store, backend, close: () => client.quit() };
  }
  return { store: memorySubscriptionStore(), close: async () => {} };
}

/** Runs `work(i)` for i < n, `width` at a time. */
async function pool(n, width, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, width) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

const client = (rates = {}) => new MomoClient({ ...sdkOptions(url, credentials), ...rates });
const MB = 2 ** 20;

async function charges(opened, counter) {
  const { n } = settings;
  const at = Date.now() + DAY; // T: every charge first due then
  const snapshot = () => {
    globalThis.gc?.();
    return { rss: process.memoryUsage.rss(), heap: process.memoryUsage().heapUsed };
  };
  const empty = snapshot(); // before any subscription exists (modules loaded)
  const setup = new Subscriptions(client(), {
    store: opened.store,
    secret: SECRET,
    concurrency: 64,
  });
  await setup.plan(PLAN);
  await pool(n, 64, (i) =>
    setup.subscribe({ key: `member-${i}`, plan: 'monthly', payer: payer(i), startAt: at }),
  );
  const approved = await setup.runDue({ now: Date.now() });
  if (approved.processed !== n || approved.errors.length) {
    throw new Error(
      `setup: ${approved.processed} of ${n} approved, ${approved.errors.length} errors`,
    );
  }
  const momo = client({ createRate: settings.createRate, lookupRate: settings.lookupRate });
  await momo.collection.getAccessToken();
  const subs = new Subscriptions(momo, {
    store: opened.store,
    secret: SECRET,
    concurrency: settings.concurrency,
    ...(settings.waitMs !== undefined ? { waitMs: settings.waitMs } : {}),
  });
  const baseline = snapshot();
  let peak = baseline.rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  let done = 0;
  let middle;
  const onCharge = () => {
    done++;
    if (done === Math.ceil(n / 2)) middle = snapshot();
  };
  await askServer('reset');
  counter.reset();
  await opened.backend?.reset();
  // How late this process's timers ran (the admission stage's spacing rides on them).
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const started = performance.now();
  const result = await subs.runDue({ now: at, onCharge });
  const elapsedMs = performance.now() - started;
  lag.disable();
  clearInterval(sampler);
  const end = snapshot();
  const backend = await opened.backend?.read();
  const store = counter.counts();
  const server = await askServer('stats');
  const perSub = (bytes) => bytes / n;
  return {
    n,
    elapsedMs,
    counts: result.counts,
    processed: result.processed,
    errors: result.errors.length,
    firstError: result.errors[0]?.error,
    server,
    store,
    backend,
    byCommand: opened.backend?.byCommand,
    loopDelayMs: {
      mean: lag.mean / 1e6 - 10,
      p99: lag.percentile(99) / 1e6 - 10,
      max: lag.max / 1e6 - 10,
    },
    memory: {
      emptyRssMB: empty.rss / MB,
      baselineRssMB: baseline.rss / MB,
      midRssMB: middle && middle.rss / MB,
      peakRssMB: peak / MB,
      // Heap after a GC per due subscription: with the store's records (over the process
      // before any subscription existed), and the pass's own (over the set-up process).
      midHeapPerSubKB: middle && perSub(middle.heap - empty.heap) / 1024,
      midPassHeapPerSubKB: middle && perSub(middle.heap - baseline.heap) / 1024,
      endPassHeapPerSubKB: perSub(end.heap - baseline.heap) / 1024,
    },
  };
}

/** A subscription as a store holds one after its mandate was approved, first due at `startAt`. */
function approved(i, startAt, now) {
  return {
    key: `member-${i}`,
    plan: 'monthly',
    payer: payer(i),
    status: 'ACTIVE',
    startAt,
    mandateDays: 365,
    mandate: {
      referenceId: `mandate-${i}`,
      number: 0,
      status: 'APPROVED',
      expiresAt: now + 300 * DAY,
    },
    period: 0,
    nextChargeAt: startAt,
    dueAt: startAt,
    charges: [],
    createdAt: now,
    updatedAt: now,
  };
}

async function due(opened, counter) {
  const { total, due: dueCount } = settings;
  const now = Date.now();
  const at = now + DAY;
  const setupStarted = performance.now();
  await opened.store.putPlan({ ...PLAN, retry: [] });
  const every = Math.floor(total / dueCount); // the due ones spread over the keys
  await pool(total, 32, (i) =>
    opened.store.put(approved(i, i % every === 0 ? at : at + 10 * DAY, now), undefined),
  );
  const setupMs = performance.now() - setupStarted;
  const momo = client();
  await momo.collection.getAccessToken();
  const subs = new Subscriptions(momo, { store: opened.store, secret: SECRET, concurrency: 64 });
  const pass = async (passNow) => {
    counter.reset();
    await opened.backend?.reset();
    const started = performance.now();
    const result = await subs.runDue({ now: passNow });
    const ms = performance.now() - started;
    const backend = await opened.backend?.read();
    return {
      ms,
      processed: result.processed,
      charged: result.counts.successful,
      store: counter.counts(),
      backend,
    };
  };
  const plan = await opened.explain?.(at, 1000); // before the passes: the 1% still due
  await askServer('reset');
  const none = await pass(at - 1);
  const some = await pass(at);
  const server = await askServer('stats');
  return { total, due: dueCount, setupMs, none, some, server, plan };
}

const opened = await openStore();
const counter = countingStore(opened.store);
opened.store = counter.store;
try {
  const result = mode === 'due' ? await due(opened, counter) : await charges(opened, counter);
  await opened.close();
  report({ store: settings.store, ...result });
} catch (error) {
  await opened.close().catch(() => {});
  throw error;
}
