import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest, SimTransaction } from 'momo-partner-sdk/testing';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { readCsvRecords } from '../../src/cli/csv';
import {
  csvText,
  HEADER,
  PENDING,
  PENDING_FOREVER,
  ROWS,
  type Row,
  SETTLED_REASON,
} from './payouts-crash-rows';
import { type CliRun, runCli, spawnCli, useLoopbackSimulator } from './support';

const SECRET = 'crash-test-batch-secret-7c41e9d2';
export const TRANSFER = '/disbursement/v1_0/transfer';
const RESULT_COLUMNS = ['referenceId', 'status', 'reason', 'financialTransactionId'];

export const externalId = (r: RecordedRequest | SimTransaction) =>
  (r.body as { externalId?: string } | undefined)?.externalId;

/**
 * ONE loopback simulator with the provider's caps on, for every kill and re-run of a test
 * file; each test in a folder of its own. The commands, kills and checks of the crash tests.
 */
export function useCrashRuns() {
  const { sim, env } = useLoopbackSimulator({
    limits: { lookupsPerSecond: 100, createsPerSecond: 100 },
  });

  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'momo-payouts-crash-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function writeCsv(rows: Row[]): Promise<string> {
    const file = join(dir, 'payroll.csv');
    await writeFile(file, csvText(rows));
    return file;
  }

  const stateDir = () => join(dir, 'state');
  const outFile = () => join(dir, 'payroll.results.csv');

  /** The command, the same every run: the caps leave room for the CLI's own rates. */
  function command(file: string, batch: string): [string[], Record<string, string>] {
    const flags = ['--state-dir', stateDir(), '--concurrency', '16'];
    const rates = ['--create-rate', '90', '--lookup-rate', '90', '--json'];
    return [
      ['payouts', file, '--batch', batch, ...flags, ...rates],
      { ...env(), MOMO_BATCH_SECRET: SECRET },
    ];
  }

  /** Creating calls (transfers) the simulator received from request number `from` on. */
  const creates = (from = 0): RecordedRequest[] =>
    sim.requests.slice(from).filter((r) => r.method === 'POST' && r.path.startsWith(TRANSFER));

  /**
   * Starts the command, waits (polling, no sleep) until `ready()` holds, then kills the
   * process with SIGKILL, and checks the results file it leaves. A process that ends by
   * itself first fails the test.
   */
  async function killWhen(
    [args, vars]: [string[], Record<string, string>],
    rows: Row[],
    ready: () => boolean,
  ): Promise<void> {
    const run = await spawnCli(args, vars);
    let ended: CliRun | undefined;
    void run.exited.then((result) => {
      ended = result;
    });
    try {
      await vi.waitFor(
        () => {
          if (ended) throw new Error(`ended before the kill point: ${JSON.stringify(ended)}`);
          if (!ready()) throw new Error('kill point not reached');
        },
        { timeout: 20_000, interval: 5 },
      );
    } finally {
      run.child.kill('SIGKILL'); // for real: no handler of the CLI runs
    }
    const killed = await run.exited;
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    await expectResultsComplete(rows);
  }

  /** The same command run again until it exits 0 (3 runs at most); how many it took. */
  async function runUntilDone(cmd: [string[], Record<string, string>]): Promise<number> {
    for (let runs = 1; runs <= 3; runs++) {
      const run = await runCli(...cmd, 40_000);
      if (run.code === 0) return runs;
      expect([5, 3], run.stderr).toContain(run.code); // pending or stopped: run again
    }
    throw new Error('the batch did not end in 3 runs');
  }

  /** The simulator's transactions of a row, by the externalId the row sends (its key). */
  const transactionsOf = (key: string) => sim.transactions.filter((tx) => externalId(tx) === key);

  /** Waits until every PENDING row has been looked up at least once since request `from`. */
  function pendingRowsAwaited(rows: Row[], from: number): boolean {
    const pending = rows.filter((r) => r.values.msisdn === PENDING_FOREVER);
    const lookedUp = new Set(
      sim.requests
        .slice(from)
        .filter((r) => r.method === 'GET' && r.path.startsWith(`${TRANSFER}/`))
        .map((r) => r.path.slice(TRANSFER.length + 1)),
    );
    return pending.every((r) => {
      const [tx] = transactionsOf(r.values.key ?? '');
      return tx !== undefined && lookedUp.has(tx.referenceId);
    });
  }

  /** Settles the forever-pending rows' transfers as PENDING says (the payees decide). */
  function settlePending(rows: Row[]): void {
    rows.forEach((row, index) => {
      const status = PENDING.get(index + 1);
      if (!status) return;
      const [tx] = transactionsOf(row.values.key ?? '');
      if (!tx) throw new Error(`${row.values.key} was not created before the kill`);
      if (status === 'SUCCESSFUL') sim.settle(tx.referenceId, status);
      else sim.settle(tx.referenceId, status, SETTLED_REASON);
    });
  }

  /** The batch's store file: its intents' reference ids, and the keys with an outcome. */
  async function storeFile(): Promise<{ intents: Map<string, string>; outcomes: Set<string> }> {
    const folder = join(stateDir(), 'batches');
    const [name] = await readdir(folder);
    const text = await readFile(join(folder, name ?? ''), 'utf8');
    const intents = new Map<string, string>();
    const outcomes = new Set<string>();
    for (const line of text.split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as { type: string; key: string; referenceId?: string };
      if (entry.type === 'intent') intents.set(entry.key, entry.referenceId ?? '');
      else outcomes.add(entry.key);
    }
    return { intents, outcomes };
  }

  /**
   * The results file as a crash leaves it: every row, in input order, every column; a
   * status it shows as final is the server's.
   */
  async function expectResultsComplete(rows: Row[]) {
    const results: { header: readonly string[]; values: Record<string, string> }[] = [];
    for await (const record of readCsvRecords(outFile())) results.push(record);
    expect(results[0]?.header).toEqual([...HEADER, ...RESULT_COLUMNS]);
    expect(results.map((r) => r.values.key)).toEqual(rows.map((r) => r.values.key));
    for (const { values } of results) {
      if (values.status === 'SUCCESSFUL' || values.status === 'FAILED') {
        expect(sim.transaction(values.referenceId ?? '')?.status, values.key).toBe(values.status);
      }
    }
    return results;
  }

  /**
   * What every crash and re-run must leave: each valid row created exactly once on the
   * server, every creating call of its key under that one reference id, the results'
   * status the server's final one; invalid rows REJECTED, nothing ever sent for them; the
   * results complete, in input order, every input column kept. Returns the creating calls
   * made per key (re-sends included).
   */
  async function expectPaidExactlyOnce(rows: Row[]): Promise<Map<string, number>> {
    const results = await expectResultsComplete(rows);
    const sends = new Map<string, number>();
    const posts = creates();
    rows.forEach((row, index) => {
      const key = row.values.key ?? '';
      const out = results[index]?.values ?? {};
      for (const column of HEADER) expect(out[column], `${key} ${column}`).toBe(row.values[column]);
      const sent = posts.filter((r) => externalId(r) === key);
      if (row.invalid) {
        expect(out, key).toMatchObject({ status: 'REJECTED', referenceId: '' });
        expect(out.reason).toContain(row.invalid);
        expect(
          sim.requests.filter((r) => JSON.stringify(r.body ?? '').includes(`"${key}"`)),
        ).toEqual([]);
        return;
      }
      const created = transactionsOf(key);
      expect(created, `${key}: created exactly once`).toHaveLength(1);
      const [tx] = created as [SimTransaction];
      expect(out.referenceId, key).toBe(tx.referenceId);
      expect(new Set(sent.map((r) => r.headers['x-reference-id'])), key).toEqual(
        new Set([tx.referenceId]),
      );
      expect([out.status, out.reason], key).toEqual([tx.status, tx.reason?.code ?? '']);
      if (row.expected)
        expect([out.status, out.reason], key).toEqual([row.expected.status, row.expected.reason]);
      if (tx.status === 'SUCCESSFUL')
        expect(out.financialTransactionId).toBe(tx.financialTransactionId);
      sends.set(key, sent.filter((r) => !r.limited).length);
    });
    expect(results).toHaveLength(ROWS);
    const names = await readdir(dir);
    expect(names.filter((name) => name.startsWith('payroll.results.csv'))).toEqual([
      'payroll.results.csv',
    ]);
    return sends;
  }

  return {
    sim,
    writeCsv,
    stateDir,
    command,
    creates,
    killWhen,
    runUntilDone,
    transactionsOf,
    pendingRowsAwaited,
    settlePending,
    storeFile,
    expectPaidExactlyOnce,
  };
}
