import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BatchRecord, BatchStore } from 'momo-partner-sdk';
import type { BatchItem, BatchReport } from 'momo-partner-sdk/batches';
import { expect } from 'vitest';
import type { ProviderProcess } from './provider-process';
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
  /** This process's view of the same store (reads the records at the kill and at the end). */
  probe: BatchStore;
}

export interface AfterTheKill {
  /** When the SIGKILL was sent (this process's clock, the children's too: one machine). */
  killedAt: number;
  /** Each survivor's report of its one run, and when it arrived. */
  survivors: { report: BatchReport; endedAt: number }[];
  /** The store's records read right after the kill, by key. */
  atKill: Map<string, BatchRecord>;
  /** The store's records at the end, by key. */
  records: Map<string, BatchRecord>;
}

/**
 * Several processes run one batch together, each once (a cron job's run); the first is
 * SIGKILLed mid-run. Each survivor's run goes on until the whole batch is final: the
 * dead one's items are awaited and taken over once its claims lapse. What each survivor
 * reported and when, and the store's records at the kill and at the end.
 */
export async function oneBatchOneKilled(scenario: OneKilled): Promise<AfterTheKill> {
  const { input, probe } = scenario;
  const runners = Array.from({ length: scenario.processes }, () => new BatchProcess(input));
  try {
    await Promise.all(runners.map((r) => r.ready()));
    const [killed, ...survivors] = runners as [BatchProcess, ...BatchProcess[]];
    const runs = runners.map((r) => r.run());
    const ended = runs
      .slice(1)
      .map((run) => run.then((report) => ({ report, endedAt: Date.now() })));
    await killed.hasSent(scenario.killAfter);
    const killedAt = Date.now();
    await killed.kill();
    await expect(runs[0]).rejects.toThrow('SIGKILL');
    const atKill = await recordsOf(probe, input.batchId);
    const reports = await Promise.all(ended);
    expect(killed.sent).toBeGreaterThanOrEqual(scenario.killAfter);
    for (const r of survivors) expect(r.sent).toBeGreaterThan(0); // one batch, shared
    return { killedAt, survivors: reports, atKill, records: await recordsOf(probe, input.batchId) };
  } finally {
    await Promise.all(runners.map((r) => r.close()));
  }
}

async function recordsOf(store: BatchStore, batchId: string): Promise<Map<string, BatchRecord>> {
  const records = new Map<string, BatchRecord>();
  for await (const r of (await store.open(batchId)).records()) records.set(r.key, r);
  return records;
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

export const TRANSFERS = '/disbursement/v1_0/transfer';

/**
 * What the provider saw of the rows' transfers (counted in its own process): each row
 * not REJECTED created exactly once, under its report's reference id, every creating
 * call for it under that one id, the report giving the provider's status; a REJECTED
 * row never reached it. A row sent twice (the same id again, answered 409) is only one
 * the dead process had recorded and not yet marked SENT (it died between its send and
 * the record), at most `inFlight` of them; a row SENT at the kill was never sent again.
 */
export async function expectSentOnce(
  provider: ProviderProcess,
  report: BatchReport,
  atKill: Map<string, BatchRecord>,
  inFlight: number,
): Promise<void> {
  const calls = byKey(await provider.creates(TRANSFERS));
  const created = byKey(await provider.transactions());
  let twice = 0;
  for (const item of report.items) {
    const mine = calls.get(item.key) ?? [];
    if (item.status === 'REJECTED') {
      expect(mine, item.key).toEqual([]); // never sent
      expect(created.has(item.key), item.key).toBe(false);
      continue;
    }
    const id = item.referenceId?.toLowerCase();
    const once = created.get(item.key) ?? [];
    expect(
      once.map((t) => t.referenceId),
      `${item.key}: created once`,
    ).toEqual([id]);
    expect(item.status, item.key).toBe(once[0]?.status); // the provider's status
    expect(new Set(mine.map((c) => c.referenceId)), item.key).toEqual(new Set([id]));
    expect(mine.length, `${item.key}: creating calls`).toBeLessThanOrEqual(2);
    const before = atKill.get(item.key);
    if (before?.outcome?.status === 'SENT') expect(mine, `${item.key} was SENT`).toHaveLength(1);
    if (mine.length === 2) {
      twice++;
      expect(before?.outcome, `${item.key}: sent twice, not in the crash window`).toBeUndefined();
    }
  }
  expect(twice).toBeLessThanOrEqual(inFlight);
}

function byKey<T extends { key: string | undefined }>(list: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const entry of list) {
    if (entry.key === undefined) continue;
    map.set(entry.key, [...(map.get(entry.key) ?? []), entry]);
  }
  return map;
}

/** The default lease: a dead process's claims lapse at most this long after its death. */
export const DEFAULT_LEASE_MS = 15_000;
/**
 * Slack on "within 15 s plus the provider's settle time of the kill", for this loaded
 * 2-core machine (four tsx processes, the provider's, the store's): the survivors poll
 * the dead one's records every second, then send or look up each item taken over. Still
 * far below the 60 s lease of before, which fails this check.
 */
export const MARGIN_MS = 20_000;

/**
 * What every survivor of `oneBatchOneKilled` must show: its one run's report is the
 * whole batch, every item final (`expected` counts, none UNRESOLVED), the same in every
 * survivor's report and in the store, and it arrived within the lease plus the
 * provider's settle time (plus `MARGIN_MS`) of the kill; nothing was sent twice.
 */
export async function expectWholeBatchTakenOver(
  after: AfterTheKill,
  provider: ProviderProcess,
  expected: Partial<BatchReport['summary']>,
  settleMs: number,
): Promise<void> {
  const [first] = after.survivors;
  const report = first?.report as BatchReport;
  const outcome = (r: BatchReport) => r.items.map((i) => [i.key, i.status, i.referenceId]);
  for (const survivor of after.survivors) {
    expect(survivor.report.summary).toMatchObject({ ...expected, unresolved: 0 });
    expect(outcome(survivor.report)).toEqual(outcome(report));
    expect(survivor.endedAt - after.killedAt).toBeLessThan(DEFAULT_LEASE_MS + settleMs + MARGIN_MS);
  }
  await expectSentOnce(provider, report, after.atKill, 8);
  for (const item of report.items) {
    if (item.status === 'REJECTED') continue;
    const record = after.records.get(item.key);
    expect(record?.referenceId, item.key).toBe(item.referenceId);
    expect(record?.outcome?.status, item.key).toBe(item.status);
  }
}
