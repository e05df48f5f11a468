/**
 * Batches (issue 25), `momo.batches.run` of the built package against a provider in its
 * own process (bench/batch-server.mjs: transfer creates and lookups counted, lookups
 * capped per sliding second with 429 `Retry-After: 1` beyond, each transfer final a fixed
 * settle time after acceptance). Every figure is from this run:
 *
 * a. Under the lookup cap: 2,000 rows (1,000 with BENCH_QUICK), memoryBatchStore, client
 *    `lookupRate: 90`, provider cap 100/s, settle 2 s; creating calls unpaced (the lookup
 *    budget is the bound). Floor = rows / lookupRate + settle (one lookup per row, each
 *    within the client's budget, the last row settling `settle` after it is sent);
 *    rows / 100 + settle (the provider's own cap) printed beside it. Targets: time <= 1.08x
 *    the floor, lookups refused <= 1%, lookups per row <= 1.05.
 * b. Streamed: 100,000 rows (10,000 with BENCH_QUICK) from a re-readable async source
 *    generating them, fileBatchStore in a temp folder (on /dev/shm when present, or
 *    BENCH_BATCH_DIR: see streamBase), a provider settling at once, no
 *    cap: completes, peak RSS growth (sampled every 50 ms) < 300 MB; rows/s.
 * c. From a CSV: the `payouts` command (dist/cli.js) paying a 100,000-row file (10,000
 *    quick; in the same folder as b) against the settle-at-once provider, its resident
 *    memory sampled from outside every 50 ms; growth = its peak less the peak of the same
 *    command paying a 1-row file (start-up, modules, client). Target < 300 MB; rows/s.
 * d. Store cost: 5,000 rows (1,000 quick) against the settle-at-once provider, per
 *    store (memoryBatchStore, fileBatchStore, the Redis store of 'momo-partner-sdk/redis'
 *    when the build has one and redis-server is installed), rounds alternating the order;
 *    median ms per row and its ratio to memory.
 *
 * Part of `npm run bench`; alone, after `npm run build`: `node bench/sections/batch.mjs`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { batchPlan } from '../lib/batch-plan.mjs';
import { redisBatchStoreMissing } from '../lib/batch-stores.mjs';
import { canSampleRss, runFiles, runPayouts, writePayoutsCsv } from '../lib/payouts-csv.mjs';
import { forkProvider, runMeasured } from '../lib/processes.mjs';
import { startRedis } from '../lib/redis-server.mjs';
import { median } from '../lib/stats.mjs';
import { batchCrashes, printBatch } from './batch-report.mjs';

/** Runs the child `batch.mjs` in `mode` against `provider`. */
function runBatch(node, provider, mode, settings, execArgv = []) {
  const all = { concurrency: batchPlan.concurrency, ...settings };
  return runMeasured('batch.mjs', [mode, provider.url, JSON.stringify(all)], {
    execPath: node.execPath,
    execArgv,
    server: provider,
    timeoutMs: 600_000,
  });
}

/** Runs `measure`, turning a crash into { error } (the other parts still run). */
async function guarded(measure) {
  try {
    return await measure();
  } catch (error) {
    return { error: error.message };
  }
}

async function capped(node) {
  const { rows, cap, lookupRate, settleMs } = batchPlan.capped;
  const provider = await forkProvider('batch-server.mjs', [cap, settleMs]);
  try {
    const run = await runBatch(node, provider, 'capped', { rows, lookupRate });
    const { served, refused } = run.server;
    const floorMs = (rows / lookupRate) * 1_000 + settleMs;
    return {
      ...run,
      ...batchPlan.capped,
      floorMs,
      providerFloorMs: (rows / cap) * 1_000 + settleMs,
      vsFloor: run.elapsedMs / floorMs,
      refusedShare: refused / Math.max(1, served + refused),
      lookupsPerRow: served / rows,
    };
  } finally {
    provider.stop();
  }
}

