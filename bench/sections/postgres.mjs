/**
 * PostgreSQL (issue 26), the built package's 'momo-partner-sdk/postgres' on a scratch
 * PostgreSQL of the bench's own (bench/lib/postgres-server.mjs: initdb and pg_ctl on a temp
 * directory and a free loopback port, as the tests start theirs; skipped, and said so,
 * when PostgreSQL is not installed). Every figure is from this run:
 *
 * a. Journal cost per payment: `record(entry)` then `finish(referenceId, 'SUCCESSFUL')`,
 *    one payment at a time and 16 at a time, for the InMemoryJournal, the Redis journal
 *    (a redis-server of the bench's own; skipped when not installed) and the Postgres
 *    journal; rounds alternate the order; median µs per payment and the median of
 *    same-round ratios against the in-memory journal.
 * b. The transactional outbox (sections/outbox.mjs): "outbox: not built" until the
 *    build's state has `db.outbox`.
 *
 * Part of `npm run bench`; alone, after `npm run build`: `node bench/section.mjs postgres`
 * (BENCH_QUICK=1 for fewer payments).
 */
import { randomUUID } from 'node:crypto';
import { quick } from '../lib/config.mjs';
import { postgresBin, ScratchPostgres } from '../lib/postgres-server.mjs';
import { startRedis } from '../lib/redis-server.mjs';
import { median } from '../lib/stats.mjs';
import { int, ratio, table } from '../lib/table.mjs';
import { measureOutbox, outboxTargets, printOutbox } from './outbox.mjs';

export const postgresPlan = {
  journalPayments: quick ? 1_000 : 3_000,
  journalRounds: quick ? 2 : 4,
  /** Payments in flight at once: one (what a payment waits), 16 (what a busy process pays). */
  journalConcurrency: [1, 16],
};

const KINDS = ['memory', 'redis', 'postgres'];

/** A journal entry as the SDK records one before a creating call leaves. */
const entry = (i) => ({
  product: 'disbursement',
  operation: 'disbursement.deposit',
  referenceId: randomUUID(),
  createdAt: Date.now(),
  baseUrl: 'http://127.0.0.1:1',
  targetEnvironment: 'sandbox',
  tag: `bench-${i}`,
});

/** ms per payment: `n` payments recorded then finished, `concurrency` at a time. */
async function journalRun(journal, n, concurrency) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const e = entry(next++);
        await journal.record(e);
        await journal.finish(e.referenceId, 'SUCCESSFUL', Date.now());
      }
    }),
  );
  return (performance.now() - started) / n;
}

/** Per concurrency: median ms per payment by journal, and median same-round ratio to memory. */
async function journalCost(journals) {
  const kinds = KINDS.filter((kind) => journals[kind]);
  const { journalPayments: n, journalRounds: rounds } = postgresPlan;
  const rows = [];
  for (const concurrency of postgresPlan.journalConcurrency) {
    const ms = Object.fromEntries(kinds.map((kind) => [kind, []]));
    const vsMemory = Object.fromEntries(kinds.map((kind) => [kind, []]));
    await journalRun(journals.memory, 100, concurrency); // warm-up of the code paths
    for (let round = 0; round < rounds; round++) {
      const perRound = {};
      for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
        perRound[kind] = await journalRun(journals[kind], n, concurrency);
        ms[kind].push(perRound[kind]);
      }
      for (const kind of kinds) vsMemory[kind].push(perRound[kind] / perRound.memory);
    }
    rows.push({
      concurrency,
      ms: Object.fromEntries(kinds.map((kind) => [kind, median(ms[kind])])),
      vsMemory: Object.fromEntries(kinds.map((kind) => [kind, median(vsMemory[kind])])),
    });
  }
  return rows;
}

/** Runs `measure`, turning a crash into { error } (the other parts still run). */
async function guarded(measure) {
  try {
    return await measure();
  } catch (error) {
    return { error: error.stack ?? error.message };
  }
}

/** `server`: the bench server (bench/server.mjs), the fast fake provider of the outbox part. */
export async function measurePostgres(node, server) {
  if (!postgresBin) {
    return {
      node: node.label,
      skipped: 'PostgreSQL is not installed (initdb and pg_ctl not found)',
    };
  }
  const { default: pg } = await import('pg');
  const { InMemoryJournal } = await import('momo-partner-sdk');
  const { createPostgresState } = await import('momo-partner-sdk/postgres');
  const notes = [];
  const postgres = await ScratchPostgres.start();
  const pool = new pg.Pool({ ...postgres.config, max: 40 });
  pool.on('error', () => {});
  let redis;
  let redisClient;
  try {
    const journals = { memory: new InMemoryJournal() };
    const db = createPostgresState(pool, { schema: 'bench_journal' });
    await db.migrate();
    journals.postgres = db.journal;
    try {
      redis = await startRedis();
      const { createRedisState } = await import('momo-partner-sdk/redis');
      const { createClient } = await import('redis');
      redisClient = createClient({ url: redis.url });
      redisClient.on('error', () => {});
      await redisClient.connect();
      journals.redis = createRedisState(redisClient, { prefix: 'bench-journal:' }).journal;
    } catch {
      notes.push('Redis journal skipped: redis-server is not installed');
    }
    const journal = await guarded(() => journalCost(journals));
    const outbox = await guarded(() => measureOutbox({ pool, server, createPostgresState }));
    return { node: node.label, postgres: postgresBin, journal, outbox, notes };
  } finally {
    await redisClient?.quit().catch(() => {});
    redis?.stop();
    await pool.end();
    await postgres.dispose();
  }
}

/** The section's targets, as the targets table takes them: [name, measure(result), pass, shown]. */
export function postgresTargets() {
  return outboxTargets().map(([name, measure, pass, shown]) => [
    name,
    (result) => (result?.outbox && !result.outbox.error ? measure(result.outbox) : undefined),
    pass,
    shown,
  ]);
}

/** Names of the parts that crashed. */
export function postgresCrashes(result) {
  return ['journal', 'outbox'].filter((name) => result?.[name]?.error);
}

const us = (ms) => (ms === undefined ? 'n/a' : `${int(ms * 1000)} µs`);

export function printPostgres(result) {
  console.log(`\n## PostgreSQL (${result.node}): 'momo-partner-sdk/postgres' on the built package`);
  if (result.skipped) {
    console.log(`postgres: skipped, ${result.skipped} (apt-get install postgresql)`);
    return;
  }
  console.log(`scratch cluster from ${result.postgres} (loopback, fsync off)`);
  for (const note of result.notes) console.log(note);
  const { journal } = result;
  if (journal.error) console.log(`a. journal: CRASHED ${journal.error.split('\n')[0]}`);
  else {
    const names = { redis: 'Redis', postgres: 'PostgreSQL' };
    const others = KINDS.filter((kind) => kind !== 'memory');
    table(
      `a. Journal cost per payment (record + finish), ${int(postgresPlan.journalPayments)} payments, median of ${postgresPlan.journalRounds} rounds`,
      ['payments in flight', 'in-memory', ...others.flatMap((k) => [names[k], 'vs in-memory'])],
      journal.map((row) => [
        String(row.concurrency),
        us(row.ms.memory),
        ...others.flatMap((kind) => [us(row.ms[kind]), ratio(row.vsMemory[kind])]),
      ]),
    );
  }
  printOutbox(result.outbox);
}
