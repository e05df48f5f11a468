import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest, SimTransaction } from 'momo-partner-sdk/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readCsvRecords } from '../../src/cli/csv';
import { type CliRun, runCli, spawnCli, useLoopbackSimulator } from './support';

// `payouts` killed for real (SIGKILL of the child process) at several points of a 300-row
// batch, then run again until it ends, against ONE loopback simulator with the provider's
// caps on: every valid row created exactly once under one reference id, every status the
// server's, invalid rows REJECTED and never sent, the results complete and in input order.
const { sim, env } = useLoopbackSimulator({
  limits: { lookupsPerSecond: 100, createsPerSecond: 100 },
});
const SECRET = 'crash-test-batch-secret-7c41e9d2';
const ROWS = 300;
const TRANSFER = '/disbursement/v1_0/transfer';
const HEADER = ['key', 'name', 'msisdn', 'amount', 'currency', 'memo'];
const RESULT_COLUMNS = ['referenceId', 'status', 'reason', 'financialTransactionId'];

/** What each row's payee makes of it (docs/simulator.md, magic MSISDNs). */
const OUTCOMES = {
  '46733123999': ['SUCCESSFUL', ''],
  '46733123451': ['FAILED', 'APPROVAL_REJECTED'],
  '46733123455': ['FAILED', 'NOT_ENOUGH_FUNDS'],
  '46733123450': ['FAILED', 'INTERNAL_PROCESSING_ERROR'],
} as const;
const PENDING_FOREVER = '46733123453'; // until the test settles it (waits stay pending)
/** Rows the schema refuses (REJECTED, never sent): a local number, a lower-case currency. */
const INVALID = new Map([
  [7, { msisdn: '0244000111', reason: 'column "msisdn" ("0244000111")' }],
  [120, { currency: 'eur', reason: 'column "currency" ("eur")' }],
  [201, { msisdn: '0244000222', reason: 'column "msisdn" ("0244000222")' }],
  [300, { currency: 'usd', reason: 'column "currency" ("usd")' }],
]);
/** Rows whose transfer stays PENDING until the test settles it: how it settles them. */
const PENDING = new Map<number, 'SUCCESSFUL' | 'FAILED'>([
  [140, 'SUCCESSFUL'],
  [141, 'FAILED'],
  [142, 'SUCCESSFUL'],
  [143, 'SUCCESSFUL'],
  [144, 'FAILED'],
]);
const SETTLED_REASON = { code: 'EXPIRED', message: 'The transaction has expired.' };

interface Row {
  values: Record<string, string>;
  /** What the results must say of a valid row. */
  expected?: { status: string; reason: string };
  invalid?: string;
}

/** The 300 rows of batch `prefix`: mixed outcomes, 4 invalid, 5 pending until settled. */
function payroll(prefix: string): Row[] {
  const rows: Row[] = [];
  for (let n = 1; n <= ROWS; n++) {
    const payee =
      n % 10 === 3
        ? '46733123451'
        : n % 10 === 7
          ? '46733123455'
          : n % 23 === 0
            ? '46733123450'
            : '46733123999';
    const invalid = INVALID.get(n);
    const values = {
      key: `${prefix}-${String(n).padStart(3, '0')}`,
      name: `Payee ${n}, "the ${n % 2 ? 'odd' : 'even'}"`,
      msisdn: PENDING.has(n) ? PENDING_FOREVER : (invalid?.msisdn ?? payee),
      amount: `${(n % 40) + 1}.${String(n % 100).padStart(2, '0')}`,
      currency: invalid?.currency ?? 'EUR',
      memo: n % 50 === 0 ? '' : `line\n${n}`,
    };
    const settled = PENDING.get(n);
    const [status, reason] = settled
      ? [settled, settled === 'FAILED' ? SETTLED_REASON.code : '']
      : OUTCOMES[payee as keyof typeof OUTCOMES];
    rows.push({
      values,
      ...(invalid ? { invalid: invalid.reason } : { expected: { status, reason } }),
    });
  }
  return rows;
}

const quoted = (value: string) =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-payouts-crash-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function writeCsv(rows: Row[]): Promise<string> {
  const lines = [HEADER, ...rows.map((r) => HEADER.map((c) => r.values[c] ?? ''))];
  const file = join(dir, 'payroll.csv');
  await writeFile(file, `${lines.map((l) => l.map(quoted).join(',')).join('\r\n')}\r\n`);
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

const externalId = (r: RecordedRequest | SimTransaction) =>
  (r.body as { externalId?: string } | undefined)?.externalId;

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
      expect(sim.requests.filter((r) => JSON.stringify(r.body ?? '').includes(`"${key}"`))).toEqual(
        [],
      );
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

describe('payouts killed with SIGKILL, then run again until it ends', { timeout: 90_000 }, () => {
  it('early, between the send and the record, and while waits are pending: each row paid once', async () => {
    const rows = payroll('crash');
    const cmd = command(await writeCsv(rows), 'crash-1');

    // (1) Early: once the first few creating calls reached the server.
    let from = sim.requests.length;
    await killWhen(cmd, rows, () => creates(from).length >= 5);

    // (2) In the crash window: the server has created the transfer, its 202 is held back
    // (the `delay` fault), and the process dies before it can record that it was sent.
    from = sim.requests.length;
    let armedAt = -1;
    let held: RecordedRequest | undefined;
    await killWhen(cmd, rows, () => {
      held = armedAt < 0 ? undefined : creates(armedAt)[0];
      // Armed once 20 transfers went; again if the one it held was refused by a cap.
      if ((armedAt < 0 && creates(from).length >= 20) || held?.limited) {
        sim.inject({ kind: 'delay', match: `POST ${TRANSFER}`, ms: 10_000 });
        armedAt = sim.requests.length; // the next transfer received takes the fault
        held = undefined;
      }
      const tx = held && sim.transaction(held.headers['x-reference-id'] ?? '');
      return tx !== undefined && tx.createdAt >= (held?.at ?? 0);
    });
    const heldKey = externalId(held as RecordedRequest) ?? '';
    const heldId = held?.headers['x-reference-id'];
    const store = await storeFile();
    expect(store.intents.get(heldKey)).toBe(heldId); // flushed before the send
    expect(store.outcomes.has(heldKey)).toBe(false); // its answer never came

    // (3) Mid-run, while waits are pending: the forever-pending rows sent and looked up.
    from = sim.requests.length;
    await killWhen(cmd, rows, () => pendingRowsAwaited(rows, from));
    settlePending(rows);

    expect(await runUntilDone(cmd)).toBe(1);
    const sends = await expectPaidExactlyOnce(rows);
    // The held transfer was sent again under its id after the crash: 409, looked up.
    expect(sends.get(heldKey)).toBe(2);
    expect(transactionsOf(heldKey)).toHaveLength(1);
  });

  it('the --state-dir folder deleted after a kill: the re-run sends under the same ids, pays nothing twice', async () => {
    const rows = payroll('lost');
    const cmd = command(await writeCsv(rows), 'lost-1');
    const from = sim.requests.length;
    await killWhen(cmd, rows, () => pendingRowsAwaited(rows, from));
    const createdBefore = rows.filter((r) => transactionsOf(r.values.key ?? '').length > 0);
    expect(createdBefore.length).toBeGreaterThan(100);
    await rm(stateDir(), { recursive: true });
    settlePending(rows);

    expect(await runUntilDone(cmd)).toBe(1);
    const sends = await expectPaidExactlyOnce(rows);
    // Every row created before the folder went was sent again under its derived id (409).
    for (const row of createdBefore) expect(sends.get(row.values.key ?? '')).toBe(2);
  });
});