/**
 * Where the streamed run's fileBatchStore lives: BENCH_BATCH_DIR, else a tmpfs (/dev/shm)
 * when there is one. The store flushes each intent (fdatasync, synchronous) before its
 * send: on a disk that bounds the run at one flush per row (about 3 ms here), which part
 * c measures; b is about holding 100,000 rows in bounded memory.
 */
const streamBase = process.env.BENCH_BATCH_DIR || (existsSync('/dev/shm') ? '/dev/shm' : tmpdir());

async function streamed(node) {
  const provider = await forkProvider('batch-server.mjs', [0, 0]);
  const dir = mkdtempSync(join(streamBase, 'momo-bench-batch-'));
  try {
    const rows = batchPlan.streamRows;
    const settings = { rows, store: 'file', dir, sampleRss: true };
    const run = await runBatch(node, provider, 'stream', settings, ['--expose-gc']);
    return { ...run, dir: streamBase, rowsPerSecond: rows / (run.elapsedMs / 1_000) };
  } finally {
    provider.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function fromCsv(node) {
  if (!canSampleRss()) return { skipped: 'no /proc here: the CLI child memory cannot be read' };
  const provider = await forkProvider('batch-server.mjs', [0, 0]);
  const dir = mkdtempSync(join(streamBase, 'momo-bench-csv-'));
  const { concurrency, streamRows: rows } = batchPlan;
  try {
    const one = runFiles(dir, 'one');
    await writePayoutsCsv(one.file, 1);
    const baseline = await runPayouts(node, provider, { ...one, concurrency });
    const all = runFiles(dir, 'all');
    await writePayoutsCsv(all.file, rows);
    await provider.reset();
    const run = await runPayouts(node, provider, { ...all, concurrency });
    return {
      ...run,
      rows,
      dir: streamBase,
      baselineMB: baseline.peakMB,
      peakRssGrowthMB: run.peakMB - baseline.peakMB,
      rowsPerSecond: rows / (run.elapsedMs / 1_000),
      server: await provider.stats(),
    };
  } finally {
    provider.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function stores(node) {
  const notes = [];
  const kinds = ['memory', 'file'];
  let redis;
  const missing = await redisBatchStoreMissing();
  if (missing) notes.push(`Redis store skipped: ${missing}`);
  else {
    try {
      redis = await startRedis();
      kinds.push('redis');
    } catch {
      notes.push('Redis store skipped: redis-server is not installed');
    }
  }
  const provider = await forkProvider('batch-server.mjs', [0, 0]);
  const dir = mkdtempSync(join(tmpdir(), 'momo-bench-stores-'));
  const perRow = Object.fromEntries(kinds.map((kind) => [kind, []]));
  try {
    const rows = batchPlan.storeRows;
    for (let round = 0; round < batchPlan.storeRounds; round++) {
      for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
        const settings = { rows, store: kind, dir, redisUrl: redis?.url };
        const run = await runBatch(node, provider, 'store', settings);
        if (run.summary.successful !== rows) throw new Error(`${kind}: not every row paid`);
        perRow[kind].push(run.elapsedMs / rows);
      }
    }
  } finally {
    provider.stop();
    redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const msPerRow = Object.fromEntries(kinds.map((kind) => [kind, median(perRow[kind])]));
  return { msPerRow, notes };
}

export async function measureBatch(node) {
  return {
    node: node.label,
    capped: await guarded(() => capped(node)),
    streamed: await guarded(() => streamed(node)),
    csv: await guarded(() => fromCsv(node)),
    stores: await guarded(() => stores(node)),
  };
}

export { batchTargets } from './batch-report.mjs';
export { batchCrashes, batchPlan, printBatch };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await measureBatch({
    label: `node ${process.versions.node}`,
    execPath: process.execPath,
  });
  printBatch(result, { alone: true });
  if (batchCrashes(result).length) process.exitCode = 1;
}
