import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_HOLDER, payee, usePayoutsRows } from './payouts-rows-support';

// The dry run's estimate of a run's length: every lookup it will make counted.
const { dir, payouts } = usePayoutsRows();

describe('payouts: bad rows REJECTED, all of them reported; the repeat guard', () => {
  it('the dry-run estimate counts every lookup: a status lookup per row, an account-holder lookup with --check-account-holder', {
    timeout: 60_000,
  }, async () => {
    const file = join(dir(), 'holders.csv');
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
});
