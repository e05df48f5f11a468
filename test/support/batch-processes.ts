import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BatchItem, BatchRecord, BatchReport, BatchStore } from 'momo-partner-sdk';
import type { Simulator } from 'momo-partner-sdk/testing';
import { expect } from 'vitest';
import { until } from '../redis/support/instances';
import type { BatchRunnerInput } from './workers/batch-runner';

export type { BatchRunnerInput, SharedStore } from './workers/batch-runner';

const WORKER = fileURLToPath(new URL('./workers/batch-runner.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

type Message =
  | { type: 'ready' }
  | { type: 'progress'; sent: number }
  | { type: 'report'; report: BatchReport };

/** A child process running the batch (test/support/workers/batch-runner.ts, run by tsx). */
export class BatchProcess {
  /** Items sent in its current run, as its onProgress reports them. */
  sent = 0;
  readonly #child: ChildProcess;
  readonly #ready: Promise<void>;
  readonly #exited: Promise<Error>;
  readonly #progress: (() => void)[] = [];
  #report: ((report: BatchReport) => void) | undefined;

  constructor(input: BatchRunnerInput) {
    this.#child = fork(WORKER, [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#exited = new Promise((resolve) =>
      this.#child.once('exit', (code, signal) => resolve(new Error(`exited (${signal ?? code})`))),
    );
    this.#ready = new Promise((resolve, reject) => {
      this.#child.on('message', (m: Message) => {
        if (m.type === 'ready') resolve();
        if (m.type === 'progress') {
          this.sent = m.sent;
          for (const check of this.#progress) check();
        }
        if (m.type === 'report') this.#report?.(m.report);
      });
      this.#exited.then(reject);
    });
    this.#child.send(input);
  }

  ready(): Promise<void> {
    return this.#ready;
  }

  /** Runs the batch once more; its report, or a rejection if the process dies first. */
  run(): Promise<BatchReport> {
    this.sent = 0;
    const report = new Promise<BatchReport>((resolve, reject) => {
      this.#report = resolve;
      this.#exited.then(reject);
    });
    report.catch(() => {}); // the killed one never reports
    this.#child.send('run');
    return report;
  }

  /** Resolves once the process reports at least `n` items sent in its current run. */
  hasSent(n: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => this.sent >= n && resolve();
      this.#progress.push(check);
      check();
    });
  }

  /** SIGKILL, for real: no clean-up of any kind. */
  async kill(): Promise<void> {
    if (this.#alive()) this.#child.kill('SIGKILL');
    await this.#exited;
  }

  /** Asks it to close its connections and exit (killed if it has not within 5 s). */
  async close(): Promise<void> {
    if (!this.#alive()) return;
    const overdue = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
    this.#child.send('exit');
    await this.#exited;
    clearTimeout(overdue);
  }

  #alive(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }
}

export interface OneKilled {
  /** How many processes run the batch together; the first is killed. */
  processes: number;
  input: BatchRunnerInput;
  /** The first process is SIGKILLed once it reports this many items sent. */
  killAfter: number;
  /** This process's view of the same store (probes whether the dead one's claims ran out). */
  probe: BatchStore;
}

/**
 * Several processes run one batch together; the first is SIGKILLed mid-run; the others
 * finish their runs, then one of them runs the batch again (once the dead one's leases ran
 * out) until it ends. The final report, and the store's records by key.
 */
export async function oneBatchOneKilled(
  scenario: OneKilled,
): Promise<{ report: BatchReport; records: Map<string, BatchRecord> }> {
  const { input, probe } = scenario;
  const runners = Array.from({ length: scenario.processes }, () => new BatchProcess(input));
  try {
    await Promise.all(runners.map((r) => r.ready()));
    const [killed, survivor, ...others] = runners as [
      BatchProcess,
      BatchProcess,
      ...BatchProcess[],
    ];
    const runs = runners.map((r) => r.run());
    await killed.hasSent(scenario.killAfter);
    await killed.kill();
    await expect(runs[0]).rejects.toThrow('SIGKILL');
    const partial = await Promise.all(runs.slice(1));
    expect(killed.sent).toBeGreaterThanOrEqual(scenario.killAfter);
    for (const r of [survivor, ...others]) expect(r.sent).toBeGreaterThan(0); // one batch, shared
    const held = partial.flatMap((report) =>
      report.items.filter((i) => i.reason === 'claimed by another process').map((i) => i.key),
    );
    expect(held.length).toBeGreaterThan(0); // the dead one's, at least
    const keys = [...new Set(held)];

    let report: BatchReport | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      await until(async () => (await claimsLeft(probe, input, keys)) === 0, 30_000);
      report = await survivor.run();
      if (report.summary.unresolved === 0) break;
    }
    const records = new Map<string, BatchRecord>();
    for await (const r of (await probe.open(input.batchId)).records()) records.set(r.key, r);
    return { report: report as BatchReport, records };
  } finally {
    await Promise.all(runners.map((r) => r.close()));
  }
}

