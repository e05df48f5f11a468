import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvLine } from '../../src/cli/csv';
import { payee, rowsOf, usePayoutsRows } from './payouts-rows-support';

// `payouts` on a 10,000-row file with 50 rows that cannot be paid as written, and the
// repeat guard on it; a row bad in several columns.
const { sim, dir, payouts, transfersPosted } = usePayoutsRows();
const DAY_MS = 86_400_000;
const ROWS = 10_000;

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
  const file = join(dir(), name);
  await writeFile(file, lines.join(''));
  return { file, bad };
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
    const dryRows = await rowsOf(join(dir(), 'payroll.dry-run.csv'));
    expect(dryRows).toHaveLength(ROWS);
    expectRejected(dryRows, bad);
    await expect(readFile(join(dir(), 'payroll.results.csv'))).rejects.toThrow(); // never written

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
    const results = await rowsOf(join(dir(), 'payroll.results.csv'));
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

  it('a row with a blank key has its other columns checked too; a dry run --json lists them all', {
    timeout: 60_000,
  }, async () => {
    const file = join(dir(), 'several.csv');
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
    const rows = await rowsOf(join(dir(), 'several.dry-run.csv'));
    expect(rows.filter((r) => r.status === 'REJECTED')).toHaveLength(25);
    expect(sim.requests.length).toBe(before);
  });
});
