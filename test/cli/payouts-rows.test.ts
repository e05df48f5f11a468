import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { csvLine, readCsvRecords } from '../../src/cli/csv';
import { runCli, useLoopbackSimulator } from './support';

// `payouts` on a 10,000-row file with 50 rows that cannot be paid as written, and the
// repeat guard, as child processes against a loopback simulator that settles at once
// and has no caps: the run's length is the machine's, not the provider's.
const { sim, env } = useLoopbackSimulator({ settleMs: 0, initialBalance: '100000000.00' });
const DAY_MS = 86_400_000;
const ROWS = 10_000;
const NO_HOLDER = '46733123456'; // not an active account holder

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'momo-payouts-rows-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const TRANSFER = '/disbursement/v1_0/transfer';
/** Creating calls the simulator received (transfers). */
const transfersPosted = () =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.startsWith(TRANSFER)).length;

/** A payee who succeeds: not a magic number in any format (they end in 999, as 46733123999). */
const payee = (n: number) => `233${String(n).padStart(6, '0')}999`;

/** The kinds of bad row: the column changed, its value, and what the reason must say. */
const KINDS: { set: Record<string, string>; column: string; says: RegExp }[] = [
  { set: { amount: '-5' }, column: 'amount', says: /must be a positive decimal string/ },
  { set: { amount: '1,000.50' }, column: 'amount', says: /must be a positive decimal string/ },
  { set: { msisdn: 'abc' }, column: 'msisdn', says: /must be an MSISDN/ },
  { set: { amount: '' }, column: 'amount', says: /must be a positive decimal string/ },
  { set: { currency: 'EURO' }, column: 'currency', says: /ISO 4217 code of three capitals/ },
  { set: { currency: 'eur' }, column: 'currency', says: /ISO 4217 code of three capitals/ },
  { set: { key: '' }, column: 'key', says: /must be a non-empty string/ },
  { set: { key: 'repeat' }, column: 'key', says: /is also the key of line \d+/ },
  { set: { amount: '10.505' }, column: 'amount', says: /decimal/ },
  { set: { payeeNote: '<b>thanks</b>' }, column: 'payeeNote', says: /must not contain/ },
];

interface Bad {
  line: number;
  key: string;
  value: string;
  column: string;
  says: RegExp;
}

/** 10,000 rows; every 200th (from the 7th) is bad, the 10 kinds in turn: 50 bad rows. */
async function payroll(name: string): Promise<{ file: string; bad: Bad[] }> {
  const header = ['key', 'msisdn', 'amount', 'currency', 'payeeNote', 'department'];
  const lines = [csvLine(header)];
  const bad: Bad[] = [];
  for (let n = 1; n <= ROWS; n++) {
    const values: Record<string, string> = {
      key: `emp-${String(n).padStart(5, '0')}`,
      msisdn: payee(n),
      amount: `${(n % 50) + 1}.${String(n % 100).padStart(2, '0')}`,
      currency: 'EUR',
      payeeNote: 'November',
      department: n % 2 ? 'ops' : 'sales',
    };
    if (n % 200 === 7) {
      const kind = KINDS[((n - 7) / 200) % KINDS.length] as (typeof KINDS)[number];
      Object.assign(values, kind.set);
      // The repeated key is the row before's (that one is paid, this one REJECTED).
      if (kind.set.key === 'repeat') values.key = `emp-${String(n - 1).padStart(5, '0')}`;
      const value = values[kind.column] ?? '';
      bad.push({ line: n + 1, key: values.key ?? '', value, column: kind.column, says: kind.says });
    }
    lines.push(csvLine(header.map((column) => values[column] ?? '')));
  }
  const file = join(dir, name);
  await writeFile(file, lines.join(''));
  return { file, bad };
}

async function rowsOf(file: string): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const record of readCsvRecords(file)) rows.push(record.values);
  return rows;
}

/** Each test's own state folder: batches of another test are not its repeats. */
let state = '';
beforeEach((context) => {
  state = join(dir, `state-${context.task.id}`);
});

/** `payouts` with the test's state folder, many rows in flight. */
function payouts(file: string, batch: string, more: string[] = [], vars = {}) {
  const args = ['payouts', file, '--batch', batch, '--state-dir', state];
  return runCli([...args, '--concurrency', '64', ...more], { ...env(), ...vars }, 240_000);
}

/** Every bad row REJECTED in `rows` (the results), with its line, column, value and why. */
function expectRejected(rows: Record<string, string>[], bad: Bad[]) {
  const rejected = rows.filter((r) => r.status === 'REJECTED');
  expect(rejected).toHaveLength(bad.length);
  bad.forEach((b, i) => {
    const row = rejected[i] ?? {};
    expect(row.key).toBe(b.key);
    const head = `line ${b.line}: column "${b.column}" (${JSON.stringify(b.value)}): `;
    expect(row.reason?.startsWith(head), `${row.reason} starts with ${head}`).toBe(true);
    expect(row.reason).toMatch(b.says);
  });
}