/** How many of `keys` another process still holds (a probe claim, released at once). */
async function claimsLeft(store: BatchStore, input: BatchRunnerInput, keys: string[]) {
  const batch = await store.open(input.batchId);
  let held = 0;
  for (const key of keys) {
    const token = await batch.claim(key, 'probe', input.leaseMs);
    if (token === undefined) held++;
    else await batch.release(key, token);
  }
  return held;
}

/** Transfer rows `row-0` ... (externalId the key), each to the payee `payee(i)` names. */
export function transferRows(count: number, payee: (i: number) => string): BatchItem[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `row-${i}`,
    body: {
      amount: `${10 + (i % 7)}.00`,
      currency: 'EUR',
      externalId: `row-${i}`,
      payee: { partyIdType: 'MSISDN', partyId: payee(i) },
    },
  }));
}

const TRANSFERS = '/disbursement/v1_0/transfer';

/**
 * What the server saw of the rows' transfers: each sent row created exactly once, under
 * its report's reference id, every creating request for it under that one id, the report
 * giving the server's status; rows never sent (REJECTED) never reached it. Only what the
 * killed process had in flight may have been sent twice (the re-send answered 409).
 */
export function expectExactlyOnce(sim: Simulator, report: BatchReport, inFlight: number) {
  const created = createdByRow(sim);
  const posts = creatingRequests(sim);
  for (const item of report.items) {
    if (item.status === 'REJECTED') {
      expect(created.has(item.key)).toBe(false); // never sent
      expect(posts.has(item.key)).toBe(false);
      continue;
    }
    const once = created.get(item.key) ?? [];
    expect(once, item.key).toHaveLength(1); // created exactly once
    expect(once[0]?.referenceId).toBe(item.referenceId); // under one reference id
    expect([...(posts.get(item.key)?.referenceIds ?? [])]).toEqual([item.referenceId]);
    expect(item.status).toBe(once[0]?.status); // the server's status
  }
  const counts = [...posts.values()].map((p) => p.count);
  expect(counts.filter((n) => n > 1).length).toBeLessThanOrEqual(inFlight);
  expect(Math.max(...counts)).toBeLessThanOrEqual(2);
}

/** The transfers the server was asked to create (429s left out), by the row's externalId. */
function creatingRequests(sim: Simulator) {
  const byRow = new Map<string, { count: number; referenceIds: Set<string> }>();
  for (const r of sim.requests) {
    if (r.method !== 'POST' || !r.path.startsWith(TRANSFERS) || r.limited) continue;
    const key = (r.body as { externalId: string }).externalId;
    const seen = byRow.get(key) ?? { count: 0, referenceIds: new Set<string>() };
    seen.count++;
    seen.referenceIds.add(r.headers['x-reference-id'] as string);
    byRow.set(key, seen);
  }
  return byRow;
}

/** The transactions the simulator created, by the row's externalId. */
function createdByRow(sim: Simulator) {
  const byRow = new Map<string, typeof sim.transactions>();
  for (const t of sim.transactions) {
    const key = (t.body as { externalId: string }).externalId;
    byRow.set(key, [...(byRow.get(key) ?? []), t]);
  }
  return byRow;
}
