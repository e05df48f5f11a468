import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvLine } from '../../src/cli/csv';
import { payee, usePayoutsRows } from './payouts-rows-support';

// The repeat guard's "same rows": what makes two files one payment, and what does not.
const { sim, dir, payouts, transfersPosted } = usePayoutsRows();

describe('payouts: bad rows REJECTED, all of them reported; the repeat guard', () => {
  it('the same rows are the same payee, amount and currency: keys, order, notes and extra columns do not count; other amounts are no repeat', {
    timeout: 120_000,
  }, async () => {
    const header = ['key', 'msisdn', 'amount', 'currency', 'payeeNote', 'memo'];
    const write = async (name: string, rows: string[][]) => {
      const file = join(dir(), name);
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
});