describe('payouts: bad rows REJECTED, all of them reported; the repeat guard', () => {
  it('10,000 rows, 50 bad: a dry run lists them all, --strict refuses, the run pays 9,950; the same file under a new --batch: refused that day, paid a month later', {
    timeout: 600_000,
  }, async () => {
    const { file, bad } = await payroll('payroll.csv');
    expect(bad).toHaveLength(50);
    expect(new Set(bad.map((b) => b.column))).toEqual(
      new Set(['amount', 'msisdn', 'currency', 'key', 'payeeNote']),
    );

    // A dry run: every bad row listed (the operator fixes them all before paying); every
    // row in its file.
    let before = sim.requests.length;
    const dry = await payouts(file, 'payroll-nov', ['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      '10000 rows: 9950 to send, 0 ended in an earlier run, 50 REJECTED',
    );
    const listed = dry.stdout.split('\n').filter((line) => line.startsWith('  REJECTED line '));
    expect(listed).toHaveLength(50);
    expect(listed[0]).toContain(`REJECTED line ${bad[0]?.line}: column "amount" ("-5"): `);
    expect(dry.stdout).not.toContain('more REJECTED rows');
    expect(sim.requests.length).toBe(before); // nothing sent, no lookup
    const dryRows = await rowsOf(join(dir, 'payroll.dry-run.csv'));
    expect(dryRows).toHaveLength(ROWS);
    expectRejected(dryRows, bad);
    await expect(readFile(join(dir, 'payroll.results.csv'))).rejects.toThrow(); // never written

    // --strict: the file refused, the bad rows counted and the first listed, nothing sent.
    const strict = await payouts(file, 'payroll-nov', ['--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain(
      '50 rows cannot be paid as written (--strict: nothing was sent)',
    );
    expect(strict.stderr).toContain(`REJECTED line ${bad[0]?.line}: column "amount"`);
    expect(strict.stderr).toContain('... and 30 more REJECTED rows');
    expect(sim.requests.length).toBe(before);

    // The run: 9,950 paid, the 50 REJECTED with their reasons, exit 0.
    before = transfersPosted();
    const run = await payouts(file, 'payroll-nov', ['--json']);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.summary).toMatchObject({ total: ROWS, successful: 9950, rejected: 50 });
    expect(summary.problems).toHaveLength(20);
    expect(transfersPosted() - before).toBe(9950);
    const results = await rowsOf(join(dir, 'payroll.results.csv'));
    expect(results).toHaveLength(ROWS);
    expect(results.filter((r) => r.status === 'SUCCESSFUL')).toHaveLength(9950);
    expectRejected(results, bad);
    expect(results.filter((r) => r.status === 'REJECTED').every((r) => r.referenceId === '')).toBe(
      true,
    );

    // The same file under a new --batch the same day: refused, naming the batch that paid it.
    before = sim.requests.length;
    const again = await payouts(file, 'payroll-nov-again');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(
      '9950 of its 9950 rows (the same payee or payer, amount and currency) were paid by batch "payroll-nov"',
    );
    expect(again.stderr).toContain('--allow-repeat');
    expect(sim.requests.length).toBe(before);

    // A month later (MOMO_NOW: the guard's clock), the same rows are December's payroll.
    const monthLater = new Date(Date.now() + 31 * DAY_MS).toISOString();
    before = transfersPosted();
    const december = await payouts(file, 'payroll-dec', ['--json'], { MOMO_NOW: monthLater });
    expect(december.code, december.stderr).toBe(0);
    expect(JSON.parse(december.stdout).summary).toMatchObject({ successful: 9950, rejected: 50 });
    expect(transfersPosted() - before).toBe(9950);
  });

  it('the same rows are the same payee, amount and currency: keys, order, notes and extra columns do not count; other amounts are no repeat', {
    timeout: 120_000,
  }, async () => {
    const header = ['key', 'msisdn', 'amount', 'currency', 'payeeNote', 'memo'];
    const write = async (name: string, rows: string[][]) => {
      const file = join(dir, name);
      await writeFile(file, [header, ...rows].map((row) => csvLine(row)).join(''));
      return file;
    };
    const day = Array.from({ length: 40 }, (_, i) => [payee(500 + i), `${i + 1}.50`, 'EUR']);
    const row = (key: string, [msisdn, amount, currency]: string[], note = 'day 1') => [
      key,
      msisdn ?? '',
      amount ?? '',
      currency ?? '',
      note,
      'x',
    ];
    const first = await write(
      'day-1.csv',
      day.map((r, i) => row(`d1-${i}`, r)),
    );
    const paid = await payouts(first, 'settle-day-1');
    expect(paid.code, paid.stderr).toBe(0);

    // The same payments, reordered, under other keys, notes ("10.5" for "10.50" too): a repeat.
    const reordered = day
      .map((r, i) => row(`again-${i}`, [r[0] ?? '', String(Number(r[1])), 'EUR'], 'again'))
      .reverse();
    const copy = await write('day-1-copy.csv', reordered);
    let before = sim.requests.length;
    const refused = await payouts(copy, 'settle-day-1b');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('40 of its 40 rows');
    expect(refused.stderr).toContain('batch "settle-day-1"');
    const dry = await payouts(copy, 'settle-day-1b', ['--dry-run']);
    expect(dry.code).toBe(2); // the run would be refused: the dry run says so
    expect(dry.stdout).toContain('REFUSED: ');
    expect(dry.stdout).toContain('batch "settle-day-1"');
    expect(sim.requests.length).toBe(before);

    // The day's file fixed and rerun under a new batch with 40 new rows: half of it repeats.
    const more = Array.from({ length: 40 }, (_, i) => [payee(700 + i), '3', 'EUR']);
    const grown = await write('day-1-grown.csv', [
      ...day.map((r, i) => row(`g-${i}`, r)),
      ...more.map((r, i) => row(`n-${i}`, r)),
    ]);
    expect((await payouts(grown, 'settle-day-1c')).code).toBe(2);
    expect(sim.requests.length).toBe(before);

    // The next day's settlement: the same merchants, other amounts: no repeat.
    const next = await write(
      'day-2.csv',
      day.map((r, i) => row(`d2-${i}`, [r[0] ?? '', `${i + 2}`, 'EUR'])),
    );
    before = transfersPosted();
    const day2 = await payouts(next, 'settle-day-2');
    expect(day2.code, day2.stderr).toBe(0);
    expect(transfersPosted() - before).toBe(40);

    // The batch that paid them continues as ever (its own rows are no repeat): nothing sent.
    before = transfersPosted();
    expect((await payouts(first, 'settle-day-1')).code).toBe(0);
    expect(transfersPosted()).toBe(before);

    // --allow-repeat: paid again, as asked.
    const allowed = await payouts(copy, 'settle-day-1b', ['--allow-repeat']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(transfersPosted() - before).toBe(40);

    // A shorter window, two hours later: no longer a repeat.
    const later = new Date(Date.now() + 2 * 3_600_000).toISOString();
    before = transfersPosted();
    const window = await payouts(copy, 'settle-day-1d', ['--repeat-window', '1h'], {
      MOMO_NOW: later,
    });
    expect(window.code, window.stderr).toBe(0);
    expect(transfersPosted() - before).toBe(40);

    const bad = await payouts(copy, 'settle-day-1e', ['--repeat-window', 'a day']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--repeat-window must be a whole number and a unit');
  });

  it('the dry-run estimate counts every lookup: a status lookup per row, an account-holder lookup with --check-account-holder', {
    timeout: 60_000,
  }, async () => {
    const file = join(dir, 'holders.csv');
    const rows = [payee(900), payee(901), payee(902), NO_HOLDER];
    await writeFile(
      file,
      ['key,msisdn,amount,currency', ...rows.map((m, i) => `h${i},${m},${i + 1},EUR`)].join('\n'),
    );
    const rates = ['--create-rate', '2', '--lookup-rate', '1', '--json'];
    const plain = await payouts(file, 'holders', ['--dry-run', ...rates]);
    expect(JSON.parse(plain.stdout).estimate).toEqual({
      seconds: 36, // 4 creates / 2 per s + 4 lookups / 1 per s + 30 s
      formula: '4 creates / 2 per s + 4 lookups / 1 per s + 30 s to settle',
      creates: 4,
      lookups: { status: 4, accountHolder: 0 },
    });
    const checked = await payouts(file, 'holders', [
      '--dry-run',
      '--check-account-holder',
      ...rates,
    ]);
    expect(checked.code, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({ toSend: 3, skipped: 1 });
    expect(JSON.parse(checked.stdout).estimate).toEqual({
      seconds: 39, // 3 creates / 2 per s + (3 status + 4 account-holder) lookups / 1 per s + 30 s
      formula:
        '3 creates / 2 per s + 7 lookups (3 status, 4 account holder) / 1 per s + 30 s to settle',
      creates: 3,
      lookups: { status: 3, accountHolder: 4 },
    });
  });

  it('a row with a blank key has its other columns checked too; a dry run --json lists them all', {
    timeout: 60_000,
  }, async () => {
    const file = join(dir, 'several.csv');
    await writeFile(
      file,
      [
        'key,msisdn,amount,currency',
        ',abc,"1,000.50",EURO',
        ...Array.from({ length: 24 }, (_, i) => `k${i},${payee(950 + i)},-${i},EUR`),
      ].join('\r\n'),
    );
    const before = sim.requests.length;
    const dry = await payouts(file, 'several', ['--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const report = JSON.parse(dry.stdout);
    expect(report).toMatchObject({ rows: 25, rejected: 25, toSend: 0 });
    expect(report.problems).toHaveLength(25);
    expect(report.problems[0]).toEqual({
      line: 2,
      key: '',
      reason:
        'line 2: column "key" (""): must be a non-empty string; column "msisdn" ("abc"): must be an MSISDN: digits only, country code first, no leading + or spaces (e.g. 46733123999); column "amount" ("1,000.50"): must be a positive decimal string such as "100" or "12.50"; column "currency" ("EURO"): must be an ISO 4217 code of three capitals',
    });
    const rows = await rowsOf(join(dir, 'several.dry-run.csv'));
    expect(rows.filter((r) => r.status === 'REJECTED')).toHaveLength(25);
    expect(sim.requests.length).toBe(before);
  });
});
